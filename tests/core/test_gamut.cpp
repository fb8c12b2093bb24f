// core/Gamut: the primaries' matrices against published values, the linear tables, the
// per-pixel rule (chromaticity bins, outside the target) on known colours, and the CPU
// engine's counts on frames made here.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "scope/CieDiagram.h"
#include "core/Engine.h"
#include "core/Filters.h"
#include "core/Frame.h"
#include "core/Gamut.h"
#include "cpu/CpuEngine.h"

namespace cs {
namespace {

constexpr float kOne = 1.0f;

int binU(double c, CieMode m) { const CieAxes a = cieAxes(m); return int(std::floor(c * double(a.uNum) / double(a.uDen))); }
int binV(double c, CieMode m) { const CieAxes a = cieAxes(m); return int(std::floor(c * double(a.vNum) / double(a.vDen))); }

TEST(GamutMath, Bt709MatrixIsThePublishedOne) {
    // ITU-R BT.709 / sRGB: Y = 0.2126 R + 0.7152 G + 0.0722 B; X row 0.4124 0.3576 0.1805.
    const Matrix3 m = rgbToXyzMatrix(primariesInfo(Primaries::Bt709));
    EXPECT_NEAR(m.m[1][0], 0.2126, 1e-4);
    EXPECT_NEAR(m.m[1][1], 0.7152, 1e-4);
    EXPECT_NEAR(m.m[1][2], 0.0722, 1e-4);
    EXPECT_NEAR(m.m[0][0], 0.4124, 1e-4);
    EXPECT_NEAR(m.m[0][1], 0.3576, 1e-4);
    EXPECT_NEAR(m.m[0][2], 0.1805, 1e-4);
    // BT.2020: Y = 0.2627 R + 0.6780 G + 0.0593 B.
    const Matrix3 w = rgbToXyzMatrix(primariesInfo(Primaries::Bt2020));
    EXPECT_NEAR(w.m[1][0], 0.2627, 1e-4);
    EXPECT_NEAR(w.m[1][1], 0.6780, 1e-4);
    EXPECT_NEAR(w.m[1][2], 0.0593, 1e-4);
}

TEST(GamutMath, Bt2020ToBt709IsThePublishedConversion) {
    // ITU-R BT.2087's inverse (BT.2020 to BT.709 linear): first row 1.6605 -0.5876 -0.0728.
    const GamutTables t = makeGamutTables(Primaries::Bt2020, Transfer::Bt709, Primaries::Bt709, CieMode::Xy, 1024);
    EXPECT_NEAR(t.k.toTarget[0], 1.6605, 2e-4);
    EXPECT_NEAR(t.k.toTarget[1], -0.5876, 2e-4);
    EXPECT_NEAR(t.k.toTarget[2], -0.0728, 2e-4);
}

TEST(GamutMath, LinearTablesFollowTheTransfers) {
    const GamutTables sdr = makeGamutTables(Primaries::Bt709, Transfer::Bt709, Primaries::Bt709, CieMode::Xy, 256);
    ASSERT_EQ(sdr.linear.size(), 256u);
    EXPECT_EQ(sdr.linear[0], 0.0f);
    EXPECT_EQ(sdr.linear[255], 1.0f);
    EXPECT_NEAR(sdr.linear[128], std::pow(128.0 / 255.0, 2.4), 1e-6);
    // PQ: 100 cd/m2 is the signal 0.5081 (ST 2084), 1% of the 10000 cd/m2 scale.
    const GamutTables pq = makeGamutTables(Primaries::Bt2020, Transfer::Pq, Primaries::Bt709, CieMode::Xy, 1024);
    EXPECT_NEAR(pq.linear[size_t(std::lround(0.5081 * 1023))], 0.01, 0.0004);
    EXPECT_EQ(pq.linear[1023], 1.0f);
}

TEST(GamutMath, PrimariesLandInTheirBins) {
    for (CieMode mode : {CieMode::Xy, CieMode::Uv}) {
        const GamutTables t = makeGamutTables(Primaries::Bt709, Transfer::Bt709, Primaries::Bt709, mode, 256);
        struct Case { float r, g, b; Chromaticity xy; };
        const Case cases[] = {{kOne, 0, 0, {0.640, 0.330}}, {0, kOne, 0, {0.300, 0.600}}, {0, 0, kOne, {0.150, 0.060}},
                              {kOne, kOne, kOne, {0.3127, 0.3290}}, {kOne / 3, kOne / 3, kOne / 3, {0.3127, 0.3290}}};
        for (const Case& c : cases) {
            const Chromaticity at = mode == CieMode::Uv ? xyToUv(c.xy) : c.xy;
            const GamutPixel p = gamutPixel(t.k, c.r, c.g, c.b);
            EXPECT_NEAR(p.bin % kCieBins, binU(at.x, mode), 1) << c.xy.x << "," << c.xy.y;
            EXPECT_NEAR(p.bin / kCieBins, binV(at.y, mode), 1) << c.xy.x << "," << c.xy.y;
            EXPECT_FALSE(p.outside);
        }
        // Black counts at the white point.
        EXPECT_EQ(gamutPixel(t.k, 0, 0, 0).bin, gamutPixel(t.k, kOne, kOne, kOne).bin);
    }
    // u'v' of D65 and BT.709 red, as published: (0.1978, 0.4683), (0.4507, 0.5229).
    EXPECT_NEAR(xyToUv({0.3127, 0.3290}).x, 0.1978, 1e-4);
    EXPECT_NEAR(xyToUv({0.3127, 0.3290}).y, 0.4683, 1e-4);
    EXPECT_NEAR(xyToUv({0.64, 0.33}).x, 0.4507, 1e-4);
    EXPECT_NEAR(xyToUv({0.64, 0.33}).y, 0.5229, 1e-4);
}

TEST(GamutMath, OutsideTheTargetOnlyBeyondItsPrimaries) {
    const GamutTables same = makeGamutTables(Primaries::Bt709, Transfer::Bt709, Primaries::Bt709, CieMode::Xy, 1024);
    const GamutTables wide = makeGamutTables(Primaries::Bt2020, Transfer::Bt709, Primaries::Bt709, CieMode::Xy, 1024);
    const GamutTables p3 = makeGamutTables(Primaries::P3D65, Transfer::Bt709, Primaries::Bt709, CieMode::Xy, 1024);
    const GamutTables into2020 = makeGamutTables(Primaries::P3D65, Transfer::Bt709, Primaries::Bt2020, CieMode::Xy, 1024);
    std::mt19937 rng(17);
    std::uniform_int_distribution<int> code(0, 1023);
    for (int i = 0; i < 20000; ++i) {   // every colour of a gamut is inside itself, and P3 inside BT.2020
        const float r = same.linear[size_t(code(rng))], g = same.linear[size_t(code(rng))], b = same.linear[size_t(code(rng))];
        ASSERT_FALSE(gamutPixel(same.k, r, g, b).outside) << r << " " << g << " " << b;
        ASSERT_FALSE(gamutPixel(into2020.k, r, g, b).outside) << r << " " << g << " " << b;
    }
    // Greys are inside whatever the primaries.
    for (float v : {0.0f, 1e-7f, 0.001f, 0.5f, 1.0f}) EXPECT_FALSE(gamutPixel(wide.k, v, v, v).outside) << v;
    // Saturated BT.2020 and P3 primaries are outside BT.709.
    EXPECT_TRUE(gamutPixel(wide.k, kOne, 0, 0).outside);
    EXPECT_TRUE(gamutPixel(wide.k, 0, kOne, 0).outside);
    EXPECT_TRUE(gamutPixel(wide.k, 0, 0, kOne).outside);
    EXPECT_TRUE(gamutPixel(p3.k, 0, kOne, 0).outside);
    EXPECT_TRUE(gamutPixel(p3.k, kOne, 0, 0).outside);
    // Within the tolerance (1/256 of the pixel's largest component): a BT.2020 colour just
    // inside BT.709's red corner is inside; one clearly beyond it is not.
    const Matrix3 to2020 = multiply(inverse(rgbToXyzMatrix(primariesInfo(Primaries::Bt2020))),
                                    rgbToXyzMatrix(primariesInfo(Primaries::Bt709)));
    auto asLinear = [](double v) { return float(std::max(0.0, v)); };
    const float r709[3] = {asLinear(to2020.m[0][0]), asLinear(to2020.m[1][0]), asLinear(to2020.m[2][0])};
    EXPECT_FALSE(gamutPixel(wide.k, r709[0], r709[1], r709[2]).outside);
    EXPECT_TRUE(gamutPixel(wide.k, r709[0], r709[1] / 2, r709[2]).outside);
}

TEST(GamutMath, Names) {
    EXPECT_EQ(gamutTargetFromName("709"), Primaries::Bt709);
    EXPECT_EQ(gamutTargetFromName("p3"), Primaries::P3D65);
    EXPECT_EQ(gamutTargetFromName("bt2020"), Primaries::Bt2020);
    EXPECT_FALSE(gamutTargetFromName("601"));
    EXPECT_EQ(cieModeFromName("uv"), CieMode::Uv);
    EXPECT_EQ(cieModeFromName("xy"), CieMode::Xy);
    EXPECT_FALSE(cieModeFromName("lab"));
    ColorInfo c;
    c.matrix = Matrix::Bt2020Ncl;
    EXPECT_EQ(effectivePrimaries(c, 2160), Primaries::Bt2020);
    c.primaries = Primaries::P3D65;
    EXPECT_EQ(effectivePrimaries(c, 2160), Primaries::P3D65);
}

// A 4:4:4 8-bit frame of random codes (odd size: every tile edge case).
Frame noiseFrame(int w, int h, Matrix m) {
    Frame f(PixelFormat::Yuv444p, w, h, ColorInfo{m, Range::Limited, Transfer::Bt709, true, true});
    std::mt19937 rng(5);
    const FrameView v = f.view();
    for (int p = 0; p < 3; ++p)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) f.plane(p)[y * v.pitch[size_t(p)] + x] = uint8_t(rng());
    return f;
}

TEST(GamutEngine, CountsSumToPixelsAndMatchThePixelRule) {
    for (int threads : {1, 2}) {
        Frame f = noiseFrame(333, 77, Matrix::Bt2020Ncl);
        auto engine = makeCpuEngine(threads);
        ScopeSpec spec;
        spec.histogram = spec.waveform = spec.parade = spec.vectorscope = spec.stats = false;
        spec.displayImages = false;
        spec.cie = true;
        ScopeResults r;
        ASSERT_TRUE(engine->process(f.view(), spec, r));
        ASSERT_TRUE(r.gamut.measured);
        EXPECT_EQ(r.gamut.source, Primaries::Bt2020);   // by the matrix: no primaries tag
        ASSERT_EQ(r.gamut.counts.size(), size_t(kCieBins) * kCieBins);
        EXPECT_EQ(std::accumulate(r.gamut.counts.begin(), r.gamut.counts.end(), uint64_t(0)), uint64_t(333 * 77));
        // The same rule pixel by pixel, from core/Color.h's conversion.
        const GamutTables t = makeGamutTables(Primaries::Bt2020, Transfer::Bt709, Primaries::Bt709, CieMode::Xy, 256);
        const YuvToRgb k = makeYuvToRgb(Matrix::Bt2020Ncl, Range::Limited, 8, 8);
        std::vector<uint32_t> counts(size_t(kCieBins) * kCieBins, 0);
        uint64_t outside = 0;
        const FrameView v = f.view();
        for (int y = 0; y < 77; ++y)
            for (int x = 0; x < 333; ++x) {
                const Rgb c = yuvToRgb(k, v.data[0][y * v.pitch[0] + x], v.data[1][y * v.pitch[1] + x], v.data[2][y * v.pitch[2] + x]);
                const GamutPixel p = gamutPixel(t.k, t.linear[size_t(c.r)], t.linear[size_t(c.g)], t.linear[size_t(c.b)]);
                ++counts[size_t(p.bin)];
                outside += p.outside;
            }
        EXPECT_EQ(r.gamut.counts, counts);
        EXPECT_EQ(r.gamut.outside, outside);
        EXPECT_GT(outside, 0u);
        EXPECT_DOUBLE_EQ(r.gamut.outsideShare, double(outside) / (333.0 * 77.0));
    }
}

// The gamut preview: a frame half BT.2020 green, half grey. Against BT.709 exactly the green
// half is painted and the grey half is the picture; against BT.2020 nothing is painted.
TEST(GamutEngine, PreviewPaintsExactlyThePixelsOutsideTheTarget) {
    const int w = 70, h = 9;
    Frame f(PixelFormat::Yuv444p, w, h, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, Transfer::Bt709, true, true});
    const FrameView v = f.view();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const bool green = x < w / 2;   // BT.2020 green: Y' 0.678, Cb -0.360, Cr -0.460
            f.plane(0)[y * v.pitch[0] + x] = uint8_t(green ? 164 : 126);
            f.plane(1)[y * v.pitch[1] + x] = uint8_t(green ? 47 : 128);
            f.plane(2)[y * v.pitch[2] + x] = uint8_t(green ? 25 : 128);
        }
    for (Primaries target : {Primaries::Bt709, Primaries::Bt2020}) {
        auto engine = makeCpuEngine(2);
        ScopeSpec spec;
        spec.histogram = spec.waveform = spec.parade = spec.vectorscope = spec.stats = false;
        spec.preview = PreviewFilter::Gamut;
        spec.gamutTarget = target;
        ScopeResults r;
        ASSERT_TRUE(engine->process(f.view(), spec, r));
        ASSERT_EQ(r.picture.width, w);
        ASSERT_EQ(r.preview.width, w);
        ASSERT_EQ(r.preview.height, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const size_t i = (size_t(y) * size_t(w) + size_t(x)) * 4;
                const bool painted = target == Primaries::Bt709 && x < w / 2;
                for (int c = 0; c < 4; ++c) {
                    const uint8_t want = painted ? uint8_t(kGamutWarningColour >> (8 * c)) : r.picture.pixels[i + size_t(c)];
                    ASSERT_EQ(r.preview.pixels[i + size_t(c)], want) << x << "," << y << " c" << c << " target " << int(target);
                }
            }
    }
}

TEST(GamutEngine, DiagramIsDrawnAtItsSize) {
    Frame f = noiseFrame(64, 48, Matrix::Bt709);
    auto engine = makeCpuEngine(1);
    ScopeSpec spec;
    spec.cie = true;
    spec.cieSize = 300;
    ScopeResults r;
    ASSERT_TRUE(engine->process(f.view(), spec, r));
    ASSERT_EQ(r.cieImage.width, 300);
    ASSERT_EQ(r.cieImage.height, 300);
    // Some trace pixels are lit in colour (not the grey of the graticule).
    int coloured = 0;
    for (size_t i = 0; i < r.cieImage.pixels.size(); i += 4) {
        const uint8_t* p = &r.cieImage.pixels[i];
        if (std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) > 60) ++coloured;
    }
    EXPECT_GT(coloured, 100);
    // The share outside alone (cieCounts off): measured, no diagram.
    spec.cieCounts = false;
    ASSERT_TRUE(engine->process(f.view(), spec, r));
    EXPECT_TRUE(r.gamut.measured);
    EXPECT_TRUE(r.cieImage.empty());
    spec.cieCounts = true;
    spec.cie = false;
    ASSERT_TRUE(engine->process(f.view(), spec, r));
    EXPECT_TRUE(r.cieImage.empty());
    EXPECT_FALSE(r.gamut.measured);
    EXPECT_TRUE(r.gamut.counts.empty());
}

}  // namespace
}  // namespace cs
