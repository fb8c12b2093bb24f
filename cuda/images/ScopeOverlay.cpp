// Overlays of the scope images as per-pixel tables (ScopeOverlay.h), and the host reference of
// the CUDA engine's scope images.
#include "ScopeOverlay.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include "core/Frame.h"
#include "scope/Graticule.h"
#include "scope/HdrGraticule.h"
#include "scope/ScopeRender.h"
#include "core/ThreadPool.h"
#include "core/ScopeZoom.h"

namespace cs::cuda {
namespace {

ShadePlot shadePlot(const PlotRect& p) { return ShadePlot{p.left, p.top, p.width, p.height}; }

// scope/ScopeRender's image size: <= 0 gives no image, else bounded like frames.
void imageSize(int w, int h, int& outW, int& outH) {
    if (w <= 0 || h <= 0) { outW = outH = 0; return; }
    outW = std::min(w, kMaxDimension);
    outH = std::min(h, kMaxDimension);
}

constexpr TraceChannel kRgbChannels[3] = {TraceChannel::Red, TraceChannel::Green, TraceChannel::Blue};
constexpr TraceChannel kYcbcrChannels[3] = {TraceChannel::LumaPanel, TraceChannel::Cb, TraceChannel::Cr};

void fillUniform(RgbaImage& img, uint8_t v) {
    const uint32_t px = uint32_t(v) | uint32_t(v) << 8 | uint32_t(v) << 16 | 0xff000000u;
    uint8_t* p = img.pixels.data();
    const size_t n = img.pixels.size() / 4;
    for (size_t i = 0; i < n; ++i) std::memcpy(p + 4 * i, &px, 4);
}

}  // namespace

ScopeLayout scopeLayout(ScopeImageKind kind, const ScopeSpec& spec, ParadeMode paradeMode) {
    ScopeLayout l;
    if (kind == ScopeImageKind::Vectorscope) imageSize(spec.vectorscopeSize, spec.vectorscopeSize, l.width, l.height);
    else imageSize(spec.scopeWidth, spec.scopeHeight, l.width, l.height);
    if (l.empty()) return l;
    switch (kind) {
        case ScopeImageKind::Histogram: l.plot = shadePlot(histogramPlotRect(l.width, l.height)); break;
        case ScopeImageKind::Waveform: {
            // renderWaveform's panels for the mode.
            const PlotRect plot = waveformPlotRect(l.width, l.height);
            const int textScale = graticuleTextScale(l.width, l.height);
            l.plot = shadePlot(plot);
            l.waveformMode = spec.waveformMode;
            switch (spec.waveformMode) {
                case WaveformMode::Luma: l.panels[0] = l.plot; break;
                case WaveformMode::RgbOverlay: l.panels[0] = shadePlot(waveformPanelRect(plot, 0, 1, textScale, true)); break;
                case WaveformMode::Yrgb:
                    for (int c = 0; c < 4; ++c) l.panels[c] = shadePlot(waveformPanelRect(plot, c, 4, textScale, c > 0));
                    break;
            }
            break;
        }
        case ScopeImageKind::Parade: {
            const PlotRect plot = waveformPlotRect(l.width, l.height);
            l.plot = shadePlot(plot);
            const int textScale = graticuleTextScale(l.width, l.height);
            for (int c = 0; c < 3; ++c)
                l.panels[c] = shadePlot(paradePanelRect(plot, c, textScale, paradeMode == ParadeMode::Rgb));
            break;
        }
        case ScopeImageKind::Vectorscope: l.plot = shadePlot(vectorscopePlotRect(l.width)); break;
    }
    return l;
}

OverlayKey overlayKey(ScopeImageKind kind, const ScopeSpec& spec, const ScopeResults& r) {
    OverlayKey k;
    k.kind = kind;
    const ScopeLayout l = scopeLayout(kind, spec, r.paradeMode);
    k.width = l.width;
    k.height = l.height;
    k.bitDepth = std::clamp(r.bitDepth, 8, 16);
    k.matrix = r.color.matrix;
    k.range = r.color.range;
    k.paradeMode = kind == ScopeImageKind::Parade ? r.paradeMode : ParadeMode::Rgb;
    if (kind != ScopeImageKind::Vectorscope) k.transfer = r.color.transfer;
    if (kind == ScopeImageKind::Histogram) k.histogramScale = spec.histogramScale;
    if (kind == ScopeImageKind::Waveform || kind == ScopeImageKind::Parade) {
        k.waveformScale = spec.waveformScale;
        k.referenceLines = spec.referenceLines;
        k.levelRange = levelRangeOf(kind == ScopeImageKind::Parade ? spec.paradeRange : spec.waveformRange);
    }
    if (kind == ScopeImageKind::Waveform) k.waveformMode = spec.waveformMode;
    if (kind == ScopeImageKind::Vectorscope) {
        k.zoom = vectorscopeZoomFactor(spec.vectorscopeZoom);
        k.targets75 = spec.vectorscopeTargets75;
        k.skinToneLine = spec.skinToneLine;
    }
    return k;
}

void drawOverlay(const OverlayKey& key, RgbaImage& img) {
    if (img.empty()) return;
    const int textScale = graticuleTextScale(img.width, img.height);
    LabelLayout placed;
    // What core's drawLevelGraticules reads of the results and the spec.
    ScopeResults levels;
    levels.bitDepth = key.bitDepth;
    levels.color.matrix = key.matrix;
    levels.color.range = key.range;
    levels.color.transfer = key.transfer;
    levels.paradeMode = key.paradeMode;
    ScopeSpec levelSpec;
    levelSpec.waveformScale = key.waveformScale;
    levelSpec.waveformMode = key.waveformMode;
    levelSpec.referenceLines = key.referenceLines;
    levelSpec.waveformRange = levelSpec.paradeRange = key.levelRange;
    switch (key.kind) {
        case ScopeImageKind::Histogram:
            drawGraticule(img, histogramPlotRect(img.width, img.height), histogramGraticuleFor(key.bitDepth, key.range, key.histogramScale, key.transfer),
                          textScale, true, placed);
            return;
        case ScopeImageKind::Waveform:
        case ScopeImageKind::Parade:
            // renderWaveform's and renderParade's graticules, reference lines and panel names.
            drawLevelGraticules(img, levels, levelSpec, key.kind == ScopeImageKind::Parade);
            return;
        case ScopeImageKind::Vectorscope:
            drawGraticule(img, vectorscopePlotRect(img.width),
                          vectorscopeGraticule(key.matrix, key.range, key.bitDepth, key.zoom, key.targets75, key.skinToneLine), textScale,
                          true, placed);
            return;
    }
}

ScopeOverlay buildOverlay(const OverlayKey& key, ThreadPool& pool) {
    ScopeOverlay o;
    o.width = key.width;
    o.height = key.height;
    const size_t pixels = size_t(std::max(key.width, 0)) * size_t(std::max(key.height, 0));
    o.index.assign(pixels, -1);
    if (pixels == 0) return o;
    // Pass 1: the pixels the overlay changes over some value (each chunk of values on its own
    // image; a pixel unchanged over value v maps v to itself).
    std::vector<uint8_t> changed(pixels, 0);
    std::mutex merge;
    pool.parallelFor(256, [&](int, int begin, int end) {
        RgbaImage img;
        img.resize(key.width, key.height);
        std::vector<uint8_t> mine(pixels, 0);
        for (int v = begin; v < end; ++v) {
            fillUniform(img, uint8_t(v));
            drawOverlay(key, img);
            const uint8_t* p = img.pixels.data();
            for (size_t i = 0; i < pixels; ++i)
                if (p[4 * i] != v || p[4 * i + 1] != v || p[4 * i + 2] != v) mine[i] = 1;
        }
        std::lock_guard<std::mutex> lock(merge);
        for (size_t i = 0; i < pixels; ++i) changed[i] |= mine[i];
    });
    int32_t touched = 0;
    for (size_t i = 0; i < pixels; ++i)
        if (changed[i]) o.index[i] = touched++;
    o.tables.assign(size_t(touched) * 768, 0);
    if (touched == 0) return o;
    // Pass 2: each touched pixel's value over every v (chunks write disjoint v entries).
    pool.parallelFor(256, [&](int, int begin, int end) {
        RgbaImage img;
        img.resize(key.width, key.height);
        for (int v = begin; v < end; ++v) {
            fillUniform(img, uint8_t(v));
            drawOverlay(key, img);
            const uint8_t* p = img.pixels.data();
            for (size_t i = 0; i < pixels; ++i) {
                const int32_t t = o.index[i];
                if (t < 0) continue;
                uint8_t* tab = o.tables.data() + size_t(t) * 768;
                for (int c = 0; c < 3; ++c) tab[c * 256 + v] = p[4 * i + size_t(c)];
            }
        }
    });
    return o;
}

void applyOverlay(const ScopeOverlay& overlay, RgbaImage& img) {
    if (img.width != overlay.width || img.height != overlay.height) return;
    const size_t pixels = overlay.index.size();
    for (size_t i = 0; i < pixels; ++i) {
        const int32_t t = overlay.index[i];
        if (t < 0) continue;
        const uint8_t* tab = overlay.tables.data() + size_t(t) * 768;
        uint8_t* p = img.pixels.data() + 4 * i;
        for (int c = 0; c < 3; ++c) p[c] = tab[c * 256 + p[c]];
    }
}

void traceHues(ScopeImageKind kind, const ScopeSpec& spec, ParadeMode mode, TraceHue hues[4]) {
    if (kind == ScopeImageKind::Parade) {
        const bool rgb = mode == ParadeMode::Rgb;
        for (int c = 0; c < 3; ++c) hues[c] = traceHue(spec.traceColour, rgb ? kRgbChannels[c] : kYcbcrChannels[c]);
        hues[3] = hues[2];
        return;
    }
    hues[0] = traceHue(spec.traceColour, spec.waveformMode == WaveformMode::Yrgb ? TraceChannel::LumaPanel : TraceChannel::Luma);
    for (int c = 0; c < 3; ++c) hues[1 + c] = traceHue(spec.traceColour, kRgbChannels[c]);
}

double histogramGain(const ScopeSpec& spec) { return traceGain(spec.histogramGain); }

WaveShade waveShade(const ScopeResults& r, const ScopeSpec& spec, ScopeImageKind kind) {
    WaveShade s;
    s.range = levelRangeOf(kind == ScopeImageKind::Parade ? spec.paradeRange : spec.waveformRange);
    s.frameWidth = r.width;
    s.frameHeight = r.height;
    s.levels = r.levels;
    s.gain = traceGain(spec.waveformGain);
    s.logSaturation = std::log1p(kWaveformSaturation);
    return s;
}

VectorShade vectorShade(const ScopeResults& r, const ScopeSpec& spec) {
    VectorShade s;
    s.levels = r.levels;
    s.zoom = vectorscopeZoomFactor(spec.vectorscopeZoom);
    s.total = (unsigned long long)std::max(r.width, 0) * (unsigned long long)std::max(r.height, 0);
    s.gain = traceGain(spec.vectorscopeGain);
    s.logSaturation = std::log1p(kVectorscopeSaturation);
    s.depthGain = vectorscopeDepthGain(r.levels);
    const LumaWeights w = lumaWeights(r.color.matrix);
    s.kr = w.kr;
    s.kb = w.kb;
    s.byHue = spec.traceColour == TraceColour::Channel;
    s.flatHue = traceHue(spec.traceColour, TraceChannel::Luma);
    const int depth = std::clamp(r.bitDepth, 8, 16);
    s.chromaScale = r.color.range == Range::Limited ? 224.0 * double(1 << (depth - 8)) : double(r.levels - 1);
    return s;
}

void referenceScopeImage(ScopeImageKind kind, const ScopeResults& r, const ScopeSpec& spec, const ScopeOverlay& overlay, RgbaImage& out) {
    const ScopeLayout l = scopeLayout(kind, spec, r.paradeMode);
    if (l.empty()) { out.resize(0, 0); return; }
    out.resize(l.width, l.height);
    TraceHue hues[4];
    traceHues(kind, spec, r.paradeMode, hues);
    const WaveShade wave = waveShade(r, spec, kind);
    const VectorShade vec = vectorShade(r, spec);
    std::vector<int> tops;
    if (kind == ScopeImageKind::Histogram && l.plot.width > 0) {
        const int pw = l.plot.width;
        tops.assign(size_t(4) * size_t(pw), -1);
        std::vector<unsigned long long> sums(size_t(4) * size_t(pw));
        const uint32_t* series[4] = {r.histY.data(), r.histR.data(), r.histG.data(), r.histB.data()};
        const int counts[4] = {r.levels, 256, 256, 256};
        unsigned long long yMax = 0, rgbMax = 0;
        for (int k = 0; k < 4; ++k)
            for (int d = 0; d < pw; ++d) {
                const unsigned long long s = histColumnSum(series[k], counts[k], d, pw);
                sums[size_t(k) * size_t(pw) + size_t(d)] = s;
                (k == 0 ? yMax : rgbMax) = std::max(k == 0 ? yMax : rgbMax, s);
            }
        const bool logScale = spec.histogramScale == HistogramScale::Log;
        for (int k = 0; k < 4; ++k)
            for (int d = 0; d < pw; ++d)
                tops[size_t(k) * size_t(pw) + size_t(d)] =
                    histBarTop(sums[size_t(k) * size_t(pw) + size_t(d)], k == 0 ? yMax : rgbMax, logScale, histogramGain(spec), l.plot.height);
    }
    const RowMajorColumns<uint32_t> wf{r.waveform.data(), r.width, r.levels}, pa{r.parade.data(), r.width, r.levels};
    for (int y = 0; y < l.height; ++y)
        for (int x = 0; x < l.width; ++x) {
            uint32_t v = kShadeBlack;
            switch (kind) {
                case ScopeImageKind::Histogram:
                    if (l.plot.contains(x, y)) v = histShadePixel(tops.data(), l.plot, x, y);
                    break;
                case ScopeImageKind::Waveform:
                    v = waveformModePixel(l.waveformMode, l.panels, hues, wf, 0, pa, 0, wave, x, y);
                    break;
                case ScopeImageKind::Parade:
                    for (int c = 0; c < 3; ++c)
                        if (l.panels[c].contains(x, y)) { v = waveShadePixel(pa, c, wave, hues[c], l.panels[c], x, y); break; }
                    break;
                case ScopeImageKind::Vectorscope:
                    if (l.plot.contains(x, y)) v = vectorShadePixel(r.vectorscope.data(), vec, l.plot, x, y);
                    break;
            }
            std::memcpy(out.at(x, y), &v, 4);
        }
    applyOverlay(overlay, out);
}

}  // namespace cs::cuda
