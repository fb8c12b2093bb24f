// An independent computation of every scope from known per-pixel components, written
// with plain loops (no PixelAccess, no engine code): the reference the engines are
// compared against in tests/core and tests/app.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/Color.h"
#include "core/Frame.h"
#include "core/PixelFormat.h"
#include "core/ScopeResults.h"

namespace cs::testing {

struct Components {
    int width, height, cw, ch, sw, sh;
    std::vector<int> y, cb, cr;   // Y'CbCr sources: luma per pixel, chroma per chroma sample
    std::vector<int> r, g, b;     // RGB sources: per pixel
};

inline Components randomComponents(PixelFormat f, int w, int h, std::mt19937& rng, bool legalOnly = false) {
    const auto& info = formatInfo(f);
    Components c{w, h, chromaWidth(f, w), chromaHeight(f, h), info.log2ChromaW, info.log2ChromaH, {}, {}, {}, {}, {}, {}};
    const int maxCode = (1 << info.bitDepth) - 1;
    const int lo = legalOnly ? (16 << (info.bitDepth - 8)) : 0, hi = legalOnly ? (235 << (info.bitDepth - 8)) : maxCode;
    std::uniform_int_distribution<int> code(lo, hi), byte(0, 255);
    if (info.isRgb) {
        for (int i = 0; i < w * h; ++i) { c.r.push_back(byte(rng)); c.g.push_back(byte(rng)); c.b.push_back(byte(rng)); }
        return c;
    }
    for (int i = 0; i < w * h; ++i) c.y.push_back(code(rng));
    const int mid = 1 << (info.bitDepth - 1);
    for (int i = 0; i < c.cw * c.ch; ++i) {
        c.cb.push_back(info.layout == PixelLayout::Gray ? mid : code(rng));
        c.cr.push_back(info.layout == PixelLayout::Gray ? mid : code(rng));
    }
    return c;
}

inline Frame buildFrame(PixelFormat f, const Components& c, ColorInfo color) {
    Frame frame(f, c.width, c.height, color);
    for (int y = 0; y < c.height; ++y)
        for (int x = 0; x < c.width; ++x) {
            const size_t i = size_t(y) * size_t(c.width) + size_t(x);
            if (formatInfo(f).isRgb) { frame.setPixel(x, y, c.r[i], c.g[i], c.b[i]); continue; }
            const size_t ci = size_t(y >> c.sh) * size_t(c.cw) + size_t(x >> c.sw);
            frame.setPixel(x, y, c.y[i], c.cb[ci], c.cr[ci]);
        }
    return frame;
}

struct Reference {
    std::vector<uint32_t> histY, histR, histG, histB, waveform, paradeRgb, paradeYuv, vectorscope;
    ChannelStats y, u, v;
    double outOfLegal = 0;
};

inline Reference reference(PixelFormat f, const Components& c, ColorInfo color) {
    const auto& info = formatInfo(f);
    const int d = info.bitDepth, L = 1 << d, W = c.width, H = c.height;
    Reference ref;
    ref.histY.assign(size_t(L), 0);
    ref.histR.assign(256, 0); ref.histG.assign(256, 0); ref.histB.assign(256, 0);
    ref.waveform.assign(size_t(L * W), 0);
    ref.paradeRgb.assign(size_t(3 * L * W), 0);
    ref.paradeYuv.assign(size_t(3 * L * W), 0);
    ref.vectorscope.assign(size_t(L * L), 0);
    const auto toRgb8 = makeYuvToRgb(color.matrix, color.range, d, 8);
    const auto toRgbN = makeYuvToRgb(color.matrix, color.range, d, d);
    const auto toYuv = makeRgbToYuv(color.matrix, color.range, 8);
    long long sumY = 0, sumU = 0, sumV = 0, nC = 0, illegal = 0;
    ref.y = {1 << 30, -1, 0}; ref.u = ref.y; ref.v = ref.y;
    const int yLo = 16 << (d - 8), yHi = 235 << (d - 8), cLo = 16 << (d - 8), cHi = 240 << (d - 8);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const size_t i = size_t(y) * size_t(W) + size_t(x);
            int Y, Cb, Cr, R8, G8, B8, Rn, Gn, Bn;
            if (info.isRgb) {
                R8 = Rn = c.r[i]; G8 = Gn = c.g[i]; B8 = Bn = c.b[i];
                const Yuv v = rgbToYuv(toYuv, R8, G8, B8);
                Y = v.y; Cb = v.cb; Cr = v.cr;
            } else {
                const size_t ci = size_t(y >> c.sh) * size_t(c.cw) + size_t(x >> c.sw);
                Y = c.y[i]; Cb = c.cb[ci]; Cr = c.cr[ci];
                const Rgb p8 = yuvToRgb(toRgb8, Y, Cb, Cr), pn = yuvToRgb(toRgbN, Y, Cb, Cr);
                R8 = p8.r; G8 = p8.g; B8 = p8.b; Rn = pn.r; Gn = pn.g; Bn = pn.b;
            }
            ++ref.histY[size_t(Y)]; ++ref.histR[size_t(R8)]; ++ref.histG[size_t(G8)]; ++ref.histB[size_t(B8)];
            ++ref.waveform[size_t(Y * W + x)];
            ++ref.paradeRgb[size_t((0 * L + Rn) * W + x)]; ++ref.paradeRgb[size_t((1 * L + Gn) * W + x)];
            ++ref.paradeRgb[size_t((2 * L + Bn) * W + x)];
            ++ref.paradeYuv[size_t((0 * L + Y) * W + x)]; ++ref.paradeYuv[size_t((1 * L + Cb) * W + x)];
            ++ref.paradeYuv[size_t((2 * L + Cr) * W + x)];
            ++ref.vectorscope[size_t(Cr * L + Cb)];
            ref.y.min = std::min(ref.y.min, Y); ref.y.max = std::max(ref.y.max, Y); sumY += Y;
            if (Y < yLo || Y > yHi || Cb < cLo || Cb > cHi || Cr < cLo || Cr > cHi) ++illegal;
            if (info.isRgb) {
                ref.u.min = std::min(ref.u.min, Cb); ref.u.max = std::max(ref.u.max, Cb); sumU += Cb;
                ref.v.min = std::min(ref.v.min, Cr); ref.v.max = std::max(ref.v.max, Cr); sumV += Cr; ++nC;
            }
        }
    if (!info.isRgb)   // chroma statistics over the chroma plane at its own resolution
        for (size_t ci = 0; ci < c.cb.size(); ++ci) {
            ref.u.min = std::min(ref.u.min, c.cb[ci]); ref.u.max = std::max(ref.u.max, c.cb[ci]); sumU += c.cb[ci];
            ref.v.min = std::min(ref.v.min, c.cr[ci]); ref.v.max = std::max(ref.v.max, c.cr[ci]); sumV += c.cr[ci]; ++nC;
        }
    ref.y.avg = double(sumY) / double(W * H);
    ref.u.avg = double(sumU) / double(nC);
    ref.v.avg = double(sumV) / double(nC);
    ref.outOfLegal = double(illegal) / double(W * H);
    return ref;
}

}  // namespace cs::testing
