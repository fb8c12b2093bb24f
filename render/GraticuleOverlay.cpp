// Graticule overlays (see GraticuleOverlay.h): core's own drawGraticule into a transparent
// image gives the scope images' graticule in premultiplied form, so both always agree.
#include "GraticuleOverlay.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/BitmapFont.h"
#include "core/Graticule.h"
#include "core/HdrGraticule.h"
#include "core/ScopeRender.h"

namespace cs {
namespace {

// The parade's channel names, in the trace hues of core's renderer.
void drawParadeNames(RgbaImage& img, const PlotRect& plot, bool rgb, int textScale) {
    static constexpr const char* kRgb[3] = {"R", "G", "B"};
    static constexpr const char* kYcc[3] = {"Y", "Cb", "Cr"};
    static constexpr uint32_t kRgbColours[3] = {0xff2e38ffu, 0xff4dff40u, 0xffff804du};
    static constexpr uint32_t kYccColours[3] = {0xffe6e6e6u, 0xffff804du, 0xff2e38ffu};
    for (int c = 0; c < 3; ++c) {
        const PlotRect panel = paradePanelRect(plot, c, textScale, rgb);
        const char* name = rgb ? kRgb[c] : kYcc[c];
        if (panel.empty() || font::textWidth(name, textScale) + 8 * textScale >= panel.width) continue;
        const int top = paradeNameTop(plot, panel, textScale);
        drawText(img, panel.left + 5 * textScale, top + textScale, name, 0xb0000000u, textScale);
        drawText(img, panel.left + 4 * textScale, top, name, rgb ? kRgbColours[c] : kYccColours[c], textScale);
    }
}

}  // namespace

void renderGraticuleOverlay(gl::Plane plane, const ScopeResults& r, const ScopeSpec& spec, int width, int height,
                            RgbaImage& out) {
    out = {};
    if (width <= 0 || height <= 0) return;
    const int depth = std::clamp(r.bitDepth, 8, 16);
    const int textScale = graticuleTextScale(width, height);
    LabelLayout placed;
    switch (plane) {
        case gl::Plane::Waveform:
            out.resize(width, height);
            drawGraticule(out, waveformPlotRect(width, height), waveformGraticuleFor(depth, r.color.range, spec.waveformScale, r.color.transfer),
                          textScale, true, placed);
            break;
        case gl::Plane::Parade: {
            out.resize(width, height);
            const bool rgb = r.paradeMode == ParadeMode::Rgb;
            const PlotRect plot = waveformPlotRect(width, height);
            // R'G'B' is full range whatever the stream's Y'CbCr range is.
            const Graticule g = waveformGraticuleFor(depth, rgb ? Range::Full : r.color.range, spec.waveformScale, r.color.transfer, !rgb);
            for (int c = 0; c < 3; ++c) drawGraticule(out, paradePanelRect(plot, c, textScale, rgb), g, textScale, c == 0, placed);
            drawParadeNames(out, plot, rgb, textScale);
            break;
        }
        case gl::Plane::Vectorscope:
            out.resize(width, height);
            drawGraticule(out, vectorscopePlotRect(width),
                          vectorscopeGraticule(r.color.matrix, r.color.range, depth, spec.vectorscopeZoom >= 2 ? 2 : 1,
                                               spec.vectorscopeTargets75, spec.skinToneLine),
                          textScale, true, placed);
            break;
        case gl::Plane::Histogram:
            out.resize(width, height);
            drawGraticule(out, histogramPlotRect(width, height), histogramGraticuleFor(depth, r.color.range, spec.histogramScale, r.color.transfer),
                          textScale, true, placed);
            break;
        default: break;
    }
}

void traceTextureSize(gl::Plane plane, int width, int height, int& textureWidth, int& textureHeight, ParadeMode mode) {
    textureWidth = width;
    textureHeight = height;
    switch (plane) {
        case gl::Plane::Histogram: {
            const PlotRect p = histogramPlotRect(width, height);
            textureWidth = p.width;
            textureHeight = p.height;
            break;
        }
        case gl::Plane::Waveform: {
            const PlotRect p = waveformPlotRect(width, height);
            textureWidth = p.width;
            textureHeight = p.height;
            break;
        }
        case gl::Plane::Parade: {
            const PlotRect p = waveformPlotRect(width, height);
            const PlotRect panel = paradePanelRect(p, 0, graticuleTextScale(width, height), mode == ParadeMode::Rgb);
            textureWidth = 3 * panel.width;
            textureHeight = panel.height;
            break;
        }
        case gl::Plane::Vectorscope: {
            const PlotRect p = vectorscopePlotRect(std::min(width, height));
            textureWidth = p.width;
            textureHeight = p.height;
            break;
        }
        default: break;
    }
    textureWidth = std::max(textureWidth, 1);
    textureHeight = std::max(textureHeight, 1);
}

ScopePlacement tracePlacement(gl::Plane plane, int width, int height, ParadeMode mode) {
    auto rect = [](const PlotRect& p) { return RectF{double(p.left), double(p.top), double(p.width), double(p.height)}; };
    switch (plane) {
        case gl::Plane::Histogram: return {width, height, {{RectF{0, 0, 1, 1}, rect(histogramPlotRect(width, height))}}};
        case gl::Plane::Waveform: return {width, height, {{RectF{0, 0, 1, 1}, rect(waveformPlotRect(width, height))}}};
        case gl::Plane::Parade: {
            // The engine splits its texture in thirds; each third goes to its panel.
            ScopePlacement s{width, height, {}};
            const PlotRect plot = waveformPlotRect(width, height);
            for (int c = 0; c < 3; ++c)
                s.pieces.push_back({RectF{c / 3.0, 0, 1 / 3.0, 1}, rect(paradePanelRect(plot, c, graticuleTextScale(width, height), mode == ParadeMode::Rgb))});
            return s;
        }
        case gl::Plane::Vectorscope: {
            const int side = std::min(width, height);
            return {side, side, {{RectF{0, 0, 1, 1}, rect(vectorscopePlotRect(side))}}};
        }
        default: return ScopePlacement::whole(width, height);
    }
}

}  // namespace cs
