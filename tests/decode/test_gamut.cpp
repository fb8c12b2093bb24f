// The gamut scope on real sources: the SMPTE bars (8 and 10 bit) land at BT.709's
// primaries, secondaries and D65 white; clips the ffmpeg CLI makes with BT.2020 primaries
// and saturated colours are reported outside BT.709, and the same pictures made as BT.709
// clips are not.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "DecodeTestUtil.h"
#include "core/Engine.h"
#include "core/Gamut.h"
#include "cpu/CpuEngine.h"

namespace cs {
namespace {

using test::openOrFail;

ScopeSpec cieOnly(CieMode mode = CieMode::Xy, Primaries target = Primaries::Bt709) {
    ScopeSpec spec;
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = spec.stats = false;
    spec.displayImages = false;
    spec.cie = true;
    spec.cieMode = mode;
    spec.gamutTarget = target;
    return spec;
}

ScopeResults measureFirstFrame(const std::string& input, const ScopeSpec& spec) {
    auto source = openOrFail(input);
    ScopeResults r;
    if (!source) return r;
    VideoFrame frame;
    EXPECT_EQ(source->read(frame).status, ReadStatus::Frame);
    auto engine = makeCpuEngine(2);
    const Status st = engine->process(frame.view, spec, r);
    EXPECT_TRUE(st) << st.message();
    return r;
}

// Pixels counted within one bin (either axis) of a chromaticity.
uint64_t countsNear(const GamutResults& g, Chromaticity c) {
    const CieAxes a = cieAxes(g.mode);
    const Chromaticity at = g.mode == CieMode::Uv ? xyToUv(c) : c;
    const int u = int(std::floor(at.x * double(a.uNum) / double(a.uDen))), v = int(std::floor(at.y * double(a.vNum) / double(a.vDen)));
    uint64_t n = 0;
    for (int dv = -1; dv <= 1; ++dv)
        for (int du = -1; du <= 1; ++du)
            if (u + du >= 0 && u + du < kCieBins && v + dv >= 0 && v + dv < kCieBins)
                n += g.counts[size_t(v + dv) * kCieBins + size_t(u + du)];
    return n;
}

TEST(GamutBars, LandOnBt709Chromaticities) {
    for (const char* input : {"pattern:bars", "pattern:bars:10bit"}) {
        for (CieMode mode : {CieMode::Xy, CieMode::Uv}) {
            SCOPED_TRACE(std::string(input) + (mode == CieMode::Uv ? " u'v'" : " xy"));
            const ScopeResults r = measureFirstFrame(input, cieOnly(mode));
            ASSERT_TRUE(r.gamut.measured);
            EXPECT_EQ(r.gamut.source, Primaries::Bt709);
            EXPECT_EQ(std::accumulate(r.gamut.counts.begin(), r.gamut.counts.end(), uint64_t(0)), uint64_t(1920 * 1080));
            EXPECT_EQ(r.gamut.outside, 0u);
            // At 1920x1080 the seven 75% bars are 206 x 630 pixels each; the 100% red,
            // blue, cyan and yellow patches add to some of them.
            const uint64_t bar = 206 * 630;
            struct BarChromaticity { const char* what; Chromaticity xy; };
            const BarChromaticity expected[] = {{"red", {0.640, 0.330}},     {"green", {0.300, 0.600}},  {"blue", {0.150, 0.060}},
                                       {"yellow", {0.4193, 0.5053}}, {"cyan", {0.2246, 0.3287}}, {"magenta", {0.3209, 0.1542}}};
            for (const BarChromaticity& e : expected) EXPECT_GE(countsNear(r.gamut, e.xy), bar) << e.what;
            // White, the greys, the ramp and black (counted at the white point): D65.
            EXPECT_GE(countsNear(r.gamut, {0.3127, 0.3290}), uint64_t(1920 * 1080) / 2);
        }
    }
}

// A 10-bit clip of saturated colour bars (ffmpeg's smptehdbars as R'G'B', taken as BT.2020
// R'G'B' when `wide`: converted with the BT.2020 matrix and tagged BT.2020).
std::string makeBarsClip(const test::TempDir& dir, bool wide) {
    const std::string path = dir.file(wide ? "bars2020.mkv" : "bars709.mkv");
    const std::string matrix = wide ? "bt2020" : "bt709";
    const std::string tags = wide ? " -colorspace bt2020nc -color_primaries bt2020 -color_trc bt709"
                                  : " -colorspace bt709 -color_primaries bt709 -color_trc bt709";
    EXPECT_TRUE(test::runFfmpeg("-f lavfi -i smptehdbars=s=256x144:d=0.04 -vf scale=out_color_matrix=" + matrix +
                                ":out_range=tv,format=yuv422p10le -c:v ffv1 -color_range tv" + tags + " " + path));
    return path;
}

TEST(GamutClips, Bt2020SaturatedColoursAreOutsideBt709) {
    test::TempDir dir;
    const ScopeResults wide = measureFirstFrame(makeBarsClip(dir, true), cieOnly());
    ASSERT_TRUE(wide.gamut.measured);
    EXPECT_EQ(wide.gamut.source, Primaries::Bt2020);
    EXPECT_EQ(std::accumulate(wide.gamut.counts.begin(), wide.gamut.counts.end(), uint64_t(0)), uint64_t(256 * 144));
    // The bars' six saturated colours (75% and 100%) cover well over a third of the frame.
    EXPECT_GT(wide.gamut.outsideShare, 0.35);
    EXPECT_LT(wide.gamut.outsideShare, 0.9);
    // BT.2020's red lands at its own primary.
    EXPECT_GT(countsNear(wide.gamut, {0.708, 0.292}), 1000u);
    // Checked against BT.2020 itself: nothing is outside.
    EXPECT_EQ(measureFirstFrame(makeBarsClip(dir, true), cieOnly(CieMode::Xy, Primaries::Bt2020)).gamut.outside, 0u);

    const ScopeResults narrow = measureFirstFrame(makeBarsClip(dir, false), cieOnly());
    ASSERT_TRUE(narrow.gamut.measured);
    EXPECT_EQ(narrow.gamut.source, Primaries::Bt709);
    EXPECT_EQ(narrow.gamut.outside, 0u);
    EXPECT_DOUBLE_EQ(narrow.gamut.outsideShare, 0.0);
}

}  // namespace
}  // namespace cs
