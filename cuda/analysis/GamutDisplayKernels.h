// The gamut displays on the GPU (core/GamutDisplay.h): the Diamond, Split Diamond, Arrowhead or
// Lightning counts that the CPU engine counts too, shaped like CUB's primitives (explicit
// stream, d_ pointers, device planes, allocation apart from the work), and the engine's
// per-frame pass around it (its device buffer and the copy back). Every pixel goes through the
// same CS_HD gamutDisplayAt as the CPU engine's, so both count the very same bins; the image
// is drawn from the counts on the host by scope/GamutDisplay.h.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/CudaHandle.h"
#include "cuda/scope/PixelGroups.h"
#include "core/Frame.h"
#include "core/GamutDisplay.h"
#include "core/PixelAccess.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs::cuda {

// Zeroes d_counts (kGamutDisplayBins^2 words of device memory) and counts each of the width x
// height pixels of `src` (device planes) into it: gamutDisplayAt(k, src, x, y, toRgb, toYuv,
// mask). Async on `stream`.
cudaError_t gamutDisplayCount(const PixelSource& src, int width, int height, const GamutDisplayCoefficients& k,
                              const YuvToRgb& toRgb, const RgbToYuv& toYuv, int32_t mask, uint32_t* d_counts,
                              cudaStream_t stream);

// The CUDA engine's gamut display step for one frame (owned by the engine; one thread, its stream).
class GamutDisplayPass {
public:
    // Queues the count when ScopeSpec::gamutDisplay asks for one, with `color` (tags + override).
    Status enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, const ScopeSpec& spec,
                   cudaStream_t stream);
    // Bytes download() copies back (the counts, 1 MB), none when nothing was queued.
    size_t downloadBytes() const;
    // Queues the copy of the counts into `pinned` (downloadBytes() bytes of page-locked host memory).
    Status download(void* pinned, cudaStream_t stream);
    // After the stream completed: the counts from `pinned` (empty, mode None, when none was queued).
    void finish(const void* pinned, GamutDisplayResults& out) const;

private:
    DeviceBuffer counts_;
    GamutDisplay mode_ = GamutDisplay::None;
    ArrowheadLimit limit_ = ArrowheadLimit::Ntsc;
};

}  // namespace cs::cuda
