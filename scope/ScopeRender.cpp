// Display images of the scopes from raw counts (see ScopeRender.h): resampling of the
// counts onto the plot, a log-like brightness curve, trace colours, and the graticule
// (scope/Graticule.h) drawn over the trace with anti-aliased lines and the bitmap font.
//
// Speed without changing a pixel: a trace pixel's colour depends on its count and on a
// denominator shared by many pixels, so colours are memoised per (denominator, count)
// instead of running log1p per pixel (CountMemo); counts are gathered onto display
// columns without per-span loops (SpanSums); rounding is std::lround's, done inline; the
// histogram's fills are one pass with per-byte tables; the vectorscope circle only visits
// the pixels its ring can cover.
#include "ScopeRender.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "BitmapFont.h"
#include "core/Frame.h"
#include "HdrGraticule.h"
#include "LevelZoom.h"
#include "ReferenceLines.h"
#include "core/ScopeStyle.h"
#include "core/ScopeZoom.h"

namespace cs {

namespace {

// ---- Pixels ------------------------------------------------------------------------

struct Rgbf { float r, g, b; };

// std::lround of a float, inline where it is exact: a float of magnitude below 2^24
// plus 0.5 is exact in double, and truncating it rounds half away from zero as lround
// does. Anything else (NaN, huge) goes to the library, so the result never differs.
inline long roundHalfAway(float v) {
    const double d = double(v);
    if (d >= 0.0 && d < 16777216.0) return long(d + 0.5);
    if (d < 0.0 && d > -16777216.0) return -long(0.5 - d);
    return std::lround(v);
}

uint8_t toByte(float v) { return uint8_t(roundHalfAway(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

uint32_t packRgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    const uint8_t bytes[4] = {r, g, b, a};
    uint32_t v;
    std::memcpy(&v, bytes, 4);
    return v;
}
// An opaque pixel of colour `c` (each channel clamped to 0..1 and rounded), as one word:
// alpha 255, so never 0.
uint32_t opaqueRgba(Rgbf c) { return packRgba(toByte(c.r), toByte(c.g), toByte(c.b), 255); }
void storeRgba(RgbaImage& img, int x, int y, uint32_t rgba) { std::memcpy(img.at(x, y), &rgba, 4); }

// Source-over blend of `rgba` at `coverage` (0..1) times its own alpha.
void blendPixel(RgbaImage& img, int x, int y, uint32_t rgba, float coverage) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height || !(coverage > 0.0f)) return;
    const float a = std::min(coverage, 1.0f) * float(rgba >> 24) / 255.0f;
    uint8_t* p = img.at(x, y);
    for (int c = 0; c < 3; ++c) {
        const float src = float((rgba >> (8 * c)) & 0xffu);
        p[c] = uint8_t(roundHalfAway(float(p[c]) + (src - float(p[c])) * a));
    }
    p[3] = uint8_t(roundHalfAway(float(p[3]) + (255.0f - float(p[3])) * a));
}

void clearBlack(RgbaImage& img) {
    const uint32_t black = packRgba(0, 0, 0, 255);
    uint8_t* p = img.pixels.data();
    const size_t n = img.pixels.size() / 4;
    for (size_t i = 0; i < n; ++i) std::memcpy(p + 4 * i, &black, 4);
}

// Scope images are sized from the spec, bounded like frames so a bad spec cannot ask
// for gigabytes; a size <= 0 gives an empty image.
void sizeImage(RgbaImage& out, int width, int height) {
    if (width <= 0 || height <= 0) {
        out.resize(0, 0);
        return;
    }
    const int w = std::min(width, kMaxDimension), h = std::min(height, kMaxDimension);
    // Every pixel is overwritten by clearBlack: an image of the right size is reused as is.
    if (out.width != w || out.height != h || out.pixels.size() != size_t(w) * size_t(h) * 4) out.resize(w, h);
    clearBlack(out);
}

// ---- Graticule drawing ---------------------------------------------------------------

void drawBox(RgbaImage& img, const PlotRect& plot, const GraticuleBox& b) {
    const int x0 = int(std::lround(plot.toPixelX(b.cx - b.halfWidth))), x1 = int(std::lround(plot.toPixelX(b.cx + b.halfWidth)));
    const int y0 = int(std::lround(plot.toPixelY(b.cy + b.halfHeight))), y1 = int(std::lround(plot.toPixelY(b.cy - b.halfHeight)));
    const uint32_t c = graticuleRgba(b.emphasis);
    // Every outline pixel once, so the corners are not blended twice.
    for (int x = x0; x <= x1; ++x) {
        blendPixel(img, x, y0, c, 1.0f);
        if (y1 != y0) blendPixel(img, x, y1, c, 1.0f);
    }
    for (int y = y0 + 1; y < y1; ++y) {
        blendPixel(img, x0, y, c, 1.0f);
        if (x1 != x0) blendPixel(img, x1, y, c, 1.0f);
    }
}

// Anti-aliased ring one pixel wide: coverage falls off with the distance from the radius.
void drawCircle(RgbaImage& img, const PlotRect& plot, const GraticuleCircle& c) {
    const double cx = plot.toPixelX(c.cx), cy = plot.toPixelY(c.cy), r = c.radius * double(plot.width - 1);
    if (!std::isfinite(cx) || !std::isfinite(cy) || !(r > 0.0)) return;
    const uint32_t rgba = graticuleRgba(c.emphasis);
    const int xa = std::max(0, int(std::floor(cx - r - 1))), xb = std::min(img.width - 1, int(std::ceil(cx + r + 1)));
    const int ya = std::max(0, int(std::floor(cy - r - 1))), yb = std::min(img.height - 1, int(std::ceil(cy + r + 1)));
    // Coverage is positive only within one pixel of the radius: per row, the pixels
    // between the ring's outer edge and its hole (bounds widened by a pixel, so rounding
    // in the bounds can never leave out a pixel the exact test would draw).
    const double outer = r + 1.0, inner = r - 1.0;
    for (int y = ya; y <= yb; ++y) {
        const double dy = double(y) - cy;
        const double o2 = outer * outer - dy * dy;
        if (o2 < -1.0 * outer) continue;   // more than half a pixel beyond the outer edge
        const double so = std::sqrt(std::max(o2, 0.0));
        const int x0 = std::max(xa, int(std::floor(cx - so)) - 1), x1 = std::min(xb, int(std::ceil(cx + so)) + 1);
        int holeLo = x1 + 1, holeHi = x1;   // empty hole
        if (inner > 0.0) {
            const double i2 = inner * inner - dy * dy;
            if (i2 > 0.0) {
                const double si = std::sqrt(i2);
                holeLo = int(std::ceil(cx - si)) + 1;
                holeHi = int(std::floor(cx + si)) - 1;
            }
        }
        for (int x = x0; x <= x1; ++x) {
            if (x >= holeLo && x <= holeHi) {
                x = holeHi;
                continue;
            }
            const double d = std::hypot(double(x) - cx, dy);
            blendPixel(img, x, y, rgba, float(1.0 - std::abs(d - r)));
        }
    }
}

using TextRect = LabelLayout::Rect;
bool overlaps(const TextRect& a, const TextRect& b) {
    return a.x < b.x + b.w + 2 && b.x < a.x + a.w + 2 && a.y < b.y + b.h + 1 && b.y < a.y + a.h + 1;
}

void drawLabel(RgbaImage& img, const PlotRect& plot, const GraticuleLabel& l, int scale, std::vector<TextRect>& placed) {
    const int w = font::textWidth(l.text, scale), h = font::textHeight(l.text, scale);
    if (w == 0 || w > img.width || h > img.height) return;
    const int gap = 3 * scale;
    const double px = plot.toPixelX(l.x), py = plot.toPixelY(l.y);
    double left = px, top = py;
    switch (l.hAlign) {
        case HAlign::Left: left = px + gap; break;
        case HAlign::Center: left = px - w / 2.0; break;
        case HAlign::Right: left = px - gap - w; break;
    }
    switch (l.vAlign) {
        case VAlign::Top: top = py + gap; break;
        case VAlign::Middle: top = py - h / 2.0; break;
        case VAlign::Bottom: top = py - gap - h; break;
    }
    if (!std::isfinite(left) || !std::isfinite(top)) return;
    // Kept inside the image; a label that would overlap one already drawn is dropped
    // (small images cannot hold every label legibly).
    const TextRect r{std::clamp(int(std::lround(left)), 0, img.width - w), std::clamp(int(std::lround(top)), 0, img.height - h), w, h};
    for (const TextRect& other : placed)
        if (overlaps(r, other)) return;
    placed.push_back(r);
    drawText(img, r.x + scale, r.y + scale, l.text.c_str(), 0xb0000000u, scale);   // shadow, legible over the trace
    drawText(img, r.x, r.y, l.text.c_str(), graticuleLabelRgba(l.emphasis), scale);
}

void drawGraticuleInto(RgbaImage& img, const PlotRect& plot, const Graticule& g, int textScale, bool labels,
                       std::vector<TextRect>& placed) {
    if (plot.empty()) return;
    for (const GraticuleCircle& c : g.circles) drawCircle(img, plot, c);
    for (const GraticuleLine& l : g.lines)
        drawLine(img, plot.toPixelX(l.x0), plot.toPixelY(l.y0), plot.toPixelX(l.x1), plot.toPixelY(l.y1),
                 graticuleRgba(l.emphasis));
    for (const GraticuleBox& b : g.boxes) drawBox(img, plot, b);
    if (labels)
        for (const GraticuleLabel& l : g.labels) drawLabel(img, plot, l, textScale, placed);
}

// ---- Resampling ------------------------------------------------------------------------

// For each display index, the inclusive range of source bins it shows (lo > hi: none).
struct Span { int lo, hi; };

// Nearest mapping: bin c sits at display coordinate pos(c); each bin lands in exactly one
// display index (nothing is lost when the source is deeper than the display), and a
// display index no bin lands in repeats its nearest bin (no gaps when it is shallower).
template <typename Pos, typename Inv>
std::vector<Span> nearestSpans(int bins, int display, Pos pos, Inv inv) {
    std::vector<Span> spans(size_t(std::max(display, 0)), Span{std::numeric_limits<int>::max(), -1});
    for (int c = 0; c < bins; ++c) {
        const double p = pos(c);
        if (!(p > -0.5 && p < double(display) - 0.5)) continue;
        Span& s = spans[size_t(std::lround(p))];
        s.lo = std::min(s.lo, c);
        s.hi = std::max(s.hi, c);
    }
    for (int d = 0; d < display; ++d) {
        Span& s = spans[size_t(d)];
        if (s.hi >= 0) continue;
        const double c = inv(double(d));
        if (!(c > -0.5 && c < double(bins) - 0.5)) continue;
        s.lo = s.hi = int(std::lround(c));
    }
    return spans;
}

// A linear axis: bin 0 at display 0, bin bins-1 at display-1 (pixel centres, as PlotRect),
// so a bin lands on exactly the pixel PlotRect::toPixelX rounds its graticule position to.
std::vector<Span> linearSpans(int bins, int display) {
    if (display <= 1 || bins <= 1) return std::vector<Span>(size_t(std::max(display, 0)), Span{0, bins - 1});
    const double k = double(display - 1) / double(bins - 1);
    return nearestSpans(bins, display, [k](int c) { return c * k; }, [k](double d) { return d / k; });
}
// A waveform panel's rows, indexed from the top, showing the codes of `range` (core/ScopeZoom.h).
std::vector<Span> levelSpans(int bins, int display, LevelRange range) {
    if (display <= 1 || bins <= 1) return std::vector<Span>(size_t(std::max(display, 0)), Span{0, bins - 1});
    const LevelAxis axis(range, bins, display);
    return nearestSpans(bins, display, [&axis](int c) { return axis.row(c); }, [&axis](double d) { return axis.code(d); });
}

// Area mapping for frame columns: display column d covers the source columns under it.
std::vector<Span> areaSpans(int columns, int display) {
    std::vector<Span> spans(size_t(std::max(display, 0)));
    for (int d = 0; d < display; ++d) {
        const int lo = int(int64_t(d) * columns / display), hi = int(int64_t(d + 1) * columns / display) - 1;
        spans[size_t(d)] = {lo, std::max(lo, hi)};
    }
    return spans;
}

// Sums of a row of counts over spans (dst[d] = src[lo] + ... + src[hi], 0 for an empty
// span), as a running uint32 sum would give them (wrapping alike), without a loop of
// varying length per span: spans one or two bins wide (the usual case) are two masked
// loads, wider ones the difference of two prefix sums.
class SpanSums {
public:
    explicit SpanSums(const std::vector<Span>& spans)
        : n_(spans.size()), lo_(spans.size()), hi_(spans.size()), loMask_(spans.size()), hiMask_(spans.size()) {
        int widest = 0;
        for (size_t d = 0; d < n_; ++d) {
            const Span sp = spans[d];
            const bool empty = sp.hi < sp.lo;
            lo_[d] = empty ? 0 : sp.lo;
            hi_[d] = empty ? 0 : sp.hi;
            loMask_[d] = empty ? 0u : ~0u;
            hiMask_[d] = (empty || sp.hi == sp.lo) ? 0u : ~0u;
            if (!empty) {
                widest = std::max(widest, sp.hi - sp.lo + 1);
                last_ = std::max(last_, sp.hi);
            }
        }
        prefix_ = widest > 2;
        if (prefix_) scan_.resize(size_t(last_) + 2);
    }
    void operator()(const uint32_t* src, uint32_t* dst) {
        if (!prefix_) {
            for (size_t d = 0; d < n_; ++d) dst[d] = (src[lo_[d]] & loMask_[d]) + (src[hi_[d]] & hiMask_[d]);
            return;
        }
        uint32_t run = 0;
        scan_[0] = 0;
        for (int x = 0; x <= last_; ++x) scan_[size_t(x) + 1] = run += src[x];
        for (size_t d = 0; d < n_; ++d) dst[d] = (scan_[size_t(hi_[d]) + 1] - scan_[size_t(lo_[d])]) & loMask_[d];
    }
    // `count` rows (src rows srcStride apart, dst rows dstStride apart). Prefix sums run
    // four rows at a time: four independent running sums instead of one long chain.
    void rows(const uint32_t* src, size_t srcStride, int count, uint32_t* dst, size_t dstStride) {
        int r = 0;
        if (prefix_) {
            scan4_.resize((size_t(last_) + 2) * 4);
            uint32_t* q = scan4_.data();
            for (; r + 4 <= count; r += 4) {
                const uint32_t* s0 = src + size_t(r) * srcStride;
                const uint32_t *s1 = s0 + srcStride, *s2 = s1 + srcStride, *s3 = s2 + srcStride;
                uint32_t a = 0, b = 0, c = 0, e = 0;
                q[0] = q[1] = q[2] = q[3] = 0;
                for (int x = 0; x <= last_; ++x) {
                    uint32_t* o = q + (size_t(x) + 1) * 4;
                    o[0] = a += s0[x];
                    o[1] = b += s1[x];
                    o[2] = c += s2[x];
                    o[3] = e += s3[x];
                }
                for (size_t k = 0; k < 4; ++k) {
                    uint32_t* out = dst + (size_t(r) + k) * dstStride;
                    for (size_t d = 0; d < n_; ++d)
                        out[d] = (q[(size_t(hi_[d]) + 1) * 4 + k] - q[size_t(lo_[d]) * 4 + k]) & loMask_[d];
                }
            }
        }
        for (; r < count; ++r) (*this)(src + size_t(r) * srcStride, dst + size_t(r) * dstStride);
    }

private:
    size_t n_;
    std::vector<int> lo_, hi_;
    std::vector<uint32_t> loMask_, hiMask_;
    int last_ = 0;
    bool prefix_ = false;
    std::vector<uint32_t> scan_, scan4_;
};

// ---- Trace brightness (core/ScopeStyle.h) ----------------------------------------------

double sanitiseGain(float gain) { return traceGain(gain); }

// Memoised per-count values. A pixel's value is f(n, key): its count n and a key that few
// pixels differ in (the denominator of its count density). Keys are small integers given
// by the caller; each key's table, indexed by n up to the key's largest possible count
// (capped), is filled on first use (0 = not yet). Larger counts, keys beyond the memory
// budget, and values that are 0 themselves are computed directly.
class CountMemo {
public:
    CountMemo(int keys, std::vector<uint64_t> maxCounts)
        : tables_(size_t(std::max(keys, 0))), maxCounts_(std::move(maxCounts)) {}
    template <typename Compute>
    uint32_t get(int key, uint64_t n, Compute compute) {
        if (key < 0) return compute();
        std::vector<uint32_t>& t = tables_[size_t(key)];
        if (t.empty()) {
            const uint64_t size = std::min(maxCounts_[size_t(key)], kMaxTable - 1) + 1;
            if (budget_ < size) return compute();
            budget_ -= size;
            t.assign(size_t(size), 0);
        }
        if (n >= t.size()) return compute();
        uint32_t& v = t[size_t(n)];
        if (v == 0) v = compute();
        return v;
    }

private:
    static constexpr uint64_t kMaxTable = uint64_t(1) << 16;
    uint64_t budget_ = uint64_t(1) << 22;   // entries over all tables (16 MB)
    std::vector<std::vector<uint32_t>> tables_;
    std::vector<uint64_t> maxCounts_;
};

// Distinct values of `v` and, for each element, the index of its value among them.
template <typename T>
std::vector<T> distinctValues(const std::vector<T>& v, std::vector<int>& index) {
    std::vector<T> values = v;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    index.resize(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        index[i] = int(std::lower_bound(values.begin(), values.end(), v[i]) - values.begin());
    return values;
}

// One waveform-style trace (levels x columns counts) into a plot rectangle.
// `additive`: each pixel adds its shade to what is there (the RGB overlay's channels).
void drawWaveTrace(RgbaImage& img, const PlotRect& plot, const uint32_t* counts, int levels, int columns, double gain,
                   TraceHue hue, LevelRange range, bool additive = false) {
    if (plot.empty() || counts == nullptr || levels <= 0 || columns <= 0) return;
    const int pw = plot.width;
    const std::vector<Span> cols = areaSpans(columns, pw);
    const std::vector<Span> rows = levelSpans(levels, plot.height, range);   // index 0: top row
    // Each count read once: acc[level][display column] gathers the columns under it.
    std::vector<uint32_t> acc(size_t(levels) * size_t(pw), 0);
    std::vector<uint64_t> columnTotal(size_t(pw), 0);
    SpanSums gather(cols);
    // Four levels at a time, each block's column totals taken while it is still in cache.
    for (int c0 = 0; c0 < levels; c0 += 4) {
        const int count = std::min(4, levels - c0);
        gather.rows(counts + size_t(c0) * size_t(columns), size_t(columns), count, acc.data() + size_t(c0) * size_t(pw),
                    size_t(pw));
        for (int c = c0; c < c0 + count; ++c) {
            const uint32_t* a = acc.data() + size_t(c) * size_t(pw);
            for (int d = 0; d < pw; ++d) columnTotal[size_t(d)] += a[d];
        }
    }
    // A pixel's colour depends on its count n and on (its column's total, its row's span
    // of levels): memoised per pair of those, of which an image has few.
    std::vector<int> totalIndex, spanIndex;
    std::vector<int> spanLengths(size_t(plot.height));
    for (int e = 0; e < plot.height; ++e) spanLengths[size_t(e)] = std::max(0, rows[size_t(e)].hi - rows[size_t(e)].lo + 1);
    const std::vector<uint64_t> totals = distinctValues(columnTotal, totalIndex);
    const std::vector<int> spans = distinctValues(spanLengths, spanIndex);
    const bool memo = totals.size() * spans.size() <= 4096;
    std::vector<uint64_t> maxCounts;
    if (memo)
        for (uint64_t t : totals)
            for (size_t k = 0; k < spans.size(); ++k) maxCounts.push_back(t);   // n never exceeds the column's total
    CountMemo shades(memo ? int(maxCounts.size()) : 0, maxCounts);
    constexpr double kSaturation = kWaveformSaturation;
    std::vector<uint64_t> rowCounts(static_cast<size_t>(pw));
    for (int e = 0; e < plot.height; ++e) {
        const Span s = rows[size_t(e)];
        if (s.hi < s.lo) continue;
        const int y = plot.top + e;
        const double share = double(s.hi - s.lo + 1) / double(levels);   // of the scale this row shows
        std::fill(rowCounts.begin(), rowCounts.end(), 0);
        for (int c = s.lo; c <= s.hi; ++c) {
            const uint32_t* a = acc.data() + size_t(c) * size_t(pw);
            for (int d = 0; d < pw; ++d) rowCounts[size_t(d)] += a[d];
        }
        const int spanKey = spanIndex[size_t(e)];
        for (int d = 0; d < pw; ++d) {
            const uint64_t n = rowCounts[size_t(d)];
            if (n == 0) continue;
            const int key = memo ? totalIndex[size_t(d)] * int(spans.size()) + spanKey : -1;
            const uint32_t rgba = shades.get(key, n, [&] {
                const double v = double(n) / (double(columnTotal[size_t(d)]) * share);
                const float b = traceBrightness(v, gain, kSaturation);
                return additive ? traceShadeUnwashed(hue, b) : traceShade(hue, b);
            });
            if (additive) {
                uint32_t old;
                std::memcpy(&old, img.at(plot.left + d, y), 4);
                storeRgba(img, plot.left + d, y, traceAdd(old, rgba));
            } else {
                storeRgba(img, plot.left + d, y, rgba);
            }
        }
    }
}

struct ResultsShape {
    int levels = 0, depth = 8;
    bool valid = false;
};
ResultsShape shapeOf(const ScopeResults& r) {
    ResultsShape s;
    s.depth = std::clamp(r.bitDepth, 8, 16);
    s.levels = r.levels;
    s.valid = r.width > 0 && r.height > 0 && r.bitDepth >= 8 && r.bitDepth <= 16 && r.levels == (1 << r.bitDepth);
    return s;
}

uint32_t hueRgba(TraceHue h) { return uint32_t(toByte(h.r)) | uint32_t(toByte(h.g)) << 8 | uint32_t(toByte(h.b)) << 16 | 0xff000000u; }

// A panel's channel name in its trace hue, with a shadow, above the panel (paradeNameTop).
void drawPanelName(RgbaImage& out, const PlotRect& plot, const PlotRect& panel, int textScale, const char* name, TraceHue h) {
    if (font::textWidth(name, textScale) + 8 * textScale >= panel.width) return;
    const int top = paradeNameTop(plot, panel, textScale);
    drawText(out, panel.left + 4 * textScale + textScale, top + textScale, name, 0xb0000000u, textScale);
    drawText(out, panel.left + 4 * textScale, top, name, hueRgba(h), textScale);
}

}  // namespace

// ---- Public drawing primitives ---------------------------------------------------------

void drawGraticule(RgbaImage& img, const PlotRect& plot, const Graticule& g, int textScale, bool labels,
                   LabelLayout& layout) {
    drawGraticuleInto(img, plot, g, textScale, labels, layout.placed);
}

RgbaImage textTag(const char* text, int scale, int pad, uint8_t alpha) {
    RgbaImage tag;
    tag.resize(font::textWidth(text, scale) + 2 * pad, font::textHeight(text, scale) + 2 * pad);
    for (int y = 0; y < tag.height; ++y)
        for (int x = 0; x < tag.width; ++x) {
            uint8_t* px = tag.at(x, y);
            px[0] = px[1] = px[2] = 24;
            px[3] = alpha;
        }
    drawText(tag, pad, pad, text, 0xffffffffu, scale);
    return tag;
}

void drawText(RgbaImage& img, int x, int y, const char* text, uint32_t rgba, int scale) {
    if (text == nullptr || img.empty()) return;
    scale = std::clamp(scale, 1, 64);
    int penX = x, penY = y;
    for (const char* p = text; *p != '\0'; ++p) {
        if (penY >= img.height) break;   // lines only move down: the rest is below the image
        if (*p == '\n') {
            penX = x;
            penY += font::kLineHeight * scale;
            continue;
        }
        if (penX >= img.width) continue;   // the rest of this line is right of the image
        const font::Glyph& g = font::glyph(*p);
        for (int row = 0; row < font::kGlyphHeight; ++row)
            for (int col = 0; col < font::kGlyphWidth; ++col) {
                if (!(g[size_t(row)] & (1u << (font::kGlyphWidth - 1 - col)))) continue;
                for (int sy = 0; sy < scale; ++sy)
                    for (int sx = 0; sx < scale; ++sx)
                        blendPixel(img, penX + col * scale + sx, penY + row * scale + sy, rgba, 1.0f);
            }
        penX += font::kAdvance * scale;
    }
}

// Anti-aliased line between pixel centres (pixel (x, y) has its centre at (x, y)): one
// sample per whole step of the major axis, its coverage split between the two nearest
// pixels of the minor axis, so axis-aligned lines on whole pixels stay one pixel sharp.
void drawLine(RgbaImage& img, double x0, double y0, double x1, double y1, uint32_t rgba) {
    if (img.empty() || !std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) return;
    const bool steep = std::abs(y1 - y0) > std::abs(x1 - x0);
    if (steep) {
        std::swap(x0, y0);
        std::swap(x1, y1);
    }
    if (x0 > x1) {
        std::swap(x0, x1);
        std::swap(y0, y1);
    }
    const int majorLimit = (steep ? img.height : img.width) - 1;
    auto plot = [&](int major, int minor, double coverage) {
        if (steep) blendPixel(img, minor, major, rgba, float(coverage));
        else blendPixel(img, major, minor, rgba, float(coverage));
    };
    const double dx = x1 - x0;
    if (dx < 1e-9) {   // a point
        const double m = std::round(x0);
        if (m < 0 || m > majorLimit) return;
        const double yi = std::floor(y0), f = y0 - yi;
        if (!(std::abs(yi) <= 1e9)) return;
        plot(int(m), int(yi), 1.0 - f);
        plot(int(m), int(yi) + 1, f);
        return;
    }
    const double grad = (y1 - y0) / dx;
    const double start = std::max(std::ceil(x0), 0.0), end = std::min(std::floor(x1), double(majorLimit));
    for (double x = start; x <= end; x += 1.0) {
        const double y = y0 + grad * (x - x0);
        const double yi = std::floor(y), f = y - yi;
        if (!(std::abs(yi) <= 1e9)) continue;   // far outside, or NaN from infinite input
        plot(int(x), int(yi), 1.0 - f);
        plot(int(x), int(yi) + 1, f);
    }
}

// ---- Scopes ------------------------------------------------------------------------------

namespace {
constexpr TraceChannel kRgbChannels[3] = {TraceChannel::Red, TraceChannel::Green, TraceChannel::Blue};
constexpr TraceChannel kYcbcrChannels[3] = {TraceChannel::LumaPanel, TraceChannel::Cb, TraceChannel::Cr};
}  // namespace

void drawLevelGraticules(RgbaImage& out, const ScopeResults& r, const ScopeSpec& spec, bool parade) {
    if (out.empty()) return;
    const int depth = std::clamp(r.bitDepth, 8, 16);
    const PlotRect plot = waveformPlotRect(out.width, out.height);
    const int textScale = graticuleTextScale(out.width, out.height);
    LabelLayout placed;
    if (parade) {
        static constexpr const char* kRgbNames[3] = {"R", "G", "B"};
        static constexpr const char* kYcbcrNames[3] = {"Y", "Cb", "Cr"};
        const bool rgb = r.paradeMode == ParadeMode::Rgb;
        // R'G'B' is full range whatever the stream's Y'CbCr range is.
        const Graticule g =
            levelGraticule(depth, r.color.range, rgb ? Range::Full : r.color.range, spec, spec.paradeRange, r.color.transfer, !rgb);
        for (int c = 0; c < 3; ++c) {
            const PlotRect panel = paradePanelRect(plot, c, textScale, rgb);
            if (panel.empty()) continue;
            drawGraticule(out, panel, g, textScale, c == 0, placed);
            // Names in the channel's own hue whatever the trace colour, so panels stay told apart.
            drawPanelName(out, plot, panel, textScale, rgb ? kRgbNames[c] : kYcbcrNames[c],
                          traceHue(TraceColour::Channel, rgb ? kRgbChannels[c] : kYcbcrChannels[c]));
        }
        return;
    }
    switch (spec.waveformMode) {
        case WaveformMode::Luma:
            drawGraticule(out, plot, levelGraticule(depth, r.color.range, r.color.range, spec, spec.waveformRange, r.color.transfer), textScale, true, placed);
            break;
        case WaveformMode::RgbOverlay: {
            const PlotRect panel = waveformPanelRect(plot, 0, 1, textScale, true);
            drawGraticule(out, panel, levelGraticule(depth, r.color.range, Range::Full, spec, spec.waveformRange, r.color.transfer), textScale, true, placed);
            drawPanelName(out, plot, panel, textScale, "RGB", traceHue(TraceColour::White, TraceChannel::Luma));
            break;
        }
        case WaveformMode::Yrgb: {
            static constexpr const char* kNames[4] = {"Y", "R", "G", "B"};
            for (int c = 0; c < 4; ++c) {
                const PlotRect panel = waveformPanelRect(plot, c, 4, textScale, c > 0);
                if (panel.empty()) continue;
                drawGraticule(out, panel, levelGraticule(depth, r.color.range, c == 0 ? r.color.range : Range::Full, spec, spec.waveformRange,
                                             r.color.transfer),
                              textScale, c == 0, placed);
                drawPanelName(out, plot, panel, textScale, kNames[c],
                              traceHue(TraceColour::Channel, c == 0 ? TraceChannel::LumaPanel : kRgbChannels[c - 1]));
            }
            break;
        }
    }
}

void renderWaveform(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    sizeImage(out, spec.scopeWidth, spec.scopeHeight);
    if (out.empty()) return;
    const ResultsShape shape = shapeOf(r);
    const PlotRect plot = waveformPlotRect(out.width, out.height);
    const int textScale = graticuleTextScale(out.width, out.height);
    const double gain = sanitiseGain(spec.waveformGain);
    const size_t panelCounts = size_t(shape.levels) * size_t(std::max(r.width, 0));
    const bool haveLuma = shape.valid && r.waveform.size() == panelCounts;
    // R'G'B' counts: the parade's, when it was counted in R'G'B' (ScopeSpec's countedSpec).
    const bool haveRgb = shape.valid && r.paradeMode == ParadeMode::Rgb && r.parade.size() == 3 * panelCounts;
    switch (spec.waveformMode) {
        case WaveformMode::Luma:
            if (haveLuma)
                drawWaveTrace(out, plot, r.waveform.data(), shape.levels, r.width, gain, traceHue(spec.traceColour, TraceChannel::Luma),
                              spec.waveformRange);
            break;
        case WaveformMode::RgbOverlay: {
            // One plot with the parade's headroom (R'G'B' is full range), the three traces added.
            const PlotRect panel = waveformPanelRect(plot, 0, 1, textScale, true);
            if (haveRgb && !panel.empty())
                for (int c = 0; c < 3; ++c)
                    drawWaveTrace(out, panel, r.parade.data() + size_t(c) * panelCounts, shape.levels, r.width, gain,
                                  traceHue(spec.traceColour, kRgbChannels[c]), spec.waveformRange, true);
            break;
        }
        case WaveformMode::Yrgb:
            for (int c = 0; c < 4; ++c) {
                const PlotRect panel = waveformPanelRect(plot, c, 4, textScale, c > 0);
                if (panel.empty()) continue;
                const TraceHue hue = traceHue(spec.traceColour, c == 0 ? TraceChannel::LumaPanel : kRgbChannels[c - 1]);
                if (c == 0 && haveLuma) drawWaveTrace(out, panel, r.waveform.data(), shape.levels, r.width, gain, hue, spec.waveformRange);
                if (c > 0 && haveRgb)
                    drawWaveTrace(out, panel, r.parade.data() + size_t(c - 1) * panelCounts, shape.levels, r.width, gain, hue,
                                  spec.waveformRange);
            }
            break;
    }
    drawLevelGraticules(out, r, spec, false);
}

void renderParade(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    sizeImage(out, spec.scopeWidth, spec.scopeHeight);
    if (out.empty()) return;
    const ResultsShape shape = shapeOf(r);
    const PlotRect plot = waveformPlotRect(out.width, out.height);
    const int textScale = graticuleTextScale(out.width, out.height);
    const bool rgb = r.paradeMode == ParadeMode::Rgb;
    const size_t panelCounts = size_t(shape.levels) * size_t(std::max(r.width, 0));
    const bool haveCounts = shape.valid && r.parade.size() == 3 * panelCounts;
    for (int c = 0; c < 3 && haveCounts; ++c) {
        const PlotRect panel = paradePanelRect(plot, c, textScale, rgb);
        if (panel.empty()) continue;
        drawWaveTrace(out, panel, r.parade.data() + size_t(c) * panelCounts, shape.levels, r.width, sanitiseGain(spec.waveformGain),
                      traceHue(spec.traceColour, rgb ? kRgbChannels[c] : kYcbcrChannels[c]), spec.paradeRange);
    }
    drawLevelGraticules(out, r, spec, true);
}

void renderVectorscope(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    sizeImage(out, spec.vectorscopeSize, spec.vectorscopeSize);
    if (out.empty()) return;
    const ResultsShape shape = shapeOf(r);
    const PlotRect plot = vectorscopePlotRect(out.width);
    const int textScale = graticuleTextScale(out.width, out.height);
    const int zoom = vectorscopeZoomFactor(spec.vectorscopeZoom);
    const int levels = shape.levels;
    if (shape.valid && r.vectorscope.size() == size_t(levels) * size_t(levels) && !plot.empty()) {
        // Both axes: code c at display (0.5 + zoom (c - mid) / levels) of the plot, as
        // vectorscopePoint (core/ScopeZoom.h); codes outside the (zoomed) plot are cropped.
        // Rows are indexed from the top (Cr up), so each code rounds to the very pixel
        // that PlotRect::toPixelY rounds its graticule position to.
        const double span = double(plot.width - 1), mid = levels / 2.0;
        auto pos = [&](int c) { return vectorscopeAxisPos(c, levels, zoom, span); };
        auto inv = [&](double d) { return vectorscopeAxisCode(d, levels, zoom, span); };
        auto posDown = [&](int c) { return span - pos(c); };
        auto invDown = [&](double d) { return inv(span - d); };
        const std::vector<Span> spans = plot.width > 1 ? nearestSpans(levels, plot.width, pos, inv)
                                                       : std::vector<Span>{Span{0, levels - 1}};
        const std::vector<Span> rowSpans = plot.width > 1 ? nearestSpans(levels, plot.width, posDown, invDown)
                                                          : std::vector<Span>{Span{0, levels - 1}};
        // Collapse Cb per display column for every Cr, then Cr per display row.
        std::vector<uint32_t> perCr(size_t(levels) * size_t(plot.width), 0);
        uint64_t total = 0;
        SpanSums gather(spans);
        // Four Cr rows at a time, each block's total taken while it is still in cache.
        for (int cr0 = 0; cr0 < levels; cr0 += 4) {
            const int count = std::min(4, levels - cr0);
            const uint32_t* src = r.vectorscope.data() + size_t(cr0) * size_t(levels);
            gather.rows(src, size_t(levels), count, perCr.data() + size_t(cr0) * size_t(plot.width),
                        size_t(plot.width));
            for (size_t i = 0; i < size_t(count) * size_t(levels); ++i) total += src[i];
        }
        const double gain = sanitiseGain(spec.vectorscopeGain);
        const LumaWeights w = lumaWeights(r.color.matrix);
        const double cScale = r.color.range == Range::Limited ? 224.0 * double(1 << (shape.depth - 8)) : double(levels - 1);
        // Density against counts spread over a disc of 1/16 of the plane (ScopeStyle.h),
        // lifted for deep sources by vectorscopeDepthGain.
        const double depthGain = vectorscopeDepthGain(levels);
        // Brightness depends on the count and the cell's size in codes (its Cb span times
        // its Cr span): memoised per pair. The hue depends on the position only: its
        // column and row parts are computed once per column and row.
        std::vector<int> cbLength(spans.size()), crLength(rowSpans.size()), cbKey, crKey;
        for (size_t i = 0; i < spans.size(); ++i) cbLength[i] = std::max(0, spans[i].hi - spans[i].lo + 1);
        for (size_t i = 0; i < rowSpans.size(); ++i) crLength[i] = std::max(0, rowSpans[i].hi - rowSpans[i].lo + 1);
        const std::vector<int> cbLengths = distinctValues(cbLength, cbKey), crLengths = distinctValues(crLength, crKey);
        const bool memo = cbLengths.size() * crLengths.size() <= 4096;
        CountMemo brightness(memo ? int(cbLengths.size() * crLengths.size()) : 0,
                             std::vector<uint64_t>(memo ? cbLengths.size() * crLengths.size() : 0, total));
        std::vector<double> columnU(spans.size());
        for (size_t d = 0; d < spans.size(); ++d) columnU[d] = ((spans[d].lo + spans[d].hi) / 2.0 - mid) / cScale;
        // Each plot pixel's brightness and shade, then the splat (ScopeStyle.h): every pixel
        // shows the brightest within the splat's disc, the first such in row order.
        const int pw = plot.width, ph = plot.height;
        std::vector<float> bright(size_t(pw) * size_t(ph), 0.0f);
        std::vector<uint32_t> shade(size_t(pw) * size_t(ph), 0);
        const bool byHue = spec.traceColour == TraceColour::Channel;
        const TraceHue flatHue = traceHue(spec.traceColour, TraceChannel::Luma);
        std::vector<uint64_t> rowCounts(static_cast<size_t>(plot.width));
        for (int e = 0; e < ph && total > 0; ++e) {
            const Span crs = rowSpans[size_t(e)];
            if (crs.hi < crs.lo) continue;
            std::fill(rowCounts.begin(), rowCounts.end(), 0);
            for (int cr = crs.lo; cr <= crs.hi; ++cr) {
                const uint32_t* a = perCr.data() + size_t(cr) * size_t(plot.width);
                for (int d = 0; d < plot.width; ++d) rowCounts[size_t(d)] += a[d];
            }
            const double vv = ((crs.lo + crs.hi) / 2.0 - mid) / cScale;
            const int rowKey = crKey[size_t(e)] * int(cbLengths.size());
            for (int d = 0; d < pw; ++d) {
                const Span cbs = spans[size_t(d)];
                if (cbs.hi < cbs.lo) continue;
                const uint64_t n = rowCounts[size_t(d)];
                if (n == 0) continue;
                const uint32_t bBits = brightness.get(memo ? rowKey + cbKey[size_t(d)] : -1, n, [&] {
                    const double cells = double(crs.hi - crs.lo + 1) * double(cbs.hi - cbs.lo + 1);
                    const double v = double(n) / double(total) / (cells / (double(levels) * levels / 16.0)) * depthGain;
                    const float bf = traceBrightness(v, gain, kVectorscopeSaturation);
                    uint32_t bits;
                    std::memcpy(&bits, &bf, 4);
                    return bits;
                });
                float b;
                std::memcpy(&b, &bBits, 4);
                const TraceHue hue = byHue ? vectorscopeHue(columnU[size_t(d)], vv, w.kr, w.kb) : flatHue;
                const size_t i = size_t(e) * size_t(pw) + size_t(d);
                bright[i] = b;
                shade[i] = traceShade(hue, b);
            }
        }
        // Scattered from the lit pixels in row order, a target taking a source only when it
        // is strictly brighter: the same choice as gathering over the disc in row order.
        const int radius = vectorscopeSplatRadius(pw);
        std::vector<float> best(size_t(pw) * size_t(ph), 0.0f);
        std::vector<uint32_t> colour(size_t(pw) * size_t(ph), 0);
        for (int e = 0; e < ph && total > 0; ++e)
            for (int d = 0; d < pw; ++d) {
                const size_t i = size_t(e) * size_t(pw) + size_t(d);
                const float b = bright[i];
                if (!(b > 0.0f)) continue;
                for (int dy = -radius; dy <= radius; ++dy) {
                    const int y = e + dy;
                    if (y < 0 || y >= ph) continue;
                    for (int dx = -radius; dx <= radius; ++dx) {
                        const int x = d + dx;
                        if (x < 0 || x >= pw || !inSplat(dx, dy, radius)) continue;
                        const size_t t = size_t(y) * size_t(pw) + size_t(x);
                        if (b > best[t]) {
                            best[t] = b;
                            colour[t] = shade[i];
                        }
                    }
                }
            }
        for (int e = 0; e < ph && total > 0; ++e)
            for (int d = 0; d < pw; ++d) {
                const size_t t = size_t(e) * size_t(pw) + size_t(d);
                if (best[t] > 0.0f) storeRgba(out, plot.left + d, plot.top + e, colour[t]);
            }
    }
    LabelLayout placed;
    drawGraticule(out, plot,
                  vectorscopeGraticule(r.color.matrix, r.color.range, shape.depth, zoom, spec.vectorscopeTargets75,
                                       spec.skinToneLine),
                  textScale, true, placed);
}

void renderHistogram(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out) {
    sizeImage(out, spec.scopeWidth, spec.scopeHeight);
    if (out.empty()) return;
    const ResultsShape shape = shapeOf(r);
    const PlotRect plot = histogramPlotRect(out.width, out.height);
    const int textScale = graticuleTextScale(out.width, out.height);
    const bool log = spec.histogramScale == HistogramScale::Log;
    const double gain = sanitiseGain(spec.histogramGain);

    if (!plot.empty()) {
        // Bins summed per display column (nearest mapping: every bin in exactly one column).
        auto columnSums = [&](const std::vector<uint32_t>& bins, int count) {
            std::vector<uint64_t> sums;
            if (bins.size() != size_t(count) || count <= 0) return sums;
            const std::vector<Span> spans = linearSpans(count, plot.width);
            sums.assign(size_t(plot.width), 0);
            for (int d = 0; d < plot.width; ++d)
                for (int c = spans[size_t(d)].lo; c <= spans[size_t(d)].hi; ++c) sums[size_t(d)] += bins[size_t(c)];
            return sums;
        };
        const std::vector<uint64_t> y = shape.valid ? columnSums(r.histY, shape.levels) : std::vector<uint64_t>{};
        const std::vector<uint64_t> rgb[3] = {columnSums(r.histR, 256), columnSums(r.histG, 256), columnSums(r.histB, 256)};
        auto maxOf = [](const std::vector<uint64_t>& v) { return v.empty() ? uint64_t(0) : *std::max_element(v.begin(), v.end()); };
        const uint64_t yMax = maxOf(y), rgbMax = std::max({maxOf(rgb[0]), maxOf(rgb[1]), maxOf(rgb[2])});
        // Bar height in rows above the bottom row (-1: no bar). A non-empty column always
        // shows at least one row.
        auto barTop = [&](uint64_t n, uint64_t max) {
            if (n == 0 || max == 0) return -1;
            double h = log ? std::log1p(double(n)) / std::log1p(double(max)) : double(n) / double(max);
            h = std::clamp(h * gain, 0.0, 1.0);
            return int(std::lround(h * double(plot.height - 1)));
        };
        // Bar tops per column (-1: no bar) of the luma and R, G, B series.
        auto topsOf = [&](const std::vector<uint64_t>& sums, uint64_t max) {
            std::vector<int> tops(sums.size());
            for (size_t d = 0; d < sums.size(); ++d) tops[d] = barTop(sums[d], max);
            return tops;
        };
        const std::vector<int> tops[4] = {topsOf(y, yMax), topsOf(rgb[0], rgbMax), topsOf(rgb[1], rgbMax),
                                          topsOf(rgb[2], rgbMax)};
        // The fills, in order: the luma bars set one opaque grey, then R, G and B each add
        // light (saturating, so overlaps mix towards white), each new byte a function of the
        // old one (a table). All four run in one pass over the rows, each pixel taking the
        // same steps in the same order as four passes would.
        const uint32_t lumaFill = opaqueRgba(Rgbf{0.42f, 0.42f, 0.42f});
        const Rgbf lights[3] = {{0.36f, 0.0f, 0.0f}, {0.0f, 0.36f, 0.0f}, {0.0f, 0.0f, 0.36f}};
        uint8_t added[3][3][256];
        for (int k = 0; k < 3; ++k)
            for (int v = 0; v < 256; ++v) {
                added[k][0][v] = toByte(float(v) / 255.0f + lights[k].r);
                added[k][1][v] = toByte(float(v) / 255.0f + lights[k].g);
                added[k][2][v] = toByte(float(v) / 255.0f + lights[k].b);
            }
        int highest = -1;
        for (const auto& t : tops)
            for (int v : t) highest = std::max(highest, v);
        for (int e = 0; e <= highest; ++e) {
            const int py = plot.top + plot.height - 1 - e;
            for (int d = 0; d < plot.width; ++d) {
                const bool inLuma = size_t(d) < tops[0].size() && e <= tops[0][size_t(d)];
                if (inLuma) storeRgba(out, plot.left + d, py, lumaFill);
                for (int k = 0; k < 3; ++k) {
                    if (!(size_t(d) < tops[k + 1].size() && e <= tops[k + 1][size_t(d)])) continue;
                    uint8_t* px = out.at(plot.left + d, py);
                    px[0] = added[k][0][px[0]];
                    px[1] = added[k][1][px[1]];
                    px[2] = added[k][2][px[2]];
                    px[3] = 255;
                }
            }
        }
        // The envelope: each column's top, joined to the neighbour's top (or to the
        // baseline where a bar starts or ends) so steps stay continuous lines.
        auto outline = [&](const std::vector<int>& columnTops, uint32_t rgba) {
            int prev = -1;
            for (int d = 0; d < int(columnTops.size()); ++d) {
                const int top = columnTops[size_t(d)];
                if (top >= 0 || prev >= 0) {
                    const int lo = (top >= 0 && prev >= 0) ? std::min(top, prev) : 0, hi = std::max(top, prev);
                    for (int e = lo; e <= hi; ++e) blendPixel(out, plot.left + d, plot.top + plot.height - 1 - e, rgba, 1.0f);
                }
                prev = top;
            }
        };
        outline(tops[1], 0xe04646ffu);
        outline(tops[2], 0xe050ff50u);
        outline(tops[3], 0xe0ff8a5au);
        outline(tops[0], 0xf0f0f0f0u);
    }
    LabelLayout placed;
    drawGraticule(out, plot, histogramGraticuleFor(shape.depth, r.color.range, spec.histogramScale, r.color.transfer), textScale, true, placed);
}

}  // namespace cs
