// The scope display images of scope/ScopeRender.cpp, pixel by pixel, for the CUDA engine's
// headless path (HeadlessImages.h): each function gives one pixel of a trace from the counts, with
// core's operations in core's order (CS_HD, compiled for the kernels and for the host reference
// that tests/cuda/test_scope_image.cpp holds against core's renderer, byte for byte). The
// graticule, labels and parade names are not drawn here: they are an overlay (ScopeOverlay.h)
// composited over these pixels.
//
// What each image is (scope/ScopeRender.cpp draws the same):
// - waveform and parade: display column d shows the frame columns under it (area mapping),
//   display row e the codes landing on it (TraceAxis Down, zoomed by core/ScopeZoom.h); n = the counts in that box, the
//   column's total is its frame columns times the frame height (every pixel counted once);
//   brightness log-like in n / (total * share of the scale), coloured by the channel's hue.
// - waveform modes: luma; R'G'B' added in one panel; Y R G B panels (R'G'B' from the
//   parade's counts). Brightness, colour and wash: core/ScopeStyle.h's functions themselves.
// - vectorscope: Cb right, Cr up (TraceAxis ScopeUp/ScopeDown); brightness from the box's
//   share of all pixels against a disc of 1/16 of the plane (times the depth's gain); hue
//   from the box's position (or the trace colour); each pixel the brightest dot of its splat.
// - histogram: per display column the sums of the bins landing on it, bars up to a top
//   (linear or log against the largest column), luma grey, R, G, B adding light, outlines.
// The kernels' file is compiled without FMA contraction so that float and double operations
// round as the host's. log1p comes from the device's library: their last bit may
// differ from glibc's, which moves a byte only when a value lies within that bit of a rounding
// boundary (docs/CUDA.md).
#pragma once
#include <cmath>
#include <cstdint>

#include "TraceTexels.h"
#include "core/Color.h"
#include "core/ScopeStyle.h"

namespace cs::cuda {

struct ShadeRgb { float r, g, b; };

// A plot rectangle (scope/Graticule.h's PlotRect, without its host-only methods).
struct ShadePlot {
    int left = 0, top = 0, width = 0, height = 0;
    CS_HD bool contains(int x, int y) const { return x >= left && y >= top && x < left + width && y < top + height; }
};

constexpr uint32_t kShadeBlack = 0xff000000u;   // core's clearBlack: (0, 0, 0, 255)

// core's roundHalfAway (std::lround of a float, exact below 2^24).
CS_HD long shadeRound(float v) {
    const double d = double(v);
    if (d >= 0.0 && d < 16777216.0) return long(d + 0.5);
    if (d < 0.0 && d > -16777216.0) return -long(0.5 - d);
    return long(lround(d));
}
CS_HD uint32_t shadeByte(float v) {   // core's toByte: clamp to 0..1, times 255, rounded
    const float c = v < 0.0f ? 0.0f : (1.0f < v ? 1.0f : v);
    return uint32_t(uint8_t(shadeRound(c * 255.0f)));
}
CS_HD uint32_t shadeOpaque(ShadeRgb c) { return shadeByte(c.r) | shadeByte(c.g) << 8 | shadeByte(c.b) << 16 | 0xff000000u; }

// core's blendPixel on one opaque pixel (alpha stays 255): source-over at coverage 1.
CS_HD uint32_t shadeBlend(uint32_t pixel, uint32_t rgba) {
    const float a = 1.0f * float(rgba >> 24) / 255.0f;
    uint32_t out = 0;
    for (int c = 0; c < 3; ++c) {
        const float p = float((pixel >> (8 * c)) & 0xffu), src = float((rgba >> (8 * c)) & 0xffu);
        out |= uint32_t(uint8_t(shadeRound(p + (src - p) * a))) << (8 * c);
    }
    const float p3 = float(pixel >> 24);
    return out | uint32_t(uint8_t(shadeRound(p3 + (255.0f - p3) * a))) << 24;
}

// ---- Waveform and parade -------------------------------------------------------------

struct WaveShade {
    int frameWidth = 0, frameHeight = 0, levels = 256;
    LevelRange range;                         // the codes the panels show (core/ScopeZoom.h)
    double gain = 1.0, logSaturation = 0.0;   // log1p(kWaveformSaturation)
};

// The brightness of pixel (x, y) of the plot `plot` showing channel `channel` of `cols`
// (0: no counts there).
template <class Columns>
CS_HD float waveBrightness(const Columns& cols, int channel, const WaveShade& s, const ShadePlot& plot, int x, int y) {
    const int d = x - plot.left, e = y - plot.top;
    int l0 = 0, l1 = -1;
    if (!TraceAxis(TraceAxisKind::Down, s.levels, plot.height, 1, s.range).span(e, l0, l1)) return 0.0f;
    int x0 = 0, x1 = 0;
    traceSpan(d, plot.width, s.frameWidth, x0, x1);
    unsigned long long n = 0;
    for (int l = l0; l <= l1; ++l) {
        uint32_t acc = 0;   // core gathers a level's columns in 32 bits
        for (int c = x0; c < x1; ++c) acc += cols(channel, l, c);
        n += acc;
    }
    if (n == 0) return 0.0f;
    const double total = double((unsigned long long)s.frameHeight * (unsigned long long)(x1 - x0));
    const double share = double(l1 - l0 + 1) / double(s.levels);
    const double v = double(n) / (total * share);
    return traceBrightnessLog(v, s.gain, s.logSaturation);
}

// Pixel (x, y) of one trace in hue `hue` (core/ScopeStyle.h's traceShade).
template <class Columns>
CS_HD uint32_t waveShadePixel(const Columns& cols, int channel, const WaveShade& s, TraceHue hue, const ShadePlot& plot, int x, int y) {
    const float b = waveBrightness(cols, channel, s, plot, x, y);
    return b > 0.0f ? traceShade(hue, b) : kShadeBlack;
}

// Pixel (x, y) of the waveform image in `mode`, its panels as cuda/images/ScopeOverlay's scopeLayout
// places them (Luma, RgbOverlay: panels[0]; Yrgb: four). hues: [0] luma, [1..3] R', G', B'.
// `luma`: the luma counts (channel lumaChannel); `rgb`: the R'G'B' parade's (channels
// rgbChannel .. rgbChannel + 2).
template <class Luma, class Rgb>
CS_HD uint32_t waveformModePixel(WaveformMode mode, const ShadePlot* panels, const TraceHue* hues, const Luma& luma, int lumaChannel,
                                 const Rgb& rgb, int rgbChannel, const WaveShade& s, int x, int y) {
    switch (mode) {
        case WaveformMode::Luma:
            if (panels[0].contains(x, y)) return waveShadePixel(luma, lumaChannel, s, hues[0], panels[0], x, y);
            return kShadeBlack;
        case WaveformMode::RgbOverlay: {
            // The three channels added unwashed, in core's order (R', G', B').
            uint32_t px = kShadeBlack;
            if (!panels[0].contains(x, y)) return px;
            for (int c = 0; c < 3; ++c) {
                const float b = waveBrightness(rgb, rgbChannel + c, s, panels[0], x, y);
                if (b > 0.0f) px = traceAdd(px, traceShadeUnwashed(hues[1 + c], b));
            }
            return px;
        }
        case WaveformMode::Yrgb:
            for (int c = 0; c < 4; ++c)
                if (panels[c].contains(x, y))
                    return c == 0 ? waveShadePixel(luma, lumaChannel, s, hues[0], panels[0], x, y)
                                  : waveShadePixel(rgb, rgbChannel + c - 1, s, hues[c], panels[c], x, y);
            return kShadeBlack;
    }
    return kShadeBlack;
}

// ---- Vectorscope -----------------------------------------------------------------------

struct VectorShade {
    int levels = 256, zoom = 1;
    unsigned long long total = 0;             // every count: the frame's pixels
    double gain = 1.0, logSaturation = 0.0;   // log1p(kVectorscopeSaturation)
    double depthGain = 1.0;                   // vectorscopeDepthGain(levels)
    double kr = 0.2126, kb = 0.0722;
    double chromaScale = 224.0;               // codes from the centre to +-0.5 of chroma
    bool byHue = true;                        // TraceColour::Channel: the hue of the position
    TraceHue flatHue{0.55f, 1.0f, 0.62f};     // otherwise this one
};

// The brightness and shade of plot pixel (x, y) before the splat (false: no counts there).
// counts: levels x levels, [cr * levels + cb].
CS_HD bool vectorDot(const uint32_t* counts, const VectorShade& s, const ShadePlot& plot, int x, int y, float& bright, uint32_t& shade) {
    const int d = x - plot.left, e = y - plot.top;
    int cb0 = 0, cb1 = -1, cr0 = 0, cr1 = -1;
    if (!TraceAxis(TraceAxisKind::ScopeUp, s.levels, plot.width, s.zoom).span(d, cb0, cb1) ||
        !TraceAxis(TraceAxisKind::ScopeDown, s.levels, plot.width, s.zoom).span(e, cr0, cr1) || s.total == 0)
        return false;
    unsigned long long n = 0;
    for (int cr = cr0; cr <= cr1; ++cr) {
        uint32_t acc = 0;   // core gathers a Cr row's Cb span in 32 bits
        for (int cb = cb0; cb <= cb1; ++cb) acc += counts[(long long)cr * s.levels + cb];
        n += acc;
    }
    if (n == 0) return false;
    const double levels = double(s.levels), mid = s.levels / 2.0;
    const double cells = double(cr1 - cr0 + 1) * double(cb1 - cb0 + 1);
    const double v = double(n) / double(s.total) / (cells / (levels * s.levels / 16.0)) * s.depthGain;
    bright = traceBrightnessLog(v, s.gain, s.logSaturation);
    const TraceHue hue = s.byHue ? vectorscopeHue(((cb0 + cb1) / 2.0 - mid) / s.chromaScale, ((cr0 + cr1) / 2.0 - mid) / s.chromaScale, s.kr, s.kb)
                                 : s.flatHue;
    shade = traceShade(hue, bright);
    return bright > 0.0f;
}

// Pixel (x, y) of the vectorscope plot: the brightest dot within the splat's disc
// (core/ScopeStyle.h), the first such in row order, as core scatters them.
CS_HD uint32_t vectorShadePixel(const uint32_t* counts, const VectorShade& s, const ShadePlot& plot, int x, int y) {
    const int radius = vectorscopeSplatRadius(plot.width);
    float best = 0.0f;
    uint32_t colour = kShadeBlack;
    for (int sy = y - radius; sy <= y + radius; ++sy)
        for (int sx = x - radius; sx <= x + radius; ++sx) {
            if (!plot.contains(sx, sy) || !inSplat(sx - x, sy - y, radius)) continue;
            float b = 0.0f;
            uint32_t shade = 0;
            if (vectorDot(counts, s, plot, sx, sy, b, shade) && b > best) {
                best = b;
                colour = shade;
            }
        }
    return colour;
}

// ---- Histogram -------------------------------------------------------------------------

// The sum of the bins landing on display column d (core's nearest mapping, Up).
CS_HD unsigned long long histColumnSum(const uint32_t* bins, int count, int d, int display) {
    int lo = 0, hi = -1;
    if (!TraceAxis(TraceAxisKind::Up, count, display).span(d, lo, hi)) return 0;
    unsigned long long s = 0;
    for (int c = lo; c <= hi; ++c) s += bins[c];
    return s;
}
// core's barTop: rows above the bottom row the bar reaches, -1 for none.
CS_HD int histBarTop(unsigned long long n, unsigned long long max, bool logScale, double gain, int plotHeight) {
    if (n == 0 || max == 0) return -1;
    double h = logScale ? log1p(double(n)) / log1p(double(max)) : double(n) / double(max);
    h = h * gain;
    h = h < 0.0 ? 0.0 : (1.0 < h ? 1.0 : h);
    return int(lround(h * double(plotHeight - 1)));
}

// Pixel (x, y) of the histogram plot, from the bar tops of luma, R, G, B per display column
// (tops[k * plot.width + d]).
CS_HD uint32_t histShadePixel(const int* tops, const ShadePlot& plot, int x, int y) {
    const int d = x - plot.left, e = plot.top + plot.height - 1 - y;
    const int* ty = tops;
    uint32_t px = kShadeBlack;
    if (e <= ty[d]) px = shadeOpaque(ShadeRgb{0.42f, 0.42f, 0.42f});
    for (int k = 0; k < 3; ++k) {
        if (!(e <= tops[(k + 1) * plot.width + d])) continue;
        // Light added (core's tables: toByte(old / 255 + light), light 0.36 in channel k).
        uint32_t next = 0xff000000u;
        for (int c = 0; c < 3; ++c)
            next |= shadeByte(float((px >> (8 * c)) & 0xffu) / 255.0f + (c == k ? 0.36f : 0.0f)) << (8 * c);
        px = next;
    }
    // Outlines (R, G, B, then luma): each column's top joined to the previous column's.
    const uint32_t outline[4] = {0xe04646ffu, 0xe050ff50u, 0xe0ff8a5au, 0xf0f0f0f0u};
    const int order[4] = {1, 2, 3, 0};
    for (int i = 0; i < 4; ++i) {
        const int* t = tops + order[i] * plot.width;
        const int top = t[d], prev = d > 0 ? t[d - 1] : -1;
        if (top < 0 && prev < 0) continue;
        const int lo = (top >= 0 && prev >= 0) ? (top < prev ? top : prev) : 0, hi = top > prev ? top : prev;
        if (e >= lo && e <= hi) px = shadeBlend(px, outline[i]);
    }
    return px;
}

}  // namespace cs::cuda
