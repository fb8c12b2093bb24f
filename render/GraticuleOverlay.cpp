// Graticule overlays (see GraticuleOverlay.h). Lines and text go through core's own
// drawLine/drawText; boxes, circles and label placement follow core/ScopeRender.cpp's
// rules (outline pixels once, a one-pixel anti-aliased ring, labels offset by a gap,
// kept inside the image, shadowed, and dropped where they would overlap).
#include "GraticuleOverlay.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/BitmapFont.h"
#include "core/Graticule.h"
#include "core/ScopeRender.h"

namespace cs {
namespace {

// Source-over in premultiplied form: on a transparent image this is what core's renderer
// does to an opaque one, so compositing the overlay later gives the same pixels.
void blend(RgbaImage& img, int x, int y, uint32_t rgba, float coverage) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height || !(coverage > 0.0f)) return;
    const float a = std::min(coverage, 1.0f) * float(rgba >> 24) / 255.0f;
    uint8_t* p = img.at(x, y);
    for (int c = 0; c < 3; ++c) {
        const float src = float((rgba >> (8 * c)) & 0xffu);
        p[c] = uint8_t(std::lround(float(p[c]) + (src - float(p[c])) * a));
    }
    p[3] = uint8_t(std::lround(float(p[3]) + (255.0f - float(p[3])) * a));
}

void drawBox(RgbaImage& img, const PlotRect& plot, const GraticuleBox& b) {
    const int x0 = int(std::lround(plot.toPixelX(b.cx - b.halfWidth))), x1 = int(std::lround(plot.toPixelX(b.cx + b.halfWidth)));
    const int y0 = int(std::lround(plot.toPixelY(b.cy + b.halfHeight))), y1 = int(std::lround(plot.toPixelY(b.cy - b.halfHeight)));
    const uint32_t c = graticuleRgba(b.emphasis);
    for (int x = x0; x <= x1; ++x) {
        blend(img, x, y0, c, 1.0f);
        if (y1 != y0) blend(img, x, y1, c, 1.0f);
    }
    for (int y = y0 + 1; y < y1; ++y) {
        blend(img, x0, y, c, 1.0f);
        if (x1 != x0) blend(img, x1, y, c, 1.0f);
    }
}

void drawCircle(RgbaImage& img, const PlotRect& plot, const GraticuleCircle& c) {
    const double cx = plot.toPixelX(c.cx), cy = plot.toPixelY(c.cy), r = c.radius * double(plot.width - 1);
    if (!std::isfinite(cx) || !std::isfinite(cy) || !(r > 0.0)) return;
    const uint32_t rgba = graticuleRgba(c.emphasis);
    const int xa = std::max(0, int(std::floor(cx - r - 1))), xb = std::min(img.width - 1, int(std::ceil(cx + r + 1)));
    const int ya = std::max(0, int(std::floor(cy - r - 1))), yb = std::min(img.height - 1, int(std::ceil(cy + r + 1)));
    for (int y = ya; y <= yb; ++y)
        for (int x = xa; x <= xb; ++x)
            blend(img, x, y, rgba, float(1.0 - std::abs(std::hypot(double(x) - cx, double(y) - cy) - r)));
}

struct TextRect { int x, y, w, h; };

void drawLabel(RgbaImage& img, const PlotRect& plot, const GraticuleLabel& l, int scale, std::vector<TextRect>& placed) {
    const int w = font::textWidth(l.text, scale), h = font::textHeight(l.text, scale);
    if (w == 0 || w > img.width || h > img.height) return;
    const int gap = 3 * scale;
    const double px = plot.toPixelX(l.x), py = plot.toPixelY(l.y);
    const double left = l.hAlign == HAlign::Left ? px + gap : l.hAlign == HAlign::Center ? px - w / 2.0 : px - gap - w;
    const double top = l.vAlign == VAlign::Top ? py + gap : l.vAlign == VAlign::Middle ? py - h / 2.0 : py - gap - h;
    if (!std::isfinite(left) || !std::isfinite(top)) return;
    const TextRect r{std::clamp(int(std::lround(left)), 0, img.width - w), std::clamp(int(std::lround(top)), 0, img.height - h), w, h};
    for (const TextRect& o : placed)
        if (r.x < o.x + o.w + 2 && o.x < r.x + r.w + 2 && r.y < o.y + o.h + 1 && o.y < r.y + r.h + 1) return;
    placed.push_back(r);
    drawText(img, r.x + scale, r.y + scale, l.text.c_str(), 0xb0000000u, scale);
    drawText(img, r.x, r.y, l.text.c_str(), graticuleLabelRgba(l.emphasis), scale);
}

void drawGraticule(RgbaImage& img, const PlotRect& plot, const Graticule& g, int textScale, bool labels,
                   std::vector<TextRect>& placed) {
    if (plot.empty()) return;
    for (const GraticuleCircle& c : g.circles) drawCircle(img, plot, c);
    for (const GraticuleLine& l : g.lines)
        drawLine(img, plot.toPixelX(l.x0), plot.toPixelY(l.y0), plot.toPixelX(l.x1), plot.toPixelY(l.y1),
                 graticuleRgba(l.emphasis));
    for (const GraticuleBox& b : g.boxes) drawBox(img, plot, b);
    if (labels)
        for (const GraticuleLabel& l : g.labels) drawLabel(img, plot, l, textScale, placed);
}

// The parade's channel names, in the trace hues of core's renderer.
void drawParadeNames(RgbaImage& img, const PlotRect& plot, bool rgb, int textScale) {
    static constexpr const char* kRgb[3] = {"R", "G", "B"};
    static constexpr const char* kYcc[3] = {"Y", "Cb", "Cr"};
    static constexpr uint32_t kRgbColours[3] = {0xff2e38ffu, 0xff4dff40u, 0xffff804du};
    static constexpr uint32_t kYccColours[3] = {0xffe6e6e6u, 0xffff804du, 0xff2e38ffu};
    for (int c = 0; c < 3; ++c) {
        const PlotRect panel = paradePanelRect(plot, c, textScale);
        const char* name = rgb ? kRgb[c] : kYcc[c];
        if (panel.empty() || font::textWidth(name, textScale) + 8 * textScale >= panel.width) continue;
        drawText(img, panel.left + 5 * textScale, panel.top + 4 * textScale, name, 0xb0000000u, textScale);
        drawText(img, panel.left + 4 * textScale, panel.top + 3 * textScale, name, rgb ? kRgbColours[c] : kYccColours[c], textScale);
    }
}

}  // namespace

void renderGraticuleOverlay(gl::Plane plane, const ScopeResults& r, const ScopeSpec& spec, int width, int height,
                            RgbaImage& out) {
    out = {};
    if (width <= 0 || height <= 0) return;
    const int depth = std::clamp(r.bitDepth, 8, 16);
    const int textScale = graticuleTextScale(width, height);
    std::vector<TextRect> placed;
    switch (plane) {
        case gl::Plane::Waveform:
            out.resize(width, height);
            drawGraticule(out, waveformPlotRect(width, height), waveformGraticule(depth, r.color.range, spec.waveformScale),
                          textScale, true, placed);
            break;
        case gl::Plane::Parade: {
            out.resize(width, height);
            const bool rgb = r.paradeMode == ParadeMode::Rgb;
            const PlotRect plot = waveformPlotRect(width, height);
            // R'G'B' is full range whatever the stream's Y'CbCr range is.
            const Graticule g = waveformGraticule(depth, rgb ? Range::Full : r.color.range, spec.waveformScale);
            for (int c = 0; c < 3; ++c) drawGraticule(out, paradePanelRect(plot, c, textScale), g, textScale, c == 0, placed);
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
            drawGraticule(out, histogramPlotRect(width, height), histogramGraticule(depth, r.color.range, spec.histogramScale),
                          textScale, true, placed);
            break;
        default: break;
    }
}

void traceTextureSize(gl::Plane plane, int width, int height, int& textureWidth, int& textureHeight) {
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
            textureWidth = 3 * paradePanelRect(p, 0, graticuleTextScale(width, height)).width;
            textureHeight = p.height;
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

ScopePlacement tracePlacement(gl::Plane plane, int width, int height) {
    auto rect = [](const PlotRect& p) { return RectF{double(p.left), double(p.top), double(p.width), double(p.height)}; };
    switch (plane) {
        case gl::Plane::Histogram: return {width, height, {{RectF{0, 0, 1, 1}, rect(histogramPlotRect(width, height))}}};
        case gl::Plane::Waveform: return {width, height, {{RectF{0, 0, 1, 1}, rect(waveformPlotRect(width, height))}}};
        case gl::Plane::Parade: {
            // The engine splits its texture in thirds; each third goes to its panel.
            ScopePlacement s{width, height, {}};
            const PlotRect plot = waveformPlotRect(width, height);
            for (int c = 0; c < 3; ++c)
                s.pieces.push_back({RectF{c / 3.0, 0, 1 / 3.0, 1}, rect(paradePanelRect(plot, c, graticuleTextScale(width, height)))});
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
