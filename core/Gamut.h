// Gamut: the CIE chromaticity scope (1931 xy, or 1976 u'v') and the share of pixels
// outside a target gamut (docs/GAMUT.md).
//
// One rule for every engine. Each pixel's R'G'B' comes from its native-depth code values
// (Y'CbCr through the stream's matrix and range with core/Color.h's fixed-point conversion
// at the native depth, clamped; RGB sources as stored), each component is made linear by a
// table over the code values (the source's transfer), and the rest is integer arithmetic:
// XYZ through the source primaries' matrix, the chromaticity bin by one correctly rounded
// double division per axis (IEEE on the CPU and on CUDA alike), the target's RGB through a
// second integer matrix. The tables are made once on the host, so the CPU and the CUDA
// engine, which run the same CS_HD function on them, count the very same bins.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "Color.h"

namespace cs {

enum class CieMode : uint8_t { Xy, Uv };   // CIE 1931 x,y or CIE 1976 u',v'

// The counts: kCieBins x kCieBins, index [v * kCieBins + u] with u along x (or u') and
// v along y (or v'), both rising from 0 (row 0 is y = 0: the image is drawn upside down).
constexpr int kCieBins = 512;

// The area the bins cover, from 0: x 0..0.8, y 0..0.9 (xy); u' 0..0.65, v' 0..0.6 (u'v').
// Bin of a coordinate c: floor(c * num / den), num/den = kCieBins / extent (exact integers).
struct CieAxes {
    double uExtent, vExtent;        // 0.8, 0.9 or 0.65, 0.6
    int64_t uNum, uDen, vNum, vDen;
};
CieAxes cieAxes(CieMode m);

std::string_view cieModeName(CieMode m);                 // "xy", "uv"
std::optional<CieMode> cieModeFromName(std::string_view s);   // xy | uv (u'v')

// Primaries and white points (H.273 colour primaries).
struct Chromaticity { double x, y; };
struct PrimariesInfo { Chromaticity r, g, b, white; };
PrimariesInfo primariesInfo(Primaries p);   // Unspecified: BT.709's
std::string_view primariesLabel(Primaries p);   // "BT.709", "DCI-P3", "P3-D65", "BT.2020", ... (the diagram's labels)
// The target gamuts a check may use: bt709 | 709, p3 | p3-d65 | dci-p3, bt2020 | 2020.
std::optional<Primaries> gamutTargetFromName(std::string_view s);
std::string_view gamutTargetName(Primaries p);   // "bt709", "p3-d65", "bt2020"
// The primaries to assume: the tag, else by the matrix (BT.2020 for BT.2020's, BT.601 625
// lines at 576 lines and 525 otherwise for BT.601's, BT.709 for the rest).
Primaries effectivePrimaries(const ColorInfo& c, int height);

// u'v' of an xy chromaticity.
Chromaticity xyToUv(Chromaticity c);

// The 3x3 matrix (rows X, Y, Z) from linear RGB of these primaries to XYZ, Y of white = 1.
struct Matrix3 { double m[3][3]; };
Matrix3 rgbToXyzMatrix(const PrimariesInfo& p);
Matrix3 inverse(const Matrix3& a);
Matrix3 multiply(const Matrix3& a, const Matrix3& b);

// Outside the target: a component of the target's linear RGB below -tolerance x the pixel's
// largest source component, or above 1 + tolerance, with tolerance 1/256. Relative below
// (a dark pixel's rounding never counts), absolute above.
constexpr float kGamutTolerance = 1.0f / 256.0f;

// What gamutPixel needs besides the linear table: small, passed to kernels by value.
struct GamutCoefficients {
    float toXyz[9];          // rows X, Y, Z
    float toTarget[9];       // source linear RGB -> target linear RGB
    float uScale, vScale;    // bins per unit of the coordinates (kCieBins / extent)
    int32_t whiteBin;        // where black (X+Y+Z = 0) counts: the source white's bin
    uint8_t mode;            // CieMode
};

struct GamutTables {
    GamutCoefficients k{};
    std::vector<float> linear;   // levels: linear light of each code, 0..1
    Primaries source = Primaries::Bt709, target = Primaries::Bt709;
    CieMode mode = CieMode::Xy;
};

// Linear light (0..1, the transfer's reference peak 1) of a non-linear signal 0..1:
// BT.1886 (gamma 2.4, black 0) for BT.709 and unspecified, the sRGB EOTF, PQ over
// 10000 cd/m2 (ST 2084), HLG's scene light (BT.2100 inverse OETF; the OOTF scales all three
// components alike and leaves chromaticity alone), linear as is.
double gamutLinearLight(Transfer t, double signal01);

// The tables for a frame: `source` primaries with `transfer`, codes 0..levels-1 full range.
GamutTables makeGamutTables(Primaries source, Transfer transfer, Primaries target, CieMode mode, int levels);

// The last tables made, made again when what they depend on changes (one owner, one thread).
class GamutTableCache {
public:
    const GamutTables& get(Primaries source, Transfer transfer, Primaries target, CieMode mode, int levels);

private:
    GamutTables tables_;
    Transfer transfer_ = Transfer::Unspecified;
    bool valid_ = false;
};

struct GamutPixel { int32_t bin; bool outside; };

// Single-precision steps, each rounded to nearest on its own: the same results on the
// host (no contraction into FMA: core/ compiles with -ffp-contract=off) and in CUDA (the
// _rn intrinsics are never contracted), so every engine computes the same bins.
#if defined(__CUDA_ARCH__)
CS_HD float gamutMul(float a, float b) { return __fmul_rn(a, b); }
CS_HD float gamutAdd(float a, float b) { return __fadd_rn(a, b); }
CS_HD float gamutDiv(float a, float b) { return __fdiv_rn(a, b); }
#else
CS_HD float gamutMul(float a, float b) { return a * b; }
CS_HD float gamutAdd(float a, float b) { return a + b; }
CS_HD float gamutDiv(float a, float b) { return a / b; }
#endif

CS_HD float gamutDot(const float* row, float r, float g, float b) {
    return gamutAdd(gamutAdd(gamutMul(row[0], r), gamutMul(row[1], g)), gamutMul(row[2], b));
}

CS_HD float gamutMax(float a, float b) { return a > b ? a : b; }

// Written as selects, without branches, so that the CPU engine's loop over a row vectorises.
CS_HD int32_t cieBin(float num, float den, float scale) {
    float q = gamutMul(gamutDiv(num, den), scale);
    q = q < 0.0f ? 0.0f : q;
    q = q > float(kCieBins - 1) ? float(kCieBins - 1) : q;
    return int32_t(q);
}

// One pixel from its three linear values (GamutTables::linear of its R', G', B' codes).
CS_HD GamutPixel gamutPixel(const GamutCoefficients& k, float r, float g, float b) {
    const float X = gamutDot(k.toXyz, r, g, b), Y = gamutDot(k.toXyz + 3, r, g, b), Z = gamutDot(k.toXyz + 6, r, g, b);
    // x = X / (X+Y+Z), y = Y / (X+Y+Z); u' = 4X / (X+15Y+3Z), v' = 9Y / (X+15Y+3Z).
    const bool uv = k.mode == uint8_t(CieMode::Uv);
    const float denXy = gamutAdd(gamutAdd(X, Y), Z);
    const float denUv = gamutAdd(gamutAdd(X, gamutMul(15.0f, Y)), gamutMul(3.0f, Z));
    const float den = uv ? denUv : denXy;
    const float nu = uv ? gamutMul(4.0f, X) : X, nv = uv ? gamutMul(9.0f, Y) : Y;
    // Black (den 0) divides by 1 and takes the white point's bin instead.
    const bool black = !(den > 0.0f);
    const float safeDen = black ? 1.0f : den;
    const int32_t bin = cieBin(nv, safeDen, k.vScale) * kCieBins + cieBin(nu, safeDen, k.uScale);
    GamutPixel p;
    p.bin = black ? k.whiteBin : bin;
    const float tr = gamutDot(k.toTarget, r, g, b), tg = gamutDot(k.toTarget + 3, r, g, b),
                tb = gamutDot(k.toTarget + 6, r, g, b);
    const float largest = gamutMax(gamutMax(r, g), b);
    const float lo = -gamutMul(largest, kGamutTolerance), hi = 1.0f + kGamutTolerance;
    p.outside = (tr < lo) | (tg < lo) | (tb < lo) | (tr > hi) | (tg > hi) | (tb > hi);
    return p;
}

// The gamut preview (PreviewFilter::Gamut), one rule for every engine: a pixel outside the
// target (gamutPixel's `outside`) takes the warning colour, every other pixel keeps the
// picture's RGBA. Colours are RGBA words, little-endian bytes R, G, B, A.
constexpr uint32_t kGamutWarningColour = 0xffff00ffu;   // magenta 255,0,255, opaque
CS_HD uint32_t gamutPreviewPixel(uint32_t pictureRgba, bool outside, uint32_t colour = kGamutWarningColour) {
    return outside ? colour : pictureRgba;
}

// One frame's gamut measurements (ScopeSpec::cie).
struct GamutResults {
    bool measured = false;
    Primaries source = Primaries::Bt709;   // the primaries assumed (effectivePrimaries)
    Primaries target = Primaries::Bt709;
    CieMode mode = CieMode::Xy;
    std::vector<uint32_t> counts;   // kCieBins x kCieBins, [v][u]; sums to the frame's pixels
    uint64_t outside = 0;           // pixels outside the target
    double outsideShare = 0.0;      // outside / pixels
};

}  // namespace cs
