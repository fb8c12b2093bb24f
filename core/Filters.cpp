// Filtered previews on the CPU (see Filters.h): box and Gaussian blur, 3x3 median, Sobel
// edges, focus peaking, zebra and false colour. Every filter splits its rows across the
// optional ThreadPool; each output pixel is computed the same way whatever the split, so
// results are identical with and without a pool.
#include "Filters.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "Frame.h"

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

constexpr int kMaxBoxRadius = 1 << 20;   // sums stay within 64 bits: 255 * (2r+1)^2 < 2^51

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
    // Horizontal pass: per row, a running sum over the clamped window of 2r+1 pixels,
    // started in O(min(r, w)) with the clamped tails counted in closed form.
    std::vector<uint32_t> rowSums(size_t(w) * size_t(h) * 3);
    forRows(pool, h, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const uint8_t* row = in.at(0, y);
            uint32_t* dst = rowSums.data() + size_t(y) * size_t(w) * 3;
            for (int c = 0; c < 3; ++c) {
                auto px = [&](int64_t x) { return int64_t(row[size_t(clampIndex(x, w)) * 4 + size_t(c)]); };
                const int64_t lo = -r, hi = r;   // the window of x = 0
                int64_t sum = -lo * px(0) + (hi > w - 1 ? hi - (w - 1) : 0) * px(w - 1);
                for (int64_t x = 0; x <= std::min<int64_t>(hi, w - 1); ++x) sum += px(x);
                for (int x = 0; x < w; ++x) {
                    dst[size_t(x) * 3 + size_t(c)] = uint32_t(sum);
                    sum += px(int64_t(x) + r + 1) - px(int64_t(x) - r);
                }
            }
        }
    });
    // Vertical pass: each chunk of rows starts its column sums at its first row, then
    // slides them down; every sum is exact, so the split does not change the result.
    out.resize(w, h);
    const RoundingDivider divide((2 * int64_t(r) + 1) * (2 * int64_t(r) + 1));
    forRows(pool, h, [&](int y0, int y1) {
        std::vector<int64_t> colSums(size_t(w) * 3, 0);
        auto rowAt = [&](int64_t y) { return rowSums.data() + size_t(clampIndex(y, h)) * size_t(w) * 3; };
        auto addRow = [&](int64_t y, int64_t times) {
            const uint32_t* src = rowAt(y);
            for (size_t i = 0; i < colSums.size(); ++i) colSums[i] += times * int64_t(src[i]);
        };
        const int64_t lo = int64_t(y0) - r, hi = int64_t(y0) + r;
        if (lo < 0) addRow(0, -lo);
        if (hi > h - 1) addRow(h - 1, hi - (h - 1));
        for (int64_t y = std::max<int64_t>(lo, 0); y <= std::min<int64_t>(hi, h - 1); ++y) addRow(y, 1);
        for (int y = y0; y < y1; ++y) {
            uint8_t* dst = out.at(0, y);
            const uint8_t* src = in.at(0, y);
            for (int x = 0; x < w; ++x) {
                for (int c = 0; c < 3; ++c)
                    dst[size_t(x) * 4 + size_t(c)] = uint8_t(divide.round(colSums[size_t(x) * 3 + size_t(c)]));
                dst[size_t(x) * 4 + 3] = src[size_t(x) * 4 + 3];
            }
            if (y + 1 < y1) {
                const uint32_t* add = rowAt(int64_t(y) + r + 1);
                const uint32_t* sub = rowAt(int64_t(y) - r);
                for (size_t i = 0; i < colSums.size(); ++i) colSums[i] += int64_t(add[i]) - int64_t(sub[i]);
            }
        }
    });
}

// ---- Gaussian blur ----------------------------------------------------------------------------

namespace {
constexpr float kMaxGaussianSigma = 64.0f;   // radius 192: beyond this the preview is a flat smear anyway
}

void gaussianBlur(const RgbaImage& inImage, float sigma, RgbaImage& out, ThreadPool* pool) {
    if (!validImage(inImage)) {
        out.resize(0, 0);
        return;
    }
    if (!std::isfinite(sigma) || sigma <= 0.0f) {
        out = inImage;
        return;
    }
    RgbaImage stable;
    const RgbaImage& in = readable(inImage, out, stable);
    const int w = in.width, h = in.height;
    const double s = std::min(sigma, kMaxGaussianSigma);
    const int radius = std::max(1, int(std::ceil(3.0 * s)));
    // Normalised 1-D weights (double, then float): the 2-D kernel is their product.
    std::vector<float> weights(size_t(2 * radius + 1));
    {
        std::vector<double> wd(weights.size());
        double total = 0.0;
        for (int k = -radius; k <= radius; ++k) total += wd[size_t(k + radius)] = std::exp(-double(k) * k / (2.0 * s * s));
        for (size_t i = 0; i < wd.size(); ++i) weights[i] = float(wd[i] / total);
    }
    // Horizontal pass into float (no rounding between the passes), edges replicated by padding.
    std::vector<float> tmp(size_t(w) * size_t(h) * 3);
    forRows(pool, h, [&](int y0, int y1) {
        std::vector<float> padded(size_t(w + 2 * radius) * 3);
        for (int y = y0; y < y1; ++y) {
            const uint8_t* row = in.at(0, y);
            for (int i = 0; i < w + 2 * radius; ++i) {
                const size_t x = size_t(clampIndex(int64_t(i) - radius, w));
                for (int c = 0; c < 3; ++c) padded[size_t(i) * 3 + size_t(c)] = float(row[x * 4 + size_t(c)]);
            }
            float* dst = tmp.data() + size_t(y) * size_t(w) * 3;
            for (int x = 0; x < w; ++x) {
                float acc[3] = {0.0f, 0.0f, 0.0f};
                const float* p = padded.data() + size_t(x) * 3;
                for (size_t k = 0; k < weights.size(); ++k)
                    for (int c = 0; c < 3; ++c) acc[c] += weights[k] * p[k * 3 + size_t(c)];
                for (int c = 0; c < 3; ++c) dst[size_t(x) * 3 + size_t(c)] = acc[c];
            }
        }
    });
    // Vertical pass: whole rows at a time, rows outside the image clamped to the edge.
    out.resize(w, h);
    forRows(pool, h, [&](int y0, int y1) {
        std::vector<float> acc(size_t(w) * 3);
        for (int y = y0; y < y1; ++y) {
            std::fill(acc.begin(), acc.end(), 0.0f);
            for (int k = -radius; k <= radius; ++k) {
                const float wk = weights[size_t(k + radius)];
                const float* src = tmp.data() + size_t(clampIndex(int64_t(y) + k, h)) * size_t(w) * 3;
                for (size_t i = 0; i < acc.size(); ++i) acc[i] += wk * src[i];
            }
            uint8_t* dst = out.at(0, y);
            const uint8_t* alpha = in.at(0, y);
            for (int x = 0; x < w; ++x) {
                for (int c = 0; c < 3; ++c)
                    dst[size_t(x) * 4 + size_t(c)] = uint8_t(std::clamp(std::floor(acc[size_t(x) * 3 + size_t(c)] + 0.5f), 0.0f, 255.0f));
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
// Each column's sort is shared by the three windows that contain it.
void median3x3(const RgbaImage& inImage, RgbaImage& out, ThreadPool* pool) {
    if (!validImage(inImage)) {
        out.resize(0, 0);
        return;
    }
    RgbaImage stable;
    const RgbaImage& in = readable(inImage, out, stable);
    const int w = in.width, h = in.height;
    out.resize(w, h);
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
            for (int x = 0; x < w; ++x) {
                const size_t l = size_t(clampIndex(x - 1, w)) * 4, m = size_t(x) * 4, r = size_t(clampIndex(x + 1, w)) * 4;
                for (size_t k = 0; k < 3; ++k)
                    dst[m + k] = med3(max3(lo[l + k], lo[m + k], lo[r + k]), med3(mid[l + k], mid[m + k], mid[r + k]),
                                      min3(hi[l + k], hi[m + k], hi[r + k]));
                dst[m + 3] = b[m + 3];
            }
        }
    });
}

// ---- Sobel, focus peaking -----------------------------------------------------------------

namespace {
// Sobel magnitude of luma at (x, y), over full scale: a full-scale step edge gives 1
// (its gradient is 4 full scales: the kernel's weights 1 + 2 + 1 on each side).
template <typename Fn>
void forEachSobel(const LumaPlane& luma, ThreadPool* pool, Fn fn) {
    const int w = luma.width, h = luma.height;
    const int32_t maxCode = (1 << luma.bitDepth) - 1;
    const double norm = 1.0 / (4.0 * double(maxCode));
    forRows(pool, h, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const uint16_t* rows[3] = {luma.values.data() + size_t(clampIndex(y - 1, h)) * size_t(w),
                                       luma.values.data() + size_t(y) * size_t(w),
                                       luma.values.data() + size_t(clampIndex(y + 1, h)) * size_t(w)};
            for (int x = 0; x < w; ++x) {
                const int xl = clampIndex(x - 1, w), xr = clampIndex(x + 1, w);
                auto p = [&](int row, int col) { return std::min<int32_t>(rows[row][col], maxCode); };
                const int32_t gx = (p(0, xr) + 2 * p(1, xr) + p(2, xr)) - (p(0, xl) + 2 * p(1, xl) + p(2, xl));
                const int32_t gy = (p(2, xl) + 2 * p(2, x) + p(2, xr)) - (p(0, xl) + 2 * p(0, x) + p(0, xr));
                fn(x, y, std::sqrt(double(gx) * gx + double(gy) * gy) * norm);
            }
        }
    });
}
}  // namespace

void sobelEdges(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool) {
    if (!validLuma(luma)) {
        out.resize(0, 0);
        return;
    }
    out.resize(luma.width, luma.height);
    forEachSobel(luma, pool, [&](int x, int y, double m) {
        const uint8_t v = uint8_t(std::min(255.0, std::floor(m * 255.0 + 0.5)));
        uint8_t* p = out.at(x, y);
        p[0] = p[1] = p[2] = v;
        p[3] = 255;
    });
}

void focusPeaking(const RgbaImage& picture, const LumaPlane& luma, float threshold, uint32_t colour, RgbaImage& out,
                  ThreadPool* pool) {
    if (!validImage(picture) || !validLuma(luma) || picture.width != luma.width || picture.height != luma.height) {
        out.resize(0, 0);
        return;
    }
    if (&picture != &out) out = picture;
    const float a = float(colour >> 24) / 255.0f;
    forEachSobel(luma, pool, [&](int x, int y, double m) {
        if (!(m > double(threshold))) return;
        uint8_t* p = out.at(x, y);
        for (int c = 0; c < 3; ++c) {
            const float src = float((colour >> (8 * c)) & 0xffu);
            p[c] = uint8_t(std::lround(float(p[c]) + (src - float(p[c])) * a));
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

void applyPreview(const RgbaImage& picture, const LumaPlane& luma, const ScopeSpec& spec, RgbaImage& out,
                  ThreadPool* pool) {
    const FilterParams& f = spec.filter;
    switch (spec.preview) {
        case PreviewFilter::None: out.resize(0, 0); return;
        case PreviewFilter::BoxBlur: boxBlur(picture, f.blurRadius, out, pool); return;
        case PreviewFilter::Gaussian: gaussianBlur(picture, f.gaussianSigma, out, pool); return;
        case PreviewFilter::Edges: sobelEdges(luma, out, pool); return;
        case PreviewFilter::FocusPeaking: focusPeaking(picture, luma, f.peakingThreshold, f.peakingColour, out, pool); return;
        case PreviewFilter::Median3: median3x3(picture, out, pool); return;
        case PreviewFilter::Zebra: zebra(picture, luma, f.zebraIre, f.zebraLowIre, out, pool); return;
        case PreviewFilter::FalseColour: falseColour(luma, out, pool); return;
    }
    out.resize(0, 0);
}

}  // namespace cs
