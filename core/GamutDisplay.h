// GamutDisplay: the professional gamut displays (docs/SCOPES.md, "Gamut displays"): Diamond and
// Split Diamond (R'G'B' gamut), Arrowhead (composite gamut) and Lightning (Y' against Pb and
// Pr), as counts in a fixed grid of kGamutDisplayBins x kGamutDisplayBins.
//
// One rule for every engine: each pixel's components come from core/PixelAccess.h's readers,
// its R'G'B' from core/Color.h's fixed-point conversion at the native depth before clamping
// (an excursion outside 0..100% is what these displays are for), and its points from
// single-precision steps each rounded on its own (core/Gamut.h's gamutMul/gamutAdd: no FMA
// contraction on the host, the _rn intrinsics on CUDA) and a correctly rounded square root.
// The CPU and the CUDA engine run the same CS_HD gamutDisplayAt and count the very same bins.
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "Color.h"
#include "Gamut.h"
#include "PixelAccess.h"

namespace cs {

enum class GamutDisplay : uint8_t { None, Diamond, SplitDiamond, Arrowhead, Lightning };
// The Arrowhead's composite limits (arrowheadLimits).
enum class ArrowheadLimit : uint8_t { Ntsc, Ntsc110, Pal };

std::string_view gamutDisplayName(GamutDisplay d);   // "none", "diamond", "split-diamond", "arrowhead", "lightning"
std::string_view gamutDisplayLabel(GamutDisplay d);  // "Diamond", "Split Diamond", "Arrowhead", "Lightning" (none: "None")
std::optional<GamutDisplay> gamutDisplayFromName(std::string_view s);
std::string_view arrowheadLimitName(ArrowheadLimit l);   // "ntsc", "ntsc-110", "pal"
std::optional<ArrowheadLimit> arrowheadLimitFromName(std::string_view s);

// The counts: kGamutDisplayBins x kGamutDisplayBins, index [row * kGamutDisplayBins + column],
// row 0 at the top (as drawn), column 0 at the left. A point outside the display's extent
// counts in the nearest edge bin.
constexpr int kGamutDisplayBins = 512;

// Points per pixel: each pixel is plotted twice in the Diamonds (upper: B' and G', lower: R'
// and G') and in Lightning (upper: Y' and Pb, lower: Y' and Pr), once in the Arrowhead, so the
// counts sum to the frame's pixels times this.
int gamutDisplayPoints(GamutDisplay d);

// The display's plane: u to the right, v up, the extent the bins cover (bins are uniform in
// each axis). Diamond: R'G'B' in units of 100%; Lightning: Y' and Pb/Pr in units of 100%;
// Arrowhead: chroma amplitude (u) and luma (v) in IRE (NTSC) or % of 700 mV (PAL).
struct GamutDisplayAxes { double uMin, uMax, vMin, vMax; };
GamutDisplayAxes gamutDisplayAxes(GamutDisplay d);
// The Split Diamond's offset: its upper diamond is raised and its lower lowered by this (units
// of 100%), so that excursions below black of one half never land in the other.
constexpr double kSplitDiamondOffset = 0.25;

// The Arrowhead's composite scale and limits, in IRE (NTSC) or % of 700 mV (PAL): luma Y' of
// 0..100% is drawn at setup + scale * Y', the chroma amplitude at scale * C. `upper`: the
// largest allowed Y' + C, `lower`: the smallest allowed Y' - C (the arrowhead's sloping
// lines), `lumaMax`/`lumaMin`: its horizontal lines (docs/SCOPES.md cites the sources).
struct ArrowheadLimits { double setup, scale, upper, lower, lumaMax, lumaMin; };
ArrowheadLimits arrowheadLimits(ArrowheadLimit l);

// The composite encoding's colour difference weights (SMPTE 170M / ITU-R BT.470: U = 0.492111
// (B' - Y'), V = 0.877283 (R' - Y'), Y' with BT.601's weights, whatever the source's matrix:
// what a down-converter feeding a composite encoder produces).
constexpr double kCompositeU = 0.492111, kCompositeV = 0.877283;

// What gamutDisplayPoint needs per frame: small, passed to kernels by value.
struct GamutDisplayCoefficients {
    uint8_t mode = 0;          // GamutDisplay
    float rgbScale = 1.0f;     // R'G'B' code -> fraction of 100%: 1 / outMax
    int32_t yOffset = 0, cOffset = 0;   // Y'CbCr codes (Lightning): black and zero chroma
    float yScale = 1.0f, cScale = 1.0f; // ... and the code steps of 100% luma, of Pb/Pr 0.5 -> 0.5
    float wr = 0, wg = 0, wb = 0;       // Arrowhead: BT.601 luma weights
    float wu = 0, wv = 0;               // ... composite U, V weights
    float setup = 0, scale = 1;         // ... composite units of black and of 100%
    float split = 0;                    // Split Diamond's offset
    float uMin = 0, vMax = 0, uScale = 1, vScale = 1;   // bins per unit: column (u - uMin) uScale, row (vMax - v) vScale
};

// `depth`, `range`: the Y'CbCr codes' (Lightning reads them as they are; RGB sources give
// theirs through rgbToYuv at 8 bits, full or limited as the converter makes them).
GamutDisplayCoefficients makeGamutDisplayCoefficients(GamutDisplay d, ArrowheadLimit limit, int depth, Range range,
                                                       int32_t rgbOutMax);

// Y'CbCr through the converter without clamping (R'G'B' may leave 0..outMax).
CS_HD Rgb yuvToRgbUnclamped(const YuvToRgb& k, int32_t y, int32_t cb, int32_t cr) {
    const int32_t yy = k.yMul * (y - k.yOffset) + (1 << (kFixedShift - 1));
    const int32_t u = cb - k.cOffset, v = cr - k.cOffset;
    return {(yy + k.rCr * v) >> kFixedShift, (yy - k.gCb * u - k.gCr * v) >> kFixedShift, (yy + k.bCb * u) >> kFixedShift};
}

#if defined(__CUDA_ARCH__)
CS_HD float gamutDisplaySqrt(float a) { return __fsqrt_rn(a); }
#else
CS_HD float gamutDisplaySqrt(float a) { return std::sqrt(a); }   // IEEE: correctly rounded
#endif

// A coordinate in bins, clamped to the grid (compared before the conversion, which then
// truncates a value in 0..bins-1).
CS_HD int32_t gamutDisplayBin(float q) {
    q = q < 0.0f ? 0.0f : q;
    q = q > float(kGamutDisplayBins - 1) ? float(kGamutDisplayBins - 1) : q;
    return int32_t(q);
}
CS_HD int32_t gamutDisplayIndex(const GamutDisplayCoefficients& k, float u, float v) {
    const int32_t col = gamutDisplayBin(gamutMul(gamutAdd(u, -k.uMin), k.uScale));
    const int32_t row = gamutDisplayBin(gamutMul(gamutAdd(k.vMax, -v), k.vScale));
    return row * kGamutDisplayBins + col;
}

// The bins of one pixel's points (second: -1 for the Arrowhead's single point), from its
// Y'CbCr codes and its unclamped R'G'B' codes (0..outMax is 0..100%).
struct GamutDisplayPoint { int32_t first, second; };
CS_HD GamutDisplayPoint gamutDisplayPoint(const GamutDisplayCoefficients& k, int32_t y, int32_t cb, int32_t cr, Rgb c) {
    const float r = gamutMul(float(c.r), k.rgbScale), g = gamutMul(float(c.g), k.rgbScale), b = gamutMul(float(c.b), k.rgbScale);
    switch (GamutDisplay(k.mode)) {
        case GamutDisplay::Diamond:
        case GamutDisplay::SplitDiamond:
            // Upper: u = B' - G', v = B' + G'; lower: u = R' - G', v = -(R' + G').
            return {gamutDisplayIndex(k, gamutAdd(b, -g), gamutAdd(gamutAdd(b, g), k.split)),
                    gamutDisplayIndex(k, gamutAdd(r, -g), gamutAdd(-gamutAdd(r, g), -k.split))};
        case GamutDisplay::Lightning: {
            // Upper: u = Pb, v = Y'; lower: u = Pr, v = -Y'.
            const float luma = gamutMul(float(y - k.yOffset), k.yScale);
            const float pb = gamutMul(float(cb - k.cOffset), k.cScale), pr = gamutMul(float(cr - k.cOffset), k.cScale);
            return {gamutDisplayIndex(k, pb, luma), gamutDisplayIndex(k, pr, -luma)};
        }
        case GamutDisplay::Arrowhead: {
            // u = scale C, v = setup + scale Y' (composite luma and chroma amplitude).
            const float luma = gamutAdd(gamutAdd(gamutMul(k.wr, r), gamutMul(k.wg, g)), gamutMul(k.wb, b));
            const float u = gamutMul(k.wu, gamutAdd(b, -luma)), v = gamutMul(k.wv, gamutAdd(r, -luma));
            const float chroma = gamutDisplaySqrt(gamutAdd(gamutMul(u, u), gamutMul(v, v)));
            return {gamutDisplayIndex(k, gamutMul(k.scale, chroma), gamutAdd(k.setup, gamutMul(k.scale, luma))), -1};
        }
        case GamutDisplay::None: break;
    }
    return {-1, -1};
}

// One pixel of `s` at (x, y): Y'CbCr sources through `toRgb` (native depth in and out, samples
// masked to `mask` as the engines read them), RGB sources as stored with their Y'CbCr through
// `toYuv`.
CS_HD GamutDisplayPoint gamutDisplayAt(const GamutDisplayCoefficients& k, const PixelSource& s, int x, int y,
                                       const YuvToRgb& toRgb, const RgbToYuv& toYuv, int32_t mask) {
    if (s.isRgb) {
        const Rgb c = readRgb(s, x, y);
        const Yuv v = rgbToYuv(toYuv, c.r, c.g, c.b);
        return gamutDisplayPoint(k, v.y, v.cb, v.cr, c);
    }
    const YuvSample v = readYuv(s, x, y, (mask + 1) >> 1);
    const int32_t Y = v.y & mask, cb = v.cb & mask, cr = v.cr & mask;
    return gamutDisplayPoint(k, Y, cb, cr, yuvToRgbUnclamped(toRgb, Y, cb, cr));
}

// One frame's gamut display (ScopeSpec::gamutDisplay).
struct GamutDisplayResults {
    GamutDisplay mode = GamutDisplay::None;
    ArrowheadLimit limit = ArrowheadLimit::Ntsc;
    std::vector<uint32_t> counts;   // kGamutDisplayBins^2, [row][column]; sums to pixels x gamutDisplayPoints(mode)
};

}  // namespace cs
