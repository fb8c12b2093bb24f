// The viewer's HDR to SDR display transform (core/ToneMap.h) at values worked out
// independently: the ST 2084 EOTF and its inverse, the BT.2390 EETF (KS = 1.5 maxLum - 0.5)
// and BT.2087's BT.2020 -> BT.709 matrix computed in double outside the project.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/Hdr.h"
#include "core/ToneMap.h"

using namespace cs;

namespace {

// 8-bit display code of a 0..1 display signal, unrounded.
double code(double v) { return v * 255.0; }

TEST(ToneMap, KneeParameters) {
    const ToneMap tm = makeToneMap(Transfer::Pq, Primaries::Bt2020);
    EXPECT_NEAR(tm.sourcePeakPq, 0.751827, 1e-6);   // ST 2084 of 1000 cd/m2
    EXPECT_NEAR(tm.maxLum, 0.772370, 1e-6);         // PQ(203) / PQ(1000)
    EXPECT_NEAR(tm.kneeStart, 0.658555, 1e-6);
    // Below the knee (PQ 0.6586 * 0.7518: 87.8 cd/m2) light passes unchanged.
    EXPECT_NEAR(toneMapEetfNits(tm, 50.0), 50.0, 1e-9);
    EXPECT_NEAR(toneMapEetfNits(tm, 87.8), 87.8, 1e-9);
    EXPECT_NEAR(toneMapEetfNits(tm, 100.0), 99.361, 1e-3);
    EXPECT_NEAR(toneMapEetfNits(tm, 203.0), 159.042, 1e-3);
    EXPECT_NEAR(toneMapEetfNits(tm, 500.0), 198.856, 1e-3);
    EXPECT_NEAR(toneMapEetfNits(tm, 1000.0), 203.0, 1e-9);
    EXPECT_NEAR(toneMapEetfNits(tm, 10000.0), 203.0, 1e-9);   // clipped to the source peak first
}

TEST(ToneMap, PqGreys) {
    const ToneMap tm = makeToneMap(Transfer::Pq, Primaries::Bt2020);
    auto grey = [&](double nits) {
        const double e = nitsToPq(nits);
        return toneMapRgb(tm, e, e, e);
    };
    EXPECT_EQ(grey(0.0)[0], 0.0);
    EXPECT_EQ(grey(0.0)[1], 0.0);
    // 100 cd/m2 (PQ 0.5081): 99.36 / 203 linear, gamma 2.4: 0.7425 (code 189.35).
    for (double v : grey(100.0)) EXPECT_NEAR(code(v), 189.35, 0.05);
    EXPECT_NEAR(nitsToPq(100.0), 0.5081, 5e-5);
    // Reference white 203 cd/m2 (PQ 0.5807): 159.04 / 203, code 230.35.
    for (double v : grey(203.0)) EXPECT_NEAR(code(v), 230.35, 0.05);
    // 1000 cd/m2 and above: the SDR peak.
    for (double v : grey(1000.0)) EXPECT_NEAR(v, 1.0, 1e-6);
    for (double v : grey(10000.0)) EXPECT_NEAR(v, 1.0, 1e-6);
    // Below the knee it is a plain scale: 10 cd/m2 is (10/203)^(1/2.4), code 72.74.
    for (double v : grey(10.0)) EXPECT_NEAR(code(v), 72.74, 0.05);
}

TEST(ToneMap, MonotonicAlongAGreyRamp) {
    for (Transfer t : {Transfer::Pq, Transfer::Hlg}) {
        const ToneMap tm = makeToneMap(t, Primaries::Bt2020);
        double last = -1.0;
        for (int c = 0; c <= 1023; ++c) {
            const double e = c / 1023.0;
            const auto o = toneMapRgb(tm, e, e, e);
            EXPECT_GE(o[1], last) << "code " << c;
            EXPECT_GE(o[1], 0.0);
            EXPECT_LE(o[1], 1.0);
            last = o[1];
        }
        EXPECT_NEAR(last, 1.0, 1e-4);
    }
}

TEST(ToneMap, Bt2020PrimariesStayInRangeAndInTheirChannel) {
    const ToneMap tm = makeToneMap(Transfer::Pq, Primaries::Bt2020);
    const double e = nitsToPq(100.0);
    // 100 cd/m2 of each BT.2020 primary, through BT.2087's matrix: the other channels go
    // negative and clip to 0; the primary's own channel is 233.9 (R), 199.5 (G), 198.4 (B).
    const auto r = toneMapRgb(tm, e, 0.0, 0.0), g = toneMapRgb(tm, 0.0, e, 0.0), b = toneMapRgb(tm, 0.0, 0.0, e);
    EXPECT_NEAR(code(r[0]), 233.90, 0.3);
    EXPECT_EQ(r[1], 0.0);
    EXPECT_EQ(r[2], 0.0);
    EXPECT_NEAR(code(g[1]), 199.45, 0.3);
    EXPECT_EQ(g[0], 0.0);
    EXPECT_EQ(g[2], 0.0);
    EXPECT_NEAR(code(b[2]), 198.41, 0.3);
    EXPECT_EQ(b[0], 0.0);
    EXPECT_EQ(b[1], 0.0);
    // At the peak the primary clips to full scale in its own channel.
    const auto peak = toneMapRgb(tm, 1.0, 0.0, 0.0);
    EXPECT_NEAR(peak[0], 1.0, 1e-9);
    EXPECT_EQ(peak[1], 0.0);
    // BT.709 primaries: the matrix is the identity and a grey stays grey.
    const ToneMap same = makeToneMap(Transfer::Pq, Primaries::Bt709);
    const auto grey = toneMapRgb(same, e, e, e);
    EXPECT_NEAR(grey[0], grey[1], 1e-9);
    EXPECT_NEAR(grey[2], grey[1], 1e-9);
}

TEST(ToneMap, HlgThroughTheReferenceDisplay) {
    const ToneMap tm = makeToneMap(Transfer::Hlg, Primaries::Bt2020);
    // 75% HLG is 203.15 cd/m2 on the 1000 cd/m2 display (BT.2408): code 230.38.
    for (double v : toneMapRgb(tm, 0.75, 0.75, 0.75)) EXPECT_NEAR(code(v), 230.38, 0.05);
    // 50% is 1000 * (1/12)^1.2 = 50.70 cd/m2, below the knee: code 143.05.
    for (double v : toneMapRgb(tm, 0.5, 0.5, 0.5)) EXPECT_NEAR(code(v), 143.05, 0.05);
    for (double v : toneMapRgb(tm, 1.0, 1.0, 1.0)) EXPECT_NEAR(v, 1.0, 1e-4);
    EXPECT_EQ(toneMapRgb(tm, 0.0, 0.0, 0.0)[0], 0.0);
    // The OOTF mixes through the luminance: a 75% red alone is 1000 * (0.2627 E)^0.2 * E =
    // 155.5 cd/m2, not a grey's 203; after the EETF and the matrix it clips to full red.
    const auto red = toneMapRgb(tm, 0.75, 0.0, 0.0);
    EXPECT_NEAR(red[0], 1.0, 1e-9);
    EXPECT_EQ(red[1], 0.0);
    EXPECT_EQ(red[2], 0.0);
}

TEST(ToneMap, PixelFromNativeDepthYcbcr) {
    const ToneMap tm = makeToneMap(Transfer::Pq, Primaries::Bt2020);
    const YuvToRgb k = makeYuvToRgb(Matrix::Bt2020Ncl, Range::Limited, 10, 10);
    // 10-bit limited grey at PQ 0.5081: Y' 64 + 0.5081 * 876 = 509; R'G'B' 520 of 1023
    // (E' 0.50831, 100.24 cd/m2), code 189.51 -> 190; Y' 508 is R'G'B' 519, code 188.82 -> 189.
    const Rgb c = toneMapPixel(tm, k, 509, 512, 512);
    EXPECT_EQ(c.r, 190);
    EXPECT_EQ(c.g, 190);
    EXPECT_EQ(c.b, 190);
    EXPECT_EQ(toneMapPixel(tm, k, 508, 512, 512).g, 189);
    const Rgb black = toneMapPixel(tm, k, 64, 512, 512), white = toneMapPixel(tm, k, 940, 512, 512);
    EXPECT_EQ(black.r, 0);
    EXPECT_EQ(white.g, 255);
    // Sub-black and super-white codes clip like the R'G'B' conversion.
    EXPECT_EQ(toneMapPixel(tm, k, 4, 512, 512).g, 0);
    EXPECT_EQ(toneMapPixel(tm, k, 1019, 512, 512).g, 255);
}

TEST(ToneMap, EightBitCodes) {
    const ToneMap tm = makeToneMap(Transfer::Pq, Primaries::Bt2020);
    // Code 130 of 255 (E' 0.50980, 101.7 cd/m2): as toneMapRgb of that signal, rounded (190.56 -> 191).
    const auto o = toneMapRgb(tm, 130 / 255.0, 130 / 255.0, 130 / 255.0);
    EXPECT_EQ(toneMapCode8(tm, 130, 130, 130).g, int32_t(std::lround(o[1] * 255.0)));
    EXPECT_EQ(toneMapCode8(tm, 130, 130, 130).g, 191);
    EXPECT_EQ(toneMapCode8(tm, 0, 0, 0).r, 0);
    EXPECT_EQ(toneMapCode8(tm, 255, 255, 255).b, 255);
}

// The tables' picture mapping (the wall's tiles) gives toneMapCode8's bytes, PQ and HLG,
// BT.2020 and BT.709 sources, over a grid of codes with both ends; alpha is kept.
TEST(ToneMap, RgbaTableGivesTheCodeMapping) {
    std::vector<int> codes;
    for (int c = 0; c < 256; c += 9) codes.push_back(c);
    codes.push_back(255);
    for (Transfer t : {Transfer::Pq, Transfer::Hlg})
        for (Primaries p : {Primaries::Bt2020, Primaries::Bt709}) {
            const ToneMap tm = makeToneMap(t, p);
            const ToneMapTable table = makeToneMapTable(tm);
            std::vector<uint8_t> rgba;
            for (int r : codes)
                for (int g : codes)
                    for (int b : codes) rgba.insert(rgba.end(), {uint8_t(r), uint8_t(g), uint8_t(b), uint8_t(r ^ b)});
            toneMapRgba(table, rgba.data(), rgba.size() / 4);
            size_t i = 0, wrong = 0;
            for (int r : codes)
                for (int g : codes)
                    for (int b : codes) {
                        const Rgb want = toneMapCode8(tm, r, g, b);
                        if (rgba[i] != want.r || rgba[i + 1] != want.g || rgba[i + 2] != want.b || rgba[i + 3] != (r ^ b)) {
                            if (++wrong < 4)
                                ADD_FAILURE() << int(t) << "/" << int(p) << " " << r << "," << g << "," << b << ": " << int(rgba[i])
                                              << "," << int(rgba[i + 1]) << "," << int(rgba[i + 2]) << " want " << want.r << ","
                                              << want.g << "," << want.b;
                        }
                        i += 4;
                    }
            EXPECT_EQ(wrong, 0u);
        }
}

}  // namespace
