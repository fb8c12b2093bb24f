// Colour math: Y'CbCr matrices (BT.601/709/2020 NCL), limited/full range, transfer
// functions, and the fixed-point conversions that every engine uses.
//
// The per-pixel conversions are integer fixed point (16 fractional bits) and marked
// CS_HD so the CUDA kernels compile the very same functions: the CPU engine and the
// CUDA engine then agree to the code value, not only "within rounding".
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#if defined(__CUDACC__)
#define CS_HD __host__ __device__ __forceinline__
#else
#define CS_HD inline
#endif

namespace cs {

enum class Matrix : uint8_t { Bt601, Bt709, Bt2020Ncl };
enum class Range : uint8_t { Limited, Full };
enum class Transfer : uint8_t { Unspecified, Bt709, Srgb, Pq, Hlg, Linear };
// Colour primaries (H.273): the gamut scope's source (core/Gamut.h).
enum class Primaries : uint8_t { Unspecified, Bt709, Bt2020, P3D65, DciP3, Bt601_625, Bt601_525 };

struct ColorInfo {
    Matrix matrix = Matrix::Bt709;
    Range range = Range::Limited;
    Transfer transfer = Transfer::Bt709;
    bool matrixTagged = false;   // false: matrix guessed from the frame size
    bool rangeTagged = false;    // false: range assumed (limited for Y'CbCr, full for RGB)
    Primaries primaries = Primaries::Unspecified;   // the tag (Unspecified: none)
};

// What the user forces over the stream's tags.
struct ColorOverride {
    std::optional<Matrix> matrix;
    std::optional<Range> range;
    std::optional<Transfer> transfer;   // SDR (Bt709), Pq or Hlg
    bool operator==(const ColorOverride&) const = default;
};

ColorInfo applyOverride(ColorInfo tags, const ColorOverride& o);
// The matrix to assume for an untagged stream: BT.601 for SD, BT.709 for HD, BT.2020 above 2K... (as FFmpeg/mpv guess).
Matrix guessMatrix(int width, int height);

std::string_view matrixName(Matrix m);       // "bt601", "bt709", "bt2020nc"
std::string_view rangeName(Range r);         // "limited", "full"
std::string_view transferName(Transfer t);   // "bt709", "srgb", "smpte2084", "arib-std-b67", "linear", "unknown"
std::optional<Matrix> matrixFromName(std::string_view s);  // accepts 601/709/2020 and FFmpeg spellings
std::optional<Range> rangeFromName(std::string_view s);    // limited|tv|full|pc
std::optional<Transfer> transferFromName(std::string_view s);  // sdr|709|bt709, pq|smpte2084, hlg|arib-std-b67

struct LumaWeights { double kr, kg, kb; };
LumaWeights lumaWeights(Matrix m);

// ---- Transfer functions, for nits graticules -------------------------------------
double pqToNits(double signal01);      // SMPTE ST 2084 EOTF, 0..10000 cd/m2
double nitsToPq(double nits);
double hlgToRelative(double signal01);  // BT.2100 HLG inverse OETF, scene-linear 0..1 (1.0 ~ 1000 nits on a reference display)

// ---- Fixed-point conversions, shared by all engines -------------------------------
constexpr int kFixedShift = 16;

// Y'CbCr (depth inDepth, given range) -> R'G'B' full range at outDepth.
struct YuvToRgb {
    int32_t yOffset, cOffset;          // 16<<(d-8) (or 0) and 128<<(d-8)
    int32_t yMul;                      // Y gain
    int32_t rCr, gCb, gCr, bCb;        // chroma gains (gCb, gCr are subtracted)
    int32_t outMax;                    // (1<<outDepth)-1
};
YuvToRgb makeYuvToRgb(Matrix m, Range r, int inDepth, int outDepth);

struct Rgb { int32_t r, g, b; };
CS_HD int32_t clampCode(int32_t v, int32_t hi) { return v < 0 ? 0 : (v > hi ? hi : v); }
CS_HD Rgb yuvToRgb(const YuvToRgb& k, int32_t y, int32_t cb, int32_t cr) {
    const int32_t yy = k.yMul * (y - k.yOffset) + (1 << (kFixedShift - 1));
    const int32_t u = cb - k.cOffset, v = cr - k.cOffset;
    return {clampCode((yy + k.rCr * v) >> kFixedShift, k.outMax),
            clampCode((yy - k.gCb * u - k.gCr * v) >> kFixedShift, k.outMax),
            clampCode((yy + k.bCb * u) >> kFixedShift, k.outMax)};
}

// EBU R 103's preferred gamut on R'G'B' codes 0..outMax before clamping: -5% .. 105% of
// full scale, rounded to the nearest code, so that rounding at the edge of legal colours
// (100% bars) never counts. A code is out of gamut below lo or above hi. Every engine's
// out-of-gamut statistic uses these bounds.
struct GamutBounds { int32_t lo, hi; };
CS_HD GamutBounds gamutBounds(int32_t outMax) { return {-(outMax + 10) / 20, outMax + (outMax + 10) / 20}; }

// True when the unclamped R'G'B' of a Y'CbCr triple leaves the gamut (gamutBounds).
CS_HD bool yuvOutOfGamut(const YuvToRgb& k, int32_t y, int32_t cb, int32_t cr) {
    const int32_t yy = k.yMul * (y - k.yOffset) + (1 << (kFixedShift - 1));
    const int32_t u = cb - k.cOffset, v = cr - k.cOffset;
    const int32_t r = (yy + k.rCr * v) >> kFixedShift, g = (yy - k.gCb * u - k.gCr * v) >> kFixedShift,
                  b = (yy + k.bCb * u) >> kFixedShift;
    const GamutBounds gamut = gamutBounds(k.outMax);
    return r < gamut.lo || g < gamut.lo || b < gamut.lo || r > gamut.hi || g > gamut.hi || b > gamut.hi;
}

// EBU R 103's limits as a per-pixel rule (docs/QC.md): R'G'B' outside -5%..105% (gamutBounds)
// or luma outside -1%..103%. The luma is the converter's own fixed-point Y term before the
// shift, yy = yMul * (y - yOffset) + 1/2 (0..outMax << kFixedShift is 0..100%), compared with
// the bounds at that precision (a code of 8-bit output is too coarse for a 1% limit: Y 13 is
// -1.4% and would round to -1.2%). Full-range Y'CbCr cannot leave the luma limits (its codes
// stop at 0% and 100%). Every engine's out_of_r103 statistic counts pixels with this rule.
CS_HD GamutBounds r103LumaBounds(int32_t outMax) {
    const int64_t unit = int64_t(outMax) << kFixedShift, half = 1 << (kFixedShift - 1);
    return {int32_t(half - unit / 100), int32_t(half + unit * 103 / 100)};
}
CS_HD bool yuvOutsideR103(const YuvToRgb& k, int32_t y, int32_t cb, int32_t cr) {
    const int32_t yy = k.yMul * (y - k.yOffset) + (1 << (kFixedShift - 1));
    const GamutBounds l = r103LumaBounds(k.outMax);
    return yy < l.lo || yy > l.hi || yuvOutOfGamut(k, y, cb, cr);
}

// R'G'B' full range 8-bit -> Y'CbCr at outDepth in the given range (for RGB sources).
struct RgbToYuv {
    int32_t yr, yg, yb;                // Y gains
    int32_t ur, ug, ub;                // Cb gains (signed)
    int32_t vr, vg, vb;                // Cr gains (signed)
    int32_t yOffset, cOffset;          // already scaled by 2^kFixedShift, rounding included
    int32_t yMax, cMax;
};
RgbToYuv makeRgbToYuv(Matrix m, Range r, int outDepth);

struct Yuv { int32_t y, cb, cr; };
CS_HD Yuv rgbToYuv(const RgbToYuv& k, int32_t r, int32_t g, int32_t b) {
    return {clampCode((k.yr * r + k.yg * g + k.yb * b + k.yOffset) >> kFixedShift, k.yMax),
            clampCode((k.ur * r + k.ug * g + k.ub * b + k.cOffset) >> kFixedShift, k.cMax),
            clampCode((k.vr * r + k.vg * g + k.vb * b + k.cOffset) >> kFixedShift, k.cMax)};
}

// Legal (broadcast) range at a depth: Y 16..235, C 16..240, scaled by 2^(d-8).
struct LegalRange { int32_t yLo, yHi, cLo, cHi; };
CS_HD LegalRange legalRange(int depth) {
    const int s = depth - 8;
    return {16 << s, 235 << s, 16 << s, 240 << s};
}

// IRE of a luma code value (limited range: 16 -> 0 IRE, 235 -> 100 IRE).
double codeToIre(double code, int depth, Range r);
double ireToCode(double ire, int depth, Range r);

}  // namespace cs
