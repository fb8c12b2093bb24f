// The gamut scope on the GPU (core/Gamut.h): the chromaticity counts and the pixels outside
// the target that the CPU engine counts too, shaped like CUB's primitives (explicit stream,
// d_ pointers, device planes), and the engine's per-frame pass around it (device buffers,
// the upload of the frame's tables, the copy back). The tables are made on the host by
// core/Gamut's makeGamutTables and every pixel goes through the same CS_HD gamutPixel, so
// both engines count the very same bins.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "CudaHandle.h"
#include "PixelGroups.h"
#include "core/Frame.h"
#include "core/Gamut.h"
#include "core/PixelAccess.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs::cuda {

// Zeroes d_counts (kCieBins^2 words) and *d_outside, then counts each of the width x height
// pixels of `src` (device planes) once: its R'G'B' at native depth (Y'CbCr through
// toRgbNative with samples masked to levels - 1 as the CPU engine reads them; RGB as
// stored), d_linear[code] per component (levels words), gamutPixel(k, ...). One pass over
// the frame. Async on `stream`.
cudaError_t gamutCounts(const PixelSource& src, int width, int height, const YuvToRgb& toRgbNative, int levels,
                        const GamutCoefficients& k, const float* d_linear, uint32_t* d_counts,
                        unsigned long long* d_outside, cudaStream_t stream);

// The CUDA engine's gamut step for one frame (owned by the engine; one thread, its stream).
class GamutPass {
public:
    // Queues the count when `wanted` (ScopeSpec::cie), with `color` (tags + override).
    Status enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, const ScopeSpec& spec,
                   cudaStream_t stream);
    // Bytes download() copies back: the pixels outside and, with `counts`, the counts (1 MB);
    // none when nothing was queued.
    size_t downloadBytes(bool counts) const;
    // Queues the copy of those into `pinned` (downloadBytes(counts) bytes of page-locked host
    // memory, 8-byte aligned), before the stream's completion event.
    Status download(void* pinned, bool counts, cudaStream_t stream);
    // After the stream completed, from `pinned`: the share outside, what was measured, and the
    // counts (empty where download() was not asked for them).
    void finish(const void* pinned, GamutResults& out, int width, int height) const;

private:
    GamutTableCache tables_;
    const GamutTables* current_ = nullptr;
    DeviceBuffer linear_, counts_, outside_;
    bool queued_ = false, countsQueued_ = false;
};

}  // namespace cs::cuda
