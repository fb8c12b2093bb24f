#include "GamutDisplayCount.h"

#include <algorithm>

#include "core/PixelAccess.h"
#include "core/PixelFormat.h"

namespace cs {

void GamutDisplayCounter::count(const FrameView& f, const ColorInfo& color, const ScopeSpec& spec, const ThreadPool& pool,
                                GamutDisplayResults& out) {
    out.mode = spec.gamutDisplay;
    out.limit = spec.arrowheadLimit;
    if (spec.gamutDisplay == GamutDisplay::None) {
        out.counts.clear();
        return;
    }
    const PixelFormatInfo& info = formatInfo(f.format);
    const int depth = info.bitDepth, W = f.width, H = f.height;
    const int32_t mask = (1 << depth) - 1;
    const YuvToRgb toRgb = makeYuvToRgb(color.matrix, color.range, depth, depth);
    const RgbToYuv toYuv = makeRgbToYuv(color.matrix, color.range, 8);
    // RGB sources: 8-bit R'G'B' as stored, Y'CbCr through toYuv at 8 bits.
    const GamutDisplayCoefficients k = makeGamutDisplayCoefficients(
        spec.gamutDisplay, spec.arrowheadLimit, info.isRgb ? 8 : depth, color.range, info.isRgb ? 255 : toRgb.outMax);
    const PixelSource src = makePixelSource(f);
    const size_t bins = size_t(kGamutDisplayBins) * kGamutDisplayBins;
    const int chunks = pool.defaultChunks(H);
    if (int(slots_.size()) < chunks) slots_.resize(size_t(chunks));
    for (int c = 0; c < chunks; ++c)
        if (slots_[size_t(c)].size() != bins) slots_[size_t(c)].assign(bins, 0);
    pool.parallelFor(
        H,
        [&](int chunk, int y0, int y1) {
            uint32_t* counts = slots_[size_t(chunk)].data();
            for (int y = y0; y < y1; ++y)
                for (int x = 0; x < W; ++x) {
                    const GamutDisplayPoint p = gamutDisplayAt(k, src, x, y, toRgb, toYuv, mask);
                    ++counts[p.first];
                    if (p.second >= 0) ++counts[p.second];
                }
        },
        chunks);
    // The slots summed by bands of rows on the pool, each slot's band zeroed as it is read.
    out.counts.resize(bins);
    pool.parallelFor(kGamutDisplayBins, [&](int, int r0, int r1) {
        const size_t begin = size_t(r0) * kGamutDisplayBins, end = size_t(r1) * kGamutDisplayBins;
        uint32_t* dst = out.counts.data();
        std::fill(dst + begin, dst + end, 0u);
        for (int c = 0; c < chunks; ++c) {
            uint32_t* s = slots_[size_t(c)].data();
            for (size_t i = begin; i < end; ++i) dst[i] += s[i];
            std::fill(s + begin, s + end, 0u);
        }
    });
}

}  // namespace cs
