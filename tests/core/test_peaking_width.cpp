// Focus peaking's width (core/PeakingWidth.h): width 1 is the edges alone, 2 and 3 the edges
// dilated by a 3x3 and a 5x5 square, clipped to the frame; against known columns of a
// vertical step edge and against a naive dilation of a naive Sobel on random luma.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/Filters.h"
#include "core/PeakingWidth.h"
#include "core/ThreadPool.h"

namespace cs {
namespace {

RgbaImage noise(int w, int h, uint32_t seed) {
    RgbaImage img;
    img.resize(w, h);
    std::mt19937 rng(seed);
    for (auto& b : img.pixels) b = uint8_t(rng() & 0xffu);
    return img;
}

LumaPlane plane(int w, int h, int depth) {
    LumaPlane l;
    l.width = w;
    l.height = h;
    l.bitDepth = depth;
    l.range = Range::Full;
    l.values.assign(size_t(w) * size_t(h), 0);
    return l;
}

// The columns painted in every row (a pixel counts as painted where it is the colour and the
// picture's pixel is not), or -1 where rows disagree.
std::vector<int> paintedColumns(const RgbaImage& out, const RgbaImage& picture, uint32_t colour) {
    std::vector<int> columns;
    for (int x = 0; x < out.width; ++x) {
        int rows = 0;
        for (int y = 0; y < out.height; ++y) {
            const uint8_t* p = out.at(x, y);
            const bool painted = p[0] == (colour & 0xffu) && p[1] == ((colour >> 8) & 0xffu) && p[2] == ((colour >> 16) & 0xffu);
            const bool kept = std::equal(p, p + 4, picture.at(x, y));
            if (!painted && !kept) return {-1};
            rows += painted;
        }
        if (rows == out.height) columns.push_back(x);
        else if (rows != 0) return {-1};
    }
    return columns;
}

TEST(PeakingWidth, ReachAndParsing) {
    EXPECT_EQ(peakingReach(1), 0);
    EXPECT_EQ(peakingReach(2), 1);
    EXPECT_EQ(peakingReach(3), 2);
    EXPECT_EQ(peakingReach(0), 0);   // clamped
    EXPECT_EQ(peakingReach(9), 2);
    EXPECT_EQ(*parsePeakingWidth("1"), 1);
    EXPECT_EQ(*parsePeakingWidth("3"), 3);
    for (const char* bad : {"", "0", "4", "01", "2 ", "-1", "two", "2px"}) EXPECT_FALSE(parsePeakingWidth(bad)) << bad;
    EXPECT_EQ(parsePeakingWidth("4").message(), "must be 1, 2 or 3 (pixels), not '4'");
}

TEST(PeakingWidth, AVerticalEdgeWidensByTheReachOnEachSide) {
    // Codes 0 left of x = 10, 255 from it (8-bit): the Sobel step is at columns 9 and 10
    // (magnitude 1), nowhere else. The picture is black so that red paint shows; a picture
    // pixel that happens to be red would read as painted, so it is black throughout.
    const int w = 20, h = 6;
    LumaPlane luma = plane(w, h, 8);
    for (int y = 0; y < h; ++y)
        for (int x = 10; x < w; ++x) luma.values[size_t(y * w + x)] = 255;
    RgbaImage picture;
    picture.resize(w, h);
    for (size_t i = 0; i < picture.pixels.size(); i += 4) picture.pixels[i + 3] = 255;
    const uint32_t red = 0xff0000ffu;
    RgbaImage old, out;
    focusPeaking(picture, luma, 0.12f, red, old);
    EXPECT_EQ(paintedColumns(old, picture, red), (std::vector<int>{9, 10}));
    focusPeaking(picture, luma, 0.12f, red, 1, out);
    EXPECT_EQ(out.pixels, old.pixels);   // width 1: today's output exactly
    focusPeaking(picture, luma, 0.12f, red, 2, out);
    EXPECT_EQ(paintedColumns(out, picture, red), (std::vector<int>{8, 9, 10, 11}));
    focusPeaking(picture, luma, 0.12f, red, 3, out);
    EXPECT_EQ(paintedColumns(out, picture, red), (std::vector<int>{7, 8, 9, 10, 11, 12}));
    // At the frame's border the square is clipped: an edge at columns 0 and 1 paints 0..3 at width 3.
    LumaPlane border = plane(w, h, 8);
    for (int y = 0; y < h; ++y) border.values[size_t(y * w)] = 255;
    focusPeaking(picture, border, 0.12f, red, 3, out);
    EXPECT_EQ(paintedColumns(out, picture, red), (std::vector<int>{0, 1, 2, 3}));
}

// Every width against the definition, written naively: Sobel with clamped indices, the first
// square, and "an edge within reach across and down, inside the frame"; 8- and 10-bit,
// opaque and half-transparent colours, in place and on a pool.
TEST(PeakingWidth, EqualsANaiveDilationOfTheEdges) {
    ThreadPool pool(3);
    for (int depth : {8, 10}) {
        const int w = 37, h = 23;
        LumaPlane luma = plane(w, h, depth);
        std::mt19937 rng{uint32_t(depth)};
        // Sparse edges: mostly flat, a few random steps, so that dilation changes the result.
        for (auto& v : luma.values) v = uint16_t(rng() % 9 == 0 ? rng() % uint32_t(1 << depth) : 0);
        const RgbaImage picture = noise(w, h, 5);
        const float threshold = 0.3f;
        const int64_t first = focusPeakingFirstSquare(depth, threshold);
        auto at = [&](int x, int y) { return int64_t(luma.values[size_t(std::clamp(y, 0, h - 1) * w + std::clamp(x, 0, w - 1))]); };
        auto edge = [&](int x, int y) {
            const int64_t gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) - (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
            const int64_t gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) - (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
            return gx * gx + gy * gy >= first;
        };
        for (uint32_t colour : {0xff20ff20u, 0x80ff2020u}) {
            const PeakingBlend blend = focusPeakingBlend(colour);
            for (int width = 1; width <= 3; ++width) {
                const int reach = width - 1;
                RgbaImage out;
                focusPeaking(picture, luma, threshold, colour, width, out, &pool);
                ASSERT_EQ(out.width, w);
                int painted = 0;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        bool near = false;
                        for (int dy = -reach; dy <= reach; ++dy)
                            for (int dx = -reach; dx <= reach; ++dx) {
                                const int xx = x + dx, yy = y + dy;
                                near = near || (xx >= 0 && xx < w && yy >= 0 && yy < h && edge(xx, yy));
                            }
                        painted += near;
                        const uint8_t* src = picture.at(x, y);
                        const uint8_t* p = out.at(x, y);
                        for (size_t c = 0; c < 3; ++c)
                            ASSERT_EQ(p[c], near ? blend[c][src[c]] : src[c]) << depth << "-bit width " << width << " at " << x << "," << y;
                        ASSERT_EQ(p[3], src[3]);
                    }
                EXPECT_GT(painted, 0);
                EXPECT_LT(painted, w * h);
                RgbaImage inPlace = picture;
                focusPeaking(inPlace, luma, threshold, colour, width, inPlace);
                EXPECT_EQ(inPlace.pixels, out.pixels) << "in place, width " << width;
            }
        }
    }
}

TEST(PeakingWidth, ApplyPreviewTakesTheSpecsWidth) {
    const RgbaImage picture = noise(24, 16, 2);
    LumaPlane luma = plane(24, 16, 8);
    luma.values[size_t(8 * 24 + 12)] = 255;
    ScopeSpec spec;
    spec.preview = PreviewFilter::FocusPeaking;
    spec.filter.peakingWidth = 3;
    RgbaImage got, want, narrow;
    applyPreview(picture, luma, spec, got);
    focusPeaking(picture, luma, spec.filter.peakingThreshold, spec.filter.peakingColour, 3, want);
    focusPeaking(picture, luma, spec.filter.peakingThreshold, spec.filter.peakingColour, 1, narrow);
    EXPECT_EQ(got.pixels, want.pixels);
    EXPECT_NE(got.pixels, narrow.pixels);
}

}  // namespace
}  // namespace cs
