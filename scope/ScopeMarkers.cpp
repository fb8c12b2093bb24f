#include "ScopeMarkers.h"

#include <algorithm>

#include "Graticule.h"
#include "core/ScopeZoom.h"

namespace cs {
namespace {

// ScopeRender's mapping: column c of `columns` covers display columns in proportion (its
// centre here); code v of `levels` lies on row toPixelY(v / (levels - 1)), as the trace's
// rows (levelSpans, top down) and the graticule's lines put it; zoomed, at its place in the
// range (LevelZoom.h's mapping), none beyond it.
std::optional<ScopeMarker> onPanel(const PlotRect& panel, int column, int columns, int code, int levels, LevelRange zoom) {
    const LevelRange r = levelRangeOf(zoom);
    const double y = (double(code) / double(std::max(levels - 1, 1)) - r.lo) / (r.hi - r.lo);
    if (y < -1e-9 || y > 1.0 + 1e-9) return std::nullopt;
    return ScopeMarker{panel.left + (column + 0.5) * double(panel.width) / double(columns), panel.toPixelY(y)};
}

bool columnInside(const ScopeResults& r, const MarkedPixel& p) { return r.width > 0 && p.column >= 0 && p.column < r.width; }

}  // namespace

std::vector<ScopeMarker> waveformMarkers(const ScopeResults& r, const ScopeSpec& spec, int imageWidth, int imageHeight,
                                         const MarkedPixel& p) {
    std::vector<ScopeMarker> markers;
    if (!columnInside(r, p) || imageWidth <= 0 || imageHeight <= 0) return markers;
    const PlotRect plot = waveformPlotRect(imageWidth, imageHeight);
    if (plot.empty()) return markers;
    const int textScale = graticuleTextScale(imageWidth, imageHeight);
    auto mark = [&](const PlotRect& panel, int code) {
        if (panel.empty()) return;
        if (auto at = onPanel(panel, p.column, r.width, code, r.levels, spec.waveformRange)) markers.push_back(*at);
    };
    // ScopeRender's renderWaveform lays each mode's panels out so.
    const bool rgb = r.paradeMode == ParadeMode::Rgb;
    const std::array<int, 3> rgbCodes = {p.r, p.g, p.b};
    switch (spec.waveformMode) {
        case WaveformMode::Luma:
            mark(plot, p.luma);
            break;
        case WaveformMode::RgbOverlay:
            if (rgb)
                for (int code : rgbCodes) mark(waveformPanelRect(plot, 0, 1, textScale, true), code);
            break;
        case WaveformMode::Yrgb:
            mark(waveformPanelRect(plot, 0, 4, textScale, false), p.luma);
            if (rgb)
                for (int c = 0; c < 3; ++c) mark(waveformPanelRect(plot, c + 1, 4, textScale, true), rgbCodes[size_t(c)]);
            break;
    }
    return markers;
}

std::vector<ScopeMarker> paradeMarkers(const ScopeResults& r, int imageWidth, int imageHeight, const MarkedPixel& p, LevelRange zoom) {
    std::vector<ScopeMarker> markers;
    if (!columnInside(r, p) || imageWidth <= 0 || imageHeight <= 0) return markers;
    const PlotRect plot = waveformPlotRect(imageWidth, imageHeight);
    const int textScale = graticuleTextScale(imageWidth, imageHeight);
    const bool rgb = r.paradeMode == ParadeMode::Rgb;
    const std::array<int, 3> codes = rgb ? std::array<int, 3>{p.r, p.g, p.b} : std::array<int, 3>{p.luma, p.cb, p.cr};
    for (int c = 0; c < 3; ++c) {
        const PlotRect panel = paradePanelRect(plot, c, textScale, rgb);
        if (panel.empty()) continue;
        if (auto at = onPanel(panel, p.column, r.width, codes[size_t(c)], r.levels, zoom)) markers.push_back(*at);
    }
    return markers;
}

std::optional<ScopeMarker> vectorscopeMarker(const ScopeResults& r, const ScopeSpec& spec, int size, const MarkedPixel& p) {
    const PlotRect plot = vectorscopePlotRect(size);
    if (plot.empty()) return std::nullopt;
    const PlotPoint at = vectorscopePoint(p.cb, p.cr, r.bitDepth, spec.vectorscopeZoom);
    if (at.x < 0.0 || at.x > 1.0 || at.y < 0.0 || at.y > 1.0) return std::nullopt;
    return ScopeMarker{plot.toPixelX(at.x), plot.toPixelY(at.y)};
}

}  // namespace cs
