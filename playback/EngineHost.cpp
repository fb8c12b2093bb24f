// The engine on the GUI side: spec from the panels, one engine call per displayed frame,
// images into the frame textures (see EngineHost.h).
#include "EngineHost.h"

#include <algorithm>
#include <chrono>

#include "scope/CieDiagram.h"
#include "scope/GamutDisplay.h"
#include "core/Filters.h"
#include "core/Gamut.h"
#include "core/Hdr.h"
#include "decode/Source.h"
#include "scope/PreviewLegend.h"
#include "scope/ScopeRender.h"
#include "render/GlObjects.h"
#include "render/GraticuleOverlay.h"

#include "engine/EngineChoice.h"

#include "cpu/CpuEngine.h"
#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#endif

namespace cs {
namespace {

constexpr int kMinScope = 64, kMaxScope = 4096;
// The preparer computes frames ahead, one after another, with one thread: it has frames of
// slack, and a single thread leaves the other core to the GUI thread's drawing (software GL)
// and the decoder. (Measured at 1080p30 on 2 cores: 0 dropped frames in 4 of 4 runs, against
// 0-1 with a pool of two; ui/README.md.)
constexpr int kPreparerThreads = 1;

int clampSize(int v) { return std::clamp(v, kMinScope, kMaxScope); }

// The histogram counts alone, without the channels the panel hides (renderHistogram draws
// what it is given: an empty channel is left out).
ScopeResults histogramOnly(const ScopeResults& r, HistogramChannels channels) {
    ScopeResults h;
    h.width = r.width;
    h.height = r.height;
    h.bitDepth = r.bitDepth;
    h.levels = r.levels;
    h.color = r.color;
    h.format = r.format;
    if (channels != HistogramChannels::Rgb) h.histY = r.histY;
    if (channels != HistogramChannels::Luma) {
        h.histR = r.histR;
        h.histG = r.histG;
        h.histB = r.histB;
    }
    return h;
}

// What the engine computes: for frames shown from their planes no RGBA picture (the shader
// draws it, and focus peaking) and no scope images (drawn for each panel's size instead).
ScopeSpec engineSpec(const ScopeSettings& settings) {
    ScopeSpec run = settings.spec;
    if (settings.planesShown) {
        run.displayImages = false;
        run.picture = false;
        if (run.preview == PreviewFilter::FocusPeaking) run.preview = PreviewFilter::None;
    }
    return run;
}

// One frame through the engine for `settings`. With a region the scopes are the region
// view's; the picture and the preview, where the engine draws them, come from a second run
// on the whole frame that counts nothing, and are moved into `out` (`whole` keeps that run's
// storage between frames).
Status runEngine(Engine& engine, const FrameView& frame, const ScopeSettings& settings, ScopeResults& out, ScopeResults& whole) {
    const ScopeSpec run = engineSpec(settings);
    if (!settings.region) return engine.process(frame, run, out);
    Result<FrameView> view = regionView(frame, *settings.region);
    if (!view) return view.status();
    ScopeSpec scopes = run;
    scopes.picture = false;
    scopes.preview = PreviewFilter::None;
    if (Status s = engine.process(*view, scopes, out); !s) return s;
    if (!(run.displayImages && run.picture) && run.preview == PreviewFilter::None) return {};
    ScopeSpec picture = run;
    picture.histogram = picture.waveform = picture.parade = picture.vectorscope = picture.cie = false;
    picture.gamutDisplay = GamutDisplay::None;
    picture.stats = picture.hdr = false;
    if (Status s = engine.process(frame, picture, whole); !s) return s;
    std::swap(out.picture, whole.picture);
    std::swap(out.preview, whole.preview);
    return {};
}

using PanelImages = std::array<RgbaImage, gl::kPlaneCount>;
using PanelFlags = std::array<bool, gl::kPlaneCount>;

// Each visible scope's image at its panel's size, drawn here when the engine drew none or
// drew it for another size or with other content (the histogram's channels).
void renderPanelImages(const ScopeSettings& settings, bool engineDrewImages, const ScopeResults& results, ThreadPool& pool,
                       PanelImages& images, PanelFlags& drawnHere) {
    using gl::Plane;
    const ScopeSpec& spec = settings.spec;
    const auto& panels = settings.panels;
    auto differs = [&](Plane p) {
        return clampSize(panels[size_t(p)][0]) != spec.scopeWidth || clampSize(panels[size_t(p)][1]) != spec.scopeHeight;
    };
    std::array<Plane, 6> jobs{};
    int count = 0;
    for (Plane p : {Plane::Parade, Plane::Waveform, Plane::Vectorscope, Plane::Cie, Plane::GamutDisplay, Plane::Histogram}) {
        drawnHere[size_t(p)] = false;   // costliest first
        const bool shown = panels[size_t(p)][0] > 0 && panels[size_t(p)][1] > 0;
        const bool counted = (p == Plane::Histogram && spec.histogram) || (p == Plane::Waveform && spec.waveform) ||
                             (p == Plane::Parade && spec.parade) || (p == Plane::Vectorscope && spec.vectorscope) ||
                             (p == Plane::Cie && spec.cie && shown) ||
                             (p == Plane::GamutDisplay && spec.gamutDisplay != GamutDisplay::None && shown);
        if (!counted) continue;
        const bool own = !engineDrewImages || (p == Plane::Parade && differs(p)) ||
                         (p == Plane::Histogram && (settings.histogramChannels != HistogramChannels::LumaAndRgb || differs(p)));
        if (own) jobs[size_t(count++)] = p;
    }
    if (count == 0) return;
    pool.parallelFor(
        count,
        [&](int, int begin, int end) {
            for (int i = begin; i < end; ++i) {
                const Plane p = jobs[size_t(i)];
                ScopeSpec s = spec;
                s.scopeWidth = clampSize(panels[size_t(p)][0]);
                s.scopeHeight = clampSize(panels[size_t(p)][1]);
                RgbaImage& image = images[size_t(p)];
                switch (p) {
                    case Plane::Histogram: renderHistogram(histogramOnly(results, settings.histogramChannels), s, image); break;
                    case Plane::Waveform: renderWaveform(results, s, image); break;
                    case Plane::Parade: renderParade(results, s, image); break;
                    case Plane::Vectorscope: renderVectorscope(results, s, image); break;
                    case Plane::Cie: renderCieDiagram(results, s, image); break;
                    case Plane::GamutDisplay: renderGamutDisplay(results, s, image); break;
                    default: break;
                }
                drawnHere[size_t(p)] = true;
            }
        },
        count);
}

}  // namespace

EngineHost::EngineHost(const std::string& engine) {
    // The window opens whatever the machine: "cuda" where none can run is the CPU engine with a note.
    auto choice = chooseEngine(engine, CudaUnavailable::UseCpu);
    if (choice) {
        engine_ = std::move(choice->engine);
        cuda_ = choice->cuda;
        note_ = choice->note;
    } else {
        engine_ = makeCpuEngine();
        note_ = choice.message() + ": using the CPU engine";
    }
    // The statistics give the status bar's R'G'B' gamut and legal range readouts.
    spec_.stats = true;
    spec_.displayImages = true;
    spec_.picture = true;
}

EngineHost::~EngineHost() = default;

void EngineHost::setCpuThreads(int threads) {
    if (usesCuda()) return;
    engine_ = makeCpuEngine(threads);
    hasResults_ = false;
}

void EngineHost::setPanel(gl::Plane plane, int width, int height) {
    panels_[size_t(plane)] = {std::max(width, 0), std::max(height, 0)};
}

bool EngineHost::panelVisible(gl::Plane plane) const {
    const auto& p = panels_[size_t(plane)];
    return p[0] > 0 && p[1] > 0;
}

void EngineHost::prepareSpec() {
    using gl::Plane;
    spec_.histogram = panelVisible(Plane::Histogram);
    spec_.waveform = panelVisible(Plane::Waveform);
    spec_.parade = panelVisible(Plane::Parade);
    spec_.vectorscope = panelVisible(Plane::Vectorscope);
    // The chromaticity counts cost a pass over the frame: only for the CIE panel or the gamut check.
    spec_.cie = panelVisible(Plane::Cie) || gamutCheck;
    spec_.cieCounts = panelVisible(Plane::Cie);   // the gamut check alone needs only the share outside
    spec_.gamutDisplay = panelVisible(Plane::GamutDisplay) ? gamutDisplayMode : GamutDisplay::None;
    spec_.displayImages = true;
    spec_.picture = true;
    // When the engine draws the images (frames not shown from their planes), the waveform-style
    // ones are drawn at the first visible panel's size; the others are drawn again for their
    // own size after the engine ran (renderPanelImages).
    for (Plane p : {Plane::Waveform, Plane::Parade, Plane::Histogram}) {
        if (!panelVisible(p)) continue;
        spec_.scopeWidth = clampSize(panels_[size_t(p)][0]);
        spec_.scopeHeight = clampSize(panels_[size_t(p)][1]);
        break;
    }
    if (panelVisible(Plane::Vectorscope)) {
        const auto& v = panels_[size_t(Plane::Vectorscope)];
        spec_.vectorscopeSize = clampSize(std::min(v[0], v[1]));
    }
    if (panelVisible(Plane::Cie)) {
        const auto& c = panels_[size_t(Plane::Cie)];
        spec_.cieSize = clampSize(std::min(c[0], c[1]));
    }
    if (panelVisible(Plane::GamutDisplay)) {
        const auto& g = panels_[size_t(Plane::GamutDisplay)];
        spec_.gamutDisplaySize = clampSize(std::min(g[0], g[1]));
    }
}

Status EngineHost::process(const FrameView& decoded, gl::FrameTextures* textures, std::shared_ptr<PreparedScopes> prepared) {
    const auto start = std::chrono::steady_clock::now();
    prepareSpec();
    usedPrepared_ = false;
    Result<FrameView> shown = shownView(decoded);
    if (!shown) {
        hasResults_ = false;
        return shown.status();
    }
    const FrameView& frame = *shown;
    Status s;
#if CS_HAVE_CUDA
    if (usesCuda() && textures) {
        s = processCuda(frame, *textures);
        if (s) resultsPts_ = frame.pts;
    } else
#endif
    {
        imagesOnGpu_ = false;
        // Planar Y'CbCr goes up as its planes and the shader draws the picture (and focus
        // peaking): the engine then neither converts nor writes an RGBA picture for them.
        ScopeSettings settings{spec_, panels_, histogramChannels, textures && gl::YcbcrTextures::supports(frame), region, field};
        planesShown_ = settings.planesShown;
        publish(settings);
        if (prepared && prepared->pts == frame.pts && prepared->firstSample == frame.data[0] &&
            prepared->settings == settings) {
            // Computed ahead for this frame and these settings: take its storage, give ours back.
            std::swap(results_, prepared->results);
            std::swap(panelImages_, prepared->panelImages);
            std::swap(drawnHere_, prepared->drawnHere);
            usedPrepared_ = true;
            ++preparedUsed_;
            preparedMs_ = prepared->milliseconds;
        } else {
            s = runEngine(*engine_, frame, settings, results_, whole_);
            if (s) renderPanelImages(settings, engineSpec(settings).displayImages, results_, imagePool_, panelImages_, drawnHere_);
        }
        if (prepared) {
            std::lock_guard lock(handoffMutex_);
            spare_ = std::move(prepared);   // its storage serves the next preparation
        }
        if (s) {
            hasResults_ = true;
            resultsPts_ = frame.pts;
            if (planesShown_) s = textures->ycbcr().upload(frame, results_.color);
            if (s && textures) s = uploadTo(*textures);
        }
    }
    if (s) {
        frameWidth_ = frame.width;
        frameHeight_ = frame.height;
    } else {
        hasResults_ = false;
    }
    lastMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    averageMs_ = averageMs_ == 0.0 ? lastMs_ : averageMs_ * 0.9 + lastMs_ * 0.1;
    const double computeMs = usedPrepared_ ? preparedMs_ + lastMs_ : lastMs_;
    averageComputeMs_ = averageComputeMs_ == 0.0 ? computeMs : averageComputeMs_ * 0.9 + computeMs * 0.1;
    return s;
}

void EngineHost::publish(const ScopeSettings& settings) {
    std::lock_guard lock(handoffMutex_);
    settingsChanged_ = !published_ || *published_ != settings;
    if (settingsChanged_) published_ = settings;
}

std::shared_ptr<PreparedScopes> EngineHost::prepare(const VideoFrame& frame) {
    if (usesCuda() || frame.onDevice || frame.view.onDevice) return {};
    ScopeSettings settings;
    std::shared_ptr<PreparedScopes> prepared;
    {
        std::lock_guard lock(handoffMutex_);
        if (!published_) return {};
        settings = *published_;
        prepared = std::move(spare_);
    }
    // The planes go up when they did for the last frame and this frame's format allows.
    settings.planesShown = settings.planesShown && gl::YcbcrTextures::supports(frame.view);
    // The field's view, as process() takes it (its first sample is the one process() matches).
    Result<FrameView> shown = settings.field ? fieldView(frame.view, *settings.field) : Result<FrameView>(frame.view);
    if (!shown) return {};
    if (!prepared) prepared = std::make_shared<PreparedScopes>();
    std::lock_guard work(aheadMutex_);
    if (!aheadEngine_) aheadEngine_ = makeCpuEngine(kPreparerThreads);
    const auto start = std::chrono::steady_clock::now();
    if (!runEngine(*aheadEngine_, *shown, settings, prepared->results, aheadWhole_)) return {};
    renderPanelImages(settings, engineSpec(settings).displayImages, prepared->results, aheadImagePool_, prepared->panelImages,
                      prepared->drawnHere);
    prepared->settings = settings;
    prepared->pts = shown->pts;
    prepared->firstSample = shown->data[0];
    prepared->milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return prepared;
}

const RgbaImage& EngineHost::shownImage(gl::Plane plane) const {
    using gl::Plane;
    if (drawnHere_[size_t(plane)]) return panelImages_[size_t(plane)];
    switch (plane) {
        case Plane::Histogram: return results_.histogramImage;
        case Plane::Waveform: return results_.waveformImage;
        case Plane::Parade: return results_.paradeImage;
        case Plane::Vectorscope: return results_.vectorscopeImage;
        case Plane::Cie: return results_.cieImage;
        case Plane::GamutDisplay: return results_.gamutDisplayImage;
        case Plane::Preview: return results_.preview;
        default: return results_.picture;
    }
}

bool EngineHost::shaderPreview() const { return spec_.preview == PreviewFilter::FocusPeaking; }

Status EngineHost::uploadTo(gl::FrameTextures& textures) {
    if (!hasResults_ || imagesOnGpu_) return {};
    using gl::Plane;
    Status s;
    auto up = [&](Plane p, const RgbaImage& img) {
        if (Status u = textures.upload(p, img); !u && s) s = u;
    };
    // The planes are the frame's own: only process() (which has the frame) puts them up.
    if (planesShown_ && textures.ycbcr().valid()) {
        gl::YcbcrShading picture;
        if (const std::optional<ToneMap> tm = pictureToneMap()) {
            picture.toneMap = true;
            picture.toneMapping = *tm;
        }
        textures.setShaded(Plane::Picture, picture);
        if (shaderPreview()) {
            gl::YcbcrShading peaking;
            peaking.focusPeaking = true;
            peaking.peakingFirstSquare = focusPeakingFirstSquare(results_.bitDepth, spec_.filter.peakingThreshold);
            peaking.peakingColour = spec_.filter.peakingColour;
            peaking.peakingWidth = spec_.filter.peakingWidth;
            if (const std::optional<ToneMap> tm = previewToneMap()) {   // the paint goes over the mapped picture
                peaking.toneMap = true;
                peaking.toneMapping = *tm;
            }
            textures.setShaded(Plane::Preview, peaking);
        } else {
            up(Plane::Preview, results_.preview);
        }
    } else {
        up(Plane::Picture, results_.picture);
        up(Plane::Preview, results_.preview);
    }
    setPictureToneMap(textures);
    for (Plane p : {Plane::Histogram, Plane::Waveform, Plane::Parade, Plane::Vectorscope}) up(p, shownImage(p));
    for (Plane p : {Plane::Cie, Plane::GamutDisplay}) {
        if (panelVisible(p)) up(p, shownImage(p));
        else up(p, {});
    }
    // The scope views read these textures from their own contexts.
    gl::flush();
    return s;
}

std::optional<ToneMap> EngineHost::pictureToneMap() const {
    if (!toneMapHdr || !isHdr(results_.color.transfer)) return std::nullopt;
    return makeToneMap(results_.color.transfer, effectivePrimaries(results_.color, results_.height));
}

std::optional<ToneMap> EngineHost::previewToneMap() const {
    if (!previewShowsPicture(spec_.preview)) return std::nullopt;
    return pictureToneMap();
}

// The picture, and a preview that shows the picture, are tone mapped alike. Drawn from the
// planes, the shading carries it (uploadTo); an RGBA image, the textures' tone maps.
void EngineHost::setPictureToneMap(gl::FrameTextures& textures) {
    const std::optional<ToneMap> tm = pictureToneMap();
    const bool shaded = textures.shaded(gl::Plane::Picture) != nullptr;
    textures.setPictureToneMap(shaded ? std::nullopt : tm);
    textures.setPreviewToneMap(textures.shaded(gl::Plane::Preview) != nullptr ? std::nullopt : previewToneMap());
    toneMapped_ = tm.has_value() && textures.filled(gl::Plane::Picture);
}

bool EngineHost::isTrace(gl::Plane plane) const {
    return imagesOnGpu_ && (plane == gl::Plane::Waveform || plane == gl::Plane::Parade || plane == gl::Plane::Vectorscope);
}

ScopePlacement EngineHost::placement(gl::Plane plane, const gl::FrameTextures& textures) const {
    if (isTrace(plane)) {
        const auto& image = traceImages_[size_t(plane)];
        return tracePlacement(plane, image[0], image[1], spec_.paradeMode, spec_.waveformMode);
    }
    return ScopePlacement::whole(textures.imageWidth(plane), textures.imageHeight(plane));
}

RgbaImage EngineHost::overlayFor(gl::Plane plane) const {
    RgbaImage overlay;
    if (plane == gl::Plane::Preview) {   // zebra's and false colour's legend over the preview
        if (!hasResults_ || !previewHasLegend(spec_.preview) || frameWidth_ <= 0 || frameHeight_ <= 0) return overlay;
        overlay.resize(frameWidth_, frameHeight_);
        drawPreviewLegend(overlay, spec_.preview, spec_.filter, results_.color.transfer);
        return overlay;
    }
    if (!isTrace(plane) || !hasResults_) return overlay;
    const auto& image = traceImages_[size_t(plane)];
    renderGraticuleOverlay(plane, results_, spec_, image[0], image[1], overlay);
    return overlay;
}

void EngineHost::releaseGl() {
#if CS_HAVE_CUDA
    if (cuda_) cuda_->releaseGl();
#endif
    imagesOnGpu_ = false;
}

#if CS_HAVE_CUDA
std::shared_ptr<DeviceStream> EngineHost::decodeStream() const {
    if (!cuda_) return {};
    auto made = cuda_->makeDecodeStream();
    return made ? std::move(made.value()) : nullptr;
}

Status EngineHost::processCuda(const FrameView& frame, gl::FrameTextures& textures) {
    using gl::Plane;
    CudaEngine& cuda = *cuda_;
    GlTargets targets;
    // Textures sized once per size change; the engine registers them with CUDA again only when
    // their storage changes (a new generation).
    auto target = [&](Plane p, int w, int h, GlTexture& t) -> Status {
        if (Status s = textures.allocate(p, w, h); !s) return s;
        t = GlTexture{textures.texture(p).name(), w, h, textures.texture(p).generation()};
        return {};
    };
    if (Status s = target(Plane::Picture, frame.width, frame.height, targets.picture); !s) return s;
    if (spec_.preview != PreviewFilter::None)
        if (Status s = target(Plane::Preview, frame.width, frame.height, targets.preview); !s) return s;
    // Trace textures fill the plot rectangles of core's layout for the panel's image size,
    // so that the graticule overlay (drawn for that image) lies on them.
    const std::array<std::pair<Plane, GlTexture*>, 3> traces{{{Plane::Waveform, &targets.waveform},
                                                              {Plane::Parade, &targets.parade},
                                                              {Plane::Vectorscope, &targets.vectorscope}}};
    for (const auto& [p, t] : traces) {
        if (!panelVisible(p)) continue;
        int w = clampSize(panels_[size_t(p)][0]), h = clampSize(panels_[size_t(p)][1]);
        if (p == Plane::Waveform) { w = spec_.scopeWidth; h = spec_.scopeHeight; }
        if (p == Plane::Vectorscope) w = h = spec_.vectorscopeSize;
        traceImages_[size_t(p)] = {w, h};
        int tw = 0, th = 0;
        traceTextureSize(p, w, h, tw, th, spec_.paradeMode, spec_.waveformMode);
        if (Status s = target(p, tw, th, *t); !s) return s;
    }
    imagesOnGpu_ = true;
    if (region) {
        // The picture and the preview of the whole frame, counting nothing; then the scopes of
        // the region's view into the trace textures (the engine keeps the registrations of the
        // textures one call leaves out).
        Result<FrameView> view = regionView(frame, *region);
        if (!view) return view.status();
        GlTargets pictureTargets;
        pictureTargets.picture = targets.picture;
        pictureTargets.preview = targets.preview;
        ScopeSpec picture = spec_;
        picture.histogram = picture.waveform = picture.parade = picture.vectorscope = picture.cie = false;
        picture.gamutDisplay = GamutDisplay::None;
        picture.hdr = false;
        if (Status s = cuda.processToGl(frame, picture, whole_, pictureTargets); !s) return s;
        GlTargets scopeTargets = targets;
        scopeTargets.picture = scopeTargets.preview = {};
        ScopeSpec scopes = spec_;
        scopes.picture = false;
        scopes.preview = PreviewFilter::None;
        if (Status s = cuda.processToGl(*view, scopes, results_, scopeTargets); !s) return s;
    } else if (Status s = cuda.processToGl(frame, spec_, results_, targets); !s) {
        return s;
    }
    hasResults_ = true;
    textures.setFilled(Plane::Picture, targets.picture.name != 0);
    setPictureToneMap(textures);
    textures.setFilled(Plane::Preview, targets.preview.name != 0);
    for (const auto& [p, t] : traces) textures.setFilled(p, t->name != 0);
    // The histogram is small: core draws it from the downloaded counts, as in the CPU path.
    RgbaImage& histogramImage = panelImages_[size_t(Plane::Histogram)];
    histogramImage = {};
    if (spec_.histogram) {
        ScopeSpec s = spec_;
        s.scopeWidth = clampSize(panels_[size_t(Plane::Histogram)][0]);
        s.scopeHeight = clampSize(panels_[size_t(Plane::Histogram)][1]);
        renderHistogram(histogramOnly(results_, histogramChannels), s, histogramImage);
    }
    Status s = textures.upload(Plane::Histogram, histogramImage);
    // So is the CIE diagram, from the 512 x 512 chromaticity counts the engine copied back.
    RgbaImage& cieImage = panelImages_[size_t(Plane::Cie)];
    cieImage = {};
    if (panelVisible(Plane::Cie) && results_.gamut.measured) renderCieDiagram(results_, spec_, cieImage);
    drawnHere_[size_t(Plane::Cie)] = true;   // shownImage(Cie) is this one
    if (Status c = textures.upload(Plane::Cie, cieImage); !c && s) s = c;
    // And the gamut display, from its 512 x 512 counts.
    RgbaImage& displayImage = panelImages_[size_t(Plane::GamutDisplay)];
    displayImage = {};
    if (spec_.gamutDisplay != GamutDisplay::None) renderGamutDisplay(results_, spec_, displayImage);
    drawnHere_[size_t(Plane::GamutDisplay)] = true;
    if (Status c = textures.upload(Plane::GamutDisplay, displayImage); !c && s) s = c;
    textures.touch();
    gl::flush();
    return s;
}

// Copies the 2x2 block of samples around the pixel (even-aligned, so 4:2:x chroma comes
// along) from device memory, on the CUDA engine's stream, and reads it like a host frame.
std::optional<PixelReading> EngineHost::readDevicePixel(const FrameView& frame, const ColorInfo& color, int x, int y) const {
    if (!cuda_ || !frame.onDevice || !frame.valid() || x < 0 || y < 0 || x >= frame.width || y >= frame.height) return std::nullopt;
    const int x0 = x & ~1, y0 = y & ~1;
    auto block = cuda_->copyRegion(frame, x0, y0, std::min(2, frame.width - x0), std::min(2, frame.height - y0));
    if (!block) return std::nullopt;
    auto p = readPixel(block->view(), color, x - x0, y - y0);
    if (p) {
        p->x = x;
        p->y = y;
    }
    return p;
}

Result<Frame> EngineHost::copyToHost(const FrameView& frame) const {
    if (!cuda_ || !frame.onDevice || !frame.valid()) return Status::error("the frame is not in GPU memory");
    return cuda_->copyRegion(frame, 0, 0, frame.width, frame.height);
}
#endif

}  // namespace cs

namespace cs {

#if !CS_HAVE_CUDA
// Without CUDA no frame lives in GPU memory: every frame is read by readPixel.
std::optional<PixelReading> EngineHost::readDevicePixel(const FrameView&, const ColorInfo&, int, int) const {
    return std::nullopt;
}
std::shared_ptr<DeviceStream> EngineHost::decodeStream() const { return {}; }
Result<Frame> EngineHost::copyToHost(const FrameView&) const { return Status::error("the frame is not in GPU memory"); }
#endif

}  // namespace cs
