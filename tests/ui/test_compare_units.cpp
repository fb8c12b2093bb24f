// The compare mode's geometry (render/CompareLayout.h): where A and B land for wipe, split
// and side by side, and which picture and pixel lie under a view position.
#include <gtest/gtest.h>

#include "render/CompareLayout.h"

namespace cs {
namespace {

PictureLayout layoutOf(int fw, int fh, int vw, int vh, double zoom = 0) {
    PictureLayout l;
    l.setFrameSize(fw, fh);
    l.setViewSize(vw, vh);
    l.setZoom(zoom);
    return l;
}

TEST(CompareLayout, OffDrawsAAlone) {
    const auto l = layoutOf(1920, 1080, 960, 540);
    const CompareGeometry g = compareGeometry(CompareMode::Off, l, 960, 540, 0.5, 1920, 1080, 1920, 1080);
    EXPECT_EQ(g.a.picture.w, 960);
    EXPECT_EQ(g.a.clip.w, 960);
    EXPECT_TRUE(g.b.clip.empty());
    EXPECT_LT(g.divider, 0);
    const auto p = comparePixelAt(g, 1920, 1080, 1920, 1080, 480.5, 270.5);
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->b);
    EXPECT_EQ(p->pixel.x, 961);
}

TEST(CompareLayout, WipeSplitsThePictureAtTheDivider) {
    // 100% zoom, a 400x200 picture in an 800x400 view: at (200, 100) .. (600, 300).
    const auto l = layoutOf(400, 200, 800, 400, 1.0);
    const CompareGeometry g = compareGeometry(CompareMode::Wipe, l, 800, 400, 0.25, 400, 200, 400, 200);
    EXPECT_EQ(g.divider, 300);   // a quarter across the picture
    EXPECT_EQ(g.a.clip.x, 0);
    EXPECT_EQ(g.a.clip.w, 300);
    EXPECT_EQ(g.b.clip.x, 300);
    EXPECT_EQ(g.b.clip.w, 500);
    EXPECT_EQ(g.b.picture.x, g.a.picture.x);   // both at A's place
    EXPECT_EQ(g.b.picture.w, g.a.picture.w);
    auto left = comparePixelAt(g, 400, 200, 400, 200, 299.5, 150.5);
    auto right = comparePixelAt(g, 400, 200, 400, 200, 300.5, 150.5);
    ASSERT_TRUE(left && right);
    EXPECT_FALSE(left->b);
    EXPECT_EQ(left->pixel.x, 99);
    EXPECT_TRUE(right->b);
    EXPECT_EQ(right->pixel.x, 100);
    EXPECT_EQ(right->pixel.y, 50);
    // The divider stays on the same picture column when panned.
    PictureLayout panned = l;
    panned.panBy(37, 0);
    EXPECT_EQ(compareGeometry(CompareMode::Wipe, panned, 800, 400, 0.25, 400, 200, 400, 200).divider, 337);
    EXPECT_DOUBLE_EQ(wipeAt(g.a.picture, 400), 0.5);
    EXPECT_DOUBLE_EQ(wipeAt(g.a.picture, -10), 0.0);
    EXPECT_DOUBLE_EQ(wipeAt(g.a.picture, 10000), 1.0);
}

TEST(CompareLayout, WipeFitsABOfAnotherAspectIntoA) {
    const auto l = layoutOf(400, 200, 800, 400, 1.0);
    const CompareGeometry g = compareGeometry(CompareMode::Wipe, l, 800, 400, 0.5, 400, 200, 200, 200);
    EXPECT_EQ(g.b.picture.w, 200);
    EXPECT_EQ(g.b.picture.h, 200);
    EXPECT_EQ(g.b.picture.x, 300);   // centred in A's rectangle
}

TEST(CompareLayout, SplitShowsTheSameColumnsInBothHalves) {
    const auto l = layoutOf(400, 200, 800, 400, 1.0);
    const CompareGeometry g = compareGeometry(CompareMode::Split, l, 800, 400, 0.5, 400, 200, 400, 200);
    EXPECT_EQ(g.divider, 400);
    EXPECT_EQ(g.a.clip.w, 400);
    EXPECT_EQ(g.b.clip.x, 400);
    for (double x : {50.5, 120.5, 250.5, 399.5}) {
        auto a = comparePixelAt(g, 400, 200, 400, 200, x, 200.5);
        auto b = comparePixelAt(g, 400, 200, 400, 200, x + 400, 200.5);
        ASSERT_TRUE(a && b) << x;
        EXPECT_FALSE(a->b);
        EXPECT_TRUE(b->b);
        EXPECT_EQ(a->pixel.x, b->pixel.x) << x;
        EXPECT_EQ(a->pixel.y, b->pixel.y);
    }
    // The picture's middle column at each half's middle.
    auto mid = comparePixelAt(g, 400, 200, 400, 200, 200.5, 200.5);
    ASSERT_TRUE(mid);
    EXPECT_EQ(mid->pixel.x, 200);
}

TEST(CompareLayout, SideBySideFitsEachWholePictureIntoItsHalf) {
    const auto l = layoutOf(1920, 1080, 1000, 400);
    const CompareGeometry g = compareGeometry(CompareMode::SideBySide, l, 1000, 400, 0.5, 1920, 1080, 1280, 720);
    EXPECT_EQ(g.divider, 500);
    EXPECT_EQ(g.a.picture.w, 500);
    EXPECT_NEAR(g.a.picture.h, 281, 1);
    EXPECT_EQ(g.b.picture.x, 500);
    EXPECT_EQ(g.b.picture.w, 500);
    auto a = comparePixelAt(g, 1920, 1080, 1280, 720, 250.5, 200.5);
    auto b = comparePixelAt(g, 1920, 1080, 1280, 720, 750.5, 200.5);
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(a->b);
    EXPECT_TRUE(b->b);
    EXPECT_NEAR(a->pixel.x, 961, 2);
    EXPECT_NEAR(b->pixel.x, 641, 2);
    // Outside both pictures (the bands above and below): nothing.
    EXPECT_FALSE(comparePixelAt(g, 1920, 1080, 1280, 720, 250.5, 5.5));
}

TEST(CompareLayout, PixelsMapByProportionBetweenSizes) {
    EXPECT_EQ(mapPixel({641, 361}, 1280, 720, 1920, 1080).x, 962);
    EXPECT_EQ(mapPixel({641, 361}, 1280, 720, 1920, 1080).y, 542);
    EXPECT_EQ(mapPixel({5, 6}, 100, 100, 100, 100).x, 5);
    EXPECT_EQ(mapPixel({99, 99}, 100, 100, 10, 10).x, 9);
}

}  // namespace
}  // namespace cs
