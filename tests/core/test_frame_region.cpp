// Regions (core/FrameRegion.h): the CPU engine's scopes of a region of a frame equal its
// scopes of the same region cropped and built as a frame of its own, every count, statistic
// and image; snapping to the chroma grid; one line; refusals naming the region.
#include <gtest/gtest.h>

#include <random>

#include "core/FieldView.h"
#include "core/FrameRegion.h"
#include "core/Gamut.h"
#include "cpu/CpuEngine.h"
#include "tests/common/RegionScopes.h"

using namespace cs;
using namespace cs::testing;

namespace {

void expectRegionMatchesCrop(PixelFormat f, int w, int h, FrameRegion region, ParadeMode mode, Transfer transfer,
                             const FrameRegion& snapped) {
    SCOPED_TRACE(std::string(formatInfo(f).name) + " region " + regionName(region));
    std::mt19937 rng(uint32_t(int(f) * 131 + region.x * 7 + region.y));
    ColorInfo color;
    color.transfer = transfer;
    const Components c = randomComponents(f, w, h, rng);
    const Frame frame = buildFrame(f, c, color);
    ASSERT_EQ(snapRegion(region, f, w, h), snapped);
    const Frame crop = buildFrame(f, cropComponents(f, c, snapped), color);
    auto view = regionView(frame.view(), region);
    ASSERT_TRUE(view.ok()) << view.message();
    EXPECT_EQ(view->width, snapped.width);
    EXPECT_EQ(view->height, snapped.height);
    const ScopeSpec spec = everyScope(mode);
    auto engine = makeCpuEngine(2);
    ScopeResults ofRegion, ofCrop;
    ASSERT_TRUE(engine->process(*view, spec, ofRegion).ok());
    ASSERT_TRUE(engine->process(crop.view(), spec, ofCrop).ok());
    EXPECT_EQ(ofRegion.width, snapped.width);
    expectSameScopes(ofRegion, ofCrop);
}

}  // namespace

TEST(FrameRegion, SnapsToTheChromaGrid) {
    const FrameRegion odd{5, 3, 17, 11};
    EXPECT_EQ(snapRegion(odd, PixelFormat::Yuv420p, 37, 29), (FrameRegion{4, 2, 18, 12}));
    EXPECT_EQ(snapRegion(odd, PixelFormat::P010, 37, 29), (FrameRegion{4, 2, 18, 12}));
    EXPECT_EQ(snapRegion(odd, PixelFormat::Yuv422p10, 37, 29), (FrameRegion{4, 3, 18, 11}));
    EXPECT_EQ(snapRegion(odd, PixelFormat::Uyvy422, 37, 29), (FrameRegion{4, 3, 18, 11}));
    EXPECT_EQ(snapRegion(odd, PixelFormat::Yuv444p, 37, 29), odd);
    EXPECT_EQ(snapRegion(odd, PixelFormat::Rgb24, 37, 29), odd);
    // At a frame of odd size the region may end on the frame's half chroma sample.
    EXPECT_EQ(snapRegion({35, 27, 2, 2}, PixelFormat::Nv12, 37, 29), (FrameRegion{34, 26, 3, 3}));
    // Clipped to the frame first; nothing left is empty.
    EXPECT_EQ(snapRegion({30, 20, 20, 20}, PixelFormat::Yuv444p, 37, 29), (FrameRegion{30, 20, 7, 9}));
    EXPECT_EQ(snapRegion({40, 0, 5, 5}, PixelFormat::Yuv444p, 37, 29), FrameRegion{});
    // One line keeps its row, at odd y too.
    EXPECT_EQ(snapRegion({0, 7, 37, 1}, PixelFormat::Yuv420p, 37, 29), (FrameRegion{0, 7, 37, 1}));
}

TEST(FrameRegion, ScopesEqualThoseOfTheCroppedFrame) {
    const FrameRegion odd{5, 3, 17, 11};
    expectRegionMatchesCrop(PixelFormat::Yuv420p, 37, 29, odd, ParadeMode::Rgb, Transfer::Bt709, {4, 2, 18, 12});
    expectRegionMatchesCrop(PixelFormat::Nv12, 37, 29, odd, ParadeMode::Ycbcr, Transfer::Bt709, {4, 2, 18, 12});
    expectRegionMatchesCrop(PixelFormat::P010, 37, 29, odd, ParadeMode::Rgb, Transfer::Pq, {4, 2, 18, 12});
    expectRegionMatchesCrop(PixelFormat::Yuv420p10, 37, 29, {35, 27, 2, 2}, ParadeMode::Ycbcr, Transfer::Hlg, {34, 26, 3, 3});
    expectRegionMatchesCrop(PixelFormat::Yuv422p10, 37, 29, odd, ParadeMode::Rgb, Transfer::Bt709, {4, 3, 18, 11});
    expectRegionMatchesCrop(PixelFormat::Uyvy422, 37, 29, odd, ParadeMode::Rgb, Transfer::Bt709, {4, 3, 18, 11});
    expectRegionMatchesCrop(PixelFormat::Bgra, 37, 29, odd, ParadeMode::Rgb, Transfer::Bt709, odd);
    expectRegionMatchesCrop(PixelFormat::Gray10, 37, 29, odd, ParadeMode::Ycbcr, Transfer::Bt709, odd);
}

TEST(FrameRegion, OneLineIsThatLinesScopes) {
    expectRegionMatchesCrop(PixelFormat::Yuv420p, 37, 29, {0, 7, 37, 1}, ParadeMode::Rgb, Transfer::Bt709, {0, 7, 37, 1});
    expectRegionMatchesCrop(PixelFormat::P010, 37, 29, {0, 28, 37, 1}, ParadeMode::Ycbcr, Transfer::Bt709, {0, 28, 37, 1});
    // The whole frame as a region is the frame.
    expectRegionMatchesCrop(PixelFormat::Nv12, 37, 29, {0, 0, 37, 29}, ParadeMode::Rgb, Transfer::Bt709, {0, 0, 37, 29});
}

TEST(FrameRegion, RefusesEmptyAndOutsideRegionsNamingThem) {
    const Frame frame(PixelFormat::Nv12, 37, 29);
    const auto empty = regionView(frame.view(), {3, 3, 0, 5});
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.message().find("0x5 at (3,3)"), std::string::npos) << empty.message();
    EXPECT_NE(empty.message().find("empty"), std::string::npos) << empty.message();
    for (const FrameRegion& r : {FrameRegion{40, 0, 5, 5}, FrameRegion{30, 20, 10, 10}, FrameRegion{-1, 0, 4, 4}}) {
        const auto outside = regionView(frame.view(), r);
        ASSERT_FALSE(outside.ok()) << regionName(r);
        EXPECT_NE(outside.message().find(regionName(r)), std::string::npos) << outside.message();
        EXPECT_NE(outside.message().find("outside the 37x29 frame"), std::string::npos) << outside.message();
    }
}

// Fields (core/FieldView.h): the CPU engine's scopes of a field equal its scopes of the
// field's lines (and, for 4:2:0, its parity's chroma rows) built as a frame of their own.
TEST(FieldView, ScopesEqualThoseOfTheFieldsLinesAsAFrame) {
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10, PixelFormat::Uyvy422,
                          PixelFormat::Yuv444p, PixelFormat::Rgb24})
        for (int h : {30, 29, 24})
            for (Field field : {Field::Top, Field::Bottom}) {
                SCOPED_TRACE(std::string(formatInfo(f).name) + " height " + std::to_string(h) + " " + fieldName(field));
                std::mt19937 rng(uint32_t(int(f) * 31 + h * 2 + int(field)));
                const Components c = randomComponents(f, 37, h, rng);
                const Frame frame = buildFrame(f, c, ColorInfo{});
                const Frame alone = buildFrame(f, fieldComponents(f, c, field), ColorInfo{});
                auto view = fieldView(frame.view(), field);
                ASSERT_TRUE(view.ok()) << view.message();
                EXPECT_EQ(view->height, alone.height());
                const ScopeSpec spec = everyScope(ParadeMode::Rgb);
                auto engine = makeCpuEngine(2);
                ScopeResults ofField, ofAlone;
                ASSERT_TRUE(engine->process(*view, spec, ofField).ok());
                ASSERT_TRUE(engine->process(alone.view(), spec, ofAlone).ok());
                expectSameScopes(ofField, ofAlone);
            }
}

TEST(FieldView, HeightsOrderAndRefusals) {
    // 1080 lines: 540 a field; 486-line 4:2:0 (243 a field): the bottom field's 243rd line
    // has no chroma row of its parity, 4:2:2 keeps it.
    EXPECT_EQ(fieldHeight(PixelFormat::Nv12, 1080, Field::Top), 540);
    EXPECT_EQ(fieldHeight(PixelFormat::Nv12, 1080, Field::Bottom), 540);
    EXPECT_EQ(fieldHeight(PixelFormat::Yuv420p, 486, Field::Top), 243);
    EXPECT_EQ(fieldHeight(PixelFormat::Yuv420p, 486, Field::Bottom), 242);
    EXPECT_EQ(fieldHeight(PixelFormat::Yuv422p10, 486, Field::Bottom), 243);
    EXPECT_EQ(fieldHeight(PixelFormat::Yuv444p, 29, Field::Top), 15);
    EXPECT_EQ(fieldHeight(PixelFormat::Yuv444p, 29, Field::Bottom), 14);
    EXPECT_EQ(frameRow(fieldRow(7), fieldOfRow(7)), 7);
    EXPECT_EQ(frameRow(fieldRow(8), fieldOfRow(8)), 8);
    EXPECT_EQ(firstField("tff"), Field::Top);
    EXPECT_EQ(firstField("bt"), Field::Top);
    EXPECT_EQ(firstField("bff"), Field::Bottom);
    EXPECT_EQ(firstField("tb"), Field::Bottom);
    EXPECT_EQ(firstField(""), Field::Top);
    // An untagged 576-line frame's assumed primaries (BT.601 625) stay with its 288-line fields.
    Frame sd(PixelFormat::Yuv420p, 720, 576);
    auto top = fieldView(sd.view(), Field::Top);
    ASSERT_TRUE(top.ok());
    EXPECT_EQ(effectivePrimaries(top->color, top->height), effectivePrimaries(sd.view().color, 576));
    const Frame oneLine(PixelFormat::Yuv444p, 8, 1);
    auto refused = fieldView(oneLine.view(), Field::Bottom);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("bottom field of the 8x1 frame"), std::string::npos) << refused.message();
}
