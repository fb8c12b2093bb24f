// render/PictureGuides.h without a display: the safe areas' and aspect guides' rectangles
// (known values for a 1920 x 1080 picture), and the segments on pixel centres.
#include <gtest/gtest.h>

#include "render/PictureGuides.h"

namespace {

using cs::AspectGuide;
using cs::RectF;

TEST(PictureGuides, SafeAreasAreCentredSharesOfTheWidthAndHeight) {
    const RectF picture{100, 50, 1920, 1080};
    const RectF action = cs::safeArea(picture, cs::kActionSafe);
    EXPECT_DOUBLE_EQ(action.w, 1785.6);   // 93% of 1920
    EXPECT_DOUBLE_EQ(action.h, 1004.4);
    EXPECT_DOUBLE_EQ(action.x, 100 + 67.2);   // 3.5% each side
    EXPECT_DOUBLE_EQ(action.y, 50 + 37.8);
    const RectF title = cs::safeArea(picture, cs::kTitleSafe);
    EXPECT_DOUBLE_EQ(title.x, 100 + 96.0);   // 5% each side
    EXPECT_DOUBLE_EQ(title.h, 972.0);
}

TEST(PictureGuides, AspectGuidesFrameTheCentredExtraction) {
    const RectF picture{0, 0, 1920, 1080};
    const RectF fourThree = cs::aspectArea(picture, cs::aspectRatio(AspectGuide::A4x3));   // pillars
    EXPECT_DOUBLE_EQ(fourThree.w, 1440.0);
    EXPECT_DOUBLE_EQ(fourThree.x, 240.0);
    EXPECT_DOUBLE_EQ(fourThree.h, 1080.0);
    const RectF scope = cs::aspectArea(picture, cs::aspectRatio(AspectGuide::A2_39));   // letterbox
    EXPECT_DOUBLE_EQ(scope.w, 1920.0);
    EXPECT_NEAR(scope.h, 803.35, 0.01);
    EXPECT_NEAR(scope.y, 138.33, 0.01);
    const RectF vertical = cs::aspectArea(picture, cs::aspectRatio(AspectGuide::A9x16));
    EXPECT_NEAR(vertical.w, 607.5, 1e-9);
}

TEST(PictureGuides, SegmentsSitOnPixelCentresInsideThePicture) {
    cs::PictureGuides g;
    g.actionSafe = true;
    g.set(AspectGuide::A4x3, true);
    g.set(AspectGuide::A2_39, true);
    g.centreCross = true;
    EXPECT_TRUE(g.shows(AspectGuide::A4x3));
    EXPECT_FALSE(g.shows(AspectGuide::A1_85));
    const cs::GuideSegments s = cs::guideSegments(RectF{0, 0, 1920, 1080}, g, 10);
    ASSERT_EQ(s.safe.size(), 16u);   // one rectangle: four segments
    EXPECT_FLOAT_EQ(s.safe[0], 67.5f);   // left edge at x 67.2: pixel 67
    EXPECT_FLOAT_EQ(s.safe[1], 37.5f);
    ASSERT_EQ(s.aspect.size(), 16u);     // two lines for each of two guides
    EXPECT_FLOAT_EQ(s.aspect[0], 240.5f);    // 4:3's left line
    EXPECT_FLOAT_EQ(s.aspect[4], 1679.5f);   // and its right one (x 1680 is outside the extraction)
    EXPECT_FLOAT_EQ(s.aspect[9], 138.5f);    // 2.39's top line
    ASSERT_EQ(s.cross.size(), 8u);
    EXPECT_FLOAT_EQ(s.cross[1], 540.5f);
    EXPECT_FLOAT_EQ(s.cross[4], 960.5f);
    // The picture's own aspect draws nothing; nothing shown, nothing drawn.
    cs::PictureGuides own;
    own.set(AspectGuide::A1x1, true);
    EXPECT_TRUE(cs::guideSegments(RectF{0, 0, 500, 500}, own).aspect.empty());
    EXPECT_FALSE(cs::PictureGuides{}.any());
}

}  // namespace
