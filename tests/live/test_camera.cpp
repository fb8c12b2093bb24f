// Cameras without a camera: enumeration where there are no devices, the errors for a
// missing device and bad camera syntax, and the packed 4:2:2 path (YUYV, UYVY frames handed
// over as they are, no conversion on the CPU) fed from a raw file through the same
// LiveSource code path a V4L2 device takes (only the demuxer differs).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/decode/DecodeTestUtil.h"
#include "LiveTestUtil.h"
#include "decode/LiveInput.h"
#include "decode/LiveReader.h"
#include "decode/LiveSource.h"
#include "decode/V4l2Devices.h"

extern "C" {
#include <libavutil/frame.h>
}

namespace cs {
namespace {

using test::TempDir;

TEST(V4l2Devices, NoDevicesIsAnEmptyList) {
    TempDir dir;
    EXPECT_TRUE(listV4l2Devices(dir.path().string()).empty());
    // Things named like devices that are not: a file, a directory, a dangling name.
    std::ofstream(dir.file("video0")) << "not a device";
    std::filesystem::create_directory(dir.file("video1"));
    std::ofstream(dir.file("videoX")) << "not even a number";
    EXPECT_TRUE(listV4l2Devices(dir.path().string()).empty());
    EXPECT_TRUE(listV4l2Devices(dir.file("no-such-directory")).empty());
}

TEST(V4l2Devices, ListingThisMachineWorks) {
    // Whatever this machine has (usually nothing on CI): every device listed is complete.
    for (const auto& device : listV4l2Devices()) {
        EXPECT_EQ(device.path.rfind("/dev/video", 0), 0u) << device.path;
        EXPECT_FALSE(device.name.empty()) << device.path;
        for (const auto& format : device.formats) {
            EXPECT_EQ(format.fourccText.size(), 4u);
            for (const auto& size : format.sizes) {
                EXPECT_GT(size.width, 0);
                EXPECT_GT(size.height, 0);
                for (const auto& rate : size.rates) EXPECT_GT(rate.fps(), 0.0);
            }
        }
    }
}

TEST(V4l2Devices, QueryErrorsNameTheDevice) {
    TempDir dir;
    EXPECT_EQ(queryV4l2Device(dir.file("video9")).message(), dir.file("video9") + ": no such device");
    std::ofstream(dir.file("video3")) << "x";
    EXPECT_EQ(queryV4l2Device(dir.file("video3")).message(), dir.file("video3") + ": not a video device");
}

TEST(V4l2Devices, FormatNamesAndInputStrings) {
    EXPECT_EQ(v4l2FormatName(0x56595559), "yuyv422");   // 'YUYV'
    EXPECT_EQ(v4l2FormatName(0x59565955), "uyvy422");   // 'UYVY'
    EXPECT_EQ(v4l2FormatName(0x47504a4d), "mjpeg");     // 'MJPG'
    EXPECT_EQ(v4l2FormatName(0x3231564e), "nv12");      // 'NV12'
    EXPECT_EQ(v4l2FormatName(0x34363248), "h264");      // 'H264'
    EXPECT_EQ(v4l2FormatName(0x30323449), "");          // 'I420' is not one we ask for by name
    EXPECT_EQ(fourccText(0x56595559), "YUYV");
    EXPECT_EQ(V4l2FrameRate({30000, 1001}).text(), "30000/1001");
    EXPECT_EQ(V4l2FrameRate({30, 1}).text(), "30");
    EXPECT_EQ(v4l2Input("/dev/video0"), "v4l2:/dev/video0");
    EXPECT_EQ(v4l2Input("/dev/video2", CameraMode{1280, 720, "30", "yuyv422"}),
              "v4l2:/dev/video2?size=1280x720&fps=30&format=yuyv422");
    // What v4l2Input writes, parseLiveInput reads back.
    auto parsed = parseLiveInput("v4l2:/dev/video2?size=1280x720&fps=30000/1001&format=mjpeg");
    ASSERT_TRUE(parsed) << parsed.message();
    EXPECT_EQ(parsed->devicePath, "/dev/video2");
    EXPECT_EQ(parsed->mode.width, 1280);
    EXPECT_EQ(parsed->mode.height, 720);
    EXPECT_EQ(parsed->mode.fps, "30000/1001");
    EXPECT_EQ(parsed->mode.format, "mjpeg");
}

TEST(Camera, MissingDeviceIsAClearError) {
    if (std::filesystem::exists("/dev/video9")) GTEST_SKIP() << "this machine has a /dev/video9";
    auto opened = openSource("v4l2:/dev/video9");
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.message(), "v4l2:/dev/video9: no such device");

    // Through the reader: failed at once, with the same words.
    test::Events wakes;
    LiveReader reader("v4l2:/dev/video9", LiveReader::Options{}, wakes.poster());
    ASSERT_TRUE(wakes.waitUntil([&] { return reader.state() == LiveState::Failed; }, std::chrono::seconds(30)));
    EXPECT_EQ(reader.status().message, "v4l2:/dev/video9: no such device");
}

TEST(Camera, NotADeviceAndBadSyntax) {
    TempDir dir;
    std::ofstream(dir.file("video0")) << "x";
    EXPECT_EQ(openSource("v4l2:" + dir.file("video0")).message(),
              "v4l2:" + dir.file("video0") + ": not a video device (" + dir.file("video0") + ")");
    EXPECT_EQ(openSource("v4l2:/dev/video0?size=big").message(),
              "v4l2:/dev/video0?size=big: size must be WxH (from 1x1 to 16384x16384), not 'big'");
    EXPECT_EQ(openSource("v4l2:/dev/video0?format=rgb48").message(),
              "v4l2:/dev/video0?format=rgb48: format must be yuyv422, uyvy422, mjpeg, nv12, h264, yuv420p or gray, "
              "not 'rgb48'");
    EXPECT_EQ(openSource("v4l2:/dev/video0?fps=0").message(),
              "v4l2:/dev/video0?fps=0: fps must be a frame rate above 0 and up to 100000 (30, 29.97 or 30000/1001), "
              "not '0'");
    EXPECT_EQ(openSource("v4l2:/dev/video0?zoom=2").message(),
              "v4l2:/dev/video0?zoom=2: unknown parameter 'zoom' (size, fps, format)");
    EXPECT_EQ(openSource("v4l2:").message(), "v4l2:: no device given (v4l2:/dev/video0)");
}

// A camera's raw frames as the v4l2 demuxer delivers them (rawvideo packets of one
// format), read from a file by the rawvideo demuxer through the camera's LiveSource path.
void expectPackedPassthrough(const std::string& avFormat, PixelFormat expected) {
    TempDir dir;
    const std::string raw = dir.file("camera." + avFormat);
    constexpr int kWidth = 64, kHeight = 48, kFrames = 5;
    ASSERT_TRUE(test::runFfmpeg("-f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 5 -pix_fmt " + avFormat +
                                " -f rawvideo \"" + raw + "\""));
    const std::vector<uint8_t> bytes = test::readFile(raw);
    const size_t frameBytes = size_t(kWidth) * kHeight * 2;
    ASSERT_EQ(bytes.size(), frameBytes * kFrames);

    LiveInput camera;
    camera.input = "camera test (" + avFormat + ")";
    camera.kind = LiveKind::Camera;
    camera.scheme = "v4l2";
    camera.url = raw;
    camera.devicePath = raw;
    camera.demuxer = "rawvideo";   // the one difference from /dev/videoN (video4linux2)
    camera.options = {{"video_size", "64x48"}, {"pixel_format", avFormat}, {"framerate", "25"}};
    camera.mode = CameraMode{kWidth, kHeight, "25", avFormat};
    OpenOptions options;
    options.hwdec = HwDecode::Auto;   // raw camera frames: software, without a word
    auto opened = openLiveSource(camera, options);
    ASSERT_TRUE(opened) << opened.message();
    Source& source = *opened.value();
    EXPECT_TRUE(source.info().live);
    EXPECT_FALSE(source.info().seekable);
    EXPECT_EQ(source.info().format, expected);
    EXPECT_EQ(source.info().sourcePixFmt, avFormat);
    for (int i = 0; i < kFrames; ++i) {
        VideoFrame frame;
        const ReadResult r = source.read(frame);
        ASSERT_EQ(r.status, ReadStatus::Frame) << r.message;
        EXPECT_EQ(frame.view.format, expected);
        EXPECT_EQ(frame.view.width, kWidth);
        EXPECT_EQ(frame.view.height, kHeight);
        EXPECT_FALSE(frame.onDevice);
        // Handed over as the packet came: the decoder's frame in that format, no converted copy.
        EXPECT_EQ(frame.holder->format, avFormat == "yuyv422" ? AV_PIX_FMT_YUYV422 : AV_PIX_FMT_UYVY422);
        const std::vector<uint8_t> packed = test::packFrame(frame.view, avFormat);
        ASSERT_EQ(packed.size(), frameBytes);
        EXPECT_TRUE(std::equal(packed.begin(), packed.end(), bytes.begin() + std::ptrdiff_t(frameBytes * size_t(i))))
            << "frame " << i << " differs from the raw file";
    }
    for (const auto& warning : source.takeWarnings())
        EXPECT_EQ(warning.find("converted"), std::string::npos) << warning;
    // The end of a camera's frames is a fault to reconnect from, not a quiet end.
    VideoFrame past;
    const ReadResult end = source.read(past);
    EXPECT_EQ(end.status, ReadStatus::Error);
    EXPECT_NE(end.message.find("the camera stopped delivering frames"), std::string::npos) << end.message;
}

TEST(Camera, YuyvFramesPassThroughUnconverted) { expectPackedPassthrough("yuyv422", PixelFormat::Yuyv422); }
TEST(Camera, UyvyFramesPassThroughUnconverted) { expectPackedPassthrough("uyvy422", PixelFormat::Uyvy422); }

}  // namespace
}  // namespace cs
