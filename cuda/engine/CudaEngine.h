// The CUDA engine: the same Engine interface as the CPU engine (counts and statistics
// identical, images within one code value), on a CUDA stream of its own, plus a path that
// writes the picture, the preview and the scope traces straight into GL textures. Frames
// decoded by NVDEC (on a decode stream per source, makeDecodeStream) are read in place, after
// their ready event. One thread at a time calls an engine; every call returns with its work
// done. CUDA types stay behind the pimpl so that callers need no CUDA headers.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/DeviceStream.h"
#include "core/Engine.h"
#include "core/Frame.h"
#include "core/Status.h"

namespace cs {

// A GL texture the engine writes: GL_TEXTURE_2D with GL_RGBA8 storage, `name` 0 = skip.
// Row 0 of the texture receives the top row of the image. `generation` identifies the
// texture's storage (render/Texture.h's generation()): give a new value whenever the storage
// is specified again (glTexImage2D, or a deleted texture's name coming back from
// glGenTextures), even at the same size; the engine then registers the texture with CUDA
// again, since a registration made for the old storage would write into that.
struct GlTexture {
    unsigned name = 0;
    int width = 0, height = 0;
    uint64_t generation = 0;
};

struct GlTargets {
    GlTexture picture, preview;                          // must be the frame's size
    GlTexture histogram, waveform, parade, vectorscope;  // any size: traces (cuda/images/TraceTexels.h says how they look)
    // The waveform, parade and vectorscope counts are large (63 MB for a 4K 10-bit frame):
    // they are copied back into ScopeResults only when asked. Histograms and statistics always are.
    bool downloadCounts = false;
};

class CudaEngine final : public Engine {
public:
    ~CudaEngine() override;
    CudaEngine(const CudaEngine&) = delete;
    CudaEngine& operator=(const CudaEngine&) = delete;

    std::string_view name() const override { return "cuda"; }
    // Host frames are uploaded through pinned staging buffers; frames with view.onDevice set
    // (NVDEC) are read in place once their ready event (FrameView::deviceReady) has
    // completed, or, without one, once the legacy default stream's work so far has. The
    // frame must stay alive until the call returns. The scope images are drawn on the GPU
    // (HeadlessImages.h) to scope/ScopeRender's pixels, so they equal the CPU engine's; the large
    // counts are copied back only with spec.counts. Results come back through pinned memory
    // with one event synchronisation per call.
    Status process(const FrameView& frame, const ScopeSpec& spec, ScopeResults& out) override;

    // For the GL view: writes each named texture and fills `countsAndStats` with the
    // metadata, histograms, statistics (and, with downloadCounts, the other counts); its
    // images are left empty. The scopes a target needs are computed even if `spec` leaves
    // them off. Must be called with the textures' GL context current; every texture is
    // unmapped again before this returns. Textures are registered with CUDA once and again
    // only when a name, generation or size changes.
    Status processToGl(const FrameView& frame, const ScopeSpec& spec, ScopeResults& countsAndStats, const GlTargets& textures);
    // Unregisters the textures (call with their context current, before it is destroyed).
    void releaseGl();

    // A region of a frame in GPU memory, copied into a host frame of the same format on the
    // engine's stream: the pixel picker's reading of an NVDEC frame. x and y must be
    // multiples of the format's chroma subsampling (so the region's chroma comes whole), the
    // region inside the frame.
    Result<Frame> copyRegion(const FrameView& frame, int x, int y, int width, int height);
    // The same into `out`, reallocated only when its format or size differ: a copy made every
    // frame (qc --host-detectors) reuses one host frame instead of allocating it each time.
    Status copyRegion(const FrameView& frame, int x, int y, int width, int height, Frame& out);

    // The frame reduced to width x height by core/FrameReduce.h's rule into `out` (reallocated
    // only when its format or size differ), equal to reduceFrame's to the code value: a wall
    // tile's picture. A frame in GPU memory is reduced by a kernel on the engine's stream
    // (after its ready event) and comes back through pinned memory with one event
    // synchronisation; a host frame is reduced on the host.
    Status downscaleToHost(const FrameView& frame, int width, int height, Frame& out);

    // A stream for one source's NVDEC decoding on this engine's device, with ready events for
    // its frames (core/DeviceStream.h; hand it to decode/ in OpenOptions::deviceStream). Each
    // source decodes on its own, so nothing here waits for another source's read-ahead.
    Result<std::shared_ptr<DeviceStream>> makeDecodeStream() const;
    int device() const;
    std::string deviceName() const;  // "NVIDIA H100 80GB HBM3"

    struct Impl;
    explicit CudaEngine(std::unique_ptr<Impl> impl);

private:
    std::unique_ptr<Impl> impl_;
};

// Fails with the driver's reason when no CUDA device (or driver) is usable.
Result<std::unique_ptr<CudaEngine>> makeCudaEngine(int device = 0);

}  // namespace cs
