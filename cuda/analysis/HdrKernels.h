// HDR light levels on the GPU (core/Hdr.h): the histogram of max(R', G', B') codes that the
// CPU engine counts too, shaped like CUB's primitives (explicit stream, d_ output), and the
// engine's per-frame pass around it (a device buffer, the copy back, the stats on the host
// from the same core function as the CPU engine's, so both give identical numbers).
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/CudaHandle.h"
#include "cuda/scope/PixelGroups.h"
#include "core/Frame.h"
#include "core/Hdr.h"
#include "core/PixelAccess.h"
#include "core/Status.h"

namespace cs::cuda {

// Zeroes d_counts (`levels` words) and counts each of the width x height pixels of `src`
// (device planes) once under hdrMaxCode(toRgbNative, ...) (Y'CbCr, samples masked to
// levels - 1 as the CPU engine reads them) or max(R, G, B) as stored (RGB). Async on `stream`.
cudaError_t hdrMaxCodeHistogram(const PixelSource& src, int width, int height, const YuvToRgb& toRgbNative, int levels,
                                uint32_t* d_counts, cudaStream_t stream);

// The CUDA engine's HDR step for one frame (owned by the engine; one thread, its stream).
class HdrPass {
public:
    // Queues the count when `color`'s transfer is PQ or HLG and `wanted`; else does nothing.
    Status enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, bool wanted, cudaStream_t stream);
    // Queues the copy of the counts into out.maxCodes (before the stream's completion event).
    Status download(HdrStats& out, cudaStream_t stream);
    // After the stream completed: fills `out` from its counts (core/Hdr.h's finishHdrStats).
    void finish(HdrStats& out) const;

private:
    DeviceBuffer counts_;
    bool queued_ = false;
    Transfer transfer_ = Transfer::Unspecified;
    int levels_ = 0;
};

}  // namespace cs::cuda
