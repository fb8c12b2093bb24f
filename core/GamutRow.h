// GamutRow: core/Gamut.h's gamutPixel over a row of pixels, for the CPU engine.
//
// The same single-precision steps in the same order as gamutPixel (so the very same bins and
// outside flags as the CUDA engine), laid out as passes over small arrays that the compiler
// vectorises: SSE2 at the x86-64 baseline, AVX2 in the CPU engine's AVX2 clone. Division and
// conversion stay exact (one IEEE division per axis, truncation of a clamped value), only
// several pixels at a time. Under GCC's default -ftrapping-math a loop vectorises only when
// nothing that may raise a floating-point exception runs conditionally, so two things are
// kept apart from the selects they would otherwise meet:
// - the division from the choice of its divisor (1 for black): in one loop GCC divides only
//   when the pixel is not black, a branch;
// - the float-to-integer conversion from the clamps that bound its argument: in one loop GCC
//   converts only when the value is not clamped, a branch.
// tests/core/test_gamut.cpp compares it with gamutPixel pixel by pixel.
#pragma once
#include <cstdint>

#include "Gamut.h"

namespace cs {

// The most pixels one call takes (the CPU engine's tile width).
constexpr int kGamutRowMax = 64;

// Bins and outside flags (0 or 1) of n <= kGamutRowMax pixels from their linear R, G, B
// (GamutTables::linear of their codes), with k.mode == kUv; returns how many are outside.
template <bool kUv>
[[gnu::always_inline]] inline uint32_t gamutRow(const GamutCoefficients& coefficients, const float* __restrict r,
                                                const float* __restrict g, const float* __restrict b, int n,
                                                int32_t* __restrict bin, uint8_t* __restrict outside) {
    const GamutCoefficients k = coefficients;   // a local copy: the stores below cannot alias it
    alignas(64) float nu[kGamutRowMax], nv[kGamutRowMax], den[kGamutRowMax];
    alignas(64) float qu[kGamutRowMax], qv[kGamutRowMax];
    alignas(64) int32_t black[kGamutRowMax], raw[kGamutRowMax];
    // XYZ, the coordinates' numerators and denominator; black (denominator not above 0)
    // divides by 1.
    for (int i = 0; i < n; ++i) {
        const float X = gamutDot(k.toXyz, r[i], g[i], b[i]), Y = gamutDot(k.toXyz + 3, r[i], g[i], b[i]),
                    Z = gamutDot(k.toXyz + 6, r[i], g[i], b[i]);
        const float d = kUv ? gamutAdd(gamutAdd(X, gamutMul(15.0f, Y)), gamutMul(3.0f, Z)) : gamutAdd(gamutAdd(X, Y), Z);
        nu[i] = kUv ? gamutMul(4.0f, X) : X;
        nv[i] = kUv ? gamutMul(9.0f, Y) : Y;
        const bool isBlack = !(d > 0.0f);
        black[i] = isBlack;
        den[i] = isBlack ? 1.0f : d;
    }
    // The coordinates in bins, clamped (cieBin before its conversion).
    const float uScale = k.uScale, vScale = k.vScale, top = float(kCieBins - 1);
    for (int i = 0; i < n; ++i) {
        float u = gamutMul(gamutDiv(nu[i], den[i]), uScale), v = gamutMul(gamutDiv(nv[i], den[i]), vScale);
        u = u < 0.0f ? 0.0f : u;
        u = u > top ? top : u;
        v = v < 0.0f ? 0.0f : v;
        v = v > top ? top : v;
        qu[i] = u;
        qv[i] = v;
    }
    for (int i = 0; i < n; ++i) raw[i] = int32_t(qv[i]) * kCieBins + int32_t(qu[i]);
    const int32_t whiteBin = k.whiteBin;
    for (int i = 0; i < n; ++i) {   // black ? whiteBin : raw, as masks (SSE2 has no select of integers)
        const int32_t m = -black[i];
        bin[i] = (whiteBin & m) | (raw[i] & ~m);
    }
    // Outside the target.
    uint32_t count = 0;
    for (int i = 0; i < n; ++i) {
        const float tr = gamutDot(k.toTarget, r[i], g[i], b[i]), tg = gamutDot(k.toTarget + 3, r[i], g[i], b[i]),
                    tb = gamutDot(k.toTarget + 6, r[i], g[i], b[i]);
        const float largest = gamutMax(gamutMax(r[i], g[i]), b[i]);
        const float lo = -gamutMul(largest, kGamutTolerance), hi = 1.0f + kGamutTolerance;
        const uint8_t o = uint8_t((tr < lo) | (tg < lo) | (tb < lo) | (tr > hi) | (tg > hi) | (tb > hi));
        outside[i] = o;
        count += o;
    }
    return count;
}

}  // namespace cs
