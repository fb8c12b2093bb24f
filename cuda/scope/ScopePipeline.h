// Everything the GPU does for one frame, as stream work only: the scope pass, the preview
// filter (beside it, on a branch, the clearing of the accumulators for the next frame) and
// (for the GL view) the picture, preview and scope traces written to surfaces. prepare()
// allocates for a frame geometry and spec (not capturable); enqueue() only issues async
// work (on a side stream too, forked and joined by events), so a CUDA graph can capture it.
#pragma once
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>

#include "cuda/CudaHandle.h"
#include "cuda/filters/FilterKernels.h"
#include "ScopeKernels.h"
#include "cuda/images/TraceKernels.h"
#include "core/ScopeSpec.h"

namespace cs::cuda {

// What the pipeline computes, derived from a ScopeSpec (and, for the GL view, the targets).
struct PipelineWork {
    uint32_t flags = 0;                  // ScopeFlags for the scope pass
    PreviewFilter preview = PreviewFilter::None;
};
PipelineWork workFor(const ScopeSpec& spec, PixelFormat format, bool wantPicture);

// Optional surfaces for one frame (0 = not drawn), with their sizes.
struct SurfaceTargets {
    cudaSurfaceObject_t picture = 0, preview = 0;
    std::array<cudaSurfaceObject_t, 4> traces{};      // histogram, waveform, parade, vectorscope
    std::array<int, 4> traceWidth{}, traceHeight{};
    Matrix matrix = Matrix::Bt709;   // the stream's, for the vectorscope trace's hues
    Range range = Range::Limited;
};

class ScopePipeline {
public:
    Status prepare(PixelFormat format, int width, int height, const ScopeSpec& spec, const PipelineWork& work, Range lumaRange,
                   cudaStream_t stream, Transfer lumaTransfer = Transfer::Bt709);   // the transfer: HDR false colour
    // `planes` must be device memory satisfying PixelGroups.h's alignment contract.
    Status enqueue(const PlaneSet& planes, const ScopeColour& colour, cudaStream_t stream, const SurfaceTargets* surfaces = nullptr);

    // Device results of the last enqueue (valid once the stream reaches that point).
    const uint32_t* histY() const { return reinterpret_cast<const uint32_t*>(accumSet(current_)); }
    const uint32_t* histRgb() const { return histY() + levels_; }
    const DeviceStats* stats() const { return reinterpret_cast<const DeviceStats*>(accumSet(current_) + statsOffset_); }
    const uint32_t* vectorscope() const { return reinterpret_cast<const uint32_t*>(accumSet(current_) + vectorscopeOffset_); }
    const uint16_t* columns() const { return columns_.get<uint16_t>(); }   // waveform and parade (ColumnCounts.h)
    const uint8_t* picture() const { return picture_.get(); }
    size_t picturePitch() const { return picture_.pitch(); }
    const uint8_t* preview() const { return preview_.get(); }
    size_t previewPitch() const { return preview_.pitch(); }
    // Where the frame's preview goes: the preview surface when one is drawn, else preview().
    // The gamut preview is painted there by the engine's gamut pass (GamutKernels.h), which
    // finds each pixel's outside flag anyway; enqueue() leaves it alone.
    ImageSink previewSink(const SurfaceTargets* surfaces) const;
    const PipelineWork& work() const { return work_; }

private:
    PixelFormat format_ = PixelFormat::Yuv420p;
    int width_ = 0, height_ = 0, levels_ = 256;
    PipelineWork work_;
    ScopeSpec spec_;
    // Two sets of accumulators, used by turns, each histY (levels), histRgb (768), stats,
    // vectorscope (levels^2): a frame counts into the clean one (current_ after its enqueue)
    // and clears the other, which the frame before it filled, on a side stream after its pass.
    DeviceBuffer accum_;
    size_t statsOffset_ = 0, vectorscopeOffset_ = 0, accumBytes_ = 0, accumStride_ = 0;
    std::array<size_t, 2> dirtyBytes_{};   // bytes of each set that counts may have touched
    int current_ = 1;
    StreamHandle sideStream_;
    EventHandle passDone_, clearDone_;
    uint8_t* accumSet(int i) const { return accum_.get() + size_t(i) * accumStride_; }
    DeviceBuffer columns_, traceScratch_;
    PitchedBuffer picture_, luma_, preview_;
    PreviewFilters filters_;
};

}  // namespace cs::cuda
