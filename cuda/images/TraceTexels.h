// The scope traces the CUDA engine draws into GL textures (interactive view; the graticule
// is a separate overlay): each texel is a box of the raw counts, its brightness a function
// of the counts in the box. CS_HD so that the kernels and the host reference (used by the
// tests, and by anyone who wants the same picture without a GPU) compute the same texels.
//
// Mapping: the texture is the plot (render/GraticuleOverlay draws it into the PlotRect of
// its size), texel (tx, ty) the plot's pixel (tx, ty), row 0 the top. Code axes follow
// scope/Graticule.h and scope/ScopeRender exactly: code c sits at the pixel centre
// lround(PlotRect::toPixelX/Y of its graticule position), each code lands on exactly one
// texel, and a texel no code lands on (a texture taller than the codes) shows its nearest
// code; so a trace lies on the very pixel the graticule line of its code is drawn on.
// - histogram: code c (Y: levels codes; R, G, B: 256) at x = c / (codes - 1); a bar is lit
//   where (row from the bottom + 0.5) < f * texH, with f = gain * value / max (linear) or
//   gain * log1p(value) / log1p(max) (log), value the largest bin the column shows and
//   max the largest bin of Y (for Y) or of R, G, B (for those). Y lit alone is grey (150),
//   R, G, B lit are full red, green, blue over it.
// - waveform: column tx covers frame columns [tx*W/texW, (tx+1)*W/texW) (core's area
//   mapping); code c at y = c / (L - 1), or over the zoomed range (core/ScopeZoom.h); the density v = count / (H * columns * codes in
//   the box / L) is 1 for counts spread evenly over all levels; brightness and colour by
//   core/ScopeStyle.h (traceBrightness, traceHue, traceShade), the mode's panels as
//   scope/ScopeRender lays them out (RGB overlay: one panel with headroom, channels added;
//   YRGB: four quarters, the R'G'B' ones with headroom rows at the bottom left black).
// - parade: three panels side by side (texW split in thirds), each a waveform of its
//   component, in its channel's hue (or the trace colour).
// - vectorscope: Cb right, Cr up, at core's vectorscopePoint (the mid code at the centre,
//   zoom scaling around it); v = count * L^2 / (16 W H cells in the box) times
//   vectorscopeDepthGain; hue by position (vectorscopeHue) or the trace colour; each texel
//   the brightest cell within the splat disc (vectorscopeSplatRadius).
// So the texels inside the plot are the very pixels scope/ScopeRender draws under its
// graticule (tests/cuda/test_trace_style.cpp checks it on the host).
// Texels are opaque (A = 255). All arithmetic is double or float with correctly rounded
// operations (the kernels are compiled without FMA contraction), so host and device agree
// exactly, except log1p (the trace brightness curve, the histogram's log scale), whose last
// bit may differ between libraries: a texel's byte then changes only where the value lies
// within that bit of a rounding boundary of the float and then of the byte.
#pragma once
#include <cmath>
#include <cstdint>

#include "cuda/scope/ColumnCounts.h"
#include "core/Color.h"
#include "core/ScopeStyle.h"
#include "core/ScopeZoom.h"

namespace cs::cuda {

CS_HD uint32_t traceRgba(uint32_t r, uint32_t g, uint32_t b) { return r | (g << 8) | (b << 16) | 0xff000000u; }
CS_HD uint32_t traceCode(double v) {   // 0..1 -> 0..255, rounded
    const double c = floor(v * 255.0 + 0.5);
    return c <= 0.0 ? 0u : (c >= 255.0 ? 255u : uint32_t(c));
}
// [begin, end) of the frame columns (n) that texel t of `size` covers: at least one column
// (scope/ScopeRender's area mapping).
CS_HD void traceSpan(int t, int size, int n, int& begin, int& end) {
    begin = int((long long)t * n / size);
    end = int((long long)(t + 1) * n / size);
    if (end <= begin) end = begin + 1;
    if (end > n) end = n;
    if (begin >= n) begin = n - 1;
}

// A code axis of `display` texels showing `codes` codes, code c at display position pos(c)
// (pixel centres), computed with scope/ScopeRender's very operations:
//   Up:   c * k, k = (display - 1) / (codes - 1)            (histogram columns)
//   Down: core/ScopeZoom.h's LevelAxis row: (display - 1) - (c - loCode) * step, the zoomed
//         range's codes over the rows (the whole scale: (display - 1) - c * k) (waveform rows)
//   ScopeUp:   (0.5 + zoom * (c - codes/2) / codes) * (display - 1)   (vectorscope Cb)
//   ScopeDown: (display - 1) - ScopeUp                                 (vectorscope Cr rows)
enum class TraceAxisKind { Up, Down, ScopeUp, ScopeDown };
struct TraceAxis {
    TraceAxisKind kind;
    int codes, display, zoom;
    LevelAxis level;
    CS_HD TraceAxis(TraceAxisKind k, int codeCount, int displaySize, int zoomFactor = 1, LevelRange range = LevelRange{})
        : kind(k), codes(codeCount), display(displaySize), zoom(vectorscopeZoomFactor(zoomFactor)), level(range, codeCount, displaySize) {}
    CS_HD double last() const { return double(display - 1); }
    CS_HD double step() const { return double(display - 1) / double(codes - 1); }
    CS_HD double scopePos(int c) const { return vectorscopeAxisPos(c, codes, zoom, last()); }
    CS_HD double scopeInv(double d) const { return vectorscopeAxisCode(d, codes, zoom, last()); }
    CS_HD double pos(int c) const {
        switch (kind) {
            case TraceAxisKind::Up: return double(c) * step();
            case TraceAxisKind::Down: return level.row(c);
            case TraceAxisKind::ScopeUp: return scopePos(c);
            case TraceAxisKind::ScopeDown: return last() - scopePos(c);
        }
        return 0.0;
    }
    CS_HD double inv(double d) const {
        switch (kind) {
            case TraceAxisKind::Up: return d / step();
            case TraceAxisKind::Down: return level.code(d);
            case TraceAxisKind::ScopeUp: return scopeInv(d);
            case TraceAxisKind::ScopeDown: return scopeInv(last() - d);
        }
        return 0.0;
    }
    CS_HD bool landsOn(int c, int d) const {
        const double p = pos(c);
        return p > -0.5 && p < double(display) - 0.5 && lround(p) == d;
    }
    // The codes [lo, hi] texel d shows: those that land on it, else the nearest one
    // (scope/ScopeRender's nearestSpans); false when none (a zoomed scope's texel beyond
    // the codes).
    CS_HD bool span(int d, int& lo, int& hi) const {
        if (display <= 1 || codes <= 1) {
            lo = 0;
            hi = codes - 1;
            return true;
        }
        // Codes landing on d are contiguous, and one of them is the code nearest to inv(d)
        // (within the codes) or its neighbour; if none lands, d shows the nearest code.
        const double c = inv(double(d));
        const int nearest = c < 0.0 ? 0 : (c > double(codes - 1) ? codes - 1 : int(lround(c)));
        int start = -1;
        if (landsOn(nearest, d)) start = nearest;
        else if (nearest > 0 && landsOn(nearest - 1, d)) start = nearest - 1;
        else if (nearest < codes - 1 && landsOn(nearest + 1, d)) start = nearest + 1;
        if (start < 0) {
            if (!(c > -0.5 && c < double(codes) - 0.5)) return false;
            lo = hi = int(lround(c));
            return true;
        }
        lo = hi = start;
        while (lo > 0 && landsOn(lo - 1, d)) --lo;
        while (hi < codes - 1 && landsOn(hi + 1, d)) ++hi;
        return true;
    }
};

CS_HD uint32_t histogramMaxBin(const uint32_t* bins, int begin, int end) {
    uint32_t m = 0;
    for (int i = begin; i < end; ++i) m = bins[i] > m ? bins[i] : m;
    return m;
}

CS_HD bool histogramLit(uint32_t value, uint32_t maxValue, bool logScale, float gain, int rowFromBottom, int texH) {
    if (value == 0 || maxValue == 0) return false;
    double f = logScale ? double(gain) * (log1p(double(value)) / log1p(double(maxValue)))
                        : double(gain) * (double(value) / double(maxValue));
    if (f > 1.0) f = 1.0;
    return double(rowFromBottom) + 0.5 < f * double(texH);
}

// histY: `levels` bins; histRgb: 3 x 256. maxY, maxRgb: the largest bins (histogramMaxBin).
CS_HD uint32_t histogramTexel(const uint32_t* histY, const uint32_t* histRgb, int levels, uint32_t maxY, uint32_t maxRgb,
                              bool logScale, float gain, int tx, int ty, int texW, int texH) {
    const int row = texH - 1 - ty;
    int b0 = 0, b1 = -1;
    TraceAxis(TraceAxisKind::Up, levels, texW).span(tx, b0, b1);
    const bool yLit = histogramLit(histogramMaxBin(histY, b0, b1 + 1), maxY, logScale, gain, row, texH);
    b0 = 0;
    b1 = -1;
    TraceAxis(TraceAxisKind::Up, 256, texW).span(tx, b0, b1);
    bool lit[3];
    for (int c = 0; c < 3; ++c) lit[c] = histogramLit(histogramMaxBin(histRgb + 256 * c, b0, b1 + 1), maxRgb, logScale, gain, row, texH);
    const uint32_t base = yLit ? 150u : 0u;
    return traceRgba(lit[0] ? 255u : base, lit[1] ? 255u : base, lit[2] ? 255u : base);
}

// Where a waveform's counts are: cols(channel, level, x), the count of column x at `level`.
// A ScopeResults holds row-major [channel][level][width] arrays (uint32_t); the scope pass
// leaves 16-bit counts in strips (ColumnCounts.h).
template <typename Count>
struct RowMajorColumns {
    const Count* counts;
    int width, levels;
    CS_HD uint32_t operator()(int channel, int level, int x) const {
        return uint32_t(counts[((long long)channel * levels + level) * width + x]);
    }
};
struct StripColumns {
    const uint16_t* counts;
    int levels;
    CS_HD uint32_t operator()(int channel, int level, int x) const { return counts[columnIndex(levels, channel, level, x)]; }
};

// Brightness of a waveform box: channel `channel`'s columns [x0, x1) of a frame of `height`
// rows, the codes texel row ty (from the top, of texH) shows; scope/ScopeRender's density
// (the box's count over the column's total times the share of the scale the row shows)
// through core/ScopeStyle.h's curve. 0: no count.
template <class Columns>
CS_HD float waveformBrightness(const Columns& cols, int channel, int height, int levels, double gain, int x0, int x1, int ty, int texH,
                               LevelRange range) {
    int l0 = 0, l1 = -1;
    if (!TraceAxis(TraceAxisKind::Down, levels, texH, 1, range).span(ty, l0, l1)) return 0.0f;
    unsigned long long sum = 0;
    for (int l = l0; l <= l1; ++l)
        for (int x = x0; x < x1; ++x) sum += cols(channel, l, x);
    if (sum == 0) return 0.0f;
    const double share = double(l1 - l0 + 1) / double(levels);
    const double v = double(sum) / (double((unsigned long long)height * (unsigned long long)(x1 - x0)) * share);
    return traceBrightness(v, gain, kWaveformSaturation);
}

CS_HD uint32_t traceBlack() { return traceRgba(0, 0, 0); }
CS_HD TraceChannel rgbChannel(int c) { return c == 0 ? TraceChannel::Red : (c == 1 ? TraceChannel::Green : TraceChannel::Blue); }

// waveform in its mode; `cols` channel 0 is luma, 1..3 the R'G'B' parade.
//  Luma: the plot; RgbOverlay: one panel (the plot with headroom), R', G', B' added;
//  Yrgb: four quarters of the texture, Y' over all texH rows, R', G', B' over their top
//  texH - headroom rows (core/ScopeStyle.h's panelHeadroom), black below.
template <class Columns>
CS_HD uint32_t waveformTexel(const Columns& cols, WaveformMode mode, TraceColour colour, int width, int height, int levels, double gain,
                             int tx, int ty, int texW, int texH, LevelRange range = LevelRange{}) {
    int x0, x1;
    switch (mode) {
        case WaveformMode::Luma: {
            traceSpan(tx, texW, width, x0, x1);
            const float b = waveformBrightness(cols, 0, height, levels, gain, x0, x1, ty, texH, range);
            return b > 0.0f ? traceShade(traceHue(colour, TraceChannel::Luma), b) : traceBlack();
        }
        case WaveformMode::RgbOverlay: {
            traceSpan(tx, texW, width, x0, x1);
            uint32_t acc = traceBlack();
            for (int c = 0; c < 3; ++c) {
                const float b = waveformBrightness(cols, 1 + c, height, levels, gain, x0, x1, ty, texH, range);
                if (b > 0.0f) acc = traceAdd(acc, traceShadeUnwashed(traceHue(colour, rgbChannel(c)), b));
            }
            return acc;
        }
        case WaveformMode::Yrgb: {
            int panel = int((long long)tx * 4 / texW);
            if (panel > 3) panel = 3;
            const int p0 = int((long long)panel * texW / 4), p1 = int((long long)(panel + 1) * texW / 4);
            traceSpan(tx - p0, p1 - p0 > 0 ? p1 - p0 : 1, width, x0, x1);
            int rows = texH;
            if (panel > 0) {
                int above = 0, below = 0;
                panelHeadroom(texH, above, below);
                rows = texH - above - below;
            }
            if (ty >= rows || rows <= 0) return traceBlack();
            const float b = waveformBrightness(cols, panel, height, levels, gain, x0, x1, ty, rows, range);
            const TraceHue hue = traceHue(colour, panel == 0 ? TraceChannel::LumaPanel : rgbChannel(panel - 1));
            return b > 0.0f ? traceShade(hue, b) : traceBlack();
        }
    }
    return traceBlack();
}

// A row-major luma waveform (levels x width) beside a row-major parade (3 x levels x width):
// channel 0 the waveform, 1..3 the parade (either may be null when its mode does not read it).
struct LumaParadeColumns {
    const uint32_t* waveform;
    const uint32_t* parade;
    int width, levels;
    CS_HD uint32_t operator()(int channel, int level, int x) const {
        if (channel == 0) return waveform ? waveform[(long long)level * width + x] : 0u;
        return parade ? parade[((long long)(channel - 1) * levels + level) * width + x] : 0u;
    }
};

// parade: channels first, first + 1, first + 2 of `cols`; rgbMode picks the panel hues.
template <class Columns>
CS_HD uint32_t paradeTexel(const Columns& cols, int first, int width, int height, int levels, bool rgbMode, TraceColour colour, double gain,
                           int tx, int ty, int texW, int texH, LevelRange range = LevelRange{}) {
    int panel = int((long long)tx * 3 / texW);
    if (panel > 2) panel = 2;
    const int p0 = int((long long)panel * texW / 3), p1 = int((long long)(panel + 1) * texW / 3);
    const int pw = p1 - p0 > 0 ? p1 - p0 : 1;
    int x0, x1;
    traceSpan(tx - p0, pw, width, x0, x1);
    const float b = waveformBrightness(cols, first + panel, height, levels, gain, x0, x1, ty, texH, range);
    if (!(b > 0.0f)) return traceBlack();
    const TraceChannel ch = rgbMode ? rgbChannel(panel)
                                    : (panel == 0 ? TraceChannel::LumaPanel : (panel == 1 ? TraceChannel::Cb : TraceChannel::Cr));
    return traceShade(traceHue(colour, ch), b);
}
// A row-major parade (3 x levels x width).
template <typename Count>
CS_HD uint32_t paradeTexel(const Count* parade, int width, int height, int levels, bool rgbMode, TraceColour colour, double gain, int tx,
                           int ty, int texW, int texH, LevelRange range = LevelRange{}) {
    return paradeTexel(RowMajorColumns<Count>{parade, width, levels}, 0, width, height, levels, rgbMode, colour, gain, tx, ty, texW,
                       texH, range);
}

// The vectorscope's colour inputs: the matrix's luma weights and the chroma scale (limited:
// 224 * 2^(depth - 8); full: levels - 1), as scope/ScopeRender takes them from the results.
struct VectorscopeStyle {
    TraceColour colour;
    double kr, kb, chromaScale;
};

// One vectorscope texel before the splat: its brightness (0: no count) and shade.
CS_HD float vectorscopeCell(const uint32_t* counts, int width, int height, int levels, int zoom, double gain, const VectorscopeStyle& style,
                            int tx, int ty, int texW, int texH, uint32_t& shade) {
    int cb0 = 0, cb1 = -1, cr0 = 0, cr1 = -1;
    if (!TraceAxis(TraceAxisKind::ScopeUp, levels, texW, zoom).span(tx, cb0, cb1) ||
        !TraceAxis(TraceAxisKind::ScopeDown, levels, texH, zoom).span(ty, cr0, cr1))
        return 0.0f;
    unsigned long long sum = 0;
    for (int cr = cr0; cr <= cr1; ++cr)
        for (int cb = cb0; cb <= cb1; ++cb) sum += counts[(long long)cr * levels + cb];
    if (sum == 0) return 0.0f;
    const double total = double((unsigned long long)width * (unsigned long long)height);
    const double cells = double(cr1 - cr0 + 1) * double(cb1 - cb0 + 1);
    const double v = double(sum) / total / (cells / (double(levels) * levels / 16.0)) * vectorscopeDepthGain(levels);
    const float b = traceBrightness(v, gain, kVectorscopeSaturation);
    const double mid = levels / 2.0;
    const TraceHue hue = style.colour == TraceColour::Channel
                             ? vectorscopeHue((double(cb0 + cb1) / 2.0 - mid) / style.chromaScale,
                                              (double(cr0 + cr1) / 2.0 - mid) / style.chromaScale, style.kr, style.kb)
                             : traceHue(style.colour, TraceChannel::Luma);
    shade = traceShade(hue, b);
    return b;
}

// vectorscope: levels x levels, [cr * levels + cb]; each texel the brightest cell within the
// splat's disc (core/ScopeStyle.h), the first such in row order.
CS_HD uint32_t vectorscopeTexel(const uint32_t* counts, int width, int height, int levels, int zoom, double gain,
                                const VectorscopeStyle& style, int tx, int ty, int texW, int texH) {
    const int radius = vectorscopeSplatRadius(texW);
    float best = 0.0f;
    uint32_t colour = traceBlack();
    for (int dy = -radius; dy <= radius; ++dy) {
        const int y = ty + dy;
        if (y < 0 || y >= texH) continue;
        for (int dx = -radius; dx <= radius; ++dx) {
            const int x = tx + dx;
            if (x < 0 || x >= texW || !inSplat(dx, dy, radius)) continue;
            uint32_t shade = 0;
            const float b = vectorscopeCell(counts, width, height, levels, zoom, gain, style, x, y, texW, texH, shade);
            if (b > best) {
                best = b;
                colour = shade;
            }
        }
    }
    return colour;
}

}  // namespace cs::cuda
