// The CUDA engine's scope display images (histogram, waveform, parade, vectorscope) for
// Engine::process(): drawn on the GPU from the counts in device memory into one block of
// device memory, which the engine copies back with the frame's other results. The overlays
// (graticule, labels, names: ScopeOverlay.h) are made on the host once per layout and spec
// and kept on the device; the images equal scope/ScopeRender's (tests/cuda).
#pragma once
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>

#include "cuda/CudaHandle.h"
#include "ScopeImageKernels.h"
#include "ScopeOverlay.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {
class ThreadPool;
}

namespace cs::cuda {

class ScopePipeline;

class HeadlessImages {
public:
    // An overlay whose tables would take more device memory than this (an image of tens of
    // megapixels) is not made: that image is drawn by core on the host instead (onGpu false).
    static constexpr size_t kMaxOverlayBytes = size_t(256) << 20;

    // Where each image is in the block (kind order: histogram, waveform, parade, vectorscope).
    struct Placed {
        bool wanted = false;   // the spec asks for it
        bool onGpu = false;    // drawn here (else by core on the host, from downloaded counts)
        int width = 0, height = 0;
        size_t offset = 0;     // in the block, rows width * 4 bytes
    };

    // Sizes the block and makes the overlays the spec's images need for results shaped as
    // `meta` (depth, colour, parade mode), on `pool`; uploads new overlays on `stream`. Not
    // capturable; called before enqueue, with nothing of an earlier frame still running.
    Status prepare(const ScopeSpec& spec, const ScopeResults& meta, ThreadPool& pool, cudaStream_t stream);
    // Draws the images from the pipeline's last results (stream work only).
    Status enqueue(const ScopePipeline& pipeline, const ScopeSpec& spec, const ScopeResults& meta, cudaStream_t stream);

    const Placed& placed(ScopeImageKind k) const { return placed_[size_t(k)]; }
    bool anyOnHost() const;   // an image the spec wants that core must draw
    const uint8_t* block() const { return block_.get(); }
    size_t blockBytes() const { return blockBytes_; }

private:
    struct Overlay {
        bool made = false, fits = false;
        OverlayKey key;
        ScopeOverlay host;              // kept while its upload may still read it
        DeviceBuffer index, tables;
    };
    std::array<Overlay, 4> overlays_;
    std::array<Placed, 4> placed_;
    DeviceBuffer block_, tops_;
    size_t blockBytes_ = 0;
};

}  // namespace cs::cuda
