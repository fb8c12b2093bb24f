// Runs the scope engine on the displayed frame and puts the picture, the preview and
// the scope images into the viewer's frame textures: one engine call per displayed
// frame, so the picture and every scope always show the same frame.
//
// CPU engine: the ScopeResults images are uploaded (glTexSubImage2D into textures sized
// once). Scope images are rendered for each panel's size (core/ScopeRender, the same
// code as headless export), so they are shown 1:1 with crisp graticules.
// CUDA engine (CS_HAVE_CUDA): the engine writes the textures through interop and the
// panels add the graticule overlay (overlayFor).
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "core/Engine.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "render/FrameTextures.h"
#include "render/Layout.h"
#include "ui/PixelProbe.h"

namespace cs {

// Which histograms the histogram panel shows.
enum class HistogramChannels : uint8_t { LumaAndRgb, Luma, Rgb };

class EngineHost {
public:
    // engine: "auto" (CUDA where a device exists, else CPU), "cpu" or "cuda".
    explicit EngineHost(const std::string& engine = "auto");
    ~EngineHost();

    std::string_view name() const { return engine_->name(); }
    // Why "auto" or "cuda" ended on the CPU engine ("" when it did not).
    const std::string& note() const { return note_; }
    // The CUDA engine's stream for NVDEC to decode on (null without CUDA).
    void* cudaStream() const { return cudaStream_; }
    bool usesCuda() const { return cudaStream_ != nullptr; }

    ScopeSpec& spec() { return spec_; }
    const ScopeSpec& spec() const { return spec_; }
    HistogramChannels histogramChannels = HistogramChannels::LumaAndRgb;

    // What the panels show and at which size (device pixels; 0 x 0 = hidden).
    void setPanel(gl::Plane plane, int width, int height);
    bool panelVisible(gl::Plane plane) const;

    // Runs the engine on the frame. With `textures` (the viewer's context current) the
    // images go there; without (no GL yet) they wait in results() for uploadTo().
    Status process(const FrameView& frame, gl::FrameTextures* textures);
    // Uploads the last results' images (after the viewer's context was created anew).
    Status uploadTo(gl::FrameTextures& textures);
    const ScopeResults& results() const { return results_; }
    bool hasResults() const { return hasResults_; }
    // Milliseconds of the last process() call, and a running average.
    double lastMilliseconds() const { return lastMs_; }
    double averageMilliseconds() const { return averageMs_; }

    // How a panel assembles its image from its texture (render/Layout.h), and the graticule
    // overlay it draws over trace-only textures (premultiplied RGBA, the image's size; empty
    // for images that carry their graticule).
    ScopePlacement placement(gl::Plane plane, const gl::FrameTextures& textures) const;
    RgbaImage overlayFor(gl::Plane plane) const;
    // Drops the engine's hold on the frame textures (CUDA registrations); the viewer's
    // context is current and about to delete them.
    void releaseGl();

    // The pixel picker's reading of a frame held in GPU memory (NVDEC): only that pixel's
    // samples are copied to the host. Nothing for host frames or without CUDA.
    std::optional<PixelReading> readDevicePixel(const FrameView& frame, const ColorInfo& color, int x, int y) const;

    // The engine itself, for one-off runs such as "Save scopes...".
    Engine& engine() { return *engine_; }

private:
    void prepareSpec();
    bool isTrace(gl::Plane plane) const;
    void renderPanelImages();
    Status processCuda(const FrameView& frame, gl::FrameTextures& textures);

    std::unique_ptr<Engine> engine_;
    void* cudaStream_ = nullptr;
    std::string note_;
    ScopeSpec spec_;
    ScopeResults results_;
    bool hasResults_ = false;
    bool imagesOnGpu_ = false;   // the last process() wrote the textures itself (CUDA)
    std::array<std::array<int, 2>, gl::kPlaneCount> panels_{};
    std::array<std::array<int, 2>, gl::kPlaneCount> traceImages_{};   // CUDA: the image size each trace was laid out for
    // Panel-sized images where the engine's size or content differs from the panel's.
    RgbaImage histogramImage_, paradeImage_;
    double lastMs_ = 0.0, averageMs_ = 0.0;
};

}  // namespace cs
