// The gamut scope on the GPU (core/Gamut.h): the chromaticity counts and the pixels outside
// the target that the CPU engine counts too, and the gamut preview (those pixels painted over
// the picture), shaped like CUB's primitives (explicit stream, d_ pointers, device planes),
// and the engine's per-frame pass around it (device buffers, the upload of the frame's
// tables, the copy back). The tables are made on the host by core/Gamut's makeGamutTables
// and every pixel goes through the same CS_HD gamutPixel and gamutPreviewPixel, so both
// engines count the very same bins and paint the very same pixels.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/CudaHandle.h"
#include "cuda/filters/FilterKernels.h"
#include "cuda/scope/PixelGroups.h"
#include "core/Frame.h"
#include "core/Gamut.h"
#include "core/PixelAccess.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs::cuda {

// The gamut preview's input and output: the frame's picture (RGBA 8-bit, pitched device
// memory, the scope pass's) and where the preview goes (pitched memory or a GL surface).
struct GamutPaint {
    const uint8_t* d_picture = nullptr;
    size_t picturePitch = 0;
    ImageSink out;
};

// Takes each of the width x height pixels of `src` (device planes) once: its R'G'B' at
// native depth (Y'CbCr through toRgbNative with samples masked to levels - 1 as the CPU
// engine reads them; RGB as stored), d_linear[code] per component (levels words),
// gamutPixel(k, ...). With d_counts (then d_outside too): zeroes d_counts (kCieBins^2 words)
// and *d_outside and counts the bins and the pixels outside. With `paint`: writes the gamut
// preview, each pixel gamutPreviewPixel(picture's, outside). Either or both; one pass over
// the frame. Async on `stream`.
cudaError_t gamutPass(const PixelSource& src, int width, int height, const YuvToRgb& toRgbNative, int levels,
                      const GamutCoefficients& k, const float* d_linear, uint32_t* d_counts,
                      unsigned long long* d_outside, const GamutPaint* paint, cudaStream_t stream);

// The CUDA engine's gamut step for one frame (owned by the engine; one thread, its stream).
class GamutPass {
public:
    // Queues the count when ScopeSpec::cie asks for it and the preview when `paint` is given
    // (ScopeSpec::preview Gamut; the picture it reads already queued), with `color` (tags +
    // override); nothing when neither.
    Status enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, const ScopeSpec& spec,
                   const GamutPaint* paint, cudaStream_t stream);
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
    bool queued_ = false, countsQueued_ = false;   // this frame's count (ScopeSpec::cie), and its bins (cieCounts)
};

}  // namespace cs::cuda
