// Colour math: the fixed-point conversions against matrix values computed by hand in
// double precision, for every matrix, range and depth.
#include <gtest/gtest.h>

#include <cmath>

#include "core/Color.h"
#include "core/PixelFormat.h"

using namespace cs;

namespace {
struct Weights { double kr, kb; };
Weights weightsFor(Matrix m) {
    switch (m) {
        case Matrix::Bt601: return {0.299, 0.114};
        case Matrix::Bt709: return {0.2126, 0.0722};
        case Matrix::Bt2020Ncl: return {0.2627, 0.0593};
    }
    return {};
}
// The textbook equations, written independently of Color.cpp.
void referenceYuvToRgb(Matrix m, Range r, int inDepth, int outDepth, int Y, int Cb, int Cr, double rgb[3]) {
    const auto w = weightsFor(m);
    const double kg = 1 - w.kr - w.kb, s = std::pow(2.0, inDepth - 8), full = std::pow(2.0, inDepth) - 1;
    const double y = r == Range::Limited ? (Y - 16 * s) / (219 * s) : Y / full;
    const double pb = r == Range::Limited ? (Cb - 128 * s) / (224 * s) : (Cb - 128 * s) / full;
    const double pr = r == Range::Limited ? (Cr - 128 * s) / (224 * s) : (Cr - 128 * s) / full;
    const double R = y + 2 * (1 - w.kr) * pr, B = y + 2 * (1 - w.kb) * pb, G = (y - w.kr * R - w.kb * B) / kg;
    const double outMax = std::pow(2.0, outDepth) - 1;
    rgb[0] = std::clamp(R, 0.0, 1.0) * outMax;
    rgb[1] = std::clamp(G, 0.0, 1.0) * outMax;
    rgb[2] = std::clamp(B, 0.0, 1.0) * outMax;
}
}  // namespace

TEST(Color, YuvToRgbWithinOneCodeOfHandComputedMatrix) {
    for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl})
        for (Range r : {Range::Limited, Range::Full})
            for (int inDepth : {8, 10})
                for (int outDepth : {8, 10}) {
                    const auto k = makeYuvToRgb(m, r, inDepth, outDepth);
                    const int maxCode = (1 << inDepth) - 1, step = inDepth == 8 ? 3 : 13;
                    int worst = 0;
                    for (int y = 0; y <= maxCode; y += step)
                        for (int cb = 0; cb <= maxCode; cb += step)
                            for (int cr = 0; cr <= maxCode; cr += step) {
                                double ref[3];
                                referenceYuvToRgb(m, r, inDepth, outDepth, y, cb, cr, ref);
                                const Rgb got = yuvToRgb(k, y, cb, cr);
                                worst = std::max({worst, int(std::ceil(std::abs(got.r - ref[0]) - 0.5)),
                                                  int(std::ceil(std::abs(got.g - ref[1]) - 0.5)),
                                                  int(std::ceil(std::abs(got.b - ref[2]) - 0.5))});
                            }
                    EXPECT_LE(worst, 1) << matrixName(m) << " " << rangeName(r) << " " << inDepth << "->" << outDepth;
                }
}

TEST(Color, Bt709BarsConvertToTheirRgb) {
    // 75% bars, BT.709 limited 8-bit: white 180/128/128 is R=G=B=191 (0.75 * 255).
    const auto k = makeYuvToRgb(Matrix::Bt709, Range::Limited, 8, 8);
    const Rgb white = yuvToRgb(k, 180, 128, 128);
    EXPECT_EQ(white.r, 191); EXPECT_EQ(white.g, 191); EXPECT_EQ(white.b, 191);
    const Rgb red = yuvToRgb(k, 51, 109, 212);
    EXPECT_NEAR(red.r, 191, 1); EXPECT_NEAR(red.g, 0, 1); EXPECT_NEAR(red.b, 0, 1);
    const Rgb black = yuvToRgb(k, 16, 128, 128);
    EXPECT_EQ(black.r, 0);
    const Rgb peak = yuvToRgb(k, 235, 128, 128);
    EXPECT_EQ(peak.g, 255);
}

TEST(Color, RgbToYuvMatchesTheBarValues) {
    // 75% yellow (191,191,0) in BT.709 limited 8-bit is Y 168, Cb 44, Cr 136; blue 28/212/120.
    const auto k = makeRgbToYuv(Matrix::Bt709, Range::Limited, 8);
    const Yuv yellow = rgbToYuv(k, 191, 191, 0);
    EXPECT_NEAR(yellow.y, 168, 1); EXPECT_NEAR(yellow.cb, 44, 1); EXPECT_NEAR(yellow.cr, 136, 1);
    const Yuv blue = rgbToYuv(k, 0, 0, 191);
    EXPECT_NEAR(blue.y, 28, 1); EXPECT_NEAR(blue.cb, 212, 1); EXPECT_NEAR(blue.cr, 120, 1);
    // Full range BT.601 white is 255/128/128 exactly, black 0/128/128.
    const auto f = makeRgbToYuv(Matrix::Bt601, Range::Full, 8);
    const Yuv w = rgbToYuv(f, 255, 255, 255);
    EXPECT_EQ(w.y, 255); EXPECT_EQ(w.cb, 128); EXPECT_EQ(w.cr, 128);
    const Yuv b = rgbToYuv(f, 0, 0, 0);
    EXPECT_EQ(b.y, 0); EXPECT_EQ(b.cb, 128); EXPECT_EQ(b.cr, 128);
}

TEST(Color, RoundTripIsWithinTwoCodes) {
    for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl}) {
        const auto toYuv = makeRgbToYuv(m, Range::Full, 8);
        const auto toRgb = makeYuvToRgb(m, Range::Full, 8, 8);
        for (int r = 0; r < 256; r += 15)
            for (int g = 0; g < 256; g += 15)
                for (int b = 0; b < 256; b += 15) {
                    const Yuv v = rgbToYuv(toYuv, r, g, b);
                    const Rgb back = yuvToRgb(toRgb, v.y, v.cb, v.cr);
                    EXPECT_NEAR(back.r, r, 2); EXPECT_NEAR(back.g, g, 2); EXPECT_NEAR(back.b, b, 2);
                }
    }
}

TEST(Color, GamutFlagsOnlyImpossibleColours) {
    const auto k = makeYuvToRgb(Matrix::Bt709, Range::Limited, 8, 8);
    EXPECT_FALSE(yuvOutOfGamut(k, 180, 128, 128));
    EXPECT_FALSE(yuvOutOfGamut(k, 51, 109, 212));   // 75% red is inside
    EXPECT_FALSE(yuvOutOfGamut(k, 188, 154, 16));   // 100% cyan: R' rounds to -1, inside R 103's -5%
    EXPECT_FALSE(yuvOutOfGamut(k, 240, 128, 128));  // 102% white: inside 105%
    EXPECT_TRUE(yuvOutOfGamut(k, 235, 16, 16));     // bright + saturated green-ish: R, B below 0
    EXPECT_TRUE(yuvOutOfGamut(k, 16, 240, 240));
}

TEST(Color, IreAndLegalRange) {
    EXPECT_DOUBLE_EQ(codeToIre(16, 8, Range::Limited), 0.0);
    EXPECT_DOUBLE_EQ(codeToIre(235, 8, Range::Limited), 100.0);
    EXPECT_DOUBLE_EQ(codeToIre(940, 10, Range::Limited), 100.0);
    EXPECT_DOUBLE_EQ(ireToCode(100, 10, Range::Limited), 940.0);
    EXPECT_DOUBLE_EQ(codeToIre(1023, 10, Range::Full), 100.0);
    const auto l10 = legalRange(10);
    EXPECT_EQ(l10.yLo, 64); EXPECT_EQ(l10.yHi, 940); EXPECT_EQ(l10.cHi, 960);
}

TEST(Color, TransferFunctions) {
    EXPECT_NEAR(pqToNits(1.0), 10000.0, 1e-6);
    EXPECT_NEAR(pqToNits(0.0), 0.0, 1e-9);
    EXPECT_NEAR(pqToNits(nitsToPq(100.0)), 100.0, 1e-6);
    EXPECT_NEAR(nitsToPq(100.0), 0.5081, 1e-3);   // 100 nits is ~50.8% PQ signal
    EXPECT_NEAR(hlgToRelative(0.5), 1.0 / 12.0, 1e-9);
    EXPECT_NEAR(hlgToRelative(1.0), 1.0, 1e-6);
}

TEST(Color, NamesAndOverrides) {
    EXPECT_EQ(matrixFromName("bt709"), Matrix::Bt709);
    EXPECT_EQ(matrixFromName("601"), Matrix::Bt601);
    EXPECT_EQ(matrixFromName("bt2020nc"), Matrix::Bt2020Ncl);
    EXPECT_FALSE(matrixFromName("bt999"));
    EXPECT_EQ(rangeFromName("pc"), Range::Full);
    ColorInfo tags;
    tags.matrix = Matrix::Bt601;
    const auto c = applyOverride(tags, ColorOverride{Matrix::Bt2020Ncl, Range::Full, std::nullopt});
    EXPECT_EQ(c.matrix, Matrix::Bt2020Ncl);
    EXPECT_EQ(c.range, Range::Full);
    EXPECT_EQ(guessMatrix(720, 576), Matrix::Bt601);
    EXPECT_EQ(guessMatrix(1920, 1080), Matrix::Bt709);
    EXPECT_EQ(pixelFormatFromName("p010le"), PixelFormat::P010);
    EXPECT_EQ(formatInfo(PixelFormat::Yuv420p10).bitDepth, 10);
    EXPECT_FALSE(pixelFormatFromName("yuv420p12le"));
}
