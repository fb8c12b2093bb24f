#include "Gamut.h"

#include <algorithm>
#include <cmath>

namespace cs {

CieAxes cieAxes(CieMode m) {
    // kCieBins / extent as exact fractions: 512 / 0.8 = 640, 512 / 0.9 = 5120 / 9,
    // 512 / 0.65 = 10240 / 13, 512 / 0.6 = 2560 / 3.
    static_assert(kCieBins == 512);
    if (m == CieMode::Uv) return {0.65, 0.6, 10240, 13, 2560, 3};
    return {0.8, 0.9, 640, 1, 5120, 9};
}

std::string_view cieModeName(CieMode m) { return m == CieMode::Uv ? "uv" : "xy"; }
std::optional<CieMode> cieModeFromName(std::string_view s) {
    if (s == "xy" || s == "1931") return CieMode::Xy;
    if (s == "uv" || s == "u'v'" || s == "1976") return CieMode::Uv;
    return std::nullopt;
}

PrimariesInfo primariesInfo(Primaries p) {
    constexpr Chromaticity d65{0.3127, 0.3290};
    switch (p) {
        case Primaries::Bt2020: return {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, d65};
        case Primaries::P3D65: return {{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060}, d65};
        case Primaries::DciP3: return {{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060}, {0.314, 0.351}};
        case Primaries::Bt601_625: return {{0.640, 0.330}, {0.290, 0.600}, {0.150, 0.060}, d65};
        case Primaries::Bt601_525: return {{0.630, 0.340}, {0.310, 0.595}, {0.155, 0.070}, d65};
        case Primaries::Bt709:
        case Primaries::Unspecified: break;
    }
    return {{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}, d65};
}

std::string_view primariesLabel(Primaries p) {
    switch (p) {
        case Primaries::Bt2020: return "BT.2020";
        case Primaries::P3D65: return "P3-D65";
        case Primaries::DciP3: return "DCI-P3";
        case Primaries::Bt601_625: return "BT.601-625";
        case Primaries::Bt601_525: return "BT.601-525";
        case Primaries::Bt709:
        case Primaries::Unspecified: break;
    }
    return "BT.709";
}

std::optional<Primaries> gamutTargetFromName(std::string_view s) {
    if (s == "bt709" || s == "709") return Primaries::Bt709;
    if (s == "p3" || s == "p3-d65" || s == "p3d65" || s == "dci-p3") return Primaries::P3D65;
    if (s == "bt2020" || s == "2020") return Primaries::Bt2020;
    return std::nullopt;
}

std::string_view gamutTargetName(Primaries p) {
    switch (p) {
        case Primaries::Bt2020: return "bt2020";
        case Primaries::P3D65:
        case Primaries::DciP3: return "p3-d65";
        default: return "bt709";
    }
}

Primaries effectivePrimaries(const ColorInfo& c, int height) {
    if (c.primaries != Primaries::Unspecified) return c.primaries;
    switch (c.matrix) {
        case Matrix::Bt2020Ncl: return Primaries::Bt2020;
        case Matrix::Bt601: return height == 576 ? Primaries::Bt601_625 : Primaries::Bt601_525;
        case Matrix::Bt709: break;
    }
    return Primaries::Bt709;
}

Chromaticity xyToUv(Chromaticity c) {
    const double d = -2.0 * c.x + 12.0 * c.y + 3.0;
    return {4.0 * c.x / d, 9.0 * c.y / d};
}

Matrix3 inverse(const Matrix3& a) {
    const auto& m = a.m;
    const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    Matrix3 r{};
    r.m[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) / det;
    r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
    r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
    r.m[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) / det;
    r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
    r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
    r.m[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) / det;
    r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
    r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
    return r;
}

Matrix3 multiply(const Matrix3& a, const Matrix3& b) {
    Matrix3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) r.m[i][j] += a.m[i][k] * b.m[k][j];
    return r;
}

Matrix3 rgbToXyzMatrix(const PrimariesInfo& p) {
    // Columns: each primary's XYZ at Y = 1, scaled so that R = G = B = 1 gives the white.
    const Chromaticity c[3] = {p.r, p.g, p.b};
    Matrix3 m{};
    for (int j = 0; j < 3; ++j) {
        m.m[0][j] = c[j].x / c[j].y;
        m.m[1][j] = 1.0;
        m.m[2][j] = (1.0 - c[j].x - c[j].y) / c[j].y;
    }
    const double w[3] = {p.white.x / p.white.y, 1.0, (1.0 - p.white.x - p.white.y) / p.white.y};
    const Matrix3 inv = inverse(m);
    double s[3];
    for (int i = 0; i < 3; ++i) s[i] = inv.m[i][0] * w[0] + inv.m[i][1] * w[1] + inv.m[i][2] * w[2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m.m[i][j] *= s[j];
    return m;
}

// The transfer's linear light. Kept apart from the rest (core/Color.h's PQ and HLG
// functions are the single copy of those curves).
double gamutLinearLight(Transfer t, double e) {
    e = std::clamp(e, 0.0, 1.0);
    switch (t) {
        case Transfer::Pq: return pqToNits(e) / 10000.0;
        case Transfer::Hlg: return hlgToRelative(e);
        case Transfer::Srgb: return e <= 0.04045 ? e / 12.92 : std::pow((e + 0.055) / 1.055, 2.4);
        case Transfer::Linear: return e;
        case Transfer::Bt709:
        case Transfer::Unspecified: break;
    }
    return std::pow(e, 2.4);   // BT.1886, black at 0
}

GamutTables makeGamutTables(Primaries source, Transfer transfer, Primaries target, CieMode mode, int levels) {
    GamutTables t;
    t.source = source;
    t.target = target;
    t.mode = mode;
    const PrimariesInfo src = primariesInfo(source);
    const Matrix3 toXyz = rgbToXyzMatrix(src);
    // Linear RGB of the source to the target's, through XYZ (no chromatic adaptation: the
    // gamuts compared share D65).
    const Matrix3 toTarget = multiply(inverse(rgbToXyzMatrix(primariesInfo(target))), toXyz);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            t.k.toXyz[i * 3 + j] = float(toXyz.m[i][j]);
            t.k.toTarget[i * 3 + j] = float(toTarget.m[i][j]);
        }
    const CieAxes axes = cieAxes(mode);
    t.k.uScale = float(double(axes.uNum) / double(axes.uDen));
    t.k.vScale = float(double(axes.vNum) / double(axes.vDen));
    t.k.mode = uint8_t(mode);
    // Black has no chromaticity: it counts where the source's white (every grey) falls.
    t.k.whiteBin = 0;
    t.k.whiteBin = gamutPixel(t.k, 1.0f, 1.0f, 1.0f).bin;
    t.linear.resize(size_t(levels));
    for (int c = 0; c < levels; ++c) t.linear[size_t(c)] = float(gamutLinearLight(transfer, double(c) / double(levels - 1)));
    return t;
}

const GamutTables& GamutTableCache::get(Primaries source, Transfer transfer, Primaries target, CieMode mode, int levels) {
    if (!valid_ || tables_.source != source || transfer_ != transfer || tables_.target != target || tables_.mode != mode ||
        tables_.linear.size() != size_t(levels)) {
        tables_ = makeGamutTables(source, transfer, target, mode, levels);
        transfer_ = transfer;
        valid_ = true;
    }
    return tables_;
}

}  // namespace cs
