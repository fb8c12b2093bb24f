// The scope display images drawn on the GPU (ImagePixels.h's pixels, ScopeOverlay.h's tables
// applied), from the counts the scope pass left in device memory, into RGBA device memory.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "ImagePixels.h"
#include "ScopeOverlay.h"

namespace cs::cuda {

struct ScopeImageJob {
    ScopeImageKind kind = ScopeImageKind::Histogram;
    ScopeLayout layout;
    uint8_t* d_out = nullptr;            // layout.width x layout.height RGBA, rows `pitch` bytes apart
    size_t pitch = 0;
    const int32_t* d_overlayIndex = nullptr;   // ScopeOverlay::index and ::tables on the device
    const uint8_t* d_overlayTables = nullptr;
    TraceHue hues[4]{};
    WaveShade wave;
    VectorShade vector;
    const uint16_t* d_columns = nullptr;       // waveform and parade counts (ColumnCounts.h)
    const uint32_t* d_vectorscope = nullptr;
    const uint32_t* d_histY = nullptr;         // levels bins
    const uint32_t* d_histRgb = nullptr;       // 3 x 256
    int levels = 256;
    bool histogramLog = false;
    double histogramGain = 1.0;
    int* d_tops = nullptr;                     // histogram scratch: 4 x plot.width ints
};

// Enqueues the kernels drawing one image (two for the histogram: bar tops, then pixels).
cudaError_t drawScopeImage(const ScopeImageJob& job, cudaStream_t stream);

}  // namespace cs::cuda
