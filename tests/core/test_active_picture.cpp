// The active picture of one frame (analysis/ActivePicture.h's activePictureOf, what the
// window's View > Guides > Active Picture draws): cropdetect's rule with nothing carried
// between frames, the luma read where it lies. Known bars give known areas, and the frame
// reader agrees with qc's (CropDetector::add on the unpacked planes, tested against FFmpeg's
// cropdetect in app_tests' QcScenes.ActiveAreaEqualsCropdetect) for every layout.
#include <gtest/gtest.h>

#include "analysis/ActivePicture.h"
#include "analysis/SignalStats.h"
#include "core/Frame.h"

namespace cs {
namespace {

// A 96x64 picture whose rows [top, bottom) and columns [left, right) are a mid-grey
// picture with a gradient, the rest black (code 16 at 8 bits, 64 at 10).
Frame barred(PixelFormat format, int top, int bottom, int left, int right) {
    Frame f(format, 96, 64);
    const int shift = f.view().bitDepth() - 8;
    f.fill(16 << shift, 128 << shift, 128 << shift);
    for (int y = top; y < bottom; ++y)
        for (int x = left; x < right; ++x) f.setPixel(x, y, (60 + x) << shift, 128 << shift, 128 << shift);
    return f;
}

CropArea viaPlanes(const FrameView& view) {
    SignalStatsMeter meter;
    SignalStats stats;
    EXPECT_TRUE(meter.measure(view, 0, stats).ok());
    CropDetector detector(24.0 / 255, 16, 0);
    return detector.add(meter.current()).value_or(CropArea{});
}

TEST(ActivePicture, LetterboxAndPillarboxGiveTheirAreas) {
    // Letterbox: rows 8..55 are picture. cropdetect: y = 8 (even), h = 48 (a multiple of 16).
    auto a = activePictureOf(barred(PixelFormat::Yuv420p, 8, 56, 0, 96).view());
    ASSERT_TRUE(a);
    EXPECT_EQ((std::array{a->x, a->y, a->w, a->h}), (std::array{0, 8, 96, 48}));
    // Pillarbox: columns 16..79. x = 16, w = 64.
    a = activePictureOf(barred(PixelFormat::Yuv420p, 0, 64, 16, 80).view());
    ASSERT_TRUE(a);
    EXPECT_EQ((std::array{a->x, a->y, a->w, a->h}), (std::array{16, 0, 64, 64}));
    // No bars: the whole frame.
    a = activePictureOf(barred(PixelFormat::Yuv420p, 0, 64, 0, 96).view());
    ASSERT_TRUE(a);
    EXPECT_EQ((std::array{a->x, a->y, a->w, a->h}), (std::array{0, 0, 96, 64}));
}

TEST(ActivePicture, EqualsQcsReaderInEveryLayoutAndRefusesRgb) {
    for (PixelFormat format : {PixelFormat::Yuv420p, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10,
                               PixelFormat::Uyvy422, PixelFormat::Gray10}) {
        for (const auto& [top, bottom, left, right] : {std::array{8, 56, 0, 96}, std::array{6, 58, 10, 90}, std::array{0, 64, 0, 96}}) {
            const Frame f = barred(format, top, bottom, left, right);
            const auto a = activePictureOf(f.view());
            ASSERT_TRUE(a) << formatInfo(format).name;
            EXPECT_EQ(*a, viaPlanes(f.view())) << formatInfo(format).name << " " << top << " " << left;
        }
    }
    EXPECT_FALSE(activePictureOf(Frame(PixelFormat::Bgra, 96, 64).view()));
    FrameView onDevice = barred(PixelFormat::Nv12, 8, 56, 0, 96).view();
    onDevice.onDevice = true;
    EXPECT_FALSE(activePictureOf(onDevice));
}

}  // namespace
}  // namespace cs
