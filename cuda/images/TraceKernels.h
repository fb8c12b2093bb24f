// Scope traces into RGBA images (GL textures through surfaces, or device memory), from the
// counts the scope pass left in device memory; texel rules in TraceTexels.h. Also the host
// reference that draws the same texels from a ScopeResults.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/filters/FilterKernels.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs::cuda {

struct TraceSources {
    const uint32_t* d_histY = nullptr;      // levels
    const uint32_t* d_histRgb = nullptr;    // 3 x 256
    const uint16_t* d_columns = nullptr;    // waveform and parade counts (ColumnCounts.h)
    const uint32_t* d_vectorscope = nullptr;
    int width = 0, height = 0, levels = 256;
    // The vectorscope's hue by position (TraceTexels.h's VectorscopeStyle, colour from the spec).
    double kr = 0.2126, kb = 0.0722, chromaScale = 224.0;
};

// TraceSources' matrix weights and chroma scale for a stream's matrix, range and depth.
void setTraceColourSpace(TraceSources& s, Matrix matrix, Range range, int bitDepth);

enum class TraceKind { Histogram, Waveform, Parade, Vectorscope };

// d_scratch: two words of device memory (the histogram's largest bins).
cudaError_t renderTrace(TraceKind kind, const TraceSources& src, const ScopeSpec& spec, uint32_t* d_scratch, int texW, int texH,
                        const ImageSink& out, cudaStream_t stream);

// The same texels on the host from `r`'s counts (for tests and CPU-only callers).
void referenceTrace(TraceKind kind, const ScopeResults& r, const ScopeSpec& spec, int texW, int texH, RgbaImage& out);

}  // namespace cs::cuda
