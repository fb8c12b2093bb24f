// Runs the scope engine on the displayed frame and puts the picture, the preview and
// the scope images into the viewer's frame textures: one engine call per displayed
// frame, so the picture and every scope always show the same frame.
//
// CPU engine: the images are uploaded (glTexSubImage2D into textures sized once). Scope
// images are rendered for each panel's size (scope/ScopeRender, the same code as headless
// export), so they are shown 1:1 with crisp graticules. Planar Y'CbCr frames go up as their
// planes (render/YcbcrPicture.h): the shader draws the picture and the focus peaking
// preview, so the engine computes no RGBA picture for them; it only counts, and each
// scope image is drawn here once, at its panel's size.
// CUDA engine (CS_HAVE_CUDA): the engine writes the textures through interop and the
// panels add the graticule overlay (overlayFor).
//
// Ahead of presentation (CPU engine): prepare() computes a queued frame's scopes and panel
// images on the source's preparer thread (playback/SourceReader.h) with a second CPU engine and the
// settings the GUI thread last used; process() then only uploads them when they were made
// for that frame with the settings of now, and computes on the GUI thread otherwise (paused
// frames processed again, a setting or panel size just changed, no preparation yet).
#pragma once
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/DeviceStream.h"
#include "core/Engine.h"
#include "core/FieldView.h"
#include "core/FrameRegion.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "core/ThreadPool.h"
#include "core/ToneMap.h"
#include "render/FrameTextures.h"
#include "render/Layout.h"
#include "PixelProbe.h"

namespace cs {

struct VideoFrame;
class CudaEngine;

// Which histograms the histogram panel shows.
enum class HistogramChannels : uint8_t { LumaAndRgb, Luma, Rgb };

// Everything the CPU path's results and images depend on besides the frame.
struct ScopeSettings {
    ScopeSpec spec;   // with the scope sizes taken from the panels
    std::array<std::array<int, 2>, gl::kPlaneCount> panels{};
    HistogramChannels histogramChannels = HistogramChannels::LumaAndRgb;
    bool planesShown = false;   // the frame goes up as its Y'CbCr planes (the engine draws no picture)
    std::optional<FrameRegion> region;   // EngineHost::region
    std::optional<Field> field;          // EngineHost::field
    bool operator==(const ScopeSettings&) const = default;
};

// One frame's scopes computed ahead of its presentation (EngineHost::prepare).
struct PreparedScopes {
    ScopeSettings settings;
    double pts = 0.0;                        // the frame they belong to
    const uint8_t* firstSample = nullptr;
    ScopeResults results;
    std::array<RgbaImage, gl::kPlaneCount> panelImages;
    std::array<bool, gl::kPlaneCount> drawnHere{};
    double milliseconds = 0.0;
};

class EngineHost {
public:
    // engine: "auto" (CUDA where a device exists, else CPU), "cpu" or "cuda" (chosen by
    // engine/EngineChoice.h; where CUDA cannot run, the CPU engine and note() says why).
    explicit EngineHost(const std::string& engine = "auto");
    ~EngineHost();

    std::string_view name() const { return engine_->name(); }
    // Why "auto" or "cuda" ended on the CPU engine ("" when it did not).
    const std::string& note() const { return note_; }
    // A stream for one source's NVDEC decoding, from the CUDA engine (OpenOptions::deviceStream):
    // null with the CPU engine, or where CUDA cannot make one (NVDEC then decodes on FFmpeg's
    // default stream, and the engine orders itself after that stream instead).
    std::shared_ptr<DeviceStream> decodeStream() const;
    bool usesCuda() const { return cuda_ != nullptr; }
    CudaEngine* gpuEngine() const { return cuda_; }   // the CUDA engine, null with the CPU engine

    ScopeSpec& spec() { return spec_; }
    const ScopeSpec& spec() const { return spec_; }
    HistogramChannels histogramChannels = HistogramChannels::LumaAndRgb;
    // The gamut check (the share outside spec().gamutTarget in the status bar) wants the
    // chromaticity counts even while the CIE panel is hidden.
    bool gamutCheck = false;
    // The gamut display panel's mode, counted while the panel is visible (spec().gamutDisplay is
    // this then, None otherwise).
    GamutDisplay gamutDisplayMode = GamutDisplay::Diamond;
    // The viewer's picture of a PQ or HLG frame through the HDR to SDR display transform
    // (core/ToneMap.h); the scopes, the picker and the exports read the signal regardless.
    bool toneMapHdr = true;
    // The scopes (every one, the statistics and the status bar's readouts with them) measure
    // only this region of the frame (core/FrameRegion.h: snapped to the chroma grid; one line
    // high for a line's waveform); the picture and the preview show the whole frame. A region
    // outside the frame fails process() with a message naming it. Nothing: the whole frame.
    // With it the engine runs twice where it draws the picture or the preview itself (the CPU
    // engine for packed frames or an engine-made preview, the CUDA engine always): once on
    // the region's view for the scopes, once on the frame with no scope for the picture.
    std::optional<FrameRegion> region;
    // One field of each frame instead of the frame (core/FieldView.h): the picture, the
    // preview and every scope are the field's, half the frame's height, and the region is in
    // the field's rows. process() and prepare() take the decoded frame and view its field
    // themselves; shownView() is that view, for whoever reads the shown picture's pixels.
    std::optional<Field> field;
    Result<FrameView> shownView(const FrameView& frame) const { return field ? fieldView(frame, *field) : Result<FrameView>(frame); }
    // Whether the picture last put up is tone mapped (a PQ or HLG frame with toneMapHdr on).
    bool toneMapped() const { return toneMapped_; }

    // What the panels show and at which size (device pixels; 0 x 0 = hidden).
    void setPanel(gl::Plane plane, int width, int height);
    bool panelVisible(gl::Plane plane) const;

    // Runs the engine on the frame. With `textures` (the viewer's context current) the
    // images go there; without (no GL yet) they wait in results() for uploadTo(). A
    // `prepared` made for this frame with the current settings is used instead of running
    // the engine here.
    Status process(const FrameView& frame, gl::FrameTextures* textures, std::shared_ptr<PreparedScopes> prepared = {});
    // Computes a frame's scopes with the settings of the last process() call; thread-safe,
    // one preparation at a time. Null with the CUDA engine, before the first process() call,
    // or when the engine fails (the GUI thread then reports it).
    std::shared_ptr<PreparedScopes> prepare(const VideoFrame& frame);
    // Whether the settings changed in the last process() call (queued preparations are stale).
    bool settingsChanged() const { return settingsChanged_; }
    // The last process() used a preparation; how many frames did since this host was made.
    bool usedPrepared() const { return usedPrepared_; }
    int64_t preparedFramesUsed() const { return preparedUsed_; }
    // Milliseconds the last used preparation took on the preparer thread.
    double preparedMilliseconds() const { return preparedMs_; }
    // The timestamp of the frame the current results belong to.
    double resultsPts() const { return resultsPts_; }
    // The scope image a panel shows (CPU engine).
    const RgbaImage& shownImage(gl::Plane plane) const;
    // Uploads the last results' images (after the viewer's context was created anew).
    // Frames shown from their planes (showsPlanes) need process() again instead: the
    // planes are the frame's, not the results'.
    Status uploadTo(gl::FrameTextures& textures);
    bool showsPlanes() const { return planesShown_; }
    const ScopeResults& results() const { return results_; }
    bool hasResults() const { return hasResults_; }
    // Milliseconds of the last process() call on the GUI thread (only the uploads when it used
    // a preparation), and a running average.
    double lastMilliseconds() const { return lastMs_; }
    double averageMilliseconds() const { return averageMs_; }
    // A running average of the time the engine and the scope images took for the frames
    // shown, on whichever thread they were computed (for the status bar).
    double averageComputeMilliseconds() const { return averageComputeMs_; }

    // How a panel assembles its image from its texture (render/Layout.h), and the graticule
    // overlay it draws over trace-only textures (premultiplied RGBA, the image's size; empty
    // for images that carry their graticule).
    ScopePlacement placement(gl::Plane plane, const gl::FrameTextures& textures) const;
    RgbaImage overlayFor(gl::Plane plane) const;
    // Drops the engine's hold on the frame textures (CUDA registrations); the viewer's
    // context is current and about to delete them.
    void releaseGl();

    // The pixel picker's reading of a frame held in GPU memory (NVDEC): only the samples
    // around that pixel are copied to the host (CudaEngine::copyRegion). Nothing for host
    // frames or without the CUDA engine.
    std::optional<PixelReading> readDevicePixel(const FrameView& frame, const ColorInfo& color, int x, int y) const;
    // A whole frame held in GPU memory, copied to the host (the compare snapshot of an NVDEC
    // frame, the active picture guide's reading of one); an error without the CUDA engine or
    // for host frames.
    Result<Frame> copyToHost(const FrameView& frame) const;

    // The engine itself, for one-off runs such as "Save scopes...".
    Engine& engine() { return *engine_; }
    // The CPU engine with a pool of `threads` threads (0: one per hardware thread) instead of
    // the default; nothing changes on the CUDA engine. For benchmarks (bench/playback): call
    // before the first frame.
    void setCpuThreads(int threads);

private:
    void prepareSpec();
    bool isTrace(gl::Plane plane) const;
    // Whether the spec's preview is drawn by the Y'CbCr shader when the planes are shown.
    bool shaderPreview() const;
    // The tone map the picture of the current results wants (toneMapHdr and a PQ or HLG frame).
    std::optional<ToneMap> pictureToneMap() const;
    // The preview's: the picture's where the preview shows the picture (previewShowsPicture).
    std::optional<ToneMap> previewToneMap() const;
    // Puts both on the textures' RGBA picture and preview (the shaded ones carry their own).
    void setPictureToneMap(gl::FrameTextures& textures);
    Status processCuda(const FrameView& frame, gl::FrameTextures& textures);
    void publish(const ScopeSettings& settings);

    std::unique_ptr<Engine> engine_;
    CudaEngine* cuda_ = nullptr;   // engine_ itself when it is the CUDA engine (chosen by engine/EngineChoice)
    std::string note_;
    ScopeSpec spec_;
    ScopeResults results_;
    bool hasResults_ = false;
    bool imagesOnGpu_ = false;   // the last process() wrote the textures itself (CUDA)
    bool planesShown_ = false;   // the last process() put the frame's Y'CbCr planes up for the picture
    bool toneMapped_ = false;    // the picture's shading maps HDR to SDR (toneMapped())
    std::array<std::array<int, 2>, gl::kPlaneCount> panels_{};
    std::array<std::array<int, 2>, gl::kPlaneCount> traceImages_{};   // CUDA: the image size each trace was laid out for
    // Scope images drawn here for their panel's size (drawnHere_), where the engine drew none
    // or drew one of another size or content; kept between frames so their storage is reused.
    std::array<RgbaImage, gl::kPlaneCount> panelImages_;
    std::array<bool, gl::kPlaneCount> drawnHere_{};
    ScopeResults whole_;   // with a region: the run for the whole frame's picture and preview
    int frameWidth_ = 0, frameHeight_ = 0;   // the frame of the current results (a region's results are smaller)
    ThreadPool imagePool_;   // draws them side by side
    double lastMs_ = 0.0, averageMs_ = 0.0;
    bool settingsChanged_ = false, usedPrepared_ = false;
    int64_t preparedUsed_ = 0;
    double preparedMs_ = 0.0, resultsPts_ = 0.0, averageComputeMs_ = 0.0;

    // The preparer side (prepare()): its own engine and image pool (one thread each: the
    // calling thread), so that no pool is used by two threads at once; aheadMutex_ lets one
    // preparation run at a time (a replaced source's preparer may still finish one while the
    // new source's starts).
    std::mutex handoffMutex_;                  // guards published_ and spare_ (held briefly)
    std::optional<ScopeSettings> published_;   // the settings of the last process() call
    std::shared_ptr<PreparedScopes> spare_;    // a used preparation whose storage the next one reuses
    std::mutex aheadMutex_;                    // guards the preparer's engine and pool (held for a preparation)
    std::unique_ptr<Engine> aheadEngine_;
    ScopeResults aheadWhole_;   // whole_ of the preparer
    ThreadPool aheadImagePool_{1};
};

}  // namespace cs
