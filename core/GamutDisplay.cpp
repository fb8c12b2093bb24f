#include "GamutDisplay.h"

#include <array>

namespace cs {
namespace {

struct DisplayName { GamutDisplay d; std::string_view name, label; };
constexpr std::array<DisplayName, 5> kDisplays{{{GamutDisplay::None, "none", "None"},
                                                {GamutDisplay::Diamond, "diamond", "Diamond"},
                                                {GamutDisplay::SplitDiamond, "split-diamond", "Split Diamond"},
                                                {GamutDisplay::Arrowhead, "arrowhead", "Arrowhead"},
                                                {GamutDisplay::Lightning, "lightning", "Lightning"}}};

struct LimitName { ArrowheadLimit l; std::string_view name; };
constexpr std::array<LimitName, 3> kLimits{{{ArrowheadLimit::Ntsc, "ntsc"},
                                            {ArrowheadLimit::Ntsc110, "ntsc-110"},
                                            {ArrowheadLimit::Pal, "pal"}}};

}  // namespace

std::string_view gamutDisplayName(GamutDisplay d) {
    for (const DisplayName& e : kDisplays)
        if (e.d == d) return e.name;
    return "none";
}

std::string_view gamutDisplayLabel(GamutDisplay d) {
    for (const DisplayName& e : kDisplays)
        if (e.d == d) return e.label;
    return "None";
}

std::optional<GamutDisplay> gamutDisplayFromName(std::string_view s) {
    for (const DisplayName& e : kDisplays)
        if (e.name == s) return e.d;
    if (s == "split") return GamutDisplay::SplitDiamond;
    return std::nullopt;
}

std::string_view arrowheadLimitName(ArrowheadLimit l) {
    for (const LimitName& e : kLimits)
        if (e.l == l) return e.name;
    return "ntsc";
}

std::optional<ArrowheadLimit> arrowheadLimitFromName(std::string_view s) {
    for (const LimitName& e : kLimits)
        if (e.name == s) return e.l;
    return std::nullopt;
}

int gamutDisplayPoints(GamutDisplay d) {
    switch (d) {
        case GamutDisplay::Diamond:
        case GamutDisplay::SplitDiamond:
        case GamutDisplay::Lightning: return 2;
        case GamutDisplay::Arrowhead: return 1;
        case GamutDisplay::None: break;
    }
    return 0;
}

GamutDisplayAxes gamutDisplayAxes(GamutDisplay d) {
    switch (d) {
        // |B' - G'| reaches 1.1 at R 103's limits; B' + G' 2.1: room around both for excursions.
        case GamutDisplay::Diamond: return {-1.6, 1.6, -2.3, 2.3};
        case GamutDisplay::SplitDiamond: return {-1.6, 1.6, -2.3 - kSplitDiamondOffset, 2.3 + kSplitDiamondOffset};
        // Pb, Pr within +-0.5 for every legal colour; Y' 0..1 each half.
        case GamutDisplay::Lightning: return {-0.625, 0.625, -1.2, 1.2};
        // Chroma amplitude 0..100, luma and the envelope -50..150 (IRE or %).
        case GamutDisplay::Arrowhead: return {0.0, 100.0, -50.0, 150.0};
        case GamutDisplay::None: break;
    }
    return {0.0, 1.0, 0.0, 1.0};
}

ArrowheadLimits arrowheadLimits(ArrowheadLimit l) {
    switch (l) {
        // NTSC with 7.5 IRE setup: the transmitter's 120 IRE upper limit, -24 IRE lower
        // (Tektronix's arrowhead thresholds); luma 7.5..100 IRE.
        case ArrowheadLimit::Ntsc: return {7.5, 92.5, 120.0, -24.0, 100.0, 7.5};
        // The stricter 110 IRE upper limit many networks deliver to.
        case ArrowheadLimit::Ntsc110: return {7.5, 92.5, 110.0, -24.0, 100.0, 7.5};
        // PAL, % of 700 mV: 930 mV upper and -230 mV lower limits of chrominance excursion.
        case ArrowheadLimit::Pal: return {0.0, 100.0, 930.0 / 7.0, -230.0 / 7.0, 100.0, 0.0};
    }
    return {7.5, 92.5, 120.0, -24.0, 100.0, 7.5};
}

GamutDisplayCoefficients makeGamutDisplayCoefficients(GamutDisplay d, ArrowheadLimit limit, int depth, Range range,
                                                       int32_t rgbOutMax) {
    GamutDisplayCoefficients k;
    k.mode = uint8_t(d);
    k.rgbScale = float(1.0 / double(rgbOutMax));
    const int s = depth - 8;
    if (range == Range::Limited) {
        k.yOffset = 16 << s;
        k.yScale = float(1.0 / double(219 << s));
        k.cScale = float(1.0 / double(224 << s));
    } else {
        k.yOffset = 0;
        k.yScale = float(1.0 / double((1 << depth) - 1));
        k.cScale = k.yScale;
    }
    k.cOffset = 128 << s;
    const LumaWeights w = lumaWeights(Matrix::Bt601);
    k.wr = float(w.kr);
    k.wg = float(w.kg);
    k.wb = float(w.kb);
    k.wu = float(kCompositeU);
    k.wv = float(kCompositeV);
    const ArrowheadLimits a = arrowheadLimits(limit);
    k.setup = float(a.setup);
    k.scale = float(a.scale);
    k.split = d == GamutDisplay::SplitDiamond ? float(kSplitDiamondOffset) : 0.0f;
    const GamutDisplayAxes axes = gamutDisplayAxes(d);
    k.uMin = float(axes.uMin);
    k.vMax = float(axes.vMax);
    k.uScale = float(kGamutDisplayBins / (axes.uMax - axes.uMin));
    k.vScale = float(kGamutDisplayBins / (axes.vMax - axes.vMin));
    return k;
}

}  // namespace cs
