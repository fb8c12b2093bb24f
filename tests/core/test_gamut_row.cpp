// core/GamutRow: the CPU engine's vectorised form of the gamut rule gives gamutPixel's bins
// and outside flags to the bit, on its own (every transfer, source, target and mode, every
// row length) and inside the CPU engine (10-bit frames of random and edge codes, its counts
// and its gamut preview's mask against a per-pixel reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/Engine.h"
#include "core/Filters.h"
#include "core/Frame.h"
#include "core/Gamut.h"
#include "core/GamutRow.h"
#include "cpu/CpuEngine.h"

namespace cs {
namespace {

// Codes a 10-bit row is most likely to get wrong: the ends, their neighbours, the legal
// limits and mid grey.
constexpr int kEdgeCodes[] = {0, 1, 2, 3, 4, 63, 64, 65, 511, 512, 940, 959, 960, 1019, 1020, 1021, 1022, 1023};

int randomCode(std::mt19937& rng, int levels) {
    // One code in four from the edge list (at 10 bits), the rest uniform.
    if (levels == 1024 && rng() % 4 == 0) return kEdgeCodes[rng() % std::size(kEdgeCodes)];
    return int(rng() % uint32_t(levels));
}

TEST(GamutRow, EqualsGamutPixelForEveryTransferSourceTargetAndMode) {
    std::mt19937 rng(17);
    const Transfer transfers[] = {Transfer::Bt709, Transfer::Srgb, Transfer::Pq, Transfer::Hlg, Transfer::Linear};
    const Primaries sources[] = {Primaries::Bt709, Primaries::P3D65, Primaries::DciP3, Primaries::Bt2020, Primaries::Bt601_525};
    const Primaries targets[] = {Primaries::Bt709, Primaries::P3D65, Primaries::Bt2020};
    int blacks = 0, outsides = 0, insides = 0;
    for (Transfer tr : transfers)
        for (Primaries source : sources)
            for (Primaries target : targets)
                for (CieMode mode : {CieMode::Xy, CieMode::Uv}) {
                    const GamutTables t = makeGamutTables(source, tr, target, mode, 1024);
                    // Rows of every length 1..kGamutRowMax; the first pixels of each row are black,
                    // grey and a primary, the rest random (edge codes included).
                    for (int n = 1; n <= kGamutRowMax; ++n) {
                        float r[kGamutRowMax], g[kGamutRowMax], b[kGamutRowMax];
                        for (int i = 0; i < n; ++i) {
                            int cr = randomCode(rng, 1024), cg = randomCode(rng, 1024), cb = randomCode(rng, 1024);
                            if (i == 0) cr = cg = cb = 0;
                            if (i == 1) cg = cb = cr;
                            if (i == 2) { cr = 1023; cg = cb = 0; }
                            r[i] = t.linear[size_t(cr)];
                            g[i] = t.linear[size_t(cg)];
                            b[i] = t.linear[size_t(cb)];
                        }
                        int32_t bin[kGamutRowMax];
                        uint8_t outside[kGamutRowMax];
                        const uint32_t count = mode == CieMode::Uv ? gamutRow<true>(t.k, r, g, b, n, bin, outside)
                                                                   : gamutRow<false>(t.k, r, g, b, n, bin, outside);
                        uint32_t want = 0;
                        for (int i = 0; i < n; ++i) {
                            const GamutPixel p = gamutPixel(t.k, r[i], g[i], b[i]);
                            ASSERT_EQ(bin[i], p.bin) << "pixel " << i << " of " << n << ": " << r[i] << " " << g[i] << " "
                                                     << b[i] << ", transfer " << int(tr) << " source " << int(source)
                                                     << " target " << int(target) << " mode " << int(mode);
                            ASSERT_EQ(outside[i], uint8_t(p.outside)) << "pixel " << i << " of " << n;
                            want += p.outside;
                            blacks += r[i] == 0.0f && g[i] == 0.0f && b[i] == 0.0f;
                            (p.outside ? outsides : insides) += 1;
                        }
                        ASSERT_EQ(count, want);
                    }
                }
    // The rows held every case: black, inside and outside the target.
    EXPECT_GT(blacks, 1000);
    EXPECT_GT(outsides, 10000);
    EXPECT_GT(insides, 10000);
}

// The CPU engine on 10-bit frames of random and edge codes (an odd size: partial tiles, an
// odd last chroma column): its counts, outside share and the gamut preview's mask are those
// of gamutPixel applied to each pixel's R'G'B' from core/Color.h's conversion.
void expectEngineMatchesPixelRule(PixelFormat format, Transfer transfer, Primaries primaries, Primaries target, CieMode mode) {
    const int w = 333, h = 37;
    const ColorInfo color{Matrix::Bt2020Ncl, Range::Limited, transfer, true, true, primaries};
    Frame f(format, w, h, color);
    std::mt19937 rng(3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) f.setPixel(x, y, randomCode(rng, 1024), randomCode(rng, 1024), randomCode(rng, 1024));
    // A black run and a flat run: long runs of one bin.
    for (int x = 0; x < 100; ++x) f.setPixel(x, 5, 64, 512, 512);
    for (int x = 100; x < 300; ++x) f.setPixel(x, 6, 500, 300, 800);

    const FrameView v = f.view();
    const PixelFormatInfo& info = formatInfo(format);
    auto sample = [&](int plane, int x, int y) {
        const int sx = plane == 0 ? x : x >> info.log2ChromaW, sy = plane == 0 ? y : y >> info.log2ChromaH;
        const uint8_t* p = v.data[size_t(plane)] + sy * v.pitch[size_t(plane)] + 2 * sx;
        return int32_t(p[0] | (p[1] << 8));
    };
    const GamutTables t = makeGamutTables(primaries, transfer, target, mode, 1024);
    const YuvToRgb k = makeYuvToRgb(Matrix::Bt2020Ncl, Range::Limited, 10, 10);
    std::vector<uint32_t> counts(size_t(kCieBins) * kCieBins, 0);
    std::vector<uint8_t> mask(size_t(w) * size_t(h), 0);
    uint64_t outside = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const Rgb c = yuvToRgb(k, sample(0, x, y), sample(1, x, y), sample(2, x, y));
            const GamutPixel p = gamutPixel(t.k, t.linear[size_t(c.r)], t.linear[size_t(c.g)], t.linear[size_t(c.b)]);
            ++counts[size_t(p.bin)];
            outside += p.outside;
            mask[size_t(y) * size_t(w) + size_t(x)] = p.outside;
        }
    ASSERT_GT(outside, 0u);
    ASSERT_LT(outside, uint64_t(w) * uint64_t(h));

    for (int threads : {1, 2}) {
        auto engine = makeCpuEngine(threads);
        ScopeSpec spec;   // the default scopes as well: the gamut pass shares the tile's R'G'B'
        spec.cie = true;
        spec.cieMode = mode;
        spec.gamutTarget = target;
        spec.preview = PreviewFilter::Gamut;
        ScopeResults r;
        // Twice: the second frame's counts start from clean buffers too.
        for (int call = 0; call < 2; ++call) {
            ASSERT_TRUE(engine->process(v, spec, r));
            ASSERT_EQ(r.gamut.source, primaries);
            EXPECT_EQ(r.gamut.counts, counts) << "threads " << threads << ", call " << call;
            EXPECT_EQ(r.gamut.outside, outside) << "threads " << threads << ", call " << call;
        }
        ASSERT_EQ(r.preview.width, w);
        ASSERT_EQ(r.preview.height, h);
        int wrong = 0;
        for (size_t i = 0; i < mask.size(); ++i) {
            const uint8_t* got = &r.preview.pixels[4 * i];
            bool same = true;
            for (int c = 0; c < 4; ++c) {
                const uint8_t want = mask[i] ? uint8_t(kGamutWarningColour >> (8 * c)) : r.picture.pixels[4 * i + size_t(c)];
                same = same && got[c] == want;
            }
            wrong += !same;
        }
        EXPECT_EQ(wrong, 0) << "preview pixels not as the per-pixel rule, threads " << threads;
    }
}

TEST(GamutRowEngine, Pq420AgainstBt709MatchesThePixelRule) {
    expectEngineMatchesPixelRule(PixelFormat::Yuv420p10, Transfer::Pq, Primaries::Bt2020, Primaries::Bt709, CieMode::Xy);
}

TEST(GamutRowEngine, Hlg444UvAgainstP3MatchesThePixelRule) {
    expectEngineMatchesPixelRule(PixelFormat::Yuv444p10, Transfer::Hlg, Primaries::Bt2020, Primaries::P3D65, CieMode::Uv);
}

TEST(GamutRowEngine, Sdr422P3AgainstBt709MatchesThePixelRule) {
    expectEngineMatchesPixelRule(PixelFormat::Yuv422p10, Transfer::Bt709, Primaries::P3D65, Primaries::Bt709, CieMode::Xy);
}

}  // namespace
}  // namespace cs
