// Graticule overlays (see GraticuleOverlay.h): core's own drawGraticule into a transparent
// image gives the scope images' graticule in premultiplied form, so both always agree.
#include "GraticuleOverlay.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "scope/BitmapFont.h"
#include "scope/Graticule.h"
#include "scope/HdrGraticule.h"
#include "scope/ScopeRender.h"

namespace cs {
void renderGraticuleOverlay(gl::Plane plane, const ScopeResults& r, const ScopeSpec& spec, int width, int height,
                            RgbaImage& out) {
    out = {};
    if (width <= 0 || height <= 0) return;
    const int depth = std::clamp(r.bitDepth, 8, 16);
    const int textScale = graticuleTextScale(width, height);
    LabelLayout placed;
    switch (plane) {
        case gl::Plane::Waveform:
        case gl::Plane::Parade:
            out.resize(width, height);
            drawLevelGraticules(out, r, spec, plane == gl::Plane::Parade);
            break;
        case gl::Plane::Vectorscope:
            out.resize(width, height);
            drawGraticule(out, vectorscopePlotRect(width),
                          vectorscopeGraticule(r.color.matrix, r.color.range, depth, spec.vectorscopeZoom,
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

void traceTextureSize(gl::Plane plane, int width, int height, int& textureWidth, int& textureHeight, ParadeMode mode,
                      WaveformMode waveformMode) {
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
            // Luma: the plot. RGB overlay: its one panel with headroom. YRGB: four panels of
            // the plot's height side by side; the R'G'B' ones use their top rows (TraceTexels.h).
            const PlotRect p = waveformPlotRect(width, height);
            const int s = graticuleTextScale(width, height);
            const PlotRect panel = waveformMode == WaveformMode::RgbOverlay ? waveformPanelRect(p, 0, 1, s, true)
                                 : waveformMode == WaveformMode::Yrgb      ? waveformPanelRect(p, 0, 4, s, false)
                                                                           : p;
            textureWidth = waveformMode == WaveformMode::Yrgb ? 4 * panel.width : panel.width;
            textureHeight = panel.height;
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

ScopePlacement tracePlacement(gl::Plane plane, int width, int height, ParadeMode mode, WaveformMode waveformMode) {
    auto rect = [](const PlotRect& p) { return RectF{double(p.left), double(p.top), double(p.width), double(p.height)}; };
    switch (plane) {
        case gl::Plane::Histogram: return {width, height, {{RectF{0, 0, 1, 1}, rect(histogramPlotRect(width, height))}}};
        case gl::Plane::Waveform: {
            const PlotRect plot = waveformPlotRect(width, height);
            const int s = graticuleTextScale(width, height);
            if (waveformMode == WaveformMode::RgbOverlay)
                return {width, height, {{RectF{0, 0, 1, 1}, rect(waveformPanelRect(plot, 0, 1, s, true))}}};
            if (waveformMode == WaveformMode::Luma) return {width, height, {{RectF{0, 0, 1, 1}, rect(plot)}}};
            // YRGB: a quarter of the texture per panel; the R'G'B' panels' traces fill the top
            // rows of their quarter, as many as the panel has.
            ScopePlacement placement{width, height, {}};
            for (int c = 0; c < 4; ++c) {
                const PlotRect panel = waveformPanelRect(plot, c, 4, s, c > 0);
                const double rows = plot.height > 0 ? double(panel.height) / double(plot.height) : 1.0;
                placement.pieces.push_back({RectF{c / 4.0, 0, 1 / 4.0, rows}, rect(panel)});
            }
            return placement;
        }
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
