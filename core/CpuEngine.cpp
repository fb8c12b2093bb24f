// The CPU engine: the reference implementation of every scope (docs/SCOPES.md) and the
// fallback where no CUDA device exists. Work is split into vertical strips of columns,
// one per thread: waveform and parade columns are then owned by one thread (no merge),
// while the small histograms, vectorscope and statistics are per-strip and summed.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "Engine.h"
#include "Filters.h"
#include "PixelAccess.h"
#include "ScopeRender.h"
#include "ThreadPool.h"

namespace cs {
namespace {

// What one strip accumulates beyond the column-owned waveform/parade.
struct StripCounts {
    std::vector<uint32_t> histY, histR, histG, histB, vectorscope;
    int32_t minY = 0, maxY = 0, minU = 0, maxU = 0, minV = 0, maxV = 0;
    uint64_t sumY = 0, sumU = 0, sumV = 0, countY = 0, countC = 0;
    uint64_t outOfLegal = 0, outOfGamut = 0;

    void reset(int levels, bool histograms, bool vectorscopeCounts) {
        auto zero = [](std::vector<uint32_t>& v, size_t n) { v.assign(n, 0); };
        if (histograms) { zero(histY, size_t(levels)); zero(histR, 256); zero(histG, 256); zero(histB, 256); }
        if (vectorscopeCounts) zero(vectorscope, size_t(levels) * size_t(levels));
        minY = minU = minV = std::numeric_limits<int32_t>::max();
        maxY = maxU = maxV = std::numeric_limits<int32_t>::min();
        sumY = sumU = sumV = countY = countC = outOfLegal = outOfGamut = 0;
    }
};

// Per-row scratch for one strip: components of each pixel of the strip.
struct RowScratch {
    std::vector<int32_t> y, cb, cr, r, g, b;
    void resize(size_t n) { y.resize(n); cb.resize(n); cr.resize(n); r.resize(n); g.resize(n); b.resize(n); }
};

class CpuEngine final : public Engine {
public:
    explicit CpuEngine(int threads) : pool_(threads) {}
    std::string_view name() const override { return "cpu"; }
    Status process(const FrameView& frame, const ScopeSpec& spec, ScopeResults& out) override;

private:
    void processStrip(const FrameView& f, const ScopeSpec& spec, ScopeResults& out, int strip, int x0, int x1);

    ThreadPool pool_;
    std::vector<StripCounts> strips_;
    std::vector<RowScratch> scratch_;
    LumaPlane luma_;
    // Per-frame constants, set in process() before the strips run.
    YuvToRgb toRgb8_{}, toRgbNative_{};
    RgbToYuv toYuv_{};
    bool needRgb8_ = false, needRgbNative_ = false, needLuma_ = false;
};

bool previewNeedsLuma(PreviewFilter f) {
    return f == PreviewFilter::Edges || f == PreviewFilter::FocusPeaking || f == PreviewFilter::Zebra ||
           f == PreviewFilter::FalseColour;
}

// Fills the strip's component rows for row y, columns [x0, x1), chroma replicated per pixel.
void loadRow(const PixelSource& s, const FrameView& f, const RgbToYuv& toYuv, int y, int x0, int x1,
             RowScratch& row) {
    const int n = x1 - x0;
    const int mid = 1 << (f.bitDepth() - 1);
    const auto& info = formatInfo(f.format);
    if (info.isRgb) {
        const uint8_t* px = s.p0 + y * s.pitch0 + x0 * s.bytesPerPixel;
        for (int i = 0; i < n; ++i, px += s.bytesPerPixel) {
            const int32_t r = px[s.off0], g = px[s.off1], b = px[s.off2];
            row.r[size_t(i)] = r; row.g[size_t(i)] = g; row.b[size_t(i)] = b;
            const Yuv v = rgbToYuv(toYuv, r, g, b);
            row.y[size_t(i)] = v.y; row.cb[size_t(i)] = v.cb; row.cr[size_t(i)] = v.cr;
        }
        return;
    }
    if (info.layout == PixelLayout::Planar && info.bytesPerSample == 1) {
        // The common 8-bit planar case without the generic accessor's per-pixel switch.
        const uint8_t* py = s.p0 + y * s.pitch0;
        const uint8_t* pu = s.p1 + (y >> s.log2ch) * s.pitch1;
        const uint8_t* pv = s.p2 + (y >> s.log2ch) * s.pitch2;
        for (int i = 0; i < n; ++i) {
            const int x = x0 + i, cx = x >> s.log2cw;
            row.y[size_t(i)] = py[x]; row.cb[size_t(i)] = pu[cx]; row.cr[size_t(i)] = pv[cx];
        }
        return;
    }
    for (int i = 0; i < n; ++i) {
        const YuvSample v = readYuv(s, x0 + i, y, mid);
        row.y[size_t(i)] = v.y; row.cb[size_t(i)] = v.cb; row.cr[size_t(i)] = v.cr;
    }
}

void CpuEngine::processStrip(const FrameView& f, const ScopeSpec& spec, ScopeResults& out, int strip, int x0,
                             int x1) {
    StripCounts& c = strips_[size_t(strip)];
    RowScratch& row = scratch_[size_t(strip)];
    row.resize(size_t(x1 - x0));
    const PixelSource src = makePixelSource(f);
    const auto& info = formatInfo(f.format);
    const int W = f.width, L = out.levels, n = x1 - x0;
    const LegalRange legal = legalRange(f.bitDepth());
    const int cwMask = (1 << info.log2ChromaW) - 1, chMask = (1 << info.log2ChromaH) - 1;
    const bool rgbSource = info.isRgb, gray = info.layout == PixelLayout::Gray;
    uint32_t* wf = spec.waveform ? out.waveform.data() : nullptr;
    uint32_t* pa = spec.parade ? out.parade.data() : nullptr;
    const bool paradeRgb = spec.paradeMode == ParadeMode::Rgb;
    uint8_t* pic = (spec.displayImages && spec.picture) || spec.preview != PreviewFilter::None ? out.picture.pixels.data()
                                                                                                 : nullptr;
    for (int y = 0; y < f.height; ++y) {
        loadRow(src, f, toYuv_, y, x0, x1, row);
        const bool chromaRow = (y & chMask) == 0;
        uint16_t* lumaRow = needLuma_ ? luma_.values.data() + size_t(y) * size_t(W) : nullptr;
        for (int i = 0; i < n; ++i) {
            const int x = x0 + i;
            const int32_t Y = row.y[size_t(i)], Cb = row.cb[size_t(i)], Cr = row.cr[size_t(i)];
            int32_t R8 = 0, G8 = 0, B8 = 0, Rn = 0, Gn = 0, Bn = 0;
            if (rgbSource) {
                R8 = Rn = row.r[size_t(i)]; G8 = Gn = row.g[size_t(i)]; B8 = Bn = row.b[size_t(i)];
            } else {
                if (needRgb8_) { const Rgb p = yuvToRgb(toRgb8_, Y, Cb, Cr); R8 = p.r; G8 = p.g; B8 = p.b; }
                if (needRgbNative_) { const Rgb p = yuvToRgb(toRgbNative_, Y, Cb, Cr); Rn = p.r; Gn = p.g; Bn = p.b; }
            }
            if (spec.histogram) {
                ++c.histY[size_t(Y)];
                ++c.histR[size_t(R8)]; ++c.histG[size_t(G8)]; ++c.histB[size_t(B8)];
            }
            if (wf) ++wf[size_t(Y) * size_t(W) + size_t(x)];
            if (pa) {
                const int32_t c0 = paradeRgb ? Rn : Y, c1 = paradeRgb ? Gn : Cb, c2 = paradeRgb ? Bn : Cr;
                ++pa[(size_t(0) * size_t(L) + size_t(c0)) * size_t(W) + size_t(x)];
                ++pa[(size_t(1) * size_t(L) + size_t(c1)) * size_t(W) + size_t(x)];
                ++pa[(size_t(2) * size_t(L) + size_t(c2)) * size_t(W) + size_t(x)];
            }
            if (spec.vectorscope) ++c.vectorscope[size_t(Cr) * size_t(L) + size_t(Cb)];
            if (spec.stats) {
                c.minY = std::min(c.minY, Y); c.maxY = std::max(c.maxY, Y); c.sumY += uint64_t(Y);
                // Chroma statistics count each chroma sample once, at the pixel that starts it
                // (signalstats reads the chroma planes at their own resolution).
                if (rgbSource || (chromaRow && (x & cwMask) == 0)) {
                    c.minU = std::min(c.minU, Cb); c.maxU = std::max(c.maxU, Cb); c.sumU += uint64_t(Cb);
                    c.minV = std::min(c.minV, Cr); c.maxV = std::max(c.maxV, Cr); c.sumV += uint64_t(Cr);
                    ++c.countC;
                }
                if (Y < legal.yLo || Y > legal.yHi || Cb < legal.cLo || Cb > legal.cHi || Cr < legal.cLo || Cr > legal.cHi)
                    ++c.outOfLegal;
                if (!rgbSource && !gray && yuvOutOfGamut(toRgb8_, Y, Cb, Cr)) ++c.outOfGamut;
            }
            if (pic) {
                uint8_t* p = pic + (size_t(y) * size_t(W) + size_t(x)) * 4;
                p[0] = uint8_t(R8); p[1] = uint8_t(G8); p[2] = uint8_t(B8); p[3] = 255;
            }
            if (lumaRow) lumaRow[x] = uint16_t(Y);
        }
        c.countY += uint64_t(n);
    }
}

Status CpuEngine::process(const FrameView& f, const ScopeSpec& spec, ScopeResults& out) {
    if (f.onDevice) return Status::error("the CPU engine cannot read a frame held in GPU memory");
    if (f.format >= PixelFormat::Count) return Status::error("unsupported pixel format");
    if (!f.valid())
        return Status::error("invalid frame " + std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
                             std::string(formatInfo(f.format).name) + " (size out of range or plane missing)");
    const auto& info = formatInfo(f.format);
    const int W = f.width, H = f.height, depth = info.bitDepth, L = 1 << depth;

    out.width = W; out.height = H; out.bitDepth = depth; out.levels = L; out.format = f.format;
    out.color = applyOverride(f.color, spec.colorOverride);
    out.paradeMode = spec.paradeMode;
    const Matrix m = out.color.matrix;
    const Range r = out.color.range;

    const bool wantPicture = (spec.displayImages && spec.picture) || spec.preview != PreviewFilter::None;
    needLuma_ = previewNeedsLuma(spec.preview);
    needRgb8_ = !info.isRgb && (spec.histogram || wantPicture || spec.stats);
    needRgbNative_ = !info.isRgb && spec.parade && spec.paradeMode == ParadeMode::Rgb;
    toRgb8_ = makeYuvToRgb(m, r, depth, 8);
    toRgbNative_ = makeYuvToRgb(m, r, depth, depth);
    toYuv_ = makeRgbToYuv(m, r, 8);

    auto sized = [](std::vector<uint32_t>& v, bool on, size_t n) {
        if (on) v.assign(n, 0); else v.clear();
    };
    sized(out.waveform, spec.waveform, size_t(L) * size_t(W));
    sized(out.parade, spec.parade, size_t(3) * size_t(L) * size_t(W));
    if (wantPicture) out.picture.resize(W, H); else out.picture = {};
    if (needLuma_) {
        luma_.width = W; luma_.height = H; luma_.bitDepth = depth; luma_.range = r;
        luma_.values.resize(size_t(W) * size_t(H));
    }

    // Strips of even width so a 4:2:x chroma sample never straddles two strips.
    const int pairs = (W + 1) / 2;
    const int strips = std::min(pool_.size(), pairs);
    strips_.resize(size_t(strips));
    scratch_.resize(size_t(strips));
    for (auto& s : strips_) s.reset(L, spec.histogram, spec.vectorscope);
    pool_.parallelFor(
        pairs,
        [&](int strip, int p0, int p1) { processStrip(f, spec, out, strip, 2 * p0, std::min(W, 2 * p1)); },
        strips);

    // Sum the strips.
    auto sumInto = [&](std::vector<uint32_t>& dst, bool on, std::vector<uint32_t> StripCounts::*member, size_t n) {
        if (!on) { dst.clear(); return; }
        dst.assign(n, 0);
        for (const auto& s : strips_) {
            const auto& src = s.*member;
            for (size_t i = 0; i < n; ++i) dst[i] += src[i];
        }
    };
    sumInto(out.histY, spec.histogram, &StripCounts::histY, size_t(L));
    sumInto(out.histR, spec.histogram, &StripCounts::histR, 256);
    sumInto(out.histG, spec.histogram, &StripCounts::histG, 256);
    sumInto(out.histB, spec.histogram, &StripCounts::histB, 256);
    sumInto(out.vectorscope, spec.vectorscope, &StripCounts::vectorscope, size_t(L) * size_t(L));

    out.stats = {};
    if (spec.stats) {
        StripCounts t;
        t.reset(0, false, false);
        for (const auto& s : strips_) {
            t.minY = std::min(t.minY, s.minY); t.maxY = std::max(t.maxY, s.maxY); t.sumY += s.sumY; t.countY += s.countY;
            t.minU = std::min(t.minU, s.minU); t.maxU = std::max(t.maxU, s.maxU); t.sumU += s.sumU;
            t.minV = std::min(t.minV, s.minV); t.maxV = std::max(t.maxV, s.maxV); t.sumV += s.sumV;
            t.countC += s.countC; t.outOfLegal += s.outOfLegal; t.outOfGamut += s.outOfGamut;
        }
        const double pixels = double(W) * double(H);
        out.stats.y = {t.minY, t.maxY, double(t.sumY) / double(t.countY)};
        out.stats.u = {t.minU, t.maxU, double(t.sumU) / double(t.countC)};
        out.stats.v = {t.minV, t.maxV, double(t.sumV) / double(t.countC)};
        out.stats.outOfLegal = double(t.outOfLegal) / pixels;
        out.stats.outOfGamut = double(t.outOfGamut) / pixels;
    }

    // Display images.
    if (spec.preview != PreviewFilter::None) applyPreview(out.picture, luma_, spec, out.preview, &pool_);
    else out.preview = {};
    if (spec.displayImages) {
        // The four scope images are independent: draw them side by side on the pool.
        pool_.parallelFor(
            4,
            [&](int, int b, int e) {
                for (int i = b; i < e; ++i) {
                    if (i == 0) { if (spec.histogram) renderHistogram(out, spec, out.histogramImage); else out.histogramImage = {}; }
                    if (i == 1) { if (spec.waveform) renderWaveform(out, spec, out.waveformImage); else out.waveformImage = {}; }
                    if (i == 2) { if (spec.parade) renderParade(out, spec, out.paradeImage); else out.paradeImage = {}; }
                    if (i == 3) { if (spec.vectorscope) renderVectorscope(out, spec, out.vectorscopeImage); else out.vectorscopeImage = {}; }
                }
            },
            4);
    } else {
        out.histogramImage = out.waveformImage = out.paradeImage = out.vectorscopeImage = {};
    }
    if (!(spec.displayImages && spec.picture)) out.picture = {};
    return {};
}

}  // namespace

std::unique_ptr<Engine> makeCpuEngine(int threads) { return std::make_unique<CpuEngine>(threads); }

}  // namespace cs
