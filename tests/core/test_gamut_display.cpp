// The gamut displays (core/GamutDisplay.h): known pixels in known bins (white at the diamonds'
// vertices, black at the centre, the primaries at their corners, a 104% excursion between the
// 100% and R 103 outlines, the 75% bars in Lightning's targets, 100% yellow's composite peak in
// the Arrowhead); the CPU engine's counts against gamutDisplayPoint over the test's own
// components, for every format; the drawer's graticule, counts and determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/Engine.h"
#include "core/GamutDisplay.h"
#include "cpu/CpuEngine.h"
#include "scope/GamutDisplay.h"
#include "tests/common/ReferenceScopes.h"

using namespace cs;
using namespace cs::testing;

namespace {

constexpr int32_t kMax10 = 1023;

GamutDisplayCoefficients coefficients(GamutDisplay d, ArrowheadLimit l = ArrowheadLimit::Ntsc) {
    return makeGamutDisplayCoefficients(d, l, 10, Range::Limited, kMax10);
}

// The display coordinates (u, v) of a bin's centre.
std::pair<double, double> centre(GamutDisplay d, int32_t bin) {
    const GamutDisplayAxes a = gamutDisplayAxes(d);
    const int col = bin % kGamutDisplayBins, row = bin / kGamutDisplayBins;
    return {a.uMin + (col + 0.5) * (a.uMax - a.uMin) / kGamutDisplayBins,
            a.vMax - (row + 0.5) * (a.vMax - a.vMin) / kGamutDisplayBins};
}

// Half a bin in each axis, the most a centre is off its point.
std::pair<double, double> halfBin(GamutDisplay d) {
    const GamutDisplayAxes a = gamutDisplayAxes(d);
    return {(a.uMax - a.uMin) / kGamutDisplayBins / 2, (a.vMax - a.vMin) / kGamutDisplayBins / 2};
}

void expectAt(GamutDisplay d, int32_t bin, double u, double v) {
    const auto [cu, cv] = centre(d, bin);
    const auto [hu, hv] = halfBin(d);
    EXPECT_NEAR(cu, u, hu + 1e-9);
    EXPECT_NEAR(cv, v, hv + 1e-9);
}

GamutDisplayPoint rgbPoint(GamutDisplay d, int32_t r, int32_t g, int32_t b, ArrowheadLimit l = ArrowheadLimit::Ntsc) {
    return gamutDisplayPoint(coefficients(d, l), 0, 512, 512, Rgb{r, g, b});
}

}  // namespace

TEST(GamutDisplay, NamesRoundTrip) {
    for (GamutDisplay d : {GamutDisplay::None, GamutDisplay::Diamond, GamutDisplay::SplitDiamond, GamutDisplay::Arrowhead,
                           GamutDisplay::Lightning})
        EXPECT_EQ(gamutDisplayFromName(gamutDisplayName(d)), d);
    for (ArrowheadLimit l : {ArrowheadLimit::Ntsc, ArrowheadLimit::Ntsc110, ArrowheadLimit::Pal})
        EXPECT_EQ(arrowheadLimitFromName(arrowheadLimitName(l)), l);
    EXPECT_FALSE(gamutDisplayFromName("spearhead"));
    EXPECT_FALSE(arrowheadLimitFromName("secam"));
}

TEST(GamutDisplay, DiamondWhiteBlackAndPrimaries) {
    const GamutDisplay d = GamutDisplay::Diamond;
    // White: the upper diamond's top vertex (0, 2) and the lower's bottom one (0, -2).
    const GamutDisplayPoint white = rgbPoint(d, kMax10, kMax10, kMax10);
    expectAt(d, white.first, 0.0, 2.0);
    expectAt(d, white.second, 0.0, -2.0);
    // Black: both at the centre.
    const GamutDisplayPoint black = rgbPoint(d, 0, 0, 0);
    expectAt(d, black.first, 0.0, 0.0);
    EXPECT_EQ(black.first, black.second);
    // Blue: the upper diamond's right corner, black in the lower; red: the lower's right
    // corner; green: the left corners of both.
    const GamutDisplayPoint blue = rgbPoint(d, 0, 0, kMax10), red = rgbPoint(d, kMax10, 0, 0), green = rgbPoint(d, 0, kMax10, 0);
    expectAt(d, blue.first, 1.0, 1.0);
    expectAt(d, blue.second, 0.0, 0.0);
    expectAt(d, red.first, 0.0, 0.0);
    expectAt(d, red.second, 1.0, -1.0);
    expectAt(d, green.first, -1.0, 1.0);
    expectAt(d, green.second, -1.0, -1.0);
}

TEST(GamutDisplay, SplitDiamondSeparatesTheHalvesAtBlack) {
    const GamutDisplay d = GamutDisplay::SplitDiamond;
    const GamutDisplayPoint black = rgbPoint(d, 0, 0, 0);
    expectAt(d, black.first, 0.0, kSplitDiamondOffset);
    expectAt(d, black.second, 0.0, -kSplitDiamondOffset);
    // A little below black (-3%) in every component: below the upper half's black, still above
    // the lower half's.
    const GamutDisplayPoint under = rgbPoint(d, -31, -31, -31);
    const double upperV = centre(d, under.first).second, lowerV = centre(d, under.second).second;
    EXPECT_LT(upperV, kSplitDiamondOffset);
    EXPECT_GT(upperV, 0.0);
    EXPECT_GT(lowerV, -kSplitDiamondOffset);
    EXPECT_LT(lowerV, 0.0);
}

TEST(GamutDisplay, ExcursionBetweenTheOutlines) {
    // B' at 104%, G' 0: outside the 0..100% diamond (|u| + |v - 1| <= 1), inside R 103's
    // -5..105% one (<= 1.1).
    const GamutDisplayPoint p = rgbPoint(GamutDisplay::Diamond, 0, 0, 1064);
    const auto [u, v] = centre(GamutDisplay::Diamond, p.first);
    const double distance = std::abs(u) + std::abs(v - 1.0);
    EXPECT_GT(distance, 1.0);
    EXPECT_LT(distance, 1.1);
}

TEST(GamutDisplay, LightningBarsLandInTheirTargets) {
    // 75% bars as 10-bit limited Y'CbCr codes (BT.709): each in its drawn target, Pb above
    // and Pr below, Y' up and down.
    const GamutDisplayCoefficients k = coefficients(GamutDisplay::Lightning);
    for (const BarTarget& t : lightningTargets(Matrix::Bt709, 0.75)) {
        SCOPED_TRACE(t.name);
        const int32_t y = int32_t(std::lround(64 + 876 * t.y)), cb = int32_t(std::lround(512 + 896 * t.pb)),
                      cr = int32_t(std::lround(512 + 896 * t.pr));
        const GamutDisplayPoint p = gamutDisplayPoint(k, y, cb, cr, Rgb{0, 0, 0});
        const auto [u0, v0] = centre(GamutDisplay::Lightning, p.first);
        const auto [u1, v1] = centre(GamutDisplay::Lightning, p.second);
        // The 75% targets are +-0.014 across and +-0.028 high (scope/GamutDisplay.cpp).
        EXPECT_NEAR(u0, t.pb, 0.014);
        EXPECT_NEAR(v0, t.y, 0.028);
        EXPECT_NEAR(u1, t.pr, 0.014);
        EXPECT_NEAR(v1, -t.y, 0.028);
    }
}

TEST(GamutDisplay, ArrowheadHundredPercentYellowPeak) {
    // 100% yellow encoded to composite peaks at 131 IRE in NTSC with setup (7.5 + 92.5 x
    // (0.886 + 0.447)), the level Tektronix's arrowhead graticule marks for 100% bars, and at
    // 933 mV in PAL (700 mV x 1.333): above the 120 IRE and 930 mV limits.
    for (ArrowheadLimit l : {ArrowheadLimit::Ntsc, ArrowheadLimit::Pal}) {
        const GamutDisplayPoint p = rgbPoint(GamutDisplay::Arrowhead, kMax10, kMax10, 0, l);
        EXPECT_EQ(p.second, -1);
        const auto [c, y] = centre(GamutDisplay::Arrowhead, p.first);
        const auto [hc, hy] = halfBin(GamutDisplay::Arrowhead);
        const double peak = c + y;
        if (l == ArrowheadLimit::Ntsc) {
            EXPECT_NEAR(peak, 131.0, 0.5 + hc + hy);
            EXPECT_NEAR(y, 7.5 + 92.5 * 0.8860, hy + 1e-6);
            EXPECT_GT(peak, arrowheadLimits(l).upper);
        } else {
            EXPECT_NEAR(peak * 7.0, 933.0, 3.0 + 7.0 * (hc + hy));
            EXPECT_GT(peak, arrowheadLimits(l).upper);
        }
    }
    // Grey has no chroma: at the left edge.
    const GamutDisplayPoint grey = rgbPoint(GamutDisplay::Arrowhead, 512, 512, 512);
    EXPECT_EQ(grey.first % kGamutDisplayBins, 0);
}

TEST(GamutDisplay, CpuEngineCountsEveryPixelOfEveryFormat) {
    // The engine's counts against gamutDisplayPoint on the test's own components (no
    // PixelAccess): each pixel's chroma sample, its R'G'B' through the converter unclamped.
    std::mt19937 rng(5);
    auto engine = makeCpuEngine(3);
    const GamutDisplay displays[3] = {GamutDisplay::SplitDiamond, GamutDisplay::Arrowhead, GamutDisplay::Lightning};
    for (int i = 0; i < int(PixelFormat::Count); ++i) {
        const PixelFormat f = PixelFormat(i);
        const auto& info = formatInfo(f);
        SCOPED_TRACE(info.name);
        ColorInfo color;
        color.matrix = Matrix::Bt709;
        color.range = info.isRgb ? Range::Full : Range::Limited;
        color.matrixTagged = color.rangeTagged = true;
        const Components c = randomComponents(f, 37, 23, rng);
        const Frame frame = buildFrame(f, c, color);
        for (GamutDisplay d : {displays[i % 3], displays[(i + 1) % 3]}) {
            ScopeSpec spec;
            spec.displayImages = false;
            spec.gamutDisplay = d;
            ScopeResults out;
            ASSERT_TRUE(engine->process(frame.view(), spec, out).ok());
            ASSERT_EQ(out.gamutDisplay.counts.size(), size_t(kGamutDisplayBins) * kGamutDisplayBins);
            const int depth = info.bitDepth;
            const YuvToRgb toRgb = makeYuvToRgb(color.matrix, color.range, depth, depth);
            const RgbToYuv toYuv = makeRgbToYuv(color.matrix, color.range, 8);
            const GamutDisplayCoefficients k = makeGamutDisplayCoefficients(d, spec.arrowheadLimit, info.isRgb ? 8 : depth,
                                                                            color.range, info.isRgb ? 255 : toRgb.outMax);
            std::vector<uint32_t> expected(out.gamutDisplay.counts.size(), 0);
            const int mid = 1 << (depth - 1);
            for (int y = 0; y < c.height; ++y)
                for (int x = 0; x < c.width; ++x) {
                    GamutDisplayPoint p;
                    if (info.isRgb) {
                        const size_t at = size_t(y) * size_t(c.width) + size_t(x);
                        const Yuv v = rgbToYuv(toYuv, c.r[at], c.g[at], c.b[at]);
                        p = gamutDisplayPoint(k, v.y, v.cb, v.cr, Rgb{c.r[at], c.g[at], c.b[at]});
                    } else {
                        const int Y = c.y[size_t(y) * size_t(c.width) + size_t(x)];
                        const bool gray = info.layout == PixelLayout::Gray;
                        const size_t at = size_t(y >> c.sh) * size_t(c.cw) + size_t(x >> c.sw);
                        const int cb = gray ? mid : c.cb[at], cr = gray ? mid : c.cr[at];
                        p = gamutDisplayPoint(k, Y, cb, cr, yuvToRgbUnclamped(toRgb, Y, cb, cr));
                    }
                    ++expected[size_t(p.first)];
                    if (p.second >= 0) ++expected[size_t(p.second)];
                }
            EXPECT_EQ(out.gamutDisplay.counts, expected) << gamutDisplayName(d);
            uint64_t total = 0;
            for (uint32_t n : out.gamutDisplay.counts) total += n;
            EXPECT_EQ(total, uint64_t(c.width) * uint64_t(c.height) * uint64_t(gamutDisplayPoints(d)));
        }
    }
}

TEST(GamutDisplay, NoneLeavesNoCountsNorImage) {
    std::mt19937 rng(3);
    const Components c = randomComponents(PixelFormat::Yuv420p, 16, 8, rng);
    const Frame frame = buildFrame(PixelFormat::Yuv420p, c, {});
    ScopeSpec spec;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine(1)->process(frame.view(), spec, out).ok());
    EXPECT_TRUE(out.gamutDisplay.counts.empty());
    EXPECT_TRUE(out.gamutDisplayImage.empty());
}

TEST(GamutDisplayImage, GraticuleCountsAndDeterminism) {
    ScopeSpec spec;
    spec.gamutDisplay = GamutDisplay::Diamond;
    spec.gamutDisplaySize = 300;
    ScopeResults r;
    r.width = 64;
    r.height = 64;
    r.gamutDisplay.mode = GamutDisplay::Diamond;
    RgbaImage grat;
    renderGamutDisplay(r, spec, grat);   // no counts: the graticule alone
    ASSERT_EQ(grat.width, 300);
    ASSERT_EQ(grat.height, 300);
    const GamutDisplayLayout l = gamutDisplayLayout(300, GamutDisplay::Diamond);
    auto px = [&](const RgbaImage& img, double u, double v) {
        const auto [x, y] = l.toPixel(u, v);
        return img.at(int(std::lround(x)), int(std::lround(y)));
    };
    // The brightest of a place's 3 x 3 pixels in channel c (lines are antialiased).
    auto near = [&](const RgbaImage& img, double u, double v, int c) {
        const auto [x, y] = l.toPixel(u, v);
        int best = 0;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) best = std::max(best, int(img.at(int(std::lround(x)) + dx, int(std::lround(y)) + dy)[c]));
        return best;
    };
    // The 100% outline's right corner of the upper diamond (1, 1) is drawn; a point well inside
    // the diamond is background.
    EXPECT_GT(near(grat, 1.0, 1.0, 0), 100);
    EXPECT_LT(px(grat, 0.3, 0.9)[1], 30);
    // R 103's dashed outline in its orange near its upper vertex (0, 2.1).
    EXPECT_GT(near(grat, 0.0, 2.1, 0), 150);
    EXPECT_LT(near(grat, 0.0, 2.1, 2), 100);

    // A count at (0.3, 0.9) lights its place green, the rest as before.
    r.gamutDisplay.counts.assign(size_t(kGamutDisplayBins) * kGamutDisplayBins, 0);
    const GamutDisplayCoefficients k = makeGamutDisplayCoefficients(GamutDisplay::Diamond, ArrowheadLimit::Ntsc, 8, Range::Full, 255);
    r.gamutDisplay.counts[size_t(gamutDisplayIndex(k, 0.3f, 0.9f))] = 500;
    RgbaImage a, b;
    renderGamutDisplay(r, spec, a);
    renderGamutDisplay(r, spec, b);
    EXPECT_EQ(a.pixels, b.pixels);
    EXPECT_GT(px(a, 0.3, 0.9)[1], 150);
    EXPECT_EQ(px(a, -0.5, -1.0)[1], px(grat, -0.5, -1.0)[1]);
}

TEST(GamutDisplay, ScopeZoomLeavesTheCountsAlone) {
    // The vectorscope's and the waveform's zoom change their own images only.
    std::mt19937 rng(11);
    const Components c = randomComponents(PixelFormat::Yuv422p10, 48, 20, rng);
    const Frame frame = buildFrame(PixelFormat::Yuv422p10, c, {});
    ScopeSpec plain;
    plain.gamutDisplay = GamutDisplay::Lightning;
    plain.gamutDisplaySize = 128;
    plain.scopeWidth = plain.scopeHeight = plain.vectorscopeSize = plain.cieSize = 128;
    ScopeSpec zoomed = plain;
    zoomed.vectorscopeZoom = 4;
    zoomed.waveformRange = {0.25, 0.75};
    auto engine = makeCpuEngine(2);
    ScopeResults a, b;
    ASSERT_TRUE(engine->process(frame.view(), plain, a).ok());
    ASSERT_TRUE(engine->process(frame.view(), zoomed, b).ok());
    EXPECT_EQ(a.gamutDisplay.counts, b.gamutDisplay.counts);
    EXPECT_EQ(a.gamutDisplayImage.pixels, b.gamutDisplayImage.pixels);
}
