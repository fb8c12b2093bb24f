// The CPU engine against an independent computation: frames are built from known
// component arrays, and every count and statistic is recomputed here from those arrays
// with plain loops (no PixelAccess), for every pixel format, odd sizes, both ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/Engine.h"
#include "core/PixelAccess.h"
#include "tests/common/ReferenceScopes.h"
#include "cpu/CpuEngine.h"

using namespace cs;
using namespace cs::testing;

namespace {

void expectMatches(PixelFormat f, int w, int h, Range range, Matrix matrix, ParadeMode mode, int threads, std::mt19937& rng) {
    SCOPED_TRACE(std::string(formatInfo(f).name) + " " + std::to_string(w) + "x" + std::to_string(h) + " " +
                 std::string(rangeName(range)) + " " + std::string(matrixName(matrix)) + " threads " + std::to_string(threads));
    ColorInfo color;
    color.matrix = matrix; color.range = range; color.matrixTagged = color.rangeTagged = true;
    const Components c = randomComponents(f, w, h, rng);
    const Frame frame = buildFrame(f, c, color);
    const Reference ref = reference(f, c, color);
    ScopeSpec spec;
    spec.displayImages = false;
    spec.paradeMode = mode;
    ScopeResults out;
    auto engine = makeCpuEngine(threads);
    ASSERT_TRUE(engine->process(frame.view(), spec, out).ok());
    EXPECT_EQ(out.levels, 1 << formatInfo(f).bitDepth);
    EXPECT_EQ(out.histY, ref.histY);
    EXPECT_EQ(out.histR, ref.histR);
    EXPECT_EQ(out.histG, ref.histG);
    EXPECT_EQ(out.histB, ref.histB);
    EXPECT_EQ(out.waveform, ref.waveform);
    EXPECT_EQ(out.parade, mode == ParadeMode::Rgb ? ref.paradeRgb : ref.paradeYuv);
    EXPECT_EQ(out.vectorscope, ref.vectorscope);
    EXPECT_EQ(out.stats.y.min, ref.y.min); EXPECT_EQ(out.stats.y.max, ref.y.max);
    EXPECT_EQ(out.stats.u.min, ref.u.min); EXPECT_EQ(out.stats.u.max, ref.u.max);
    EXPECT_EQ(out.stats.v.min, ref.v.min); EXPECT_EQ(out.stats.v.max, ref.v.max);
    EXPECT_DOUBLE_EQ(out.stats.y.avg, ref.y.avg);
    EXPECT_DOUBLE_EQ(out.stats.u.avg, ref.u.avg);
    EXPECT_DOUBLE_EQ(out.stats.v.avg, ref.v.avg);
    EXPECT_DOUBLE_EQ(out.stats.outOfLegal, ref.outOfLegal);
}

uint64_t sum(const std::vector<uint32_t>& v) { uint64_t s = 0; for (auto x : v) s += x; return s; }

}  // namespace

TEST(CpuEngine, EveryFormatMatchesAnIndependentComputation) {
    std::mt19937 rng(1234);
    for (int i = 0; i < int(PixelFormat::Count); ++i) {
        const auto f = PixelFormat(i);
        for (auto [w, h] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{37, 23}, std::pair{64, 9}}) {
            expectMatches(f, w, h, Range::Limited, Matrix::Bt709, ParadeMode::Rgb, 3, rng);
            expectMatches(f, w, h, Range::Full, Matrix::Bt601, ParadeMode::Ycbcr, 2, rng);
        }
        expectMatches(f, 45, 31, Range::Limited, Matrix::Bt2020Ncl, ParadeMode::Rgb, 1, rng);
    }
}

TEST(CpuEngine, OddFullHdSizeMatches) {
    std::mt19937 rng(99);
    expectMatches(PixelFormat::Yuv420p, 1921, 1081, Range::Limited, Matrix::Bt709, ParadeMode::Rgb, 2, rng);
    expectMatches(PixelFormat::Yuv422p10, 1921, 1081, Range::Limited, Matrix::Bt709, ParadeMode::Ycbcr, 2, rng);
    expectMatches(PixelFormat::Uyvy422, 1921, 1081, Range::Full, Matrix::Bt709, ParadeMode::Rgb, 2, rng);
}

TEST(CpuEngine, CountsSumToThePixelCount) {
    std::mt19937 rng(7);
    const Components c = randomComponents(PixelFormat::P010, 333, 211, rng);
    const Frame frame = buildFrame(PixelFormat::P010, c, {});
    ScopeSpec spec;
    spec.displayImages = false;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine()->process(frame.view(), spec, out).ok());
    const uint64_t pixels = 333ull * 211ull;
    EXPECT_EQ(out.histY.size(), 1024u);
    EXPECT_EQ(sum(out.histY), pixels);
    EXPECT_EQ(sum(out.histR), pixels);
    EXPECT_EQ(sum(out.waveform), pixels);
    EXPECT_EQ(sum(out.parade), 3 * pixels);
    EXPECT_EQ(sum(out.vectorscope), pixels);
    for (int x = 0; x < 333; x += 37) {   // every column of the waveform holds `height` samples
        uint64_t column = 0;
        for (int l = 0; l < 1024; ++l) column += out.waveform[size_t(l) * 333 + size_t(x)];
        EXPECT_EQ(column, 211u);
    }
}

TEST(CpuEngine, SolidLegalFrameHasKnownStatistics) {
    Frame frame(PixelFormat::Yuv420p10, 640, 360);
    frame.fill(721, 512, 512);   // 75% white at 10 bits
    ScopeResults out;
    ScopeSpec spec;
    ASSERT_TRUE(makeCpuEngine()->process(frame.view(), spec, out).ok());
    EXPECT_EQ(out.histY[721], 640u * 360u);
    EXPECT_EQ(out.stats.y.min, 721); EXPECT_EQ(out.stats.y.max, 721); EXPECT_DOUBLE_EQ(out.stats.y.avg, 721.0);
    EXPECT_EQ(out.stats.u.min, 512);
    EXPECT_DOUBLE_EQ(out.stats.outOfLegal, 0.0);
    EXPECT_DOUBLE_EQ(out.stats.outOfGamut, 0.0);
    EXPECT_EQ(out.vectorscope[512 * 1024 + 512], 640u * 360u);
    // 75% white is R'G'B' 191 at 8 bits (0.75 * 255 rounded).
    EXPECT_EQ(out.histR[191], 640u * 360u);
    ASSERT_EQ(out.picture.width, 640);
    EXPECT_EQ(out.picture.at(10, 10)[0], 191);
    EXPECT_EQ(out.picture.at(10, 10)[3], 255);
    EXPECT_FALSE(out.waveformImage.empty());
    EXPECT_FALSE(out.vectorscopeImage.empty());
}

TEST(CpuEngine, IllegalAndOutOfGamutPixelsAreCounted) {
    Frame frame(PixelFormat::Yuv444p, 10, 10);
    frame.fill(128, 128, 128);
    frame.setPixel(0, 0, 4, 128, 128);     // below legal black
    frame.setPixel(1, 0, 250, 128, 128);   // super-white
    frame.setPixel(2, 0, 235, 16, 16);     // legal codes, impossible colour
    ScopeSpec spec;
    spec.displayImages = false;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine()->process(frame.view(), spec, out).ok());
    EXPECT_DOUBLE_EQ(out.stats.outOfLegal, 2.0 / 100.0);
    EXPECT_DOUBLE_EQ(out.stats.outOfGamut, 3.0 / 100.0);   // Y 4 and 250 are beyond -5%/105% too
    EXPECT_DOUBLE_EQ(out.stats.outOfR103, 3.0 / 100.0);    // the same three, for R'G'B'
}

// EBU R 103's luma limits (-1%..103%, core/Color.h's yuvOutsideR103) catch grey pixels whose
// R'G'B' stays inside -5%..105%: Y 13 (-1.4%) and 243 (103.7%) are out, 14 (-0.9%) and 241
// (102.7%) are in; at 8 bits and with the same levels at 10 bits (codes x4).
TEST(CpuEngine, R103LumaLimitsCountBesideTheGamut) {
    for (const auto& [format, shift] : {std::pair{PixelFormat::Yuv444p, 0}, std::pair{PixelFormat::Yuv420p10, 2}}) {
        Frame frame(format, 10, 10);
        const int c = 128 << shift;
        frame.fill(128 << shift, c, c);
        for (int x = 0; x < 2; ++x)
            for (int y = 0; y < 2; ++y) {   // whole 2x2 blocks: 4:2:0 chroma stays neutral
                frame.setPixel(x, y, 13 << shift, c, c);
                frame.setPixel(x + 2, y, 243 << shift, c, c);
                frame.setPixel(x + 4, y, 14 << shift, c, c);
                frame.setPixel(x + 6, y, 241 << shift, c, c);
            }
        ScopeSpec spec;
        spec.displayImages = false;
        ScopeResults out;
        ASSERT_TRUE(makeCpuEngine()->process(frame.view(), spec, out).ok());
        EXPECT_DOUBLE_EQ(out.stats.outOfGamut, 0.0) << shift;
        EXPECT_DOUBLE_EQ(out.stats.outOfR103, 8.0 / 100.0) << shift;
    }
}

TEST(CpuEngine, OverrideChangesTheMatrixUsed) {
    Frame frame(PixelFormat::Yuv444p, 4, 4);
    frame.fill(81, 90, 240);   // 100% red in BT.601 limited
    ScopeSpec spec;
    spec.displayImages = false;
    ScopeResults as709, as601;
    auto engine = makeCpuEngine(1);
    ASSERT_TRUE(engine->process(frame.view(), spec, as709).ok());
    spec.colorOverride.matrix = Matrix::Bt601;
    ASSERT_TRUE(engine->process(frame.view(), spec, as601).ok());
    EXPECT_EQ(as601.color.matrix, Matrix::Bt601);
    EXPECT_GE(std::max_element(as601.histR.begin(), as601.histR.end()) - as601.histR.begin(), 254);
    EXPECT_EQ(as601.histG[0], 16u);
    EXPECT_NE(as709.histG, as601.histG);   // the same codes mean another colour under BT.709
}

TEST(CpuEngine, ThreadCountDoesNotChangeResults) {
    std::mt19937 rng(5);
    const Components c = randomComponents(PixelFormat::Yuyv422, 301, 97, rng);
    const Frame frame = buildFrame(PixelFormat::Yuyv422, c, {});
    ScopeSpec spec;
    spec.preview = PreviewFilter::Zebra;
    ScopeResults one, four;
    ASSERT_TRUE(makeCpuEngine(1)->process(frame.view(), spec, one).ok());
    ASSERT_TRUE(makeCpuEngine(4)->process(frame.view(), spec, four).ok());
    EXPECT_EQ(one.waveform, four.waveform);
    EXPECT_EQ(one.vectorscope, four.vectorscope);
    EXPECT_EQ(one.picture.pixels, four.picture.pixels);
    EXPECT_EQ(one.preview.pixels, four.preview.pixels);
    EXPECT_EQ(one.waveformImage.pixels, four.waveformImage.pixels);
}

TEST(CpuEngine, RefusesInvalidFrames) {
    auto engine = makeCpuEngine(1);
    ScopeSpec spec;
    ScopeResults out;
    FrameView empty;
    EXPECT_FALSE(engine->process(empty, spec, out).ok());
    Frame frame(PixelFormat::Nv12, 16, 16);
    FrameView missingPlane = frame.view();
    missingPlane.data[1] = nullptr;
    const Status s = engine->process(missingPlane, spec, out);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("16x16"), std::string::npos) << s.message();
    FrameView absurd = frame.view();
    absurd.width = 100000;
    EXPECT_FALSE(engine->process(absurd, spec, out).ok());
    FrameView device = frame.view();
    device.onDevice = true;
    EXPECT_FALSE(engine->process(device, spec, out).ok());
    // The engine stays usable after refusals.
    EXPECT_TRUE(engine->process(frame.view(), spec, out).ok());
}
