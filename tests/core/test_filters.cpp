// Filters: each against a naive reference written independently here (box blur and
// median exactly, Gaussian within one code value), hand-computed Sobel values, the
// exact pixels zebra touches, false-colour bands at known codes, and identical results
// with and without a thread pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string_view>
#include <utility>

#include "core/Filters.h"

namespace cs {
namespace {

RgbaImage randomImage(int w, int h, uint32_t seed) {
    RgbaImage img;
    img.resize(w, h);
    std::mt19937 rng(seed);
    for (auto& b : img.pixels) b = uint8_t(rng() & 0xffu);
    return img;
}

LumaPlane flatLuma(int w, int h, int depth, Range range, uint16_t code) {
    LumaPlane l;
    l.width = w;
    l.height = h;
    l.bitDepth = depth;
    l.range = range;
    l.values.assign(size_t(w) * size_t(h), code);
    return l;
}

LumaPlane randomLuma(int w, int h, int depth, Range range, uint32_t seed) {
    LumaPlane l = flatLuma(w, h, depth, range, 0);
    std::mt19937 rng(seed);
    for (auto& v : l.values) v = uint16_t(rng() % uint32_t(1 << depth));
    return l;
}

int clampi(int v, int n) { return std::clamp(v, 0, n - 1); }

// (2r+1)^2 window, replicated edges, round to nearest: the definition, pixel by pixel.
RgbaImage naiveBox(const RgbaImage& in, int r) {
    RgbaImage out;
    out.resize(in.width, in.height);
    const int64_t n = int64_t(2 * r + 1) * (2 * r + 1);
    for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x) {
            for (int c = 0; c < 3; ++c) {
                int64_t sum = 0;
                for (int dy = -r; dy <= r; ++dy)
                    for (int dx = -r; dx <= r; ++dx) sum += in.at(clampi(x + dx, in.width), clampi(y + dy, in.height))[c];
                out.at(x, y)[c] = uint8_t((sum + n / 2) / n);
            }
            out.at(x, y)[3] = in.at(x, y)[3];
        }
    return out;
}

// 2-D Gaussian in double over the full (2R+1)^2 window, normalised, replicated edges.
std::vector<double> naiveGaussian(const RgbaImage& in, double sigma) {
    const int radius = int(std::ceil(3.0 * sigma));
    std::vector<double> out(size_t(in.width) * size_t(in.height) * 3);
    double total = 0.0;
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) total += std::exp(-(dx * dx + dy * dy) / (2.0 * sigma * sigma));
    for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x)
            for (int c = 0; c < 3; ++c) {
                double sum = 0.0;
                for (int dy = -radius; dy <= radius; ++dy)
                    for (int dx = -radius; dx <= radius; ++dx)
                        sum += std::exp(-(dx * dx + dy * dy) / (2.0 * sigma * sigma)) *
                               in.at(clampi(x + dx, in.width), clampi(y + dy, in.height))[c];
                out[(size_t(y) * size_t(in.width) + size_t(x)) * 3 + size_t(c)] = sum / total;
            }
    return out;
}

uint8_t naiveMedian(const RgbaImage& in, int x, int y, int c) {
    std::vector<uint8_t> v;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) v.push_back(in.at(clampi(x + dx, in.width), clampi(y + dy, in.height))[c]);
    std::sort(v.begin(), v.end());
    return v[4];
}

bool samePixels(const RgbaImage& a, const RgbaImage& b) {
    return a.width == b.width && a.height == b.height && a.pixels == b.pixels;
}

TEST(BoxBlur, EqualsNaiveWindowExactly) {
    const int sizes[][2] = {{1, 1}, {1, 7}, {7, 1}, {5, 3}, {13, 9}, {33, 17}};
    uint32_t seed = 1;
    for (const auto& s : sizes)
        for (int r : {0, 1, 2, 5, 40}) {
            const RgbaImage in = randomImage(s[0], s[1], seed++);
            RgbaImage out;
            boxBlur(in, r, out);
            const RgbaImage ref = naiveBox(in, r);
            EXPECT_TRUE(samePixels(out, ref)) << s[0] << "x" << s[1] << " r=" << r;
        }
}

TEST(BoxBlur, FlatImageStaysFlatAndNegativeRadiusCopies) {
    RgbaImage in;
    in.resize(9, 4);
    for (size_t i = 0; i < in.pixels.size(); i += 4) { in.pixels[i] = 10; in.pixels[i + 1] = 200; in.pixels[i + 2] = 77; in.pixels[i + 3] = 255; }
    RgbaImage out;
    boxBlur(in, 3, out);
    EXPECT_TRUE(samePixels(out, in));
    const RgbaImage noisy = randomImage(6, 5, 99);
    boxBlur(noisy, -4, out);
    EXPECT_TRUE(samePixels(out, noisy));
}

TEST(BoxBlur, RoundsToNearest) {
    // A 1x3 image 0, 0, 2 with r = 1: each 3x3 window holds its row three times (edges
    // replicated), sums 0, 6, 12 over 9: (0 + 4) / 9 = 0, (6 + 4) / 9 = 1, (12 + 4) / 9 = 1.
    RgbaImage in;
    in.resize(3, 1);
    in.at(2, 0)[0] = 2;
    RgbaImage out;
    boxBlur(in, 1, out);
    EXPECT_EQ(out.at(0, 0)[0], 0);
    EXPECT_EQ(out.at(1, 0)[0], 1);
    EXPECT_EQ(out.at(2, 0)[0], 1);
}

TEST(BoxBlur, InPlaceMatchesOutOfPlace) {
    const RgbaImage in = randomImage(21, 14, 5);
    RgbaImage ref;
    boxBlur(in, 3, ref);
    RgbaImage same = in;
    boxBlur(same, 3, same);
    EXPECT_TRUE(samePixels(same, ref));
}

TEST(GaussianBlur, WithinOneCodeOfNaive2d) {
    uint32_t seed = 11;
    for (double sigma : {0.6, 1.0, 2.5})
        for (const auto& s : std::vector<std::pair<int, int>>{{1, 1}, {9, 4}, {23, 17}}) {
            const RgbaImage in = randomImage(s.first, s.second, seed++);
            RgbaImage out;
            gaussianBlur(in, float(sigma), out);
            const std::vector<double> ref = naiveGaussian(in, sigma);
            ASSERT_EQ(out.width, in.width);
            int worst = 0;
            for (int y = 0; y < in.height; ++y)
                for (int x = 0; x < in.width; ++x) {
                    for (int c = 0; c < 3; ++c) {
                        const double r = ref[(size_t(y) * size_t(in.width) + size_t(x)) * 3 + size_t(c)];
                        worst = std::max(worst, int(std::ceil(std::abs(out.at(x, y)[c] - r) - 0.5)));
                        EXPECT_LE(std::abs(out.at(x, y)[c] - r), 1.0) << x << "," << y << " sigma " << sigma;
                    }
                    EXPECT_EQ(out.at(x, y)[3], in.at(x, y)[3]);
                }
            EXPECT_LE(worst, 1);
        }
}

TEST(GaussianBlur, ZeroOrTinySigmaIsIdentity) {
    const RgbaImage in = randomImage(15, 8, 3);
    for (float sigma : {0.0f, -1.0f, 1e-4f, 0.05f, std::nanf("")}) {
        RgbaImage out;
        gaussianBlur(in, sigma, out);
        EXPECT_TRUE(samePixels(out, in)) << sigma;
    }
}

// The taps both engines use: radius ceil(3 sigma) (at least 1, sigma clamped to 64), the
// normalised exp(-k^2 / 2 sigma^2) of an independent evaluation, symmetric, none for no blur.
TEST(GaussianBlur, WeightsAreTheNormalisedGaussian) {
    for (float sigma : {0.0f, -2.0f, std::nanf(""), std::numeric_limits<float>::infinity()})
        EXPECT_TRUE(gaussianWeights(sigma).empty()) << sigma;
    for (const auto& [sigma, radius] : {std::pair{0.05f, 1}, {0.34f, 2}, {1.0f, 3}, {3.0f, 9}, {10.5f, 32}, {64.0f, 192}, {500.0f, 192}}) {
        const std::vector<float> w = gaussianWeights(sigma);
        ASSERT_EQ(w.size(), size_t(2 * radius + 1)) << sigma;
        const double s = std::min(double(sigma), 64.0);
        double total = 0.0;
        for (int k = -radius; k <= radius; ++k) total += std::exp(-double(k * k) / (2.0 * s * s));
        for (int k = -radius; k <= radius; ++k) {
            EXPECT_NEAR(w[size_t(k + radius)], std::exp(-double(k * k) / (2.0 * s * s)) / total, 1e-7) << sigma << " tap " << k;
            EXPECT_EQ(w[size_t(k + radius)], w[size_t(radius - k)]) << sigma << " tap " << k;
        }
    }
    EXPECT_EQ(gaussianWeights(kMaxGaussianSigma).size(), size_t(2 * kMaxGaussianRadius + 1));
}

TEST(GaussianBlur, BlursAStep) {
    RgbaImage in;
    in.resize(16, 3);
    for (int y = 0; y < 3; ++y)
        for (int x = 8; x < 16; ++x) in.at(x, y)[0] = 255;
    RgbaImage out;
    gaussianBlur(in, 2.0f, out);
    // Symmetric around the edge: the two pixels beside it are mirror images.
    EXPECT_EQ(int(out.at(7, 1)[0]) + int(out.at(8, 1)[0]), 255);
    EXPECT_GT(out.at(7, 1)[0], 60);
    EXPECT_EQ(out.at(0, 1)[0], 0);
    EXPECT_EQ(out.at(15, 1)[0], 255);
}

TEST(Median3x3, EqualsNaiveSort) {
    uint32_t seed = 21;
    for (const auto& s : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {3, 2}, {17, 11}, {40, 31}}) {
        const RgbaImage in = randomImage(s.first, s.second, seed++);
        RgbaImage out;
        median3x3(in, out);
        ASSERT_EQ(out.width, in.width);
        for (int y = 0; y < in.height; ++y)
            for (int x = 0; x < in.width; ++x) {
                for (int c = 0; c < 3; ++c) ASSERT_EQ(out.at(x, y)[c], naiveMedian(in, x, y, c)) << x << "," << y;
                ASSERT_EQ(out.at(x, y)[3], in.at(x, y)[3]);
            }
    }
}

TEST(Median3x3, RemovesAnIsolatedSpike) {
    RgbaImage in;
    in.resize(5, 5);
    in.at(2, 2)[1] = 255;
    RgbaImage out;
    median3x3(in, out);
    EXPECT_EQ(out.at(2, 2)[1], 0);
}

// A vertical step between columns 3 and 4: dark left, bright right.
LumaPlane stepLuma(int depth, uint16_t dark, uint16_t bright) {
    LumaPlane l = flatLuma(8, 5, depth, Range::Full, dark);
    for (int y = 0; y < 5; ++y)
        for (int x = 4; x < 8; ++x) l.values[size_t(y) * 8 + size_t(x)] = bright;
    return l;
}

TEST(SobelEdges, FullScaleStepGives255OnBothSidesOnly) {
    RgbaImage out;
    sobelEdges(stepLuma(8, 0, 255), out);
    ASSERT_EQ(out.width, 8);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 8; ++x) {
            const int expected = (x == 3 || x == 4) ? 255 : 0;
            EXPECT_EQ(out.at(x, y)[0], expected) << x << "," << y;
            EXPECT_EQ(out.at(x, y)[1], expected);
            EXPECT_EQ(out.at(x, y)[2], expected);
            EXPECT_EQ(out.at(x, y)[3], 255);
        }
}

TEST(SobelEdges, SameImageAt8And10Bits) {
    RgbaImage a, b;
    sobelEdges(stepLuma(8, 0, 255), a);
    sobelEdges(stepLuma(10, 0, 1023), b);
    EXPECT_TRUE(samePixels(a, b));
    // Half scale: |gx| = 4 * 128 over 4 * 255 -> 128.0 (8-bit); 4 * 512 / (4 * 1023) * 255 = 127.6 -> 128.
    sobelEdges(stepLuma(8, 0, 128), a);
    sobelEdges(stepLuma(10, 0, 512), b);
    EXPECT_EQ(a.at(3, 2)[0], 128);
    EXPECT_EQ(b.at(3, 2)[0], 128);
}

TEST(SobelEdges, SixteenBitPlanesGiveTheSameImage) {
    // 16-bit squares need 64 bits (up to 12 bits they fit 32): both give the one image.
    RgbaImage a, b, c;
    sobelEdges(stepLuma(8, 0, 255), a);
    sobelEdges(stepLuma(12, 0, 4095), b);
    sobelEdges(stepLuma(16, 0, 65535), c);
    EXPECT_TRUE(samePixels(a, b));
    EXPECT_TRUE(samePixels(a, c));
}

TEST(SobelEdges, FlatIsZeroAndASinglePointMatchesHandValues) {
    RgbaImage out;
    sobelEdges(flatLuma(6, 4, 10, Range::Limited, 700), out);
    for (size_t i = 0; i < out.pixels.size(); i += 4) ASSERT_EQ(out.pixels[i], 0);
    // One full-scale pixel at (3, 3) of a 7x7 black plane. Its 4-neighbours see it with
    // weight 2 in one gradient: 2 / 4 = 0.5 -> 127.5 -> 128. Diagonal neighbours see it
    // with weight 1 in both: sqrt(2) / 4 = 0.3536 -> 90.2 -> 90. Itself: 0.
    LumaPlane point = flatLuma(7, 7, 8, Range::Full, 0);
    point.values[3 * 7 + 3] = 255;
    sobelEdges(point, out);
    EXPECT_EQ(out.at(3, 3)[0], 0);
    EXPECT_EQ(out.at(2, 3)[0], 128);
    EXPECT_EQ(out.at(4, 3)[0], 128);
    EXPECT_EQ(out.at(3, 2)[0], 128);
    EXPECT_EQ(out.at(3, 4)[0], 128);
    EXPECT_EQ(out.at(2, 2)[0], 90);
    EXPECT_EQ(out.at(4, 4)[0], 90);
    EXPECT_EQ(out.at(0, 0)[0], 0);
    EXPECT_EQ(out.at(5, 3)[0], 0);
}

// The edge grey by its definition: min(255, floor(sqrt(g2) / (4 (2^d - 1)) 255 + 0.5)) in double.
int greyByDefinition(int64_t g2, int depth) {
    const double v = std::sqrt(double(g2)) * (1.0 / (4.0 * double((1 << depth) - 1))) * 255.0 + 0.5;
    return v >= 255.0 ? 255 : int(v);
}

TEST(SobelEdges, FirstSquaresAreTheGreysBoundaries) {
    for (int depth : {8, 10, 12, 16}) {
        EXPECT_EQ(sobelEdgeFirstSquare(depth, 0), 0);
        int64_t previous = 0;
        for (int grey = 1; grey < 256; ++grey) {
            const int64_t first = sobelEdgeFirstSquare(depth, grey);
            ASSERT_GT(first, previous) << depth << " " << grey;
            EXPECT_GE(greyByDefinition(first, depth), grey) << depth << " " << grey;
            EXPECT_LT(greyByDefinition(first - 1, depth), grey) << depth << " " << grey;
            EXPECT_EQ(int(sobelEdgeGrey(first, depth)), greyByDefinition(first, depth));
            EXPECT_EQ(int(sobelEdgeGrey(first - 1, depth)), greyByDefinition(first - 1, depth));
            previous = first;
        }
    }
    // 8 bits: grey b begins at sqrt(g2) = (b - 1/2) 4, so at g2 = (4b - 2)^2 or, where the
    // double rounding falls short of b, one above it.
    for (int grey = 1; grey < 256; ++grey) {
        const int64_t boundary = int64_t(4 * grey - 2) * (4 * grey - 2);
        const int64_t first = sobelEdgeFirstSquare(8, grey);
        EXPECT_TRUE(first == boundary || first == boundary + 1) << grey << ": " << first;
    }
    // Every 8-bit square: the grey is the largest one whose first square is at most it.
    std::vector<int64_t> firsts;
    for (int grey = 0; grey < 256; ++grey) firsts.push_back(sobelEdgeFirstSquare(8, grey));
    for (int64_t g2 = 0; g2 <= 2 * 1020 * 1020; ++g2) {
        const int grey = int(std::upper_bound(firsts.begin(), firsts.end(), g2) - firsts.begin()) - 1;
        ASSERT_EQ(grey, greyByDefinition(g2, 8)) << g2;
    }
}

TEST(SobelEdges, ImageGreysAreSobelEdgeGrey) {
    // A random 10-bit plane: each grey is sobelEdgeGrey of the gradients computed here.
    LumaPlane l = flatLuma(64, 3, 10, Range::Full, 0);
    std::mt19937 rng(17);
    for (auto& v : l.values) v = uint16_t(rng() % 1024u);
    RgbaImage out;
    sobelEdges(l, out);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 64; ++x) {
            auto at = [&](int xx, int yy) { return int(l.values[size_t(clampi(yy, 3)) * 64 + size_t(clampi(xx, 64))]); };
            const int gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) - (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
            const int gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) - (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
            ASSERT_EQ(out.at(x, y)[0], sobelEdgeGrey(int64_t(gx) * gx + int64_t(gy) * gy, 10)) << x << "," << y;
        }
}

TEST(FocusPeaking, BlendTable) {
    // Opaque: every byte becomes the colour's; alpha 0: every byte stays.
    const PeakingBlend opaque = focusPeakingBlend(0xff2010f0u), clear = focusPeakingBlend(0x002010f0u);
    for (int v = 0; v < 256; ++v) {
        EXPECT_EQ(opaque[0][size_t(v)], 0xf0);
        EXPECT_EQ(opaque[1][size_t(v)], 0x10);
        EXPECT_EQ(opaque[2][size_t(v)], 0x20);
        for (size_t c = 0; c < 3; ++c) EXPECT_EQ(clear[c][size_t(v)], v);
    }
    // Alpha 0x80 = 0.50196: 0 towards 255 gives 128.0; 255 towards 0 gives 127.0; 100 towards 255: 177.8 -> 178.
    const PeakingBlend half = focusPeakingBlend(0x800000ffu);
    EXPECT_EQ(half[0][0], 128);
    EXPECT_EQ(half[1][255], 127);
    EXPECT_EQ(half[0][100], 178);
}

TEST(FocusPeaking, PaintsExactlyThePixelsOverThreshold) {
    LumaPlane point = flatLuma(7, 7, 8, Range::Full, 0);
    point.values[3 * 7 + 3] = 255;
    const RgbaImage picture = randomImage(7, 7, 8);
    const uint32_t colour = 0xff2010f0u;   // R 0xf0, G 0x10, B 0x20, opaque
    for (float threshold : {0.3f, 0.4f}) {
        RgbaImage out;
        focusPeaking(picture, point, threshold, colour, out);
        ASSERT_EQ(out.width, 7);
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 7; ++x) {
                const int dx = std::abs(x - 3), dy = std::abs(y - 3);
                const bool edge4 = dx + dy == 1, diagonal = dx == 1 && dy == 1;   // magnitudes 0.5 and 0.354
                const bool painted = edge4 || (diagonal && threshold < 0.35f);
                const uint8_t* p = out.at(x, y);
                if (painted) {
                    EXPECT_EQ(p[0], 0xf0);
                    EXPECT_EQ(p[1], 0x10);
                    EXPECT_EQ(p[2], 0x20);
                } else {
                    EXPECT_TRUE(std::equal(p, p + 4, picture.at(x, y))) << x << "," << y;
                }
            }
    }
}

TEST(FocusPeaking, FirstSquareIsTheLeastSquareOverTheThreshold) {
    // 8-bit, threshold 0.12: sqrt(g2) / 1020 > 0.12 from g2 > 122.4^2 = 14981.76.
    EXPECT_EQ(focusPeakingFirstSquare(8, 0.12f), 14982);
    // Exactly at the boundary for every depth and a few thresholds: the square before the
    // first one is not over the threshold, the first one is.
    for (int depth : {8, 10, 12, 16})
        for (float threshold : {0.05f, 0.12f, 0.3f, 0.5f}) {
            const double norm = 1.0 / (4.0 * double((1 << depth) - 1));
            const int64_t first = focusPeakingFirstSquare(depth, threshold);
            EXPECT_GT(std::sqrt(double(first)) * norm, double(threshold)) << depth << " " << threshold;
            EXPECT_LE(std::sqrt(double(first - 1)) * norm, double(threshold)) << depth << " " << threshold;
        }
    // No square reaches a threshold above the largest magnitude (sqrt 2): "never".
    EXPECT_EQ(focusPeakingFirstSquare(8, 2.0f), 2 * 1020 * 1020 + 1);
    EXPECT_EQ(focusPeakingFirstSquare(8, -1.0f), 0);
}

TEST(Zebra, StripesExactlyThePixelsAtOrAboveTheLevel) {
    // 8-bit limited: 95 IRE = 16 + 0.95 * 219 = 224.05, so codes 225.. are striped.
    const int w = 40, h = 23;
    LumaPlane luma = flatLuma(w, h, 8, Range::Limited, 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) luma.values[size_t(y) * w + size_t(x)] = uint16_t(200 + (x + 3 * y) % 56);
    RgbaImage picture;
    picture.resize(w, h);
    for (size_t i = 0; i < picture.pixels.size(); i += 4) { picture.pixels[i] = 200; picture.pixels[i + 1] = 100; picture.pixels[i + 2] = 50; picture.pixels[i + 3] = 255; }
    RgbaImage out;
    zebra(picture, luma, 95.0f, out);
    int touched = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int code = luma.values[size_t(y) * w + size_t(x)];
            const bool expectStripe = code >= 225 && ((x + y) % 8) < 4;
            const uint8_t* p = out.at(x, y);
            if (expectStripe) {
                ++touched;
                EXPECT_EQ(p[0], 0);
                EXPECT_EQ(p[1], 0);
                EXPECT_EQ(p[2], 0);
            } else {
                EXPECT_TRUE(std::equal(p, p + 4, picture.at(x, y))) << x << "," << y << " code " << code;
            }
        }
    EXPECT_GT(touched, 50);
}

TEST(Zebra, FullRange10BitAndTheLowZebra) {
    // Full range 10-bit: 95 IRE = 0.95 * 1023 = 971.85 -> codes 972..; 70 IRE = 716.1 -> 717..971.
    const int w = 16, h = 16;
    LumaPlane luma = flatLuma(w, h, 10, Range::Full, 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) luma.values[size_t(y) * w + size_t(x)] = uint16_t(700 + 2 * (y * w + x));
    RgbaImage picture;
    picture.resize(w, h);
    for (size_t i = 0; i < picture.pixels.size(); i += 4) { picture.pixels[i] = picture.pixels[i + 1] = picture.pixels[i + 2] = 128; picture.pixels[i + 3] = 255; }
    RgbaImage out;
    zebra(picture, luma, 95.0f, 70.0f, out);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int code = luma.values[size_t(y) * w + size_t(x)];
            int expected = 128;
            if (code >= 972 && ((x + y) & 7) < 4) expected = 0;
            else if (code >= 717 && code < 972 && ((x - y) & 7) < 4) expected = 255;
            EXPECT_EQ(out.at(x, y)[0], expected) << x << "," << y << " code " << code;
        }
}

uint32_t colourOfBand(std::string_view name) {
    for (const FalseColourBand& b : falseColourBands())
        if (name == b.name) return b.rgba;
    ADD_FAILURE() << "no band " << name;
    return 0;
}

uint32_t pixelRgba(const RgbaImage& img, int x, int y) {
    const uint8_t* p = img.at(x, y);
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

TEST(FalseColour, KnownCodesLandInTheirBands) {
    struct Case { int depth; Range range; int code; const char* band; };
    // 8-bit limited: IRE = (code - 16) / 219 * 100.
    const Case cases[] = {
        {8, Range::Limited, 0, "below black"},     {8, Range::Limited, 15, "below black"},
        {8, Range::Limited, 16, "crushed black"},  {8, Range::Limited, 21, "crushed black"},   // 2.28
        {8, Range::Limited, 22, "deep shadows"},   {8, Range::Limited, 37, "deep shadows"},    // 2.74, 9.59
        {8, Range::Limited, 104, "middle grey"},   {8, Range::Limited, 121, "middle grey"},    // 40.18, 47.95
        {8, Range::Limited, 148, "skin"},          {8, Range::Limited, 169, "skin"},           // 60.27, 69.86
        {8, Range::Limited, 225, "near clip"},     {8, Range::Limited, 235, "near clip"},      // 95.43, 100
        {8, Range::Limited, 236, "above white"},   {8, Range::Limited, 255, "above white"},
        {10, Range::Limited, 63, "below black"},   {10, Range::Limited, 64, "crushed black"},
        {10, Range::Limited, 940, "near clip"},    {10, Range::Limited, 941, "above white"},
        {8, Range::Full, 0, "crushed black"},      {8, Range::Full, 255, "near clip"},
        {8, Range::Full, 110, "middle grey"},      // 43.1
    };
    for (const Case& c : cases) {
        LumaPlane l = flatLuma(3, 2, c.depth, c.range, uint16_t(c.code));
        RgbaImage out;
        falseColour(l, out);
        ASSERT_EQ(out.width, 3);
        EXPECT_EQ(pixelRgba(out, 1, 1), colourOfBand(c.band)) << c.depth << "-bit code " << c.code;
    }
}

TEST(FalseColour, GreyBandsShowTheLuma) {
    // 8-bit limited: 38 -> 10.05 IRE -> grey 26; 122 -> 48.40 -> 123; 170 -> 70.32 -> 179; 224 -> 94.98 -> 242.
    const int cases[][2] = {{38, 26}, {122, 123}, {170, 179}, {224, 242}};
    for (const auto& c : cases) {
        RgbaImage out;
        falseColour(flatLuma(1, 1, 8, Range::Limited, uint16_t(c[0])), out);
        EXPECT_EQ(out.at(0, 0)[0], c[1]) << c[0];
        EXPECT_EQ(out.at(0, 0)[1], c[1]);
        EXPECT_EQ(out.at(0, 0)[2], c[1]);
        EXPECT_EQ(out.at(0, 0)[3], 255);
    }
    // The band table is ordered and contiguous.
    const auto bands = falseColourBands();
    ASSERT_GE(bands.size(), 2u);
    for (size_t i = 1; i < bands.size(); ++i) EXPECT_EQ(bands[i].loIre, bands[i - 1].hiIre);
}

TEST(Filters, IdenticalWithAndWithoutAPool) {
    ThreadPool pool(4);
    const RgbaImage picture = randomImage(67, 45, 31);
    const LumaPlane luma = randomLuma(67, 45, 10, Range::Limited, 32);
    ScopeSpec spec;
    spec.filter.blurRadius = 4;
    spec.filter.gaussianSigma = 1.7f;
    spec.filter.peakingThreshold = 0.2f;
    spec.filter.zebraIre = 80.0f;
    spec.filter.zebraLowIre = 40.0f;
    for (PreviewFilter f : {PreviewFilter::BoxBlur, PreviewFilter::Gaussian, PreviewFilter::Edges, PreviewFilter::FocusPeaking,
                            PreviewFilter::Median3, PreviewFilter::Zebra, PreviewFilter::FalseColour}) {
        spec.preview = f;
        RgbaImage serial, threaded;
        applyPreview(picture, luma, spec, serial, nullptr);
        applyPreview(picture, luma, spec, threaded, &pool);
        ASSERT_FALSE(serial.empty()) << int(f);
        EXPECT_TRUE(samePixels(serial, threaded)) << int(f);
    }
    // Box blur's column sums restart at each chunk: check a radius spanning chunks too.
    RgbaImage a, b;
    boxBlur(picture, 30, a);
    boxBlur(picture, 30, b, &pool);
    EXPECT_TRUE(samePixels(a, b));
}

TEST(ApplyPreview, DispatchesWithTheSpecsParameters) {
    const RgbaImage picture = randomImage(20, 12, 41);
    const LumaPlane luma = randomLuma(20, 12, 8, Range::Limited, 42);
    ScopeSpec spec;
    spec.filter.blurRadius = 2;
    spec.filter.gaussianSigma = 1.2f;
    spec.filter.peakingThreshold = 0.25f;
    spec.filter.peakingColour = 0xff00ff00u;
    spec.filter.zebraIre = 60.0f;
    RgbaImage got, want;

    spec.preview = PreviewFilter::BoxBlur;
    applyPreview(picture, luma, spec, got);
    boxBlur(picture, 2, want);
    EXPECT_TRUE(samePixels(got, want));
    spec.preview = PreviewFilter::Gaussian;
    applyPreview(picture, luma, spec, got);
    gaussianBlur(picture, 1.2f, want);
    EXPECT_TRUE(samePixels(got, want));
    spec.preview = PreviewFilter::Edges;
    applyPreview(picture, luma, spec, got);
    sobelEdges(luma, want);
    EXPECT_TRUE(samePixels(got, want));
    spec.preview = PreviewFilter::FocusPeaking;
    applyPreview(picture, luma, spec, got);
    focusPeaking(picture, luma, 0.25f, 0xff00ff00u, want);
    EXPECT_TRUE(samePixels(got, want));
    spec.preview = PreviewFilter::Median3;
    applyPreview(picture, luma, spec, got);
    median3x3(picture, want);
    EXPECT_TRUE(samePixels(got, want));
    spec.preview = PreviewFilter::Zebra;
    applyPreview(picture, luma, spec, got);
    zebra(picture, luma, 60.0f, want);
    EXPECT_TRUE(samePixels(got, want));
    EXPECT_FALSE(samePixels(got, picture));
    spec.preview = PreviewFilter::FalseColour;
    applyPreview(picture, luma, spec, got);
    falseColour(luma, want);
    EXPECT_TRUE(samePixels(got, want));
    spec.preview = PreviewFilter::None;
    applyPreview(picture, luma, spec, got);
    EXPECT_TRUE(got.empty());
}

TEST(Filters, BadInputGivesAnEmptyImageNotACrash) {
    RgbaImage broken;
    broken.width = 10;
    broken.height = 10;
    broken.pixels.resize(12);   // inconsistent with its size
    RgbaImage out;
    boxBlur(broken, 3, out);
    EXPECT_TRUE(out.empty());
    gaussianBlur(broken, 2.0f, out);
    EXPECT_TRUE(out.empty());
    median3x3(RgbaImage{}, out);
    EXPECT_TRUE(out.empty());
    LumaPlane badLuma = flatLuma(4, 4, 8, Range::Limited, 0);
    badLuma.bitDepth = 40;
    sobelEdges(badLuma, out);
    EXPECT_TRUE(out.empty());
    falseColour(badLuma, out);
    EXPECT_TRUE(out.empty());
    // Picture and luma of different sizes.
    zebra(randomImage(5, 5, 1), flatLuma(4, 5, 8, Range::Limited, 0), 90.0f, out);
    EXPECT_TRUE(out.empty());
    focusPeaking(randomImage(5, 5, 1), flatLuma(5, 4, 8, Range::Limited, 0), 0.1f, 0xffffffffu, out);
    EXPECT_TRUE(out.empty());
    // Codes beyond the depth (corrupt data) are clamped, not read out of bounds.
    LumaPlane wild = flatLuma(3, 3, 8, Range::Limited, 60000);
    falseColour(wild, out);
    EXPECT_EQ(pixelRgba(out, 1, 1), colourOfBand("above white"));
    zebra(randomImage(3, 3, 2), wild, 95.0f, out);
    EXPECT_EQ(out.width, 3);
    // A huge radius still runs (cost independent of the radius) and averages everything.
    RgbaImage flat;
    flat.resize(4, 3);
    for (auto& b : flat.pixels) b = 90;
    boxBlur(flat, 1 << 30, out);
    EXPECT_TRUE(samePixels(out, flat));
}

}  // namespace
}  // namespace cs
