// How scope traces look, one rule for every engine: the waveform's modes, the trace colour
// the user picks, the brightness curve, the vectorscope's hue by position and its dot
// splat, and the reference lines over the waveform. scope/ScopeRender (the CPU images, and
// the CUDA engine's exported images) and cuda/images/TraceTexels.h (the CUDA engine's window
// traces) both call these functions (CS_HD), so a trace has the same colour in either.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>

#include "core/Color.h"

namespace cs {

// The waveform panel's mode. RgbOverlay and Yrgb draw the R'G'B' parade's counts (the
// engines count them whenever one of these modes is asked for: countedSpec below).
enum class WaveformMode : uint8_t {
    Luma,         // Y' alone
    RgbOverlay,   // R', G' and B' drawn over each other in one plot
    Yrgb,         // four panels: Y', R', G', B'
};

// The trace colour: every trace green, or white, or each channel in its own colour (luma
// green, R'G'B' red, green, blue; the vectorscope by hue of its position).
enum class TraceColour : uint8_t { Channel, Green, White };

// A reference line over the waveform and parade, at a level the user names:
//  Percent: of the signal range (limited: 16..235 scaled to the depth; full: 0..max), as IRE.
//  Code:    a code value at the source's depth.
//  Code8:   an 8-bit code value (16, 235), scaled by 2^(depth - 8) (64, 940 at 10 bits).
//  Code10:  a 10-bit code value (64, 940), scaled by 2^(depth - 10).
struct ReferenceLevel {
    enum class Unit : uint8_t { Percent, Code, Code8, Code10 };
    float value = 0.0f;
    Unit unit = Unit::Percent;
    bool operator==(const ReferenceLevel&) const = default;
};
struct ReferenceLines {
    static constexpr int kMax = 8;
    std::array<ReferenceLevel, kMax> levels{};
    int count = 0;
    bool operator==(const ReferenceLines&) const = default;
};

// A trace's gain as the renderers use it: finite, 0 to 1000 (1 otherwise).
CS_HD double traceGain(float gain) {
    if (!(gain - gain == 0.0f)) return 1.0;   // NaN or infinite
    const double g = double(gain);
    return g < 0.0 ? 0.0 : (g > 1000.0 ? 1000.0 : g);
}

// The rows an R'G'B' panel leaves above and below its codes in a plot `plotHeight` rows tall
// (Graticule.h's paradePanelRect with headroom): code 0 where the luma waveform's 16/255
// is, the top code where its 235/255 is.
CS_HD void panelHeadroom(int plotHeight, int& above, int& below) {
    above = below = 0;
    if (plotHeight <= 2) return;
    const double span = double(plotHeight - 1);
    above = int(lround(span * 20.0 / 255.0));
    below = int(lround(span * 16.0 / 255.0));
}

// The hue of a trace channel, before brightness.
enum class TraceChannel : uint8_t { Luma, LumaPanel, Red, Green, Blue, Cb, Cr };
struct TraceHue { float r, g, b; };

CS_HD TraceHue traceHue(TraceColour colour, TraceChannel ch) {
    if (colour == TraceColour::Green) return {0.55f, 1.0f, 0.62f};
    if (colour == TraceColour::White) return {0.9f, 0.9f, 0.9f};
    switch (ch) {
        case TraceChannel::Luma: return {0.55f, 1.0f, 0.62f};
        case TraceChannel::LumaPanel: return {0.9f, 0.9f, 0.9f};   // Y' beside R', G', B': white
        case TraceChannel::Red: return {1.0f, 0.22f, 0.18f};
        case TraceChannel::Green: return {0.25f, 1.0f, 0.3f};
        case TraceChannel::Blue: return {0.3f, 0.5f, 1.0f};
        case TraceChannel::Cb: return {0.3f, 0.5f, 1.0f};
        case TraceChannel::Cr: return {1.0f, 0.22f, 0.18f};
    }
    return {0.9f, 0.9f, 0.9f};
}

// 0..1 -> 0..255, rounded half up (as std::lround of a non-negative value).
CS_HD uint32_t traceByte(float v) {
    const float c = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    return uint32_t(floor(double(c * 255.0f) + 0.5));
}

// An opaque trace pixel (bytes R,G,B,A little-endian): the hue at brightness b, washing
// towards white where the trace is dense.
CS_HD uint32_t traceShade(TraceHue hue, float b) {
    const float w = b * b * 0.6f;
    const float r = b * (hue.r + (1.0f - hue.r) * w), g = b * (hue.g + (1.0f - hue.g) * w),
                bl = b * (hue.b + (1.0f - hue.b) * w);
    return traceByte(r) | (traceByte(g) << 8) | (traceByte(bl) << 16) | 0xff000000u;
}

// The same without the wash (the RGB overlay's channels, which add up: R' and G' together
// read yellow, all three white).
CS_HD uint32_t traceShadeUnwashed(TraceHue hue, float b) {
    return traceByte(b * hue.r) | (traceByte(b * hue.g) << 8) | (traceByte(b * hue.b) << 16) | 0xff000000u;
}

// Two trace pixels added (saturating), alpha kept opaque: the RGB overlay's channels.
CS_HD uint32_t traceAdd(uint32_t a, uint32_t b) {
    uint32_t out = 0xff000000u;
    for (int s = 0; s < 24; s += 8) {
        const uint32_t v = ((a >> s) & 0xffu) + ((b >> s) & 0xffu);
        out |= (v > 255u ? 255u : v) << s;
    }
    return out;
}

// Brightness of a display pixel from its count density `v` (1 = the density of counts
// spread evenly over the whole scale). Log-like: a lone count stays visible at the floor,
// dense areas approach full brightness only near `saturation` times the mean.
// `logSaturation`: log1p(saturation), which a kernel takes computed on the host (the device's
// log1p may differ from the host's in the last bit).
CS_HD float traceBrightnessLog(double v, double gain, double logSaturation) {
    constexpr double kFloor = 0.22;
    if (!(v > 0.0)) return 0.0f;
    const double t = log1p(gain * v) / logSaturation;
    const double b = kFloor + (1.0 - kFloor) * t;
    return float(b < 1.0 ? b : 1.0);
}
CS_HD float traceBrightness(double v, double gain, double saturation) { return traceBrightnessLog(v, gain, log1p(saturation)); }
// The curves' saturation densities: waveform (density over the column's levels) and
// vectorscope (density against counts spread over a disc of 1/16 of the plane).
constexpr double kWaveformSaturation = 100.0;
constexpr double kVectorscopeSaturation = 400.0;

// The vectorscope's hue at a position: R'G'B' of a mid grey pushed by chroma (u, v) (each
// -0.5..0.5, Cb and Cr over their scale), at full brightness, washed towards white near the
// centre where the hue is weak. kr, kb: the matrix's luma weights.
CS_HD TraceHue vectorscopeHue(double u, double v, double kr, double kb) {
    const double kg = 1.0 - kr - kb;
    const double rr = 0.5 + 2.0 * (1.0 - kr) * v, bb = 0.5 + 2.0 * (1.0 - kb) * u;
    const double gg = (0.5 - kr * rr - kb * bb) / kg;
    double lo = rr < gg ? rr : gg, hi = rr > gg ? rr : gg;
    lo = bb < lo ? bb : lo;
    hi = bb > hi ? bb : hi;
    const double au = u < 0.0 ? -u : u, av = v < 0.0 ? -v : v;
    // hypot(u, v) / 0.12 >= 1 wherever either part is clearly beyond 0.12.
    double sat = 1.0;
    if (!((au > av ? au : av) > 0.1201)) {
        sat = sqrt(u * u + v * v) / 0.12;
        if (sat > 1.0) sat = 1.0;
    }
    if (!(hi - lo > 1e-9)) return {1.0f, 1.0f, 1.0f};
    // (ch - lo) / (hi - lo) is exactly 0 for the lowest channel and exactly 1 for the highest.
    auto channel = [&](double ch) {
        const double q = ch == lo ? 0.0 : ch == hi ? 1.0 : (ch - lo) / (hi - lo);
        return float(1.0 - sat * 0.75 * (1.0 - q));
    };
    return {channel(rr), channel(gg), channel(bb)};
}

// The vectorscope's dots: each display pixel shows the brightest pixel within this radius
// (a disc, dx^2 + dy^2 <= r^2 + r), so a colour-bar pattern's single codes read as dots of
// 2r + 1 pixels rather than single pixels. Grows with the plot: 1 up to 300 pixels, 2 up to
// 700, 3 beyond.
CS_HD int vectorscopeSplatRadius(int plotWidth) { return plotWidth <= 300 ? 1 : (plotWidth <= 700 ? 2 : 3); }
CS_HD bool inSplat(int dx, int dy, int radius) { return dx * dx + dy * dy <= radius * radius + radius; }

// The vectorscope's density gain for the bit depth: a depth's 2^d levels spread a picture's
// chroma over (2^(d-8))^2 times as many codes, most of them with a single count, so a 10-bit
// trace would be far dimmer than the 8-bit trace of the same picture at the brightness floor;
// the density is scaled by the level count over 256 to keep them alike.
CS_HD double vectorscopeDepthGain(int levels) { return levels > 256 ? double(levels) / 256.0 : 1.0; }

}  // namespace cs
