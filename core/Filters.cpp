// Filtered previews on the CPU (see Filters.h): box and Gaussian blur, 3x3 median, Sobel
// edges, focus peaking, zebra and false colour. Every filter splits its rows across the
// optional ThreadPool; each output pixel is computed the same way whatever the split, so
// results are identical with and without a pool. Inner loops are shaped for the
// vectoriser (GCC/Clang vector extensions where it needs help); float sums keep the order
// of a plain per-pixel loop, so no result depends on the vector width.
#include "Filters.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "Frame.h"
#include "Gamut.h"
#include "Hdr.h"
#include "HdrFalseColour.h"
#include "PeakingWidth.h"

namespace cs {

namespace {

void forRows(ThreadPool* pool, int rows, const std::function<void(int begin, int end)>& fn) {
    if (rows <= 0) return;
    if (pool == nullptr) {
        fn(0, rows);
        return;
    }
    pool->parallelFor(rows, [&](int, int begin, int end) { fn(begin, end); });
}

bool validImage(const RgbaImage& img) {
    return img.width > 0 && img.height > 0 && img.width <= kMaxDimension && img.height <= kMaxDimension &&
           img.pixels.size() == size_t(img.width) * size_t(img.height) * 4;
}

bool validLuma(const LumaPlane& l) {
    return l.width > 0 && l.height > 0 && l.width <= kMaxDimension && l.height <= kMaxDimension && l.bitDepth >= 8 &&
           l.bitDepth <= 16 && l.values.size() == size_t(l.width) * size_t(l.height);
}

// Filters may be called with out aliasing an input; `stable` then holds a copy to read.
const RgbaImage& readable(const RgbaImage& in, const RgbaImage& out, RgbaImage& stable) {
    if (&in != &out) return in;
    stable = in;
    return stable;
}

int clampIndex(int64_t i, int n) { return int(std::clamp<int64_t>(i, 0, n - 1)); }

// ---- Box blur ---------------------------------------------------------------------------

// (sum + n/2) / n exactly, without a 64-bit division per channel: a double reciprocal
// gives the quotient to within one, and one multiply-compare each way corrects it.
struct RoundingDivider {
    explicit RoundingDivider(int64_t divisor) : n(divisor), inverse(1.0 / double(divisor)) {}
    int64_t round(int64_t sum) const {
        const int64_t v = sum + n / 2;
        int64_t q = int64_t(double(v) * inverse);
        if (q * n > v) --q;
        else if ((q + 1) * n <= v) ++q;
        return q;
    }
    int64_t n;
    double inverse;
};

// Four 32-bit lanes (one RGBA pixel's sums) as one vector: GCC/Clang vector extensions,
// SIMD where the target has it and plain lane-by-lane code elsewhere.
typedef uint32_t Lanes4 __attribute__((vector_size(16)));

// The box blur's rounding division for window sums of at most 255 n. Where sums fit 32 bits
// and it is exact for every one of them, floor(v * ceil(2^32 / n) / 2^32) with v = sum + n/2
// (a 32x32->64-bit multiply, vectorisable): with e = ceil(2^32 / n) n - 2^32, that floor is
// v / n's whenever v e < 2^32, checked here for the largest v. Otherwise RoundingDivider.
struct BoxDivider {
    explicit BoxDivider(int64_t divisor) : n(divisor), fallback(divisor) {
        const uint64_t un = uint64_t(divisor), two32 = uint64_t(1) << 32;
        const uint64_t vmax = 255 * un + un / 2;
        sums32 = vmax < two32;
        if (sums32 && un >= 2) {
            magic = (two32 + un - 1) / un;
            const uint64_t e = magic * un - two32;
            exact32 = vmax * e < two32;
        }
        half = uint32_t(un / 2);
    }
    int64_t n;
    RoundingDivider fallback;
    bool sums32 = false;     // every window sum (plus n/2) fits 32 bits
    bool exact32 = false;    // ... and the multiply-shift is exact for all of them
    uint64_t magic = 0;
    uint32_t half = 0;
};

// dst's alpha bytes (every fourth) replaced by src's, 16 bytes at a time.
void copyAlpha(const uint8_t* src, uint8_t* dst, size_t bytes) {
    typedef uint8_t Bytes16 __attribute__((vector_size(16)));
    const Bytes16 alphaMask = {0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff};
    size_t i = 0;
    for (; i + 16 <= bytes; i += 16) {
        Bytes16 a, d;
        std::memcpy(&a, src + i, 16);
        std::memcpy(&d, dst + i, 16);
        d = (d & ~alphaMask) | (a & alphaMask);
        std::memcpy(dst + i, &d, 16);
    }
    for (i += 3; i < bytes; i += 4) dst[i] = src[i];
}

// Rows [y0, y1) of the box blur, all four lanes of a pixel alike (alpha is summed too and
// replaced at the end, so each step is one uniform loop). Vertical window sums first: per
// column, the clamped window of 2r+1 rows, started at y0 (the clamped tails counted in
// closed form) and slid down one row at a time. Then per output row the horizontal window
// over those column sums, slid along the row the same way. Every sum is exact, so the
// order of the two passes and the split into chunks never change the result.
template <typename Sum>
void boxBlurRows(const RgbaImage& in, int r, const BoxDivider& divide, RgbaImage& out, int y0, int y1) {
    const int w = in.width, h = in.height;
    const size_t lanes = size_t(w) * 4;
    std::vector<uint32_t> col(lanes, 0);   // at most 255 (2r+1): fits
    auto addRow = [&](int y, uint32_t times) {
        const uint8_t* src = in.at(0, y);
        for (size_t i = 0; i < lanes; ++i) col[i] += times * uint32_t(src[i]);
    };
    const int64_t wlo = int64_t(y0) - r, whi = int64_t(y0) + r;
    if (wlo < 0) addRow(0, uint32_t(-wlo));
    if (whi > h - 1) addRow(h - 1, uint32_t(whi - (h - 1)));
    for (int64_t y = std::max<int64_t>(wlo, 0); y <= std::min<int64_t>(whi, h - 1); ++y) addRow(int(y), 1);
    std::vector<Sum> box(lanes);
    for (int y = y0; y < y1; ++y) {
        // Horizontal windows over the column sums (the window of x = 0 in closed form).
        Sum s[4];
        for (int c = 0; c < 4; ++c) {
            s[c] = Sum(r) * col[size_t(c)] + (r > w - 1 ? Sum(r - (w - 1)) : Sum(0)) * col[(size_t(w) - 1) * 4 + size_t(c)];
            for (int64_t x = 0; x <= std::min<int64_t>(r, w - 1); ++x) s[c] += col[size_t(x) * 4 + size_t(c)];
            box[size_t(c)] = s[c];
        }
        if constexpr (sizeof(Sum) == 4) {
            // The four lanes of a pixel as one vector: one add and one subtract per pixel.
            Lanes4 v;
            std::memcpy(&v, s, sizeof v);
            for (int x = 0; x + 1 < w; ++x) {
                Lanes4 add, sub;
                std::memcpy(&add, col.data() + size_t(std::min<int64_t>(int64_t(x) + r + 1, w - 1)) * 4, sizeof add);
                std::memcpy(&sub, col.data() + size_t(std::max<int64_t>(int64_t(x) - r, 0)) * 4, sizeof sub);
                v = v + add - sub;
                std::memcpy(box.data() + size_t(x + 1) * 4, &v, sizeof v);
            }
        } else {
            for (int x = 0; x + 1 < w; ++x) {
                const uint32_t* add = col.data() + size_t(std::min<int64_t>(int64_t(x) + r + 1, w - 1)) * 4;
                const uint32_t* sub = col.data() + size_t(std::max<int64_t>(int64_t(x) - r, 0)) * 4;
                Sum* d = box.data() + size_t(x + 1) * 4;
                for (int c = 0; c < 4; ++c) d[c] = s[c] = s[c] + Sum(add[c]) - Sum(sub[c]);
            }
        }
        // Rounded means in R, G, B; alpha copied from the source pixel.
        uint8_t* dst = out.at(0, y);
        const uint8_t* alpha = in.at(0, y);
        if constexpr (sizeof(Sum) == 4) {
            if (divide.exact32) {
                const uint64_t magic = divide.magic;
                const uint32_t half = divide.half;
                for (size_t i = 0; i < lanes; ++i) dst[i] = uint8_t((uint64_t(box[i] + half) * magic) >> 32);
            } else {
                for (size_t i = 0; i < lanes; ++i) dst[i] = uint8_t(divide.fallback.round(int64_t(box[i])));
            }
        } else {
            for (size_t i = 0; i < lanes; ++i) dst[i] = uint8_t(divide.fallback.round(int64_t(box[i])));
        }
        copyAlpha(alpha, dst, lanes);
        if (y + 1 < y1) {
            const uint8_t* add = in.at(0, int(std::min<int64_t>(int64_t(y) + r + 1, h - 1)));
            const uint8_t* sub = in.at(0, int(std::max<int64_t>(int64_t(y) - r, 0)));
            for (size_t i = 0; i < lanes; ++i) col[i] = col[i] + uint32_t(add[i]) - uint32_t(sub[i]);
        }
    }
}

// `out` sized w x h; its old pixels are kept when the size matches (every one is rewritten).
void sizeForOverwrite(RgbaImage& out, int w, int h) {
    if (out.width != w || out.height != h || out.pixels.size() != size_t(w) * size_t(h) * 4) out.resize(w, h);
}

}  // namespace

void boxBlur(const RgbaImage& inImage, int radius, RgbaImage& out, ThreadPool* pool) {
    if (!validImage(inImage)) {
        out.resize(0, 0);
        return;
    }
    RgbaImage stable;
    const RgbaImage& in = readable(inImage, out, stable);
    const int w = in.width, h = in.height;
    const int r = std::clamp(radius, 0, kMaxBoxRadius);
    if (r == 0) {
        out = in;
        return;
    }
    sizeForOverwrite(out, w, h);
    const BoxDivider divide((2 * int64_t(r) + 1) * (2 * int64_t(r) + 1));
    forRows(pool, h, [&](int y0, int y1) {
        if (divide.sums32) boxBlurRows<uint32_t>(in, r, divide, out, y0, y1);
        else boxBlurRows<uint64_t>(in, r, divide, out, y0, y1);
    });
}

// ---- Gaussian blur ----------------------------------------------------------------------------

std::vector<float> gaussianWeights(float sigma) {
    if (!std::isfinite(sigma) || sigma <= 0.0f) return {};
    const double s = std::min(sigma, kMaxGaussianSigma);
    const int radius = std::max(1, int(std::ceil(3.0 * s)));
    std::vector<double> wd(size_t(2 * radius + 1));
    double total = 0.0;
    for (int k = -radius; k <= radius; ++k) total += wd[size_t(k + radius)] = std::exp(-double(k) * k / (2.0 * s * s));
    std::vector<float> weights(wd.size());
    for (size_t i = 0; i < wd.size(); ++i) weights[i] = float(wd[i] / total);
    return weights;
}
static_assert(kMaxGaussianRadius == int(3 * kMaxGaussianSigma), "ceil(3 sigma) at the largest sigma");

namespace {

typedef float Floats4 __attribute__((vector_size(16)));
typedef int32_t Ints4 __attribute__((vector_size(16)));

// 16 sums at once: acc[t] += wk * p[t] for k = 0, 1, ..., lane by lane (four vectors
// of four floats, kept in registers across k).
template <typename RowOf>
void weightedBlock(const std::vector<float>& weights, RowOf rowOf, float* out) {
    Floats4 acc[4] = {};
    for (size_t k = 0; k < weights.size(); ++k) {
        const float wk = weights[k];
        const float* p = rowOf(k);
        for (int v = 0; v < 4; ++v) {
            Floats4 x;
            std::memcpy(&x, p + 4 * v, sizeof x);
            acc[v] += wk * x;
        }
    }
    std::memcpy(out, acc, sizeof acc);
}

// out[j] = sum over k of weights[k] * in[j + k * step] for j < n, each sum taken in float in
// the order k = 0, 1, ... from 0.0f (so every output is the very same float as a plain
// per-output loop gives). Blocks of 16 outputs keep their sums in registers across k.
void weightedSums(const float* in, size_t step, const std::vector<float>& weights, float* out, size_t n) {
    const size_t taps = weights.size();
    size_t j = 0;
    for (; j + 16 <= n; j += 16) weightedBlock(weights, [&](size_t k) { return in + j + k * step; }, out + j);
    for (; j < n; ++j) {
        float acc = 0.0f;
        for (size_t k = 0; k < taps; ++k) acc += weights[k] * in[j + k * step];
        out[j] = acc;
    }
}

// As weightedSums, with the k-th input a row of its own.
void weightedRows(const float* const* rows, const std::vector<float>& weights, float* out, size_t n) {
    const size_t taps = weights.size();
    size_t j = 0;
    for (; j + 16 <= n; j += 16) weightedBlock(weights, [&](size_t k) { return rows[k] + j; }, out + j);
    for (; j < n; ++j) {
        float acc = 0.0f;
        for (size_t k = 0; k < taps; ++k) acc += weights[k] * rows[k][j];
        out[j] = acc;
    }
}
}  // namespace

void gaussianBlur(const RgbaImage& inImage, float sigma, RgbaImage& out, ThreadPool* pool) {
    if (!validImage(inImage)) {
        out.resize(0, 0);
        return;
    }
    // Normalised 1-D weights: the 2-D kernel is their product.
    const std::vector<float> weights = gaussianWeights(sigma);
    if (weights.empty()) {
        out = inImage;
        return;
    }
    RgbaImage stable;
    const RgbaImage& in = readable(inImage, out, stable);
    const int w = in.width, h = in.height;
    const int radius = int(weights.size()) / 2;
    // Horizontal pass into float (no rounding between the passes), edges replicated by
    // padding; then the vertical pass over rows clamped to the edge. Each chunk of output
    // rows keeps the horizontal results of the 2r+1 rows its window needs in a ring
    // (each row computed once per chunk), so nothing of frame size is written in between.
    sizeForOverwrite(out, w, h);
    const size_t rowLen = size_t(w) * 3;
    forRows(pool, h, [&](int y0, int y1) {
        const int lo = std::max(0, y0 - radius), hi = std::min(h - 1, y1 - 1 + radius);
        const int slots = std::min(2 * radius + 1, hi - lo + 1);
        std::vector<float> ring(size_t(slots) * rowLen), padded(size_t(w + 2 * radius) * 3), acc(rowLen);
        std::vector<uint8_t> bytes(rowLen);
        std::vector<const float*> window(weights.size());
        auto rowOf = [&](int y) { return ring.data() + size_t((y - lo) % slots) * rowLen; };
        auto horizontal = [&](int y) {
            const uint8_t* row = in.at(0, y);
            for (int i = 0; i < w + 2 * radius; ++i) {
                const size_t x = size_t(clampIndex(int64_t(i) - radius, w));
                for (int c = 0; c < 3; ++c) padded[size_t(i) * 3 + size_t(c)] = float(row[x * 4 + size_t(c)]);
            }
            weightedSums(padded.data(), 3, weights, rowOf(y), rowLen);
        };
        int computed = std::min(h - 1, y0 + radius - 1);
        for (int y = lo; y <= computed; ++y) horizontal(y);
        for (int y = y0; y < y1; ++y) {
            if (y + radius <= h - 1 && y + radius > computed) horizontal(computed = y + radius);
            for (int k = -radius; k <= radius; ++k) window[size_t(k + radius)] = rowOf(clampIndex(int64_t(y) + k, h));
            weightedRows(window.data(), weights, acc.data(), rowLen);
            // floor(v + 0.5) clamped to 0..255: clamping first gives the same, and on
            // 0..255 the floor is the truncation (four at a time, then the rest).
            size_t i = 0;
            for (; i + 4 <= rowLen; i += 4) {
                Floats4 v;
                std::memcpy(&v, acc.data() + i, sizeof v);
                v += 0.5f;
                v = v > 0.0f ? v : 0.0f;
                v = v < 255.0f ? v : 255.0f;
                const Ints4 q = __builtin_convertvector(v, Ints4);
                for (int t = 0; t < 4; ++t) bytes[i + size_t(t)] = uint8_t(q[t]);
            }
            for (; i < rowLen; ++i) {
                const float v = acc[i] + 0.5f;
                bytes[i] = uint8_t(int(v > 0.0f ? (v < 255.0f ? v : 255.0f) : 0.0f));
            }
            uint8_t* dst = out.at(0, y);
            const uint8_t* alpha = in.at(0, y);
            for (int x = 0; x < w; ++x) {
                dst[size_t(x) * 4] = bytes[size_t(x) * 3];
                dst[size_t(x) * 4 + 1] = bytes[size_t(x) * 3 + 1];
                dst[size_t(x) * 4 + 2] = bytes[size_t(x) * 3 + 2];
                dst[size_t(x) * 4 + 3] = alpha[size_t(x) * 4 + 3];
            }
        }
    });
}

// ---- Median -----------------------------------------------------------------------------

namespace {
inline uint8_t min3(uint8_t a, uint8_t b, uint8_t c) { return std::min(a, std::min(b, c)); }
inline uint8_t max3(uint8_t a, uint8_t b, uint8_t c) { return std::max(a, std::max(b, c)); }
inline uint8_t med3(uint8_t a, uint8_t b, uint8_t c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }
}  // namespace

// Exact 3x3 median by sorted columns: sort each column's three values (lo <= mid <= hi);
// the median of the nine is med3(max of the lows, med3 of the mids, min of the highs).
// Each column's sort is shared by the three windows that contain it. Inside the row the
// neighbours are 4 bytes either side, so a whole row is one loop over bytes (alpha lanes
// included, then replaced by the source's); the two edge pixels clamp their neighbours.
void median3x3(const RgbaImage& inImage, RgbaImage& out, ThreadPool* pool) {
    if (!validImage(inImage)) {
        out.resize(0, 0);
        return;
    }
    RgbaImage stable;
    const RgbaImage& in = readable(inImage, out, stable);
    const int w = in.width, h = in.height;
    sizeForOverwrite(out, w, h);
    forRows(pool, h, [&](int y0, int y1) {
        const size_t n = size_t(w) * 4;
        std::vector<uint8_t> lo(n), mid(n), hi(n);
        for (int y = y0; y < y1; ++y) {
            const uint8_t* a = in.at(0, clampIndex(y - 1, h));
            const uint8_t* b = in.at(0, y);
            const uint8_t* c = in.at(0, clampIndex(y + 1, h));
            for (size_t i = 0; i < n; ++i) {
                lo[i] = min3(a[i], b[i], c[i]);
                hi[i] = max3(a[i], b[i], c[i]);
                mid[i] = med3(a[i], b[i], c[i]);
            }
            uint8_t* dst = out.at(0, y);
            for (size_t i = 4; i + 4 < n; ++i)
                dst[i] = med3(max3(lo[i - 4], lo[i], lo[i + 4]), med3(mid[i - 4], mid[i], mid[i + 4]),
                              min3(hi[i - 4], hi[i], hi[i + 4]));
            for (int x : {0, w - 1}) {
                const size_t l = size_t(clampIndex(x - 1, w)) * 4, m = size_t(x) * 4, r = size_t(clampIndex(x + 1, w)) * 4;
                for (size_t k = 0; k < 3; ++k)
                    dst[m + k] = med3(max3(lo[l + k], lo[m + k], lo[r + k]), med3(mid[l + k], mid[m + k], mid[r + k]),
                                      min3(hi[l + k], hi[m + k], hi[r + k]));
            }
            copyAlpha(b, dst, n);
        }
    });
}

// ---- Sobel, focus peaking -----------------------------------------------------------------

namespace {
// Sobel gradients of luma: fn(y, g2) gets each row's gx^2 + gy^2 as exact integers: at
// most 2 (4 (2^d - 1))^2, which fits 32 bits up to 12-bit luma (the 32-bit lanes vectorise
// several times better than 64-bit ones) and takes 64 bits above. The magnitude over full
// scale is sqrt(g2) / (4 (2^d - 1)): a full-scale step edge gives 1 (its gradient is 4 full
// scales, the kernel's weights 1 + 2 + 1 on each side). Codes above the depth count as its
// top. Each chunk loads every row it reads once (clamped codes, the edge column repeated
// on either side) into a rotation of three.
template <typename Square, typename Fn>
void sobelRows(const LumaPlane& luma, ThreadPool* pool, Fn fn) {
    const int w = luma.width, h = luma.height;
    const int32_t maxCode = (1 << luma.bitDepth) - 1;
    forRows(pool, h, [&](int y0, int y1) {
        const size_t padded = size_t(w) + 2;
        std::vector<int32_t> buffer(3 * padded);
        std::vector<Square> g2(static_cast<size_t>(w));
        int32_t* rows[3] = {buffer.data(), buffer.data() + padded, buffer.data() + 2 * padded};
        int loaded[3] = {-1, -1, -1};
        auto row = [&](int y) -> const int32_t* {
            const int slot = y % 3;   // rows y-1, y, y+1 of one output row never share a slot
            if (loaded[slot] != y) {
                const uint16_t* src = luma.values.data() + size_t(y) * size_t(w);
                int32_t* dst = rows[slot];
                for (int x = 0; x < w; ++x) dst[x + 1] = std::min<int32_t>(src[x], maxCode);
                dst[0] = dst[1];
                dst[w + 1] = dst[w];
                loaded[slot] = y;
            }
            return rows[slot];
        };
        for (int y = y0; y < y1; ++y) {
            const int32_t* __restrict up = row(clampIndex(y - 1, h));
            const int32_t* __restrict at = row(y);
            const int32_t* __restrict down = row(clampIndex(y + 1, h));
            Square* __restrict g = g2.data();
            for (int x = 0; x < w; ++x) {
                const Square gx = Square((up[x + 2] + 2 * at[x + 2] + down[x + 2]) - (up[x] + 2 * at[x] + down[x]));
                const Square gy = Square((down[x] + 2 * down[x + 1] + down[x + 2]) - (up[x] + 2 * up[x + 1] + up[x + 2]));
                g[x] = gx * gx + gy * gy;
            }
            fn(y, static_cast<const Square*>(g));
        }
    });
}

// sobelRows with the narrowest exact square type for the plane's depth; fn is called with
// a const int32_t* or const int64_t* row.
template <typename Fn>
void forEachSobelRow(const LumaPlane& luma, ThreadPool* pool, Fn fn) {
    if (luma.bitDepth <= 12) sobelRows<int32_t>(luma, pool, fn);
    else sobelRows<int64_t>(luma, pool, fn);
}

double sobelNorm(int bitDepth) { return 1.0 / (4.0 * double((1 << bitDepth) - 1)); }

// min(255, floor(m 255 + 0.5)) of the magnitude m = sqrt(g2) norm: never negative, so the
// floor is the truncation.
inline uint8_t edgeGrey(double g2, double norm) {
    const double v = std::sqrt(g2) * norm * 255.0 + 0.5;
    return v >= 255.0 ? uint8_t(255) : uint8_t(int(v));
}
}  // namespace

void sobelEdges(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool) {
    if (!validLuma(luma)) {
        out.resize(0, 0);
        return;
    }
    sizeForOverwrite(out, luma.width, luma.height);
    const double norm = sobelNorm(luma.bitDepth);
    forEachSobelRow(luma, pool, [&](int y, const auto* g2) {
        uint8_t* dst = out.at(0, y);
        for (int x = 0; x < luma.width; ++x) {
            const uint8_t g = edgeGrey(double(g2[x]), norm);
            uint8_t* p = dst + size_t(x) * 4;
            p[0] = p[1] = p[2] = g;
            p[3] = 255;
        }
    });
}

uint8_t sobelEdgeGrey(int64_t g2, int bitDepth) { return edgeGrey(double(g2), sobelNorm(std::clamp(bitDepth, 8, 16))); }

int64_t sobelEdgeFirstSquare(int bitDepth, int grey) {
    // Bisection with edgeGrey itself (each of its steps is rounded monotonically, so the
    // grey only grows with g2); every grey 0..255 occurs, the largest g2 giving 255.
    const int depth = std::clamp(bitDepth, 8, 16);
    const double norm = sobelNorm(depth);
    const int target = std::clamp(grey, 0, 255);
    const int64_t maxCode = (1 << depth) - 1;
    int64_t lo = 0, hi = 2 * (4 * maxCode) * (4 * maxCode);   // invariant: grey(lo) < target <= grey(hi)
    if (edgeGrey(0.0, norm) >= target) return 0;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (edgeGrey(double(mid), norm) >= target) hi = mid;
        else lo = mid;
    }
    return hi;
}

int64_t focusPeakingFirstSquare(int bitDepth, float threshold) {
    // "Magnitude over threshold", sqrt(g2) norm > threshold, only grows with g2 (each step
    // is rounded monotonically): it holds from the least g2 where it holds, found here by
    // bisection with that very expression, so each pixel is one integer comparison.
    const int depth = std::clamp(bitDepth, 8, 16);
    const double norm = 1.0 / (4.0 * double((1 << depth) - 1)), limit = double(threshold);
    const int64_t maxCode = (1 << depth) - 1;
    auto over = [&](int64_t g2) { return std::sqrt(double(g2)) * norm > limit; };
    int64_t lo = 0, hi = 2 * (4 * maxCode) * (4 * maxCode) + 1;   // hi: past the largest g2 ("never")
    if (over(lo)) return lo;
    while (hi - lo > 1) {   // invariant: !over(lo), over(hi) or hi is "never"
        const int64_t mid = lo + (hi - lo) / 2;
        if (over(mid)) hi = mid;
        else lo = mid;
    }
    return hi;
}

PeakingBlend focusPeakingBlend(uint32_t colour) {
    const float a = float(colour >> 24) / 255.0f;
    PeakingBlend blended;
    for (size_t c = 0; c < 3; ++c) {
        const float src = float((colour >> (8 * c)) & 0xffu);
        for (int v = 0; v < 256; ++v) blended[c][size_t(v)] = uint8_t(std::lround(float(v) + (src - float(v)) * a));
    }
    return blended;
}

void focusPeaking(const RgbaImage& picture, const LumaPlane& luma, float threshold, uint32_t colour, RgbaImage& out,
                  ThreadPool* pool) {
    if (!validImage(picture) || !validLuma(luma) || picture.width != luma.width || picture.height != luma.height) {
        out.resize(0, 0);
        return;
    }
    // The picture is copied row by row on the pool, each row just before its peaks are
    // painted (in place when `out` is the picture itself).
    const bool copy = &picture != &out;
    if (copy) sizeForOverwrite(out, picture.width, picture.height);
    const PeakingBlend blended = focusPeakingBlend(colour);
    const int64_t first = focusPeakingFirstSquare(luma.bitDepth, threshold);
    const size_t rowBytes = size_t(picture.width) * 4;
    forEachSobelRow(luma, pool, [&](int y, const auto* g2) {
        uint8_t* dst = out.at(0, y);
        if (copy) std::memcpy(dst, picture.at(0, y), rowBytes);
        for (int x = 0; x < luma.width; ++x) {
            if (g2[x] < first) continue;
            uint8_t* p = dst + size_t(x) * 4;
            for (size_t c = 0; c < 3; ++c) p[c] = blended[c][p[c]];
        }
    });
}

void focusPeaking(const RgbaImage& picture, const LumaPlane& luma, float threshold, uint32_t colour, int width, RgbaImage& out,
                  ThreadPool* pool) {
    const int reach = peakingReach(width);
    if (reach == 0) return focusPeaking(picture, luma, threshold, colour, out, pool);
    if (!validImage(picture) || !validLuma(luma) || picture.width != luma.width || picture.height != luma.height) {
        out.resize(0, 0);
        return;
    }
    // The square dilation in two passes (PeakingWidth.h): `across` marks each pixel with an
    // edge within `reach` of it in its own row; a pixel is painted where a mark lies within
    // `reach` of it in its column. Only luma is read before the picture is copied, so `out`
    // may be the picture itself.
    const int w = luma.width, h = luma.height;
    const int64_t first = focusPeakingFirstSquare(luma.bitDepth, threshold);
    std::vector<uint8_t> across(size_t(w) * size_t(h));
    // Loops over bytes: the counts are copied into each lambda (a byte store may alias a
    // captured int, which would be reloaded every iteration and keep the loop scalar).
    forEachSobelRow(luma, pool, [&across, first, w, reach](int y, const auto* g2) {
        // The row's edges with `reach` zeros either side (one buffer per pool thread, kept
        // between rows), then each pixel the OR of the 2 reach + 1 marks around it.
        using Square = std::remove_cvref_t<decltype(*g2)>;   // first fits it (sobelRows' types)
        const Square firstSquare = Square(first);
        thread_local std::vector<uint8_t> marks;
        marks.assign(size_t(w) + 2 * size_t(reach), 0);
        uint8_t* __restrict m = marks.data() + reach;
        for (int x = 0; x < w; ++x) m[x] = uint8_t(g2[x] >= firstSquare);
        uint8_t* __restrict a = across.data() + size_t(y) * size_t(w);
        const uint8_t* __restrict from = marks.data();   // from[x + d] is the mark at x - reach + d
        std::memcpy(a, from, size_t(w));
        for (int d = 1; d <= 2 * reach; ++d)
            for (int x = 0; x < w; ++x) a[x] |= from[x + d];
    });
    const bool copy = &picture != &out;
    if (copy) sizeForOverwrite(out, picture.width, picture.height);
    const PeakingBlend blended = focusPeakingBlend(colour);
    const size_t rowBytes = size_t(picture.width) * 4;
    forRows(pool, h, [&across, &blended, &picture, &out, copy, rowBytes, w, h, reach](int y0, int y1) {
        std::vector<uint8_t> painted(static_cast<size_t>(w));
        for (int y = y0; y < y1; ++y) {
            uint8_t* dst = out.at(0, y);
            if (copy) std::memcpy(dst, picture.at(0, y), rowBytes);
            const int top = std::max(0, y - reach), bottom = std::min(h - 1, y + reach);
            uint8_t* __restrict any = painted.data();
            std::memcpy(any, across.data() + size_t(top) * size_t(w), size_t(w));
            for (int yy = top + 1; yy <= bottom; ++yy) {
                const uint8_t* __restrict a = across.data() + size_t(yy) * size_t(w);
                for (int x = 0; x < w; ++x) any[x] |= a[x];
            }
            for (int x = 0; x < w; ++x) {
                if (!any[x]) continue;
                uint8_t* p = dst + size_t(x) * 4;
                for (size_t c = 0; c < 3; ++c) p[c] = blended[c][p[c]];
            }
        }
    });
}

// ---- Zebra, false colour ------------------------------------------------------------------

void zebra(const RgbaImage& picture, const LumaPlane& luma, float ire, RgbaImage& out, ThreadPool* pool) {
    zebra(picture, luma, ire, -1.0f, out, pool);
}

void zebra(const RgbaImage& picture, const LumaPlane& luma, float ire, float lowIre, RgbaImage& out, ThreadPool* pool) {
    if (!validImage(picture) || !validLuma(luma) || picture.width != luma.width || picture.height != luma.height) {
        out.resize(0, 0);
        return;
    }
    if (&picture != &out) out = picture;
    // Per code: 0 untouched, 1 at or above `ire`, 2 in [lowIre, ire). The table holds
    // exactly codeToIre's verdict for every code, so the per-pixel test is a lookup.
    const int levels = 1 << luma.bitDepth;
    std::vector<uint8_t> zone(size_t(levels), 0);
    const bool low = std::isfinite(lowIre) && lowIre >= 0.0f;
    for (int code = 0; code < levels; ++code) {
        const double v = codeToIre(code, luma.bitDepth, luma.range);
        if (v >= double(ire)) zone[size_t(code)] = 1;
        else if (low && v >= double(lowIre)) zone[size_t(code)] = 2;
    }
    forRows(pool, luma.height, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const uint16_t* src = luma.values.data() + size_t(y) * size_t(luma.width);
            uint8_t* dst = out.at(0, y);
            for (int x = 0; x < luma.width; ++x) {
                const uint8_t z = zone[std::min<size_t>(src[x], size_t(levels - 1))];
                uint8_t* p = dst + size_t(x) * 4;
                if (z == 1 && ((x + y) & 7) < 4) p[0] = p[1] = p[2] = 0;
                else if (z == 2 && ((x - y) & 7) < 4) p[0] = p[1] = p[2] = 255;
            }
        }
    });
}

namespace {
constexpr uint32_t rgbaOf(uint32_t r, uint32_t g, uint32_t b) { return r | (g << 8) | (b << 16) | 0xff000000u; }
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr FalseColourBand kBands[] = {
    {-kInf, 0.0f, rgbaOf(120, 40, 165), "below black"},
    {0.0f, 2.5f, rgbaOf(30, 70, 255), "crushed black"},
    {2.5f, 10.0f, rgbaOf(0, 135, 150), "deep shadows"},
    {10.0f, 40.0f, 0, "shadows"},
    {40.0f, 48.0f, rgbaOf(40, 190, 60), "middle grey"},
    {48.0f, 60.0f, 0, "upper mids"},
    {60.0f, 70.0f, rgbaOf(240, 140, 185), "skin"},
    {70.0f, 95.0f, 0, "highlights"},
    {95.0f, 100.0f, rgbaOf(250, 230, 30), "near clip"},
    {100.0f, kInf, rgbaOf(235, 30, 30), "above white"},
};

uint32_t falseColourOf(double ire) {
    size_t band = 0;
    if (ire > 100.0) band = 9;   // the near-clip band holds 100 itself
    else if (ire >= 95.0) band = 8;
    else
        while (band + 1 < std::size(kBands) && ire >= double(kBands[band + 1].loIre)) ++band;
    if (kBands[band].rgba != 0) return kBands[band].rgba;
    const uint32_t grey = uint32_t(std::clamp(std::lround(ire * 2.55), 0L, 255L));
    return rgbaOf(grey, grey, grey);
}
}  // namespace

std::span<const FalseColourBand> falseColourBands() { return kBands; }

void falseColour(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool) {
    if (!validLuma(luma)) {
        out.resize(0, 0);
        return;
    }
    const int levels = 1 << luma.bitDepth;
    std::vector<uint32_t> lut(static_cast<size_t>(levels));
    if (isHdr(luma.transfer)) hdrFalseColourTable(luma.transfer, luma.bitDepth, luma.range, lut.data());
    else
        for (int code = 0; code < levels; ++code) lut[size_t(code)] = falseColourOf(codeToIre(code, luma.bitDepth, luma.range));
    out.resize(luma.width, luma.height);
    forRows(pool, luma.height, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const uint16_t* src = luma.values.data() + size_t(y) * size_t(luma.width);
            uint8_t* dst = out.at(0, y);
            for (int x = 0; x < luma.width; ++x) {
                const uint32_t c = lut[std::min<size_t>(src[x], size_t(levels - 1))];
                for (int i = 0; i < 4; ++i) dst[size_t(x) * 4 + size_t(i)] = uint8_t(c >> (8 * i));
            }
        }
    });
}

// ---- Dispatch -------------------------------------------------------------------------------

void gamutHighlight(const RgbaImage& picture, const uint8_t* outside, uint32_t colour, RgbaImage& out, ThreadPool* pool) {
    const int W = picture.width, H = picture.height;
    out.resize(W, H);
    forRows(pool, H, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const size_t row = size_t(y) * size_t(W);
            const uint8_t* src = picture.pixels.data() + row * 4;
            uint8_t* dst = out.pixels.data() + row * 4;
            for (int x = 0; x < W; ++x) {
                uint32_t v;
                std::memcpy(&v, src + size_t(x) * 4, 4);
                v = gamutPreviewPixel(v, outside[row + size_t(x)] != 0, colour);
                std::memcpy(dst + size_t(x) * 4, &v, 4);
            }
        }
    });
}

void applyPreview(const RgbaImage& picture, const LumaPlane& luma, const ScopeSpec& spec, RgbaImage& out,
                  ThreadPool* pool) {
    const FilterParams& f = spec.filter;
    switch (spec.preview) {
        case PreviewFilter::None: out.resize(0, 0); return;
        case PreviewFilter::BoxBlur: boxBlur(picture, f.blurRadius, out, pool); return;
        case PreviewFilter::Gaussian: gaussianBlur(picture, f.gaussianSigma, out, pool); return;
        case PreviewFilter::Edges: sobelEdges(luma, out, pool); return;
        case PreviewFilter::FocusPeaking: focusPeaking(picture, luma, f.peakingThreshold, f.peakingColour, f.peakingWidth, out, pool); return;
        case PreviewFilter::Median3: median3x3(picture, out, pool); return;
        case PreviewFilter::Zebra: zebra(picture, luma, f.zebraIre, f.zebraLowIre, out, pool); return;
        case PreviewFilter::FalseColour: falseColour(luma, out, pool); return;
        case PreviewFilter::Gamut: break;   // needs the engine's outside mask: gamutHighlight
    }
    out.resize(0, 0);
}

}  // namespace cs
