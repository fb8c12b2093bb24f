// The CPU engine against an independent computation: frames are built from known
// component arrays, and every count and statistic is recomputed here from those arrays
// with plain loops (no PixelAccess), for every pixel format, odd sizes, both ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/Engine.h"
#include "core/PixelAccess.h"

using namespace cs;

namespace {

struct Components {
    int width, height, cw, ch, sw, sh;
    std::vector<int> y, cb, cr;   // Y'CbCr sources: luma per pixel, chroma per chroma sample
    std::vector<int> r, g, b;     // RGB sources: per pixel
};

Components randomComponents(PixelFormat f, int w, int h, std::mt19937& rng, bool legalOnly = false) {
    const auto& info = formatInfo(f);
    Components c{w, h, chromaWidth(f, w), chromaHeight(f, h), info.log2ChromaW, info.log2ChromaH, {}, {}, {}, {}, {}, {}};
    const int maxCode = (1 << info.bitDepth) - 1;
    const int lo = legalOnly ? (16 << (info.bitDepth - 8)) : 0, hi = legalOnly ? (235 << (info.bitDepth - 8)) : maxCode;
    std::uniform_int_distribution<int> code(lo, hi), byte(0, 255);
    if (info.isRgb) {
        for (int i = 0; i < w * h; ++i) { c.r.push_back(byte(rng)); c.g.push_back(byte(rng)); c.b.push_back(byte(rng)); }
        return c;
    }
    for (int i = 0; i < w * h; ++i) c.y.push_back(code(rng));
    const int mid = 1 << (info.bitDepth - 1);
    for (int i = 0; i < c.cw * c.ch; ++i) {
        c.cb.push_back(info.layout == PixelLayout::Gray ? mid : code(rng));
        c.cr.push_back(info.layout == PixelLayout::Gray ? mid : code(rng));
    }
    return c;
}

Frame buildFrame(PixelFormat f, const Components& c, ColorInfo color) {
    Frame frame(f, c.width, c.height, color);
    for (int y = 0; y < c.height; ++y)
        for (int x = 0; x < c.width; ++x) {
            const size_t i = size_t(y) * size_t(c.width) + size_t(x);
            if (formatInfo(f).isRgb) { frame.setPixel(x, y, c.r[i], c.g[i], c.b[i]); continue; }
            const size_t ci = size_t(y >> c.sh) * size_t(c.cw) + size_t(x >> c.sw);
            frame.setPixel(x, y, c.y[i], c.cb[ci], c.cr[ci]);
        }
    return frame;
}

struct Reference {
    std::vector<uint32_t> histY, histR, histG, histB, waveform, paradeRgb, paradeYuv, vectorscope;
    ChannelStats y, u, v;
    double outOfLegal = 0;
};

Reference reference(PixelFormat f, const Components& c, ColorInfo color) {
    const auto& info = formatInfo(f);
    const int d = info.bitDepth, L = 1 << d, W = c.width, H = c.height;
    Reference ref;
    ref.histY.assign(size_t(L), 0);
    ref.histR.assign(256, 0); ref.histG.assign(256, 0); ref.histB.assign(256, 0);
    ref.waveform.assign(size_t(L * W), 0);
    ref.paradeRgb.assign(size_t(3 * L * W), 0);
    ref.paradeYuv.assign(size_t(3 * L * W), 0);
    ref.vectorscope.assign(size_t(L * L), 0);
    const auto toRgb8 = makeYuvToRgb(color.matrix, color.range, d, 8);
    const auto toRgbN = makeYuvToRgb(color.matrix, color.range, d, d);
    const auto toYuv = makeRgbToYuv(color.matrix, color.range, 8);
    long long sumY = 0, sumU = 0, sumV = 0, nC = 0, illegal = 0;
    ref.y = {1 << 30, -1, 0}; ref.u = ref.y; ref.v = ref.y;
    const int yLo = 16 << (d - 8), yHi = 235 << (d - 8), cLo = 16 << (d - 8), cHi = 240 << (d - 8);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const size_t i = size_t(y) * size_t(W) + size_t(x);
            int Y, Cb, Cr, R8, G8, B8, Rn, Gn, Bn;
            if (info.isRgb) {
                R8 = Rn = c.r[i]; G8 = Gn = c.g[i]; B8 = Bn = c.b[i];
                const Yuv v = rgbToYuv(toYuv, R8, G8, B8);
                Y = v.y; Cb = v.cb; Cr = v.cr;
            } else {
                const size_t ci = size_t(y >> c.sh) * size_t(c.cw) + size_t(x >> c.sw);
                Y = c.y[i]; Cb = c.cb[ci]; Cr = c.cr[ci];
                const Rgb p8 = yuvToRgb(toRgb8, Y, Cb, Cr), pn = yuvToRgb(toRgbN, Y, Cb, Cr);
                R8 = p8.r; G8 = p8.g; B8 = p8.b; Rn = pn.r; Gn = pn.g; Bn = pn.b;
            }
            ++ref.histY[size_t(Y)]; ++ref.histR[size_t(R8)]; ++ref.histG[size_t(G8)]; ++ref.histB[size_t(B8)];
            ++ref.waveform[size_t(Y * W + x)];
            ++ref.paradeRgb[size_t((0 * L + Rn) * W + x)]; ++ref.paradeRgb[size_t((1 * L + Gn) * W + x)];
            ++ref.paradeRgb[size_t((2 * L + Bn) * W + x)];
            ++ref.paradeYuv[size_t((0 * L + Y) * W + x)]; ++ref.paradeYuv[size_t((1 * L + Cb) * W + x)];
            ++ref.paradeYuv[size_t((2 * L + Cr) * W + x)];
            ++ref.vectorscope[size_t(Cr * L + Cb)];
            ref.y.min = std::min(ref.y.min, Y); ref.y.max = std::max(ref.y.max, Y); sumY += Y;
            if (Y < yLo || Y > yHi || Cb < cLo || Cb > cHi || Cr < cLo || Cr > cHi) ++illegal;
            if (info.isRgb) {
                ref.u.min = std::min(ref.u.min, Cb); ref.u.max = std::max(ref.u.max, Cb); sumU += Cb;
                ref.v.min = std::min(ref.v.min, Cr); ref.v.max = std::max(ref.v.max, Cr); sumV += Cr; ++nC;
            }
        }
    if (!info.isRgb)   // chroma statistics over the chroma plane at its own resolution
        for (size_t ci = 0; ci < c.cb.size(); ++ci) {
            ref.u.min = std::min(ref.u.min, c.cb[ci]); ref.u.max = std::max(ref.u.max, c.cb[ci]); sumU += c.cb[ci];
            ref.v.min = std::min(ref.v.min, c.cr[ci]); ref.v.max = std::max(ref.v.max, c.cr[ci]); sumV += c.cr[ci]; ++nC;
        }
    ref.y.avg = double(sumY) / double(W * H);
    ref.u.avg = double(sumU) / double(nC);
    ref.v.avg = double(sumV) / double(nC);
    ref.outOfLegal = double(illegal) / double(W * H);
    return ref;
}

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
    EXPECT_GE(out.stats.outOfGamut, 3.0 / 100.0 - 1e-12);   // clipped highs/lows also leave the gamut
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
