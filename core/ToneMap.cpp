#include "ToneMap.h"

#include <algorithm>
#include <cmath>

#include "Gamut.h"
#include "Hdr.h"

namespace cs {

ToneMap makeToneMap(Transfer t, Primaries source) {
    ToneMap tm;
    tm.transfer = t == Transfer::Hlg ? Transfer::Hlg : Transfer::Pq;
    tm.sourcePeakPq = nitsToPq(kToneMapSourcePeakNits);
    tm.maxLum = nitsToPq(kToneMapSdrWhiteNits) / tm.sourcePeakPq;
    tm.kneeStart = 1.5 * tm.maxLum - 0.5;
    const Matrix3 toXyz = rgbToXyzMatrix(primariesInfo(source));
    const Matrix3 fromXyz = inverse(rgbToXyzMatrix(primariesInfo(Primaries::Bt709)));
    const Matrix3 m = multiply(fromXyz, toXyz);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) tm.gamut[i * 3 + j] = m.m[i][j];
    return tm;
}

double toneMapEetfNits(const ToneMap& tm, double nits) {
    // BT.2390 section 5.4 with Lb = Lmin = 0 (so b = 0 and E3 = E2).
    const double e1 = std::clamp(nitsToPq(nits) / tm.sourcePeakPq, 0.0, 1.0);
    double e2 = e1;
    if (e1 >= tm.kneeStart) {
        const double t = (e1 - tm.kneeStart) / (1.0 - tm.kneeStart);
        const double t2 = t * t, t3 = t2 * t;
        e2 = (2.0 * t3 - 3.0 * t2 + 1.0) * tm.kneeStart + (t3 - 2.0 * t2 + t) * (1.0 - tm.kneeStart) +
             (-2.0 * t3 + 3.0 * t2) * tm.maxLum;
    }
    return pqToNits(e2 * tm.sourcePeakPq);
}

std::array<double, 3> toneMapRgb(const ToneMap& tm, double r, double g, double b) {
    double light[3];
    if (tm.transfer == Transfer::Hlg) {
        const double e[3] = {hlgToRelative(r), hlgToRelative(g), hlgToRelative(b)};
        const LumaWeights w = lumaWeights(Matrix::Bt2020Ncl);
        const double ys = w.kr * e[0] + w.kg * e[1] + w.kb * e[2];
        const double gain = ys > 0.0 ? kHlgPeakNits * std::pow(ys, kHlgSystemGamma - 1.0) : 0.0;
        for (int i = 0; i < 3; ++i) light[i] = gain * e[i];
    } else {
        light[0] = pqToNits(r);
        light[1] = pqToNits(g);
        light[2] = pqToNits(b);
    }
    const double peak = std::max({light[0], light[1], light[2]});
    const double scale = peak > 0.0 ? toneMapEetfNits(tm, peak) / peak / kToneMapSdrWhiteNits : 0.0;
    std::array<double, 3> out{};
    for (int i = 0; i < 3; ++i) {
        const double* row = tm.gamut + i * 3;
        const double linear = std::clamp((row[0] * light[0] + row[1] * light[1] + row[2] * light[2]) * scale, 0.0, 1.0);
        out[size_t(i)] = std::pow(linear, 1.0 / kToneMapDisplayGamma);
    }
    return out;
}

Rgb toneMapPixel(const ToneMap& tm, const YuvToRgb& native, int32_t y, int32_t cb, int32_t cr) {
    const Rgb c = yuvToRgb(native, y, cb, cr);
    const double top = double(native.outMax);
    const auto o = toneMapRgb(tm, c.r / top, c.g / top, c.b / top);
    return {int32_t(std::lround(o[0] * 255.0)), int32_t(std::lround(o[1] * 255.0)), int32_t(std::lround(o[2] * 255.0))};
}

Rgb toneMapCode8(const ToneMap& tm, int32_t r, int32_t g, int32_t b) {
    const auto o = toneMapRgb(tm, r / 255.0, g / 255.0, b / 255.0);
    return {int32_t(std::lround(o[0] * 255.0)), int32_t(std::lround(o[1] * 255.0)), int32_t(std::lround(o[2] * 255.0))};
}

}  // namespace cs

namespace cs {

ToneMapTable makeToneMapTable(const ToneMap& tm) {
    ToneMapTable t;
    t.tm = tm;
    for (int c = 0; c < 256; ++c) {
        const double e = c / 255.0;
        t.light[size_t(c)] = tm.transfer == Transfer::Hlg ? hlgToRelative(e) : pqToNits(e);
        const double peak = t.light[size_t(c)];
        t.scale[size_t(c)] = peak > 0.0 ? toneMapEetfNits(tm, peak) / peak / kToneMapSdrWhiteNits : 0.0;
        // lround(pow(linear, 1 / 2.4) * 255) reaches c from pow((c - 0.5) / 255, 2.4) up.
        t.rise[size_t(c)] = c == 0 ? 0.0 : std::pow((c - 0.5) / 255.0, kToneMapDisplayGamma);
    }
    return t;
}

void toneMapRgba(const ToneMapTable& t, uint8_t* rgba, size_t pixels) {
    const ToneMap& tm = t.tm;
    const LumaWeights w = lumaWeights(Matrix::Bt2020Ncl);
    for (size_t i = 0; i < pixels; ++i, rgba += 4) {
        double light[3] = {t.light[rgba[0]], t.light[rgba[1]], t.light[rgba[2]]};
        double scale;
        if (tm.transfer == Transfer::Hlg) {   // toneMapRgb's OOTF and EETF, per pixel
            const double ys = w.kr * light[0] + w.kg * light[1] + w.kb * light[2];
            const double gain = ys > 0.0 ? kHlgPeakNits * std::pow(ys, kHlgSystemGamma - 1.0) : 0.0;
            for (double& l : light) l *= gain;
            const double peak = std::max({light[0], light[1], light[2]});
            scale = peak > 0.0 ? toneMapEetfNits(tm, peak) / peak / kToneMapSdrWhiteNits : 0.0;
        } else {   // the peak is the largest code's light (pqToNits rises with the code)
            scale = t.scale[std::max({rgba[0], rgba[1], rgba[2]})];
        }
        for (int c = 0; c < 3; ++c) {
            const double* row = tm.gamut + c * 3;
            const double linear = std::clamp((row[0] * light[0] + row[1] * light[1] + row[2] * light[2]) * scale, 0.0, 1.0);
            // The display code: how many of rise[1..255] the light reaches.
            rgba[c] = uint8_t(std::upper_bound(t.rise.begin() + 1, t.rise.end(), linear) - (t.rise.begin() + 1));
        }
    }
}

}  // namespace cs
