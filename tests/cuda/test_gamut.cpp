// The CUDA engine's gamut counts against the CPU engine's: every pixel format, random and
// flat content, each target gamut, xy and u'v', the transfers and primaries the tables
// change with. Counts, pixels outside and the diagram must be identical.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>

#include "CudaTestUtil.h"
#include "EngineFixture.h"

namespace cs {
namespace {

using test::cpuEngine;
using test::cudaEngine;

ScopeSpec cieSpec(Primaries target, CieMode mode, bool images) {
    ScopeSpec s;
    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
    s.picture = false;
    s.displayImages = images;
    s.cie = true;
    s.gamutTarget = target;
    s.cieMode = mode;
    s.cieSize = 300;
    return s;
}

// Both engines on the frame, every result compared (test::expectSameResults: the CIE and the
// gamut display counts and images included).
void runBoth(const Frame& f, const ScopeSpec& spec, const std::string& where, ScopeResults& gpu, ScopeResults& cpu) {
    CudaEngine* cuda = cudaEngine();
    ASSERT_NE(cuda, nullptr);
    const Status gs = cuda->process(f.view(), spec, gpu);
    ASSERT_TRUE(gs.ok()) << where << ": " << gs.message();
    ASSERT_TRUE(cpuEngine().process(f.view(), spec, cpu).ok()) << where;
    test::expectSameResults(gpu, cpu, where);
}

void compare(const Frame& f, const ScopeSpec& spec, const std::string& where) {
    ScopeResults gpu, cpu;
    runBoth(f, spec, where, gpu, cpu);
    if (::testing::Test::HasFatalFailure()) return;
    ASSERT_TRUE(gpu.gamut.measured) << where;
    EXPECT_EQ(std::accumulate(gpu.gamut.counts.begin(), gpu.gamut.counts.end(), uint64_t(0)),
              uint64_t(f.width()) * uint64_t(f.height()))
        << where;
    EXPECT_DOUBLE_EQ(gpu.gamut.outsideShare, cpu.gamut.outsideShare) << where;
}

TEST(CudaGamut, EveryFormatSameAsCpu) {
    std::mt19937 rng(17);
    const std::pair<int, int> sizes[] = {{1, 1}, {37, 23}, {1920, 1080}};
    for (PixelFormat format : test::allFormats())
        for (auto [w, h] : sizes)
            for (int content = 0; content < 2; ++content) {
                Frame f(format, w, h, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, Transfer::Bt709, true, true, Primaries::Bt2020});
                if (content == 0) test::fillRandom(f, rng); else test::fillRuns(f, rng);
                const std::string where = std::string(formatInfo(format).name) + " " + std::to_string(w) + "x" +
                                          std::to_string(h) + (content ? " runs" : " random");
                compare(f, cieSpec(Primaries::Bt709, CieMode::Xy, w < 100), where + " xy / bt709");
            }
}

TEST(CudaGamut, TargetsModesTransfersAndPrimaries) {
    std::mt19937 rng(3);
    for (PixelFormat format : {PixelFormat::Yuv420p, PixelFormat::Yuv420p10, PixelFormat::P010})
        for (Transfer t : {Transfer::Bt709, Transfer::Pq, Transfer::Hlg, Transfer::Srgb})
            for (Primaries source : {Primaries::Bt709, Primaries::P3D65, Primaries::Bt2020, Primaries::Unspecified})
                for (Primaries target : {Primaries::Bt709, Primaries::P3D65, Primaries::Bt2020})
                    for (CieMode mode : {CieMode::Xy, CieMode::Uv}) {
                        Frame f(format, 258, 131, ColorInfo{Matrix::Bt709, Range::Limited, t, true, true, source});
                        test::fillRandom(f, rng);
                        compare(f, cieSpec(target, mode, false),
                                std::string(formatInfo(format).name) + " " + std::string(transferName(t)) + " " +
                                    std::string(primariesLabel(source)) + " -> " + std::string(gamutTargetName(target)) +
                                    " " + std::string(cieModeName(mode)));
                    }
}

// With cieCounts off (the window's gamut check without its CIE panel) the share outside comes
// back alone: the CPU engine's outside, no counts copied back, no diagram drawn.
TEST(CudaGamut, ShareOutsideWithoutTheCounts) {
    CudaEngine* cuda = cudaEngine();
    ASSERT_NE(cuda, nullptr);
    std::mt19937 rng(5);
    Frame f(PixelFormat::Yuv420p10, 640, 360, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, Transfer::Pq, true, true, Primaries::Bt2020});
    test::fillRandom(f, rng);
    ScopeSpec spec = cieSpec(Primaries::Bt709, CieMode::Xy, true);
    ScopeResults cpu, gpu;
    ASSERT_TRUE(cpuEngine().process(f.view(), spec, cpu).ok());
    spec.cieCounts = false;
    for (int run = 0; run < 2; ++run) {   // the second after a run with counts: none left over
        const Status s = cuda->process(f.view(), spec, gpu);
        ASSERT_TRUE(s.ok()) << s.message();
        ASSERT_TRUE(gpu.gamut.measured);
        EXPECT_EQ(gpu.gamut.outside, cpu.gamut.outside);
        EXPECT_GT(gpu.gamut.outside, 0u);
        EXPECT_DOUBLE_EQ(gpu.gamut.outsideShare, cpu.gamut.outsideShare);
        EXPECT_TRUE(gpu.gamut.counts.empty());
        EXPECT_TRUE(gpu.cieImage.empty());
        spec.cieCounts = true;
        ASSERT_TRUE(cuda->process(f.view(), spec, gpu).ok());
        EXPECT_EQ(gpu.gamut.counts, cpu.gamut.counts);
        EXPECT_FALSE(gpu.cieImage.empty());
        spec.cieCounts = false;
    }
}

}  // namespace
}  // namespace cs

// The gamut displays (core/GamutDisplay.h): the CUDA engine's counts and image against the CPU
// engine's, byte for byte, for every mode, on SMPTE-style bars (100% and 75%, built from their
// R'G'B' through the converter) and on a random 10-bit 1080p frame (every excursion the
// converter can produce), and on every format.
namespace cs {
namespace {

using test::cpuEngine;
using test::cudaEngine;

ScopeSpec displaySpec(GamutDisplay d, ArrowheadLimit limit = ArrowheadLimit::Ntsc) {
    ScopeSpec s;
    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
    s.picture = false;
    s.gamutDisplay = d;
    s.arrowheadLimit = limit;
    s.gamutDisplaySize = 320;
    return s;
}

// White, yellow, cyan, green, magenta, red, blue, black bands: 100% above, 75% below, as
// 10-bit limited BT.709 Y'CbCr 4:2:2.
Frame barsFrame(int w, int h) {
    Frame f(PixelFormat::Yuv422p10, w, h, ColorInfo{Matrix::Bt709, Range::Limited, Transfer::Bt709, true, true, Primaries::Bt709});
    const RgbToYuv k = makeRgbToYuv(Matrix::Bt709, Range::Limited, 10);
    static constexpr int bars[8][3] = {{1, 1, 1}, {1, 1, 0}, {0, 1, 1}, {0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {0, 0, 1}, {0, 0, 0}};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int bar = x * 8 / w, level = y < h / 2 ? 255 : 191;
            const Yuv c = rgbToYuv(k, bars[bar][0] * level, bars[bar][1] * level, bars[bar][2] * level);
            f.setPixel(x, y, c.y, c.cb, c.cr);
        }
    return f;
}

void compareDisplay(const Frame& f, const ScopeSpec& spec, const std::string& where) {
    ScopeResults gpu, cpu;
    runBoth(f, spec, where, gpu, cpu);
    if (::testing::Test::HasFatalFailure()) return;
    EXPECT_EQ(std::accumulate(gpu.gamutDisplay.counts.begin(), gpu.gamutDisplay.counts.end(), uint64_t(0)),
              uint64_t(f.width()) * uint64_t(f.height()) * uint64_t(gamutDisplayPoints(spec.gamutDisplay)))
        << where;
    EXPECT_FALSE(gpu.gamutDisplayImage.empty()) << where;   // drawn (equal to the CPU's: expectSameResults)
}

}  // namespace

TEST(CudaGamutDisplay, BarsAndRandomTenBitSameAsCpu) {
    std::mt19937 rng(29);
    const Frame bars = barsFrame(640, 360);
    Frame random(PixelFormat::Yuv420p10, 1920, 1080, ColorInfo{Matrix::Bt709, Range::Limited, Transfer::Bt709, true, true, Primaries::Bt709});
    test::fillRandom(random, rng);
    for (GamutDisplay d : {GamutDisplay::Diamond, GamutDisplay::SplitDiamond, GamutDisplay::Arrowhead, GamutDisplay::Lightning}) {
        compareDisplay(bars, displaySpec(d), std::string(gamutDisplayName(d)) + " bars");
        compareDisplay(random, displaySpec(d), std::string(gamutDisplayName(d)) + " random 10-bit");
    }
}

TEST(CudaGamutDisplay, EveryFormatSameAsCpu) {
    std::mt19937 rng(31);
    const GamutDisplay modes[] = {GamutDisplay::Diamond, GamutDisplay::Arrowhead, GamutDisplay::Lightning};
    int i = 0;
    for (PixelFormat format : test::allFormats())
        for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 23}}) {
            Frame f(format, w, h, ColorInfo{Matrix::Bt601, Range::Full, Transfer::Bt709, true, true, Primaries::Bt709});
            test::fillRandom(f, rng);
            const GamutDisplay d = modes[i++ % 3];
            compareDisplay(f, displaySpec(d, ArrowheadLimit::Pal),
                           std::string(formatInfo(format).name) + " " + std::string(gamutDisplayName(d)));
        }
}

}  // namespace cs
