// Graticule geometry (see Graticule.h): scale lines, labels and targets computed from the
// bit depth, range and matrix, shared by the CPU renderer and the OpenGL views.
#include "Graticule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "BitmapFont.h"
#include "core/ScopeStyle.h"
#include "core/ScopeZoom.h"

namespace cs {

namespace {

constexpr uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | (g << 8) | (b << 16) | (a << 24); }

int clampDepth(int bitDepth) { return std::clamp(bitDepth, 8, 16); }
double maxCode(int depth) { return double((1 << depth) - 1); }

void addLabelledLevel(Graticule& g, double y, Emphasis e, const std::string& label) {
    g.lines.push_back({0.0, y, 1.0, y, e});
    if (!label.empty()) g.labels.push_back({0.0, y, label, HAlign::Right, VAlign::Middle, e});
}

// Frame lines where no scale line lies already (full range: code 0 is 0 IRE).
void addFrame(Graticule& g) {
    auto hasLevel = [&](double y) {
        return std::any_of(g.lines.begin(), g.lines.end(),
                           [&](const GraticuleLine& l) { return l.y0 == l.y1 && std::abs(l.y0 - y) < 1e-9; });
    };
    if (!hasLevel(0.0)) g.lines.push_back({0.0, 0.0, 1.0, 0.0, Emphasis::Minor});
    if (!hasLevel(1.0)) g.lines.push_back({0.0, 1.0, 1.0, 1.0, Emphasis::Minor});
    g.lines.push_back({0.0, 0.0, 0.0, 1.0, Emphasis::Minor});
    g.lines.push_back({1.0, 0.0, 1.0, 1.0, Emphasis::Minor});
}

// The code values of the code-value scale: legal limits and quarters (limited), or
// quarters of the code range (full), each with its emphasis.
struct CodeMark { int code; Emphasis emphasis; };
std::vector<CodeMark> codeMarks(int depth, Range range) {
    const int top = (1 << depth) - 1, quarter = 1 << (depth - 2), s = depth - 8;
    if (range == Range::Limited)
        return {{0, Emphasis::Minor},           {16 << s, Emphasis::Limit},       {quarter, Emphasis::Minor},
                {2 * quarter, Emphasis::Major}, {3 * quarter, Emphasis::Minor},   {235 << s, Emphasis::Limit},
                {top, Emphasis::Minor}};
    return {{0, Emphasis::Limit}, {quarter, Emphasis::Minor}, {2 * quarter, Emphasis::Major},
            {3 * quarter, Emphasis::Minor}, {top, Emphasis::Limit}};
}

}  // namespace

uint32_t graticuleRgba(Emphasis e) {
    switch (e) {
        case Emphasis::Minor: return rgba(150, 150, 150, 90);
        case Emphasis::Major: return rgba(215, 160, 70, 150);
        case Emphasis::Limit: return rgba(255, 185, 60, 200);
        case Emphasis::Target: return rgba(235, 205, 150, 200);
        case Emphasis::Skin: return rgba(240, 170, 120, 170);
        case Emphasis::Reference: return rgba(80, 220, 255, 190);
    }
    return rgba(150, 150, 150, 90);
}

uint32_t graticuleLabelRgba(Emphasis e) {
    switch (e) {
        case Emphasis::Minor: return rgba(170, 170, 170, 230);
        case Emphasis::Major: return rgba(225, 175, 85, 240);
        case Emphasis::Limit: return rgba(255, 195, 80, 255);
        case Emphasis::Target: return rgba(240, 215, 165, 240);
        case Emphasis::Skin: return rgba(245, 180, 135, 240);
        case Emphasis::Reference: return rgba(110, 230, 255, 250);
    }
    return rgba(170, 170, 170, 230);
}

Graticule waveformGraticule(int bitDepth, Range range, WaveformScale scale) {
    const int depth = clampDepth(bitDepth);
    const double top = maxCode(depth);
    Graticule g;
    if (scale == WaveformScale::Ire) {
        for (int ire = 0; ire <= 100; ire += 10) {
            const Emphasis e = (ire == 0 || ire == 100) ? Emphasis::Limit : (ire == 50 ? Emphasis::Major : Emphasis::Minor);
            addLabelledLevel(g, ireToCode(ire, depth, range) / top, e, ire % 20 == 0 ? std::to_string(ire) : std::string());
        }
    } else {
        for (const CodeMark& m : codeMarks(depth, range)) addLabelledLevel(g, m.code / top, m.emphasis, std::to_string(m.code));
    }
    addFrame(g);
    return g;
}

Graticule rgbLimitedCodeGraticule(int bitDepth) {
    const int depth = clampDepth(bitDepth), s = depth - 8;
    const double top = maxCode(depth), black = double(16 << s), span = double(219 << s);
    Graticule g = waveformGraticule(depth, Range::Limited, WaveformScale::CodeValue);
    // The luma scale's y (code / top) to the panel's: limited black at 0, limited white at 1.
    auto panelY = [&](double y) { return (y * top - black) / span; };
    for (GraticuleLine& l : g.lines) {
        l.y0 = panelY(l.y0);
        l.y1 = panelY(l.y1);
    }
    for (GraticuleLabel& l : g.labels) l.y = panelY(l.y);
    return g;
}

ChromaCodes chromaCodes(Matrix matrix, Range range, int bitDepth, double r, double g, double b) {
    const int depth = clampDepth(bitDepth);
    const LumaWeights w = lumaWeights(matrix);
    const double y = w.kr * r + w.kg * g + w.kb * b;
    const double cb = (b - y) / (2.0 * (1.0 - w.kb)), cr = (r - y) / (2.0 * (1.0 - w.kr));
    const double mid = double(1 << (depth - 1));
    const double scale = range == Range::Limited ? 224.0 * double(1 << (depth - 8)) : maxCode(depth);
    return {mid + scale * cb, mid + scale * cr};
}

PlotPoint vectorscopePoint(double cb, double cr, int bitDepth, int zoom) {
    const int depth = clampDepth(bitDepth);
    const double levels = double(1 << depth), mid = levels / 2.0, z = double(vectorscopeZoomFactor(zoom));
    return {0.5 + z * (cb - mid) / levels, 0.5 + z * (cr - mid) / levels};
}

Graticule vectorscopeGraticule(Matrix matrix, Range range, int bitDepth, int zoom, bool targets75, bool skinLine) {
    const int depth = clampDepth(bitDepth);
    const int z = vectorscopeZoomFactor(zoom);
    constexpr double kCentre = 0.5, kRadius = 0.5;
    constexpr double kEdgeMarker = 0.45;   // offset from the centre of the markers of cropped targets
    constexpr double kPi = std::numbers::pi;
    Graticule g;
    g.circles.push_back({kCentre, kCentre, kRadius, Emphasis::Major});
    // Axes through the centre, and ticks every 10 degrees (longer every 30) inside the circle.
    g.lines.push_back({kCentre - kRadius, kCentre, kCentre + kRadius, kCentre, Emphasis::Minor});
    g.lines.push_back({kCentre, kCentre - kRadius, kCentre, kCentre + kRadius, Emphasis::Minor});
    for (int deg = 0; deg < 360; deg += 10) {
        const double a = deg * kPi / 180.0, len = deg % 30 == 0 ? 0.035 : 0.018;
        const double c = std::cos(a), s = std::sin(a);
        g.lines.push_back({kCentre + c * kRadius, kCentre + s * kRadius, kCentre + c * (kRadius - len),
                           kCentre + s * (kRadius - len), Emphasis::Minor});
    }
    // Inside the plot square. 100% green and magenta lie just beyond the outer circle (their
    // Cb and Cr are both large: the corners of the code range), but they are valid codes.
    auto inside = [](PlotPoint p) { return p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 1.0; };

    struct Bar { const char* name; double r, g, b; };
    static constexpr Bar kBars[] = {{"R", 1, 0, 0}, {"MG", 1, 0, 1}, {"B", 0, 0, 1},
                                    {"CY", 0, 1, 1}, {"G", 0, 1, 0}, {"YL", 1, 1, 0}};
    for (const Bar& bar : kBars) {
        const ChromaCodes full = chromaCodes(matrix, range, depth, bar.r, bar.g, bar.b);
        const ChromaCodes part = chromaCodes(matrix, range, depth, 0.75 * bar.r, 0.75 * bar.g, 0.75 * bar.b);
        const PlotPoint p100 = vectorscopePoint(full.cb, full.cr, depth, z);
        const PlotPoint p75 = vectorscopePoint(part.cb, part.cr, depth, z);
        if (inside(p100)) g.boxes.push_back({p100.x, p100.y, 0.014, 0.014, Emphasis::Major});
        if (targets75 && inside(p75)) g.boxes.push_back({p75.x, p75.y, 0.02, 0.02, Emphasis::Target});
        const PlotPoint shown = targets75 ? p75 : p100;   // the innermost target drawn
        if (!inside(p100) && !inside(shown)) {
            // Beyond the (zoomed) square: a marker where the target's direction leaves the
            // plot, an arrow outwards and the colour's name, so the targets stay in view.
            const double dx = shown.x - kCentre, dy = shown.y - kCentre;
            const double t = kEdgeMarker / std::max(std::abs(dx), std::abs(dy));
            const double mx = kCentre + dx * t, my = kCentre + dy * t, len = std::hypot(dx, dy);
            if (!(len > 0.0)) continue;
            const double ux = dx / len, uy = dy / len;
            g.boxes.push_back({mx, my, 0.008, 0.008, Emphasis::Target});
            g.lines.push_back({mx + ux * 0.012, my + uy * 0.012, mx + ux * 0.035, my + uy * 0.035, Emphasis::Target});
            g.labels.push_back({mx - ux * 0.04, my - uy * 0.04, bar.name, HAlign::Center, VAlign::Middle, Emphasis::Target});
            continue;
        }
        // One label per colour, just outside its outermost visible target.
        const PlotPoint anchor = inside(p100) ? p100 : p75;
        if (!inside(anchor) || (!inside(p100) && !targets75)) continue;
        const double dx = anchor.x - kCentre, dy = anchor.y - kCentre, len = std::hypot(dx, dy);
        if (len <= 0.0) continue;
        const double lx = anchor.x + dx / len * 0.045, ly = anchor.y + dy / len * 0.045;
        g.labels.push_back({lx, ly, bar.name, HAlign::Center, VAlign::Middle, Emphasis::Target});
    }
    if (skinLine) {
        const double a = kSkinToneAngleDegrees * kPi / 180.0;
        g.lines.push_back({kCentre, kCentre, kCentre + std::cos(a) * kRadius, kCentre + std::sin(a) * kRadius,
                           Emphasis::Skin});
    }
    if (z > 1) g.labels.push_back({0.0, 1.0, std::to_string(z) + "x", HAlign::Left, VAlign::Top, Emphasis::Major});
    return g;
}

Graticule histogramGraticule(int bitDepth, Range range, HistogramScale scale) {
    const int depth = clampDepth(bitDepth);
    const double top = maxCode(depth);
    Graticule g;
    for (const CodeMark& m : codeMarks(depth, range)) {
        const double x = m.code / top;
        g.lines.push_back({x, 0.0, x, 1.0, m.emphasis});
        g.labels.push_back({x, 0.0, std::to_string(m.code), HAlign::Center, VAlign::Top, m.emphasis});
    }
    for (int q = 0; q <= 4; ++q) {
        const double y = q / 4.0;
        g.lines.push_back({0.0, y, 1.0, y, Emphasis::Minor});
    }
    g.labels.push_back({0.0, 1.0, scale == HistogramScale::Log ? "LOG" : "LIN", HAlign::Left, VAlign::Top, Emphasis::Minor});
    return g;
}

// ---- Layout ----------------------------------------------------------------------------

int graticuleTextScale(int imageWidth, int imageHeight) {
    // The 5x7 font stays about 1/60 of the shorter side or more: doubled from 480 px up.
    const int side = std::min(imageWidth, imageHeight);
    return std::max(1, side / 480 + 1);
}

namespace {
PlotRect insetRect(int imageWidth, int imageHeight, int left, int top, int right, int bottom) {
    PlotRect r;
    // Tiny images: the margins give way before the plot vanishes.
    if (imageWidth - left - right < imageWidth / 2) left = right = 0;
    if (imageHeight - top - bottom < imageHeight / 2) top = bottom = 0;
    r.left = left;
    r.top = top;
    r.width = std::max(0, imageWidth - left - right);
    r.height = std::max(0, imageHeight - top - bottom);
    return r;
}
}  // namespace

PlotRect waveformPlotRect(int imageWidth, int imageHeight) {
    const int s = graticuleTextScale(imageWidth, imageHeight);
    const int labelWidth = font::textWidth("1023", s);   // widest level label
    const int halfText = (font::kGlyphHeight * s + 1) / 2;
    return insetRect(imageWidth, imageHeight, labelWidth + 8 * s, halfText + 4, 6 * s, halfText + 4);
}

PlotRect paradePanelRect(const PlotRect& plot, int panel, int textScale, bool headroom) {
    return waveformPanelRect(plot, panel, 3, textScale, headroom);
}

PlotRect waveformPanelRect(const PlotRect& plot, int panel, int panels, int textScale, bool headroom) {
    panels = std::max(panels, 1);
    panel = std::clamp(panel, 0, panels - 1);
    int gap = panels > 1 ? 8 * std::max(textScale, 1) : 0;
    if ((panels - 1) * gap > plot.width / 10) gap = plot.width / (15 * (panels - 1));   // narrow images: gaps give way to panels
    const int panelWidth = std::max(0, (plot.width - (panels - 1) * gap) / panels);
    PlotRect r = plot;
    r.left = plot.left + panel * (panelWidth + gap);
    r.width = panelWidth;
    if (headroom && plot.height > 2) {
        int above = 0, below = 0;
        panelHeadroom(plot.height, above, below);
        r.top = plot.top + above;
        r.height = plot.height - above - below;
    }
    return r;
}

int paradeNameTop(const PlotRect& plot, const PlotRect& panel, int textScale) {
    const int s = std::max(textScale, 1), room = panel.top - plot.top, text = font::kGlyphHeight * s;
    if (room >= text + 2 * s) return plot.top + (room - text) / 2;
    return panel.top + 3 * s;
}

PlotRect histogramPlotRect(int imageWidth, int imageHeight) {
    const int s = graticuleTextScale(imageWidth, imageHeight);
    const int side = font::textWidth("1023", s) / 2 + 6 * s;   // half a centred edge label
    const int bottom = font::kGlyphHeight * s + 10;
    return insetRect(imageWidth, imageHeight, side, 6 * s, side, bottom);
}

PlotRect vectorscopePlotRect(int size) {
    PlotRect r;
    if (size <= 0) return r;
    const int margin = size >= 64 ? std::max(4, size / 60) : 0;
    int side = size - 2 * margin;
    if (side % 2 == 0) side -= 1;   // odd: the centre is a whole pixel
    side = std::max(side, 1);
    r.left = r.top = (size - side) / 2;
    r.width = r.height = side;
    return r;
}

}  // namespace cs
