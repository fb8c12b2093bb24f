#include "GamutDisplay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "BitmapFont.h"
#include "ScopeRender.h"

namespace cs {
namespace {

constexpr uint32_t rgba(int r, int g, int b, int a = 255) {
    return uint32_t(r) | uint32_t(g) << 8 | uint32_t(b) << 16 | uint32_t(a) << 24;
}

constexpr uint32_t kBackground = rgba(12, 12, 12), kGrid = rgba(52, 52, 52), kOutline = rgba(200, 200, 200),
                   kLimit = rgba(230, 170, 60), kText = rgba(170, 170, 170), kTarget = rgba(200, 200, 200);

// A dashed line: 6 pixels drawn, 4 not.
void drawDashed(RgbaImage& img, double x0, double y0, double x1, double y1, uint32_t colour) {
    const double length = std::hypot(x1 - x0, y1 - y0);
    if (length < 1e-9) return;
    for (double t = 0.0; t < length; t += 10.0) {
        const double a = t / length, b = std::min(length, t + 6.0) / length;
        drawLine(img, x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b, colour);
    }
}

struct Painter {
    const GamutDisplayLayout& l;
    RgbaImage& img;
    void line(double u0, double v0, double u1, double v1, uint32_t c, bool dashed = false) const {
        const auto [ax, ay] = l.toPixel(u0, v0);
        const auto [bx, by] = l.toPixel(u1, v1);
        if (dashed) drawDashed(img, ax, ay, bx, by, c);
        else drawLine(img, ax, ay, bx, by, c);
    }
    // A closed polygon through display coordinates.
    void polygon(std::initializer_list<std::pair<double, double>> points, uint32_t c, bool dashed = false) const {
        const std::pair<double, double>* prev = points.end() - 1;
        for (const auto& p : points) {
            line(prev->first, prev->second, p.first, p.second, c, dashed);
            prev = &p;
        }
    }
    void text(double u, double v, const std::string& s, uint32_t c, int dx = 0, int dy = 0) const {
        const auto [x, y] = l.toPixel(u, v);
        const int w = font::textWidth(s, l.textScale);
        const int tx = std::clamp(int(std::lround(x)) + dx, 0, std::max(0, l.size - w - 1));
        const int ty = std::clamp(int(std::lround(y)) + dy, 0, std::max(0, l.size - l.charH - 1));
        drawText(img, tx, ty, s.c_str(), c, l.textScale);
    }
};

// One diamond from the two components' corners at level `lo` and `hi` (fractions of 100%):
// x = a - g, y = sign (a + g) + offset, where a is B' (upper) or R' (lower).
void diamond(const Painter& p, double sign, double offset, double lo, double hi, uint32_t c, bool dashed) {
    auto at = [&](double a, double g) { return std::pair<double, double>{a - g, sign * (a + g) + offset}; };
    p.polygon({at(lo, lo), at(hi, lo), at(hi, hi), at(lo, hi)}, c, dashed);
}

void drawDiamonds(const Painter& p, bool split) {
    const double off = split ? kSplitDiamondOffset : 0.0;
    const int cs = p.l.charH;
    for (int half = 0; half < 2; ++half) {
        const double sign = half == 0 ? 1.0 : -1.0, offset = sign * off;
        // Grey axis (monochrome lands on it) and the 50% lines of each component.
        p.line(0.0, offset, 0.0, sign * 2.0 + offset, kGrid);
        p.line(0.5, sign * 0.5 + offset, -0.5, sign * 1.5 + offset, kGrid);
        p.line(-0.5, sign * 0.5 + offset, 0.5, sign * 1.5 + offset, kGrid);
        diamond(p, sign, offset, 0.0, 1.0, kOutline, false);
        diamond(p, sign, offset, -0.05, 1.05, kLimit, true);
        const char* colour = half == 0 ? "B" : "R";
        p.text(1.1, sign * 1.0 + offset, colour, kOutline, 4, -cs / 2);
        p.text(-1.1, sign * 1.0 + offset, "G", kOutline, -4 - 6 * p.l.textScale, -cs / 2);
    }
    p.text(0.0, 2.1 + off, "White", kText, -15 * p.l.textScale, -cs - 4);
    p.text(0.05, off, "Black", kText, 6, -cs - 2);
    p.text(1.05, -2.0 - off, "R 103 -5%..105%", kLimit, -100 * p.l.textScale, 0);
}

void drawLightning(const Painter& p, Matrix m) {
    const int cs = p.l.charH, ts = p.l.textScale;
    // Axes: Y' vertical (black at the centre, white up and down), Pb (upper) and Pr (lower) across.
    p.line(0.0, -1.0, 0.0, 1.0, kGrid);
    p.line(-0.5, 0.0, 0.5, 0.0, kGrid);
    for (int i = 1; i <= 10; ++i) {
        const double v = i / 10.0;
        p.line(-0.015, v, 0.015, v, kGrid);
        p.line(-0.015, -v, 0.015, -v, kGrid);
    }
    // EBU R 103's luma limits, -1% and 103%, each half.
    for (double sign : {1.0, -1.0}) {
        p.line(-0.55, sign * 1.03, 0.55, sign * 1.03, kLimit, true);
        p.line(-0.55, sign * -0.01, 0.55, sign * -0.01, kLimit, true);
    }
    p.text(0.55, 1.03, "103%", kLimit, 4, -cs / 2);
    // Targets: 100% bars boxes of +-2%, 75% bars boxes of +-2% drawn smaller, as the vectorscope's.
    for (double amplitude : {1.0, 0.75}) {
        const double h = amplitude == 1.0 ? 0.02 : 0.014;
        for (const BarTarget& t : lightningTargets(m, amplitude)) {
            for (double sign : {1.0, -1.0}) {
                const double u = sign > 0 ? t.pb : t.pr, v = sign * t.y;
                p.polygon({{u - h, v - 2 * h}, {u + h, v - 2 * h}, {u + h, v + 2 * h}, {u - h, v + 2 * h}}, kTarget);
                if (amplitude == 1.0 && t.name[0] != 'W' && t.name[0] != 'K')
                    p.text(u, v, t.name, kText, u < 0 ? -4 - 6 * ts * 3 : 8, -cs / 2);
            }
        }
    }
    p.text(0.42, 0.6, "Y' / Pb", kText, 0, 0);
    p.text(0.42, -0.6, "Y' / Pr", kText, 0, -cs);
}

void drawArrowhead(const Painter& p, ArrowheadLimit limit) {
    const ArrowheadLimits a = arrowheadLimits(limit);
    const int cs = p.l.charH;
    const bool pal = limit == ArrowheadLimit::Pal;
    // A grid every 20 (IRE or %).
    for (int v = -40; v <= 140; v += 20) p.line(0.0, v, 100.0, v, kGrid);
    for (int u = 20; u <= 100; u += 20) p.line(u, -50.0, u, 150.0, kGrid);
    p.line(0.0, -50.0, 0.0, 150.0, kGrid);
    // The arrowhead: Y' + C = upper and Y' - C = lower meet at its tip.
    const double tipU = (a.upper - a.lower) / 2.0, tipV = (a.upper + a.lower) / 2.0;
    p.line(0.0, a.upper, tipU, tipV, kOutline);
    p.line(0.0, a.lower, tipU, tipV, kOutline);
    // Luma limits (the horizontal lines, up to the sloping ones) and R 103's -1%..103% dashed.
    p.line(0.0, a.lumaMax, a.upper - a.lumaMax, a.lumaMax, kOutline);
    p.line(0.0, a.lumaMin, a.lumaMin - a.lower, a.lumaMin, kOutline);
    const double r103Hi = a.setup + a.scale * 1.03, r103Lo = a.setup - a.scale * 0.01;
    p.line(0.0, r103Hi, a.upper - r103Hi, r103Hi, kLimit, true);
    p.line(0.0, r103Lo, r103Lo - a.lower, r103Lo, kLimit, true);
    char label[48];
    auto value = [&](double v) {
        if (pal) std::snprintf(label, sizeof label, "%.0f mV", v * 7.0);
        else std::snprintf(label, sizeof label, v == std::floor(v) ? "%.0f IRE" : "%.1f IRE", v);
        return std::string(label);
    };
    p.text(0.0, a.upper, value(a.upper), kOutline, 4, -cs - 2);
    p.text(0.0, a.lower, value(a.lower), kOutline, 4, 2);
    p.text(a.upper - a.lumaMax, a.lumaMax, value(a.lumaMax), kOutline, 4, -cs / 2);
    p.text(a.lumaMin - a.lower, a.lumaMin, value(a.lumaMin), kOutline, 4, -cs / 2);
    p.text(tipU, tipV, pal ? "Y' +- C, PAL" : (limit == ArrowheadLimit::Ntsc110 ? "Y' +- C, NTSC 110" : "Y' +- C, NTSC"),
           kText, 6, -cs / 2);
    p.text(a.upper - r103Hi, r103Hi, "R 103", kLimit, 4, -cs - 1);
    p.text(100.0, -50.0, "C", kText, -12, -cs - 2);
}

// Everything under the counts; depends on the layout, the mode, the limit and the matrix only.
void drawGraticule(const GamutDisplayLayout& l, GamutDisplay mode, ArrowheadLimit limit, Matrix m, RgbaImage& out) {
    out.resize(l.size, l.size);
    for (size_t i = 0; i < out.pixels.size(); i += 4) {
        out.pixels[i] = uint8_t(kBackground);
        out.pixels[i + 1] = uint8_t(kBackground >> 8);
        out.pixels[i + 2] = uint8_t(kBackground >> 16);
        out.pixels[i + 3] = 255;
    }
    const Painter p{l, out};
    switch (mode) {
        case GamutDisplay::Diamond: drawDiamonds(p, false); break;
        case GamutDisplay::SplitDiamond: drawDiamonds(p, true); break;
        case GamutDisplay::Lightning: drawLightning(p, m); break;
        case GamutDisplay::Arrowhead: drawArrowhead(p, limit); break;
        case GamutDisplay::None: break;
    }
    drawText(out, 4, 3, std::string(gamutDisplayLabel(mode)).c_str(), kText, l.textScale);
}

struct Cache {
    int size = 0;
    GamutDisplay mode = GamutDisplay::None;
    ArrowheadLimit limit = ArrowheadLimit::Ntsc;
    Matrix matrix = Matrix::Bt709;
    RgbaImage graticule;
    std::vector<int> col0, col1, row0, row1;   // each plot pixel's bins [0, 1)
};

void binSpans(int pixels, std::vector<int>& lo, std::vector<int>& hi) {
    lo.resize(size_t(pixels));
    hi.resize(size_t(pixels));
    for (int p = 0; p < pixels; ++p) {
        const int a = int(int64_t(p) * kGamutDisplayBins / pixels), b = int(int64_t(p + 1) * kGamutDisplayBins / pixels);
        lo[size_t(p)] = a;
        hi[size_t(p)] = std::min(kGamutDisplayBins, std::max(b, a + 1));
    }
}

}  // namespace

GamutDisplayLayout gamutDisplayLayout(int size, GamutDisplay mode) {
    GamutDisplayLayout l;
    l.size = size;
    l.textScale = size >= 900 ? 2 : 1;
    l.charH = 8 * l.textScale;
    l.axes = gamutDisplayAxes(mode);
    const int top = l.charH + 6, margin = 4;
    l.x0 = margin;
    l.y0 = top;
    l.plotW = std::max(1, size - 2 * margin);
    l.plotH = std::max(1, size - top - margin);
    return l;
}

std::vector<BarTarget> lightningTargets(Matrix m, double amplitude) {
    const LumaWeights w = lumaWeights(m);
    struct Bar { const char* name; double r, g, b; };
    static constexpr Bar bars[] = {{"W", 1, 1, 1}, {"Yl", 1, 1, 0}, {"Cy", 0, 1, 1}, {"G", 0, 1, 0},
                                   {"Mg", 1, 0, 1}, {"R", 1, 0, 0}, {"B", 0, 0, 1}, {"K", 0, 0, 0}};
    std::vector<BarTarget> out;
    for (const Bar& b : bars) {
        const double r = b.r * amplitude, g = b.g * amplitude, bl = b.b * amplitude;
        const double y = w.kr * r + w.kg * g + w.kb * bl;
        out.push_back({b.name, y, (bl - y) / (2.0 * (1.0 - w.kb)), (r - y) / (2.0 * (1.0 - w.kr))});
    }
    return out;
}

void renderGamutDisplay(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    const GamutDisplay mode = r.gamutDisplay.mode != GamutDisplay::None ? r.gamutDisplay.mode : spec.gamutDisplay;
    if (mode == GamutDisplay::None) {
        out = {};
        return;
    }
    const ArrowheadLimit limit = r.gamutDisplay.mode != GamutDisplay::None ? r.gamutDisplay.limit : spec.arrowheadLimit;
    const int size = std::clamp(spec.gamutDisplaySize, 64, 8192);
    const GamutDisplayLayout l = gamutDisplayLayout(size, mode);

    thread_local Cache cache;
    if (cache.size != size || cache.mode != mode || cache.limit != limit || cache.matrix != r.color.matrix ||
        cache.graticule.empty()) {
        cache.size = size;
        cache.mode = mode;
        cache.limit = limit;
        cache.matrix = r.color.matrix;
        drawGraticule(l, mode, limit, r.color.matrix, cache.graticule);
        binSpans(l.plotW, cache.col0, cache.col1);
        binSpans(l.plotH, cache.row0, cache.row1);
    }
    out.width = out.height = size;
    out.pixels = cache.graticule.pixels;

    const std::vector<uint32_t>& counts = r.gamutDisplay.counts;
    if (counts.size() != size_t(kGamutDisplayBins) * kGamutDisplayBins) return;
    // Each plot pixel's count (the bins it covers), then its brightness on a log scale against a
    // 64th of the frame's points in one place, lifted by the vectorscope's gain.
    const int pw = l.plotW, ph = l.plotH;
    std::vector<uint32_t> columnSums(size_t(kGamutDisplayBins) * size_t(pw));
    for (int b = 0; b < kGamutDisplayBins; ++b) {
        const uint32_t* row = counts.data() + size_t(b) * kGamutDisplayBins;
        uint32_t* dst = columnSums.data() + size_t(b) * size_t(pw);
        for (int x = 0; x < pw; ++x) {
            uint32_t n = 0;
            for (int c = cache.col0[size_t(x)]; c < cache.col1[size_t(x)]; ++c) n += row[c];
            dst[x] = n;
        }
    }
    const double points = std::max(1.0, double(r.width) * double(r.height) * gamutDisplayPoints(mode));
    const double logPeak = std::log1p(std::max(1.0, points / 64.0));
    const double gain = std::clamp(double(spec.vectorscopeGain), 0.1, 100.0);
    std::vector<float> level(size_t(pw) * size_t(ph), 0.0f);
    for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
            uint64_t n = 0;
            for (int b = cache.row0[size_t(y)]; b < cache.row1[size_t(y)]; ++b) n += columnSums[size_t(b) * size_t(pw) + size_t(x)];
            if (n) level[size_t(y) * size_t(pw) + size_t(x)] = float(std::min(1.0, 0.3 + 0.7 * gain * std::log1p(double(n)) / logPeak));
        }
    // Each lit pixel spread over its 3 x 3 neighbours (the brightest wins), so that a single bin
    // (a flat colour) is a dot one can see; the trace is added to the graticule.
    for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
            float v = 0.0f;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int yy = y + dy, xx = x + dx;
                    if (yy < 0 || yy >= ph || xx < 0 || xx >= pw) continue;
                    const float e = level[size_t(yy) * size_t(pw) + size_t(xx)] * ((dx == 0 && dy == 0) ? 1.0f : 0.8f);
                    v = std::max(v, e);
                }
            if (v <= 0.0f) continue;
            uint8_t* d = out.at(l.x0 + x, l.y0 + y);
            const int add[3] = {int(std::lround(110.0f * v)), int(std::lround(255.0f * v)), int(std::lround(130.0f * v))};
            for (int i = 0; i < 3; ++i) d[i] = uint8_t(std::min(255, int(d[i]) + add[i]));
        }
}

}  // namespace cs
