#include "CieDiagram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "BitmapFont.h"
#include "ScopeRender.h"

namespace cs {

const std::vector<Chromaticity>& spectralLocus() {
    // CIE 1931 2-degree observer, chromaticity of the monochromatic stimuli (nm: x, y):
    // every 10 nm at the ends, every 5 nm from 470 to 600 where the locus turns.
    static const std::vector<Chromaticity> locus{
        {0.1741, 0.0050}, {0.1738, 0.0049}, {0.1733, 0.0048}, {0.1726, 0.0048}, {0.1714, 0.0051},   // 380..420
        {0.1689, 0.0069}, {0.1644, 0.0109}, {0.1566, 0.0177}, {0.1440, 0.0297},                     // 430..460
        {0.1241, 0.0578}, {0.1096, 0.0868}, {0.0913, 0.1327}, {0.0687, 0.2007}, {0.0454, 0.2950},   // 470..490
        {0.0235, 0.4127}, {0.0082, 0.5384}, {0.0039, 0.6548}, {0.0139, 0.7502}, {0.0389, 0.8120},   // 495..515
        {0.0743, 0.8338}, {0.1142, 0.8262}, {0.1547, 0.8059}, {0.1929, 0.7816}, {0.2296, 0.7543},   // 520..540
        {0.2658, 0.7243}, {0.3016, 0.6923}, {0.3373, 0.6589}, {0.3731, 0.6245}, {0.4087, 0.5896},   // 545..565
        {0.4441, 0.5547}, {0.4788, 0.5202}, {0.5125, 0.4866}, {0.5448, 0.4544}, {0.5752, 0.4242},   // 570..590
        {0.6029, 0.3965}, {0.6270, 0.3725}, {0.6658, 0.3340}, {0.6915, 0.3083}, {0.7079, 0.2920},   // 595..630
        {0.7190, 0.2809}, {0.7260, 0.2740}, {0.7300, 0.2700}, {0.7320, 0.2680}, {0.7334, 0.2666},   // 640..680
        {0.7344, 0.2656}, {0.7347, 0.2653}};                                                        // 690, 700
    return locus;
}

namespace {

constexpr uint32_t rgba(int r, int g, int b, int a = 255) {
    return uint32_t(r) | uint32_t(g) << 8 | uint32_t(b) << 16 | uint32_t(a) << 24;
}

void fill(RgbaImage& img, uint32_t colour) {
    for (size_t i = 0; i < img.pixels.size(); i += 4) {
        img.pixels[i] = uint8_t(colour);
        img.pixels[i + 1] = uint8_t(colour >> 8);
        img.pixels[i + 2] = uint8_t(colour >> 16);
        img.pixels[i + 3] = 255;
    }
}

}  // namespace

// Only a hint of the hue: most of the diagram is outside any display.
void cieChromaticityColour(Chromaticity c, uint8_t rgb[3]) {
    static const Matrix3 fromXyz = inverse(rgbToXyzMatrix(primariesInfo(Primaries::Bt709)));
    const double X = c.x / c.y, Y = 1.0, Z = (1.0 - c.x - c.y) / c.y;
    double v[3];
    for (int i = 0; i < 3; ++i) v[i] = fromXyz.m[i][0] * X + fromXyz.m[i][1] * Y + fromXyz.m[i][2] * Z;
    const double lo = std::min({v[0], v[1], v[2], 0.0});
    for (double& e : v) e -= lo;   // desaturate into gamut
    const double hi = std::max({v[0], v[1], v[2], 1e-9});
    for (int i = 0; i < 3; ++i) {
        const double e = v[i] / hi;
        const double s = e <= 0.0031308 ? 12.92 * e : 1.055 * std::pow(e, 1.0 / 2.4) - 0.055;
        rgb[i] = uint8_t(std::lround(std::clamp(s, 0.0, 1.0) * 255.0));
    }
}

std::string cieHeader(const GamutResults& g, CieMode mode, int width, int textScale) {
    const std::string name = mode == CieMode::Uv ? "CIE 1976 u'v'" : "CIE 1931 xy";
    std::vector<std::string> forms;
    if (g.measured) {
        const std::string source(primariesLabel(g.source)), target(primariesLabel(g.target));
        char share[16];
        std::snprintf(share, sizeof share, "%.2f%%", g.outsideShare * 100.0);
        forms = {name + "  " + source + " source  outside " + target + ": " + share,
                 name + "  " + source + "  outside " + target + ": " + share,
                 source + "  outside " + target + ": " + share,
                 "outside " + target + ": " + share,
                 "out " + target + " " + share,
                 share};
    } else {
        forms = {name, mode == CieMode::Uv ? "u'v'" : "xy"};
    }
    const int room = width - 2 * 4;
    for (const std::string& f : forms)
        if (font::textWidth(f, textScale) <= room) return f;
    return forms.back();
}

namespace {

// Where things go in an image `size` square: the plot a margin in from the left and the bottom
// for the axis labels, and from the top for the header and under it the vertical axis' name,
// with the coordinate area's own aspect ratio.
struct Layout {
    int size = 0, textScale = 1, charH = 8;
    CieMode mode = CieMode::Xy;
    CieAxes axes{};
    int plotW = 1, plotH = 1, x0 = 0, y0 = 0;
    std::pair<double, double> toPixel(Chromaticity c) const {
        const Chromaticity p = mode == CieMode::Uv ? xyToUv(c) : c;
        return {x0 + p.x / axes.uExtent * (plotW - 1), y0 + (1.0 - p.y / axes.vExtent) * (plotH - 1)};
    }
};

Layout layoutOf(int size, CieMode mode) {
    Layout l;
    l.size = size;
    l.mode = mode;
    l.axes = cieAxes(mode);
    l.textScale = size >= 900 ? 2 : 1;
    l.charH = 8 * l.textScale;
    const int left = 6 * 5 * l.textScale, bottom = 2 * l.charH + 4, top = 2 * l.charH + 8, right = 8;
    const int availW = size - left - right, availH = size - top - bottom;
    const double aspect = l.axes.uExtent / l.axes.vExtent;
    l.plotW = std::max(1, std::min(availW, int(availH * aspect)));
    l.plotH = std::max(1, std::min(availH, int(availW / aspect)));
    l.x0 = left;
    l.y0 = top + (availH - l.plotH);
    return l;
}

// Everything under the counts: background, grid and axis labels, spectral locus, triangles
// (the target's brighter) and the source's white point. Depends only on the layout, the target
// and the source, so it is drawn once for them and copied under each frame's counts.
void drawGraticule(const Layout& l, Primaries target, Primaries source, RgbaImage& out) {
    fill(out, rgba(16, 16, 16));
    const int textScale = l.textScale, charH = l.charH, plotW = l.plotW, plotH = l.plotH, x0 = l.x0, y0 = l.y0, size = l.size;
    const CieAxes& axes = l.axes;
    auto line = [&](Chromaticity a, Chromaticity b, uint32_t colour) {
        const auto [ax, ay] = l.toPixel(a);
        const auto [bx, by] = l.toPixel(b);
        drawLine(out, ax, ay, bx, by, colour);
    };

    // Axes: a faint grid every 0.1, labelled every 0.1, or every 0.2, 0.4, ... where the labels
    // would touch (a small panel).
    const uint32_t grid = rgba(48, 48, 48), text = rgba(170, 170, 170);
    auto labelStep = [](double spacing, int labelSize) {
        int step = 1;
        while (step < 16 && spacing * step < labelSize) step *= 2;
        return step;
    };
    const int uStep = labelStep(0.1 / axes.uExtent * (plotW - 1), font::textWidth("0.0", textScale) + 4 * textScale);
    const int vStep = labelStep(0.1 / axes.vExtent * (plotH - 1), charH + 2);
    for (int i = 0; i * 0.1 <= axes.uExtent + 1e-9; ++i) {
        const double x = x0 + i * 0.1 / axes.uExtent * (plotW - 1);
        drawLine(out, x, y0, x, y0 + plotH - 1, grid);
        if (i % uStep != 0) continue;
        char label[8];
        std::snprintf(label, sizeof label, "%.1f", i * 0.1);
        drawText(out, int(x) - 3 * 5 * textScale / 2, y0 + plotH + 3, label, text, textScale);
    }
    for (int i = 0; i * 0.1 <= axes.vExtent + 1e-9; ++i) {
        const double y = y0 + (1.0 - i * 0.1 / axes.vExtent) * (plotH - 1);
        drawLine(out, x0, y, x0 + plotW - 1, y, grid);
        if (i % vStep != 0) continue;
        char label[8];
        std::snprintf(label, sizeof label, "%.1f", i * 0.1);
        drawText(out, 4, int(y) - charH / 2, label, text, textScale);
    }
    drawText(out, x0 + plotW - 2 * 6 * textScale, y0 + plotH + 3 + charH, l.mode == CieMode::Uv ? "u'" : "x", text, textScale);
    drawText(out, 4, y0 - charH - 4, l.mode == CieMode::Uv ? "v'" : "y", text, textScale);

    // The spectral locus and the line of purples.
    const auto& locus = spectralLocus();
    const uint32_t locusColour = rgba(200, 200, 200);
    for (size_t i = 1; i < locus.size(); ++i) line(locus[i - 1], locus[i], locusColour);
    line(locus.back(), locus.front(), rgba(150, 110, 170));

    // Gamut triangles: the target's brighter, each labelled at its red corner.
    struct Triangle { Primaries p; uint32_t colour; };
    const Triangle triangles[3] = {{Primaries::Bt709, rgba(230, 230, 120)},
                                   {Primaries::P3D65, rgba(120, 220, 140)},
                                   {Primaries::Bt2020, rgba(110, 180, 240)}};
    for (int t = 0; t < 3; ++t) {
        const PrimariesInfo p = primariesInfo(triangles[t].p);
        const bool isTarget = triangles[t].p == target;
        const uint32_t c = isTarget ? triangles[t].colour : (triangles[t].colour & 0x00ffffffu) | (150u << 24);
        line(p.r, p.g, c); line(p.g, p.b, c); line(p.b, p.r, c);
        if (isTarget) {   // a second pass a pixel over: thicker
            auto shift = [](Chromaticity a) { return Chromaticity{a.x + 0.0012, a.y + 0.0012}; };
            line(shift(p.r), shift(p.g), c); line(shift(p.g), shift(p.b), c); line(shift(p.b), shift(p.r), c);
        }
        // Right of the red corner, kept inside the image; none where the three would cover
        // the plot (the smallest panels).
        if (plotH < 8 * (charH + 2)) continue;
        const auto [lx, ly] = l.toPixel(p.r);
        const std::string label(primariesLabel(triangles[t].p));
        const int labelX = std::max(0, std::min(int(lx) + 4, size - 2 - font::textWidth(label, textScale)));
        drawText(out, labelX, int(ly) - charH / 2 + (t - 1) * (charH + 2), label.c_str(), c, textScale);
    }

    // The source's white point: a cross.
    const auto [wx, wy] = l.toPixel(primariesInfo(source).white);
    const uint32_t white = rgba(255, 255, 255);
    drawLine(out, wx - 9, wy, wx + 9, wy, white);
    drawLine(out, wx, wy - 9, wx, wy + 9, white);
}

// The display colour of each plot pixel (R | G << 8 | B << 16), which depends only on the
// plot's size and the mode.
std::vector<uint32_t> plotColours(const Layout& l) {
    std::vector<uint32_t> colours(size_t(l.plotW) * size_t(l.plotH), rgba(255, 255, 255, 0));
    for (int py = 0; py < l.plotH; ++py)
        for (int px = 0; px < l.plotW; ++px) {
            Chromaticity at{(px + 0.5) / l.plotW * l.axes.uExtent, (1.0 - (py + 0.5) / l.plotH) * l.axes.vExtent};
            if (l.mode == CieMode::Uv) {   // u'v' -> xy for the colour
                const double d = 6.0 * at.x - 16.0 * at.y + 12.0;
                at = {9.0 * at.x / d, 4.0 * at.y / d};
            }
            if (at.y <= 1e-6) continue;
            uint8_t rgb[3];
            cieChromaticityColour(at, rgb);
            colours[size_t(py) * size_t(l.plotW) + size_t(px)] = rgba(rgb[0], rgb[1], rgb[2], 0);
        }
    return colours;
}

// What is kept between frames, per thread (images are drawn on the engine's pool): the
// graticule for one layout, target and source, and the plot's colours and bin ranges.
struct DiagramCache {
    int size = 0;
    CieMode mode = CieMode::Xy;
    Primaries target = Primaries::Bt709, source = Primaries::Bt709;
    RgbaImage graticule;
    std::vector<uint32_t> colours;          // plotW x plotH
    std::vector<int> ub0, ub1, vb0, vb1;    // bins [ub0, ub1) x [vb0, vb1) of each plot column / row
    std::vector<int> pxFirst, pxLast;       // per u bin, the plot columns holding it (none: last < first)
    // Scratch, reused: per bin row the first and last non-empty bin, the current rows' bin
    // sums, and the dots of the rows so far (see the drawing below).
    std::vector<int> firstBin, lastBin;
    std::vector<uint64_t> binSums;
    std::vector<int> dotRow, spanLo, spanHi;
    std::vector<uint32_t> dotColour;
};

// log1p of the small counts (most bins), to be looked up.
const std::vector<double>& log1pTable() {
    static const std::vector<double> table = [] {
        std::vector<double> t(4096);
        for (size_t i = 0; i < t.size(); ++i) t[i] = std::log1p(double(i));
        return t;
    }();
    return table;
}

// The counts over the graticule, each bin in its chromaticity's colour, brighter with more
// pixels (log scale against the frame's pixel count, so one pixel still shows), as a 5 x 5 dot
// per plot pixel: a pattern of flat colours (bars) puts each colour in one bin, which must
// show over the triangle's corner it lands on. Where dots overlap the later one in raster
// order (lower, then further right) is on top.
void drawCounts(const Layout& l, DiagramCache& c, const GamutResults& g, double logPeak, double gain, RgbaImage& out) {
    const int plotW = l.plotW, plotH = l.plotH;
    // Each bin row's non-empty span, so that empty parts of the diagram cost nothing.
    c.firstBin.assign(kCieBins, kCieBins);
    c.lastBin.assign(kCieBins, -1);
    for (int vb = 0; vb < kCieBins; ++vb) {
        const uint32_t* row = &g.counts[size_t(vb) * kCieBins];
        uint32_t any = 0;   // most rows are empty: one vectorised pass says so
        for (int ub = 0; ub < kCieBins; ++ub) any |= row[ub];
        if (any == 0) continue;
        int first = 0, last = kCieBins - 1;
        while (row[first] == 0) ++first;
        while (row[last] == 0) --last;
        c.firstBin[size_t(vb)] = first;
        c.lastBin[size_t(vb)] = last;
    }
    c.binSums.assign(kCieBins, 0);
    // Per plot column, the lowest source row so far whose dots cover it, and that dot's colour.
    c.dotRow.assign(size_t(plotW), -3);
    c.dotColour.assign(size_t(plotW), 0);
    // Per source row, the columns its dots may cover (empty: lo > hi).
    c.spanLo.assign(size_t(plotH), plotW);
    c.spanHi.assign(size_t(plotH), -1);
    const double* logTable = log1pTable().data();
    const uint64_t logTableSize = log1pTable().size();
    // Source row py's dots reach display rows py - 2 .. py + 2: display row y is final once
    // source row y + 2 is in.
    for (int y = -2; y < plotH; ++y) {
        const int py = y + 2;
        if (py < plotH) {
            // The row's counts per plot column: the bins of its bin rows summed column-wise, then
            // over each column's bins.
            const int v0 = c.vb0[size_t(py)], v1 = c.vb1[size_t(py)];
            int lo = kCieBins, hi = -1;
            for (int vb = v0; vb < v1; ++vb) {
                lo = std::min(lo, c.firstBin[size_t(vb)]);
                hi = std::max(hi, c.lastBin[size_t(vb)]);
            }
            if (lo <= hi) {
                uint64_t* sums = c.binSums.data();
                std::fill(sums + lo, sums + hi + 1, uint64_t(0));
                for (int vb = v0; vb < v1; ++vb) {
                    const uint32_t* row = &g.counts[size_t(vb) * kCieBins];
                    for (int ub = lo; ub <= hi; ++ub) sums[ub] += row[ub];
                }
                // The non-empty pixels from left to right (those holding a non-empty bin). A
                // column X shows the rightmost dot that covers it: that of the last non-empty
                // pixel up to X + 2, if it is at X - 2 or right of it. So each pixel's dot is laid
                // over px - 2 .. px + 2 less what the next non-empty pixel takes (from its own
                // px - 2), once the next one is known.
                const uint32_t* colours = &c.colours[size_t(py) * size_t(plotW)];
                int held = -1;   // the last non-empty pixel, its dot not laid yet
                uint32_t heldDot = 0;
                auto lay = [&](int until) {   // the held dot over its columns left of `until`
                    const int x0 = std::max(0, held - 2), x1 = std::min({plotW - 1, held + 2, until - 1});
                    for (int X = x0; X <= x1; ++X) {
                        c.dotRow[size_t(X)] = py;
                        c.dotColour[size_t(X)] = heldDot;
                    }
                    c.spanLo[size_t(py)] = std::min(c.spanLo[size_t(py)], x0);
                    c.spanHi[size_t(py)] = std::max(c.spanHi[size_t(py)], x1);
                };
                int next = 0;   // pixels left of it are done
                for (int ub = lo; ub <= hi; ++ub) {
                    if (sums[ub] == 0 || c.pxLast[size_t(ub)] < next) continue;
                    for (int px = std::max(next, c.pxFirst[size_t(ub)]); px <= c.pxLast[size_t(ub)]; ++px) {
                        uint64_t n = 0;
                        for (int b = std::max(c.ub0[size_t(px)], lo); b < std::min(c.ub1[size_t(px)], hi + 1); ++b) n += sums[b];
                        const double logN = n < logTableSize ? logTable[n] : std::log1p(double(n));
                        const double level = std::min(1.0, 0.35 + 0.65 * gain * logN / logPeak);
                        const uint32_t rgb = colours[px];
                        auto scaled = [&](int shift) { return uint32_t(double((rgb >> shift) & 255u) * level + 0.5) << shift; };
                        if (held >= 0) lay(px - 2);
                        held = px;
                        heldDot = scaled(0) | scaled(8) | scaled(16);
                    }
                    next = c.pxLast[size_t(ub)] + 1;
                }
                if (held >= 0) lay(plotW);
            }
        }
        if (y < 0) continue;
        int xs = plotW, xe = -1;
        for (int r = std::max(0, y - 2); r <= std::min(plotH - 1, y + 2); ++r) {
            xs = std::min(xs, c.spanLo[size_t(r)]);
            xe = std::max(xe, c.spanHi[size_t(r)]);
        }
        uint8_t* d = out.at(l.x0, l.y0 + y);
        for (int X = xs; X <= xe; ++X) {
            if (c.dotRow[size_t(X)] < y - 2) continue;
            const uint32_t rgb = c.dotColour[size_t(X)];
            d[size_t(X) * 4] = uint8_t(rgb);
            d[size_t(X) * 4 + 1] = uint8_t(rgb >> 8);
            d[size_t(X) * 4 + 2] = uint8_t(rgb >> 16);
        }
    }
}

}  // namespace

void renderCieDiagram(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    const int size = std::clamp(spec.cieSize, 64, 8192);
    const GamutResults& g = r.gamut;
    const CieMode mode = g.measured ? g.mode : spec.cieMode;
    const Primaries target = g.measured ? g.target : spec.gamutTarget;
    const Primaries source = g.measured ? g.source : effectivePrimaries(r.color, r.height);
    const Layout l = layoutOf(size, mode);

    thread_local DiagramCache cache;
    if (cache.size != size || cache.mode != mode) {
        cache.size = size;
        cache.mode = mode;
        cache.graticule = {};
        cache.colours.clear();
        cache.ub0.resize(size_t(l.plotW));
        cache.ub1.resize(size_t(l.plotW));
        for (int px = 0; px < l.plotW; ++px) {
            const int u0 = int(double(px) / l.plotW * kCieBins), u1 = int(double(px + 1) / l.plotW * kCieBins);
            cache.ub0[size_t(px)] = u0;
            cache.ub1[size_t(px)] = std::min(kCieBins, std::max(u1, u0 + 1));
        }
        cache.pxFirst.assign(kCieBins, 0);
        cache.pxLast.assign(kCieBins, -1);
        for (int px = l.plotW - 1; px >= 0; --px)
            for (int ub = cache.ub0[size_t(px)]; ub < cache.ub1[size_t(px)]; ++ub) {
                cache.pxFirst[size_t(ub)] = px;
                if (cache.pxLast[size_t(ub)] < 0) cache.pxLast[size_t(ub)] = px;
            }
        cache.vb0.resize(size_t(l.plotH));
        cache.vb1.resize(size_t(l.plotH));
        for (int py = 0; py < l.plotH; ++py) {   // from the top: v falls
            const int v0 = int((1.0 - double(py + 1) / l.plotH) * kCieBins), v1 = int((1.0 - double(py) / l.plotH) * kCieBins);
            cache.vb0[size_t(py)] = std::max(0, v0);
            cache.vb1[size_t(py)] = std::min(kCieBins, std::max(v1, v0 + 1));
        }
    }
    if (cache.graticule.empty() || cache.target != target || cache.source != source) {
        cache.target = target;
        cache.source = source;
        cache.graticule.resize(size, size);
        drawGraticule(l, target, source, cache.graticule);
    }
    out.width = out.height = size;
    out.pixels = cache.graticule.pixels;

    if (g.measured && g.counts.size() == size_t(kCieBins) * kCieBins) {
        if (cache.colours.empty()) cache.colours = plotColours(l);
        const double logPeak = std::log1p(std::max(1.0, double(r.width) * double(r.height) / 64.0));
        const double gain = std::clamp(double(spec.vectorscopeGain), 0.1, 100.0);
        drawCounts(l, cache, g, logPeak, gain, out);
    }

    // Header: the diagram, the source's gamut and the share outside the target, as much as fits.
    drawText(out, 4, 3, cieHeader(g, mode, size, l.textScale).c_str(), rgba(170, 170, 170), l.textScale);
}

}  // namespace cs
