// Regions (core/FrameRegion.h): the CPU engine's scopes of a region of a frame equal its
// scopes of the same region cropped and built as a frame of its own, every count, statistic
// and image; snapping to the chroma grid; one line; refusals naming the region.
#include <gtest/gtest.h>

#include <random>

#include "core/FrameRegion.h"
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
