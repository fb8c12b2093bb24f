#include "Color.h"

#include <cmath>

namespace cs {

ColorInfo applyOverride(ColorInfo tags, const ColorOverride& o) {
    if (o.matrix) { tags.matrix = *o.matrix; tags.matrixTagged = true; }
    if (o.range) { tags.range = *o.range; tags.rangeTagged = true; }
    if (o.transfer) tags.transfer = *o.transfer;
    return tags;
}

Matrix guessMatrix(int width, int height) {
    if (width > 1920 || height > 1080) return Matrix::Bt709;  // UHD SDR is usually still BT.709 when untagged
    if (width >= 1280 || height > 576) return Matrix::Bt709;
    return Matrix::Bt601;
}

std::string_view matrixName(Matrix m) {
    switch (m) {
        case Matrix::Bt601: return "bt601";
        case Matrix::Bt709: return "bt709";
        case Matrix::Bt2020Ncl: return "bt2020nc";
    }
    return "bt709";
}
std::string_view rangeName(Range r) { return r == Range::Full ? "full" : "limited"; }
std::string_view transferName(Transfer t) {
    switch (t) {
        case Transfer::Bt709: return "bt709";
        case Transfer::Srgb: return "srgb";
        case Transfer::Pq: return "smpte2084";
        case Transfer::Hlg: return "arib-std-b67";
        case Transfer::Linear: return "linear";
        case Transfer::Unspecified: break;
    }
    return "unknown";
}
std::optional<Matrix> matrixFromName(std::string_view s) {
    if (s == "601" || s == "bt601" || s == "bt470bg" || s == "smpte170m") return Matrix::Bt601;
    if (s == "709" || s == "bt709") return Matrix::Bt709;
    if (s == "2020" || s == "bt2020" || s == "bt2020nc" || s == "bt2020ncl") return Matrix::Bt2020Ncl;
    return std::nullopt;
}
std::optional<Range> rangeFromName(std::string_view s) {
    if (s == "limited" || s == "tv" || s == "mpeg") return Range::Limited;
    if (s == "full" || s == "pc" || s == "jpeg") return Range::Full;
    return std::nullopt;
}

std::optional<Transfer> transferFromName(std::string_view s) {
    if (s == "sdr" || s == "709" || s == "bt709") return Transfer::Bt709;
    if (s == "pq" || s == "smpte2084") return Transfer::Pq;
    if (s == "hlg" || s == "arib-std-b67") return Transfer::Hlg;
    return std::nullopt;
}

LumaWeights lumaWeights(Matrix m) {
    double kr = 0.2126, kb = 0.0722;
    if (m == Matrix::Bt601) { kr = 0.299; kb = 0.114; }
    if (m == Matrix::Bt2020Ncl) { kr = 0.2627; kb = 0.0593; }
    return {kr, 1.0 - kr - kb, kb};
}

double pqToNits(double e) {
    constexpr double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                     c3 = 2392.0 / 4096 * 32;
    e = std::clamp(e, 0.0, 1.0);
    const double p = std::pow(e, 1.0 / m2);
    return 10000.0 * std::pow(std::max(p - c1, 0.0) / (c2 - c3 * p), 1.0 / m1);
}
double nitsToPq(double nits) {
    constexpr double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                     c3 = 2392.0 / 4096 * 32;
    const double y = std::pow(std::clamp(nits / 10000.0, 0.0, 1.0), m1);
    return std::pow((c1 + c2 * y) / (1 + c3 * y), m2);
}
double hlgToRelative(double e) {
    constexpr double a = 0.17883277, b = 0.28466892, c = 0.55991073;
    e = std::clamp(e, 0.0, 1.0);
    return e <= 0.5 ? e * e / 3.0 : (std::exp((e - c) / a) + b) / 12.0;
}

namespace {
int32_t fixed(double v) { return static_cast<int32_t>(std::lround(v * (1 << kFixedShift))); }
}  // namespace

YuvToRgb makeYuvToRgb(Matrix m, Range r, int inDepth, int outDepth) {
    const auto w = lumaWeights(m);
    const double s = double(1 << (inDepth - 8));
    const double outMax = double((1 << outDepth) - 1);
    const bool limited = r == Range::Limited;
    const double yScale = limited ? 219.0 * s : double((1 << inDepth) - 1);
    const double cScale = limited ? 224.0 * s : double((1 << inDepth) - 1);
    YuvToRgb k{};
    k.yOffset = limited ? (16 << (inDepth - 8)) : 0;
    k.cOffset = 1 << (inDepth - 1);
    k.yMul = fixed(outMax / yScale);
    k.rCr = fixed(2.0 * (1.0 - w.kr) * outMax / cScale);
    k.bCb = fixed(2.0 * (1.0 - w.kb) * outMax / cScale);
    k.gCb = fixed(2.0 * w.kb * (1.0 - w.kb) / w.kg * outMax / cScale);
    k.gCr = fixed(2.0 * w.kr * (1.0 - w.kr) / w.kg * outMax / cScale);
    k.outMax = (1 << outDepth) - 1;
    return k;
}

RgbToYuv makeRgbToYuv(Matrix m, Range r, int outDepth) {
    const auto w = lumaWeights(m);
    const bool limited = r == Range::Limited;
    const double s = double(1 << (outDepth - 8));
    const double yScale = (limited ? 219.0 * s : double((1 << outDepth) - 1)) / 255.0;
    const double cScale = (limited ? 224.0 * s : double((1 << outDepth) - 1)) / 255.0;
    const double cb = 2.0 * (1.0 - w.kb), cr = 2.0 * (1.0 - w.kr);
    RgbToYuv k{};
    k.yr = fixed(w.kr * yScale); k.yg = fixed(w.kg * yScale); k.yb = fixed(w.kb * yScale);
    k.ur = fixed(-w.kr / cb * cScale); k.ug = fixed(-w.kg / cb * cScale); k.ub = fixed((1.0 - w.kb) / cb * cScale);
    k.vr = fixed((1.0 - w.kr) / cr * cScale); k.vg = fixed(-w.kg / cr * cScale); k.vb = fixed(-w.kb / cr * cScale);
    k.yOffset = ((limited ? (16 << (outDepth - 8)) : 0) << kFixedShift) + (1 << (kFixedShift - 1));
    k.cOffset = ((1 << (outDepth - 1)) << kFixedShift) + (1 << (kFixedShift - 1));
    k.yMax = (1 << outDepth) - 1;
    k.cMax = (1 << outDepth) - 1;
    return k;
}

double codeToIre(double code, int depth, Range r) {
    const double s = double(1 << (depth - 8));
    if (r == Range::Limited) return (code - 16.0 * s) / (219.0 * s) * 100.0;
    return code / double((1 << depth) - 1) * 100.0;
}
double ireToCode(double ire, int depth, Range r) {
    const double s = double(1 << (depth - 8));
    if (r == Range::Limited) return 16.0 * s + ire / 100.0 * 219.0 * s;
    return ire / 100.0 * double((1 << depth) - 1);
}

}  // namespace cs
