// HDR light levels (core/Hdr.h): the transfer functions at their published values (ST 2084,
// BT.2100 HLG, BT.2408), and the CPU engine's per-frame MaxCLL / FALL contributions
// against an independent computation in double precision from the frame's code values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/Engine.h"
#include "core/Frame.h"
#include "core/Hdr.h"
#include "cpu/CpuEngine.h"

using namespace cs;

namespace {

TEST(Hdr, PqKnownValues) {
    // SMPTE ST 2084 (and BT.2408's table): 100 cd/m2 at 0.5081, 1000 at 0.7518, 10000 at 1.
    EXPECT_NEAR(hdrNitsToSignal(Transfer::Pq, 100.0), 0.5081, 5e-5);
    EXPECT_NEAR(hdrNitsToSignal(Transfer::Pq, 1000.0), 0.7518, 5e-5);
    EXPECT_NEAR(hdrNitsToSignal(Transfer::Pq, 203.0), 0.5807, 5e-5);   // BT.2408: 58%
    EXPECT_NEAR(hdrNitsToSignal(Transfer::Pq, 10000.0), 1.0, 1e-12);
    EXPECT_NEAR(hdrSignalToNits(Transfer::Pq, 1.0), 10000.0, 1e-9);
    EXPECT_EQ(hdrSignalToNits(Transfer::Pq, 0.0), 0.0);
    EXPECT_NEAR(hdrSignalToNits(Transfer::Pq, 0.5081), 100.0, 0.05);
    EXPECT_NEAR(hdrSignalToNits(Transfer::Pq, 0.7518), 1000.0, 0.5);
    for (double nits : {0.1, 1.0, 10.0, 100.0, 203.0, 1000.0, 4000.0})
        EXPECT_NEAR(hdrSignalToNits(Transfer::Pq, hdrNitsToSignal(Transfer::Pq, nits)), nits, nits * 1e-9);
}

TEST(Hdr, HlgKnownValues) {
    // BT.2100: signal 0.5 is scene light 1/12; signal 1 is 1 (1000 cd/m2 on the reference display).
    EXPECT_NEAR(hlgToRelative(0.5), 1.0 / 12.0, 1e-12);
    EXPECT_NEAR(hlgSceneToSignal(1.0 / 12.0), 0.5, 1e-12);
    EXPECT_NEAR(hlgSceneToSignal(1.0), 1.0, 1e-6);
    EXPECT_NEAR(hdrSignalToNits(Transfer::Hlg, 1.0), 1000.0, 1e-3);
    // BT.2408: HLG reference white at 75% signal is 203 cd/m2 on a 1000 cd/m2 display (gamma 1.2).
    EXPECT_NEAR(hdrSignalToNits(Transfer::Hlg, 0.75), 203.0, 1.0);
    // Signal 0.5 (scene 1/12) on that display: 1000 * (1/12)^1.2.
    EXPECT_NEAR(hdrSignalToNits(Transfer::Hlg, 0.5), 1000.0 * std::pow(1.0 / 12.0, 1.2), 1e-9);
    for (double nits : {1.0, 10.0, 100.0, 203.0, 1000.0})
        EXPECT_NEAR(hdrSignalToNits(Transfer::Hlg, hdrNitsToSignal(Transfer::Hlg, nits)), nits, nits * 1e-6);
}

TEST(Hdr, TransferNamesAndOverride) {
    EXPECT_EQ(transferFromName("pq"), Transfer::Pq);
    EXPECT_EQ(transferFromName("smpte2084"), Transfer::Pq);
    EXPECT_EQ(transferFromName("hlg"), Transfer::Hlg);
    EXPECT_EQ(transferFromName("arib-std-b67"), Transfer::Hlg);
    EXPECT_EQ(transferFromName("sdr"), Transfer::Bt709);
    EXPECT_FALSE(transferFromName("gamma22"));
    ColorInfo tags;
    tags.transfer = Transfer::Pq;
    EXPECT_EQ(applyOverride(tags, ColorOverride{}).transfer, Transfer::Pq);
    ColorOverride o;
    o.transfer = Transfer::Hlg;
    EXPECT_EQ(applyOverride(tags, o).transfer, Transfer::Hlg);
}

// Independent reference: R'G'B' of each pixel in double from its Y'CbCr codes (BT.2020 NCL),
// max component, display light.
struct Expected { double maxNits = 0, avgNits = 0, tolerance = 0; std::array<double, 3> above{}; };

double channelSignal(double y, double cb, double cr, int c, Range range, int depth) {
    const double kr = 0.2627, kb = 0.0593, kg = 1 - kr - kb;
    const double s = double(1 << (depth - 8)), top = double((1 << depth) - 1);
    const double yy = range == Range::Limited ? (y - 16 * s) / (219 * s) : y / top;
    const double u = range == Range::Limited ? (cb - 128 * s) / (224 * s) : (cb - 128 * s) / top;
    const double v = range == Range::Limited ? (cr - 128 * s) / (224 * s) : (cr - 128 * s) / top;
    const double r = yy + 2 * (1 - kr) * v, b = yy + 2 * (1 - kb) * u, g = (yy - kr * r - kb * b) / kg;
    return std::clamp(c == 0 ? r : c == 1 ? g : b, 0.0, 1.0);
}

Expected expectedLevels(const Frame& f, Transfer t, Range range) {
    const int depth = formatInfo(f.format()).bitDepth, w = f.width(), h = f.height();
    const double step = 1.0 / double((1 << depth) - 1);   // the engines keep R'G'B' on the native code grid
    Expected e;
    double sum = 0, tolSum = 0;
    std::array<int, 3> above{};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const auto* py = reinterpret_cast<const uint16_t*>(f.plane(0) + y * f.pitch(0)) + x;
            const auto* pu = reinterpret_cast<const uint16_t*>(f.plane(1) + (y / 2) * f.pitch(1)) + x / 2;
            const auto* pv = reinterpret_cast<const uint16_t*>(f.plane(2) + (y / 2) * f.pitch(2)) + x / 2;
            double m = 0;
            for (int c = 0; c < 3; ++c) m = std::max(m, channelSignal(*py, *pu, *pv, c, range, depth));
            const double nits = hdrSignalToNits(t, m);
            const double tol = hdrSignalToNits(t, m + 0.6 * step) - hdrSignalToNits(t, std::max(m - 0.6 * step, 0.0));
            if (nits > e.maxNits) { e.maxNits = nits; e.tolerance = tol; }
            sum += nits;
            tolSum += tol;
            for (size_t i = 0; i < 3; ++i) above[i] += nits > kHdrShareNits[i];
        }
    const double n = double(w) * double(h);
    e.avgNits = sum / n;
    e.tolerance = std::max(e.tolerance, tolSum / n);
    for (size_t i = 0; i < 3; ++i) e.above[i] = above[i] / n;
    return e;
}

Frame pqFrame(int w, int h, Range range, std::mt19937& rng) {
    ColorInfo color{Matrix::Bt2020Ncl, range, Transfer::Pq, true, true};
    Frame f(PixelFormat::Yuv420p10, w, h, color);
    // Mostly greys on the PQ ladder (exact), some random colours.
    const int greys[] = {64, 128, 300, 509, 577, 600, 730, 800, 850, 940};
    std::uniform_int_distribution<int> code(64, 940), chroma(64, 960), pick(0, 9);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if ((x / 2 + y / 2) % 3 == 0) f.setPixel(x, y, code(rng), chroma(rng), chroma(rng));
            else f.setPixel(x, y, greys[pick(rng)], 512, 512);
        }
    return f;
}

TEST(Hdr, CpuEngineAgainstReference) {
    std::mt19937 rng(17);
    for (Range range : {Range::Limited, Range::Full})
        for (Transfer t : {Transfer::Pq, Transfer::Hlg}) {
            SCOPED_TRACE(std::string(rangeName(range)) + " " + std::string(transferName(t)));
            Frame f = pqFrame(66, 38, range, rng);
            f.color().transfer = t;
            ScopeSpec spec;
            spec.displayImages = false;
            ScopeResults out;
            ASSERT_TRUE(makeCpuEngine(1)->process(f.view(), spec, out).ok());
            ASSERT_TRUE(out.hdr.measured);
            EXPECT_EQ(out.hdr.transfer, t);
            uint64_t total = 0;
            for (uint32_t n : out.hdr.maxCodes) total += n;
            EXPECT_EQ(total, uint64_t(66 * 38));
            const Expected e = expectedLevels(f, t, range);
            EXPECT_NEAR(out.hdr.maxNits, e.maxNits, e.tolerance);
            EXPECT_NEAR(out.hdr.avgNits, e.avgNits, e.tolerance);
            EXPECT_GT(out.hdr.avgNits, 0.0);
            // Shares: within a few pixels that sit within a code of a threshold.
            for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(out.hdr.above[i], e.above[i], 0.02) << kHdrShareNits[i];
            // Several threads (tiles merged) give the very same numbers.
            ScopeResults four;
            ASSERT_TRUE(makeCpuEngine(4)->process(f.view(), spec, four).ok());
            EXPECT_EQ(four.hdr.maxCodes, out.hdr.maxCodes);
            EXPECT_EQ(four.hdr.avgNits, out.hdr.avgNits);
        }
}

TEST(Hdr, KnownGreyLevels) {
    // A limited-range 10-bit PQ frame of two greys: peak white (940: 10000 cd/m2) on one
    // pixel, the rest at code 509 (E' = 445/876, 99.97 cd/m2 by ST 2084).
    ColorInfo color{Matrix::Bt2020Ncl, Range::Limited, Transfer::Pq, true, true};
    Frame f(PixelFormat::Yuv420p10, 16, 8, color);
    f.fill(509, 512, 512);
    f.setPixel(3, 5, 940, 512, 512);
    ScopeSpec spec;
    spec.displayImages = false;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine(2)->process(f.view(), spec, out).ok());
    ASSERT_TRUE(out.hdr.measured);
    EXPECT_NEAR(out.hdr.maxNits, 10000.0, 1e-6);
    // 509 -> the nearest native full-range code: round(445 * 1023 / 876) = 520.
    EXPECT_EQ(out.hdr.maxCodes[520], 127u);
    EXPECT_EQ(out.hdr.maxCodes[1023], 1u);
    const double grey = pqToNits(520.0 / 1023.0);
    EXPECT_NEAR(grey, 100.0, 0.3);
    EXPECT_NEAR(out.hdr.avgNits, (127 * grey + 10000.0) / 128.0, 1e-9);
    EXPECT_DOUBLE_EQ(out.hdr.above[0], 1.0 / 128.0);
    EXPECT_DOUBLE_EQ(out.hdr.above[1], 1.0 / 128.0);
    EXPECT_DOUBLE_EQ(out.hdr.above[2], 1.0 / 128.0);
}

TEST(Hdr, SdrFramesAreNotMeasuredUnlessOverridden) {
    Frame f(PixelFormat::Yuv420p10, 8, 8, ColorInfo{Matrix::Bt709, Range::Limited, Transfer::Bt709, true, true});
    f.fill(940, 512, 512);
    ScopeSpec spec;
    spec.displayImages = false;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine(1)->process(f.view(), spec, out).ok());
    EXPECT_FALSE(out.hdr.measured);
    EXPECT_TRUE(out.hdr.maxCodes.empty());
    spec.colorOverride.transfer = Transfer::Hlg;
    ASSERT_TRUE(makeCpuEngine(1)->process(f.view(), spec, out).ok());
    ASSERT_TRUE(out.hdr.measured);
    EXPECT_NEAR(out.hdr.maxNits, 1000.0, 1e-3);
    spec.hdr = false;
    ASSERT_TRUE(makeCpuEngine(1)->process(f.view(), spec, out).ok());
    EXPECT_FALSE(out.hdr.measured);
}

TEST(Hdr, EightBitAndRgbSources) {
    // 8-bit Y'CbCr: the 8-bit R'G'B' is the native one; RGB: max of the stored components.
    Frame yuv(PixelFormat::Yuv420p, 4, 4, ColorInfo{Matrix::Bt2020Ncl, Range::Full, Transfer::Pq, true, true});
    yuv.fill(255, 128, 128);
    Frame rgb(PixelFormat::Rgb24, 4, 4, ColorInfo{Matrix::Bt2020Ncl, Range::Full, Transfer::Pq, true, true});
    rgb.fill(10, 200, 30);
    ScopeSpec spec;
    spec.displayImages = false;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine(1)->process(yuv.view(), spec, out).ok());
    EXPECT_EQ(out.hdr.maxCodes.size(), 256u);
    EXPECT_EQ(out.hdr.maxCodes[255], 16u);
    ASSERT_TRUE(makeCpuEngine(1)->process(rgb.view(), spec, out).ok());
    EXPECT_EQ(out.hdr.maxCodes[200], 16u);
    EXPECT_NEAR(out.hdr.maxNits, pqToNits(200.0 / 255.0), 1e-9);
}

}  // namespace
