// The CIE diagram drawn the straightforward way: the whole graticule every call, and per
// non-empty plot pixel its bins summed and a 5 x 5 dot painted channel by channel. The
// benchmark's baseline for core's renderCieDiagram, and its check that both draw the same
// picture, byte for byte.
#include "CieReference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scope/BitmapFont.h"
#include "scope/CieDiagram.h"
#include "scope/ScopeRender.h"

namespace cs::bench {
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

void renderCieDiagramReference(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    const int size = std::clamp(spec.cieSize, 64, 8192);
    if (out.width != size || out.height != size || out.pixels.size() != size_t(size) * size_t(size) * 4)
        out.resize(size, size);
    fill(out, rgba(16, 16, 16));
    const CieMode mode = r.gamut.measured ? r.gamut.mode : spec.cieMode;
    const CieAxes axes = cieAxes(mode);
    const int textScale = size >= 900 ? 2 : 1;
    const int charH = 8 * textScale;
    // The plot: a margin for the axis labels on the left and at the bottom, and at the top for
    // the header and under it the vertical axis' name, with the coordinate area's own aspect ratio.
    const int left = 6 * 5 * textScale, bottom = 2 * charH + 4, top = 2 * charH + 8, right = 8;
    const int availW = size - left - right, availH = size - top - bottom;
    const double aspect = axes.uExtent / axes.vExtent;
    const int plotW = std::max(1, std::min(availW, int(availH * aspect)));
    const int plotH = std::max(1, std::min(availH, int(availW / aspect)));
    const int x0 = left, y0 = top + (availH - plotH);
    auto toPixel = [&](Chromaticity c) {
        const Chromaticity p = mode == CieMode::Uv ? xyToUv(c) : c;
        return std::pair<double, double>{x0 + p.x / axes.uExtent * (plotW - 1), y0 + (1.0 - p.y / axes.vExtent) * (plotH - 1)};
    };
    auto line = [&](Chromaticity a, Chromaticity b, uint32_t colour) {
        const auto [ax, ay] = toPixel(a);
        const auto [bx, by] = toPixel(b);
        drawLine(out, ax, ay, bx, by, colour);
    };

    const GamutResults& g = r.gamut;

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
    drawText(out, x0 + plotW - 2 * 6 * textScale, y0 + plotH + 3 + charH, mode == CieMode::Uv ? "u'" : "x", text, textScale);
    drawText(out, 4, y0 - charH - 4, mode == CieMode::Uv ? "v'" : "y", text, textScale);

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
    const Primaries target = g.measured ? g.target : spec.gamutTarget;
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
        const auto [lx, ly] = toPixel(p.r);
        const std::string label(primariesLabel(triangles[t].p));
        const int labelX = std::max(0, std::min(int(lx) + 4, size - 2 - font::textWidth(label, textScale)));
        drawText(out, labelX, int(ly) - charH / 2 + (t - 1) * (charH + 2), label.c_str(), c, textScale);
    }

    // The source's white point: a cross.
    const Primaries source = g.measured ? g.source : effectivePrimaries(r.color, r.height);
    const auto [wx, wy] = toPixel(primariesInfo(source).white);
    const uint32_t white = rgba(255, 255, 255);
    drawLine(out, wx - 9, wy, wx + 9, wy, white);
    drawLine(out, wx, wy - 9, wx, wy + 9, white);

    // The counts over the graticule, each bin in its chromaticity's colour, brighter with
    // more pixels (log scale against the frame's pixel count, so one pixel still shows).
    if (g.measured && g.counts.size() == size_t(kCieBins) * kCieBins) {
        // The colour of each plot pixel depends only on the plot's size and the mode: kept
        // per thread (images are drawn on the engine's pool) while those stay the same.
        struct ColourCache { int w = 0, h = 0; CieMode mode = CieMode::Xy; std::vector<uint8_t> rgb; };
        thread_local ColourCache cache;
        if (cache.w != plotW || cache.h != plotH || cache.mode != mode || cache.rgb.empty()) {
            cache.w = plotW; cache.h = plotH; cache.mode = mode;
            cache.rgb.assign(size_t(plotW) * size_t(plotH) * 3, 255);
            for (int py = 0; py < plotH; ++py)
                for (int px = 0; px < plotW; ++px) {
                    Chromaticity at{(px + 0.5) / plotW * axes.uExtent, (1.0 - (py + 0.5) / plotH) * axes.vExtent};
                    if (mode == CieMode::Uv) {   // u'v' -> xy for the colour
                        const double d = 6.0 * at.x - 16.0 * at.y + 12.0;
                        at = {9.0 * at.x / d, 4.0 * at.y / d};
                    }
                    if (at.y > 1e-6) cieChromaticityColour(at, &cache.rgb[(size_t(py) * size_t(plotW) + size_t(px)) * 3]);
                }
        }
        const double logPeak = std::log1p(std::max(1.0, double(r.width) * double(r.height) / 64.0));
        const double gain = std::clamp(double(spec.vectorscopeGain), 0.1, 100.0);
        for (int py = 0; py < plotH; ++py) {
            // Bins this display row covers (from the top: v falls).
            const int vb0 = int((1.0 - double(py + 1) / plotH) * kCieBins), vb1 = int((1.0 - double(py) / plotH) * kCieBins);
            for (int px = 0; px < plotW; ++px) {
                const int ub0 = int(double(px) / plotW * kCieBins), ub1 = int(double(px + 1) / plotW * kCieBins);
                uint64_t c = 0;
                for (int vb = std::max(0, vb0); vb < std::min(kCieBins, std::max(vb1, vb0 + 1)); ++vb)
                    for (int ub = ub0; ub < std::min(kCieBins, std::max(ub1, ub0 + 1)); ++ub)
                        c += g.counts[size_t(vb) * kCieBins + size_t(ub)];
                if (c == 0) continue;
                const double level = std::min(1.0, 0.35 + 0.65 * gain * std::log1p(double(c)) / logPeak);
                const uint8_t* rgb = &cache.rgb[(size_t(py) * size_t(plotW) + size_t(px)) * 3];
                // A 5 x 5 dot: a pattern of flat colours (bars) puts each colour in one bin,
                // which must show over the triangle's corner it lands on.
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        const int X = x0 + px + dx, Y = y0 + py + dy;
                        if (X < x0 || Y < y0 || X >= x0 + plotW || Y >= y0 + plotH) continue;
                        uint8_t* d = out.at(X, Y);
                        for (int i = 0; i < 3; ++i) d[i] = uint8_t(std::lround(rgb[i] * level));
                    }
            }
        }
    }

    // Header: the diagram, the source's gamut and the share outside the target, as much as fits.
    drawText(out, 4, 3, cieHeader(g, mode, size, textScale).c_str(), text, textScale);
}

}  // namespace cs::bench
