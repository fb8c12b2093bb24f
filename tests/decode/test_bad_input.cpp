// Bad input never crashes: inputs that cannot be decoded are refused with one sentence
// naming the input and the reason; damaged, cut or garbled data decodes whatever decodes,
// with warnings naming where; a change of size or pixel format mid-stream is followed.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "DecodeTestUtil.h"
#include "decode/FFmpegErrors.h"

extern "C" {
#include <libavutil/error.h>
}

namespace cs {
namespace {

using test::openOrFail;
using test::runFfmpeg;
using test::TempDir;
using test::testsrc;


// The error of opening `input`, checked to be one line that starts with the input's name.
std::string openError(const std::string& input) {
    auto opened = openSource(input);
    EXPECT_FALSE(opened) << input << " opened";
    if (opened) return {};
    const std::string& message = opened.message();
    EXPECT_EQ(message.rfind(input + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
}

TEST(BadInput, MissingFile) {
    TempDir dir;
    const std::string message = openError(dir.file("missing.mp4"));
    EXPECT_EQ(message, dir.file("missing.mp4") + ": No such file or directory");
}

TEST(BadInput, TextFileIsNotMedia) {
    TempDir dir;
    const std::string notes = dir.file("notes.txt");
    std::ofstream(notes) << "Shot list for Tuesday.\nScene 4, take 2: use the wide.\n";
    EXPECT_EQ(openError(notes), notes + ": not a media file (its contents match no format FFmpeg knows)");
}

TEST(BadInput, ZeroLengthFile) {
    TempDir dir;
    const std::string empty = dir.file("empty.mp4");
    std::ofstream{empty};
    EXPECT_NE(openError(empty).find("empty file (0 bytes)"), std::string::npos);
}

TEST(BadInput, DirectoryIsNotMedia) {
    TempDir dir;
    EXPECT_NE(openError(dir.path().string()).find("is a directory"), std::string::npos);
}

TEST(BadInput, AudioOnlyFileHasNoVideoStream) {
    TempDir dir;
    const std::string wav = dir.file("tone.wav");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i sine=frequency=440:duration=0.2 " + wav));
    EXPECT_EQ(openError(wav), wav + ": no video stream");
}

TEST(BadInput, UnknownCodecIsUnsupported) {
    TempDir dir;
    const std::string clip = dir.file("clip.avi"), retagged = dir.file("mystery.avi");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 2) + " -c:v ffv1 " + clip));
    // The same bytes under a fourcc no decoder knows (the AVI muxer would refuse to write it).
    auto bytes = test::readFile(clip);
    int replaced = 0;
    for (size_t i = 0; i + 4 <= bytes.size(); ++i)
        if (bytes[i] == 'F' && bytes[i + 1] == 'F' && bytes[i + 2] == 'V' && bytes[i + 3] == '1') {
            bytes[i] = bytes[i + 1] = bytes[i + 2] = bytes[i + 3] = 'Q';
            ++replaced;
        }
    ASSERT_GT(replaced, 0);
    test::writeFile(retagged, bytes);
    const std::string message = openError(retagged);
    EXPECT_NE(message.find("unsupported video codec"), std::string::npos) << message;
    EXPECT_NE(message.find("QQQQ"), std::string::npos) << "the fourcc names the codec: " << message;
}

TEST(BadInput, AbsurdSizeIsRefused) {
    TempDir dir;
    const std::string y4m = dir.file("huge.y4m");
    {
        std::ofstream out(y4m, std::ios::binary);
        out << "YUV4MPEG2 W100000 H100000 F25:1 Ip A1:1 C420jpeg\nFRAME\n";
        out << std::string(4096, '\x80');
    }
    const std::string message = openError(y4m);
    EXPECT_NE(message.find("100000x100000"), std::string::npos) << message;
}

// The y4m demuxer refuses a zero width with a message, and returns a code that reads
// "Device or resource busy" (an accident of its arithmetic): the sentence quotes the message.
TEST(BadInput, ZeroWidthY4mSaysWhatIsWrong) {
    TempDir dir;
    const std::string y4m = dir.file("zero-width.y4m");
    {
        std::ofstream out(y4m, std::ios::binary);
        out << "YUV4MPEG2 W0 H48 F25:1 Ip A1:1 C420jpeg\nFRAME\n" << std::string(4096, '\x80');
    }
    const std::string message = openError(y4m);
    EXPECT_NE(message.find("0x48 is invalid"), std::string::npos) << message;
    EXPECT_EQ(message.find("busy"), std::string::npos) << message;
}

// A stream in a pixel format neither the engines nor swscale read (4-bit bgr4): refused with
// the input named once.
TEST(BadInput, UnreadablePixelFormatNamesTheInputOnce) {
    const std::string nut = test::dataFile("damaged/bgr4_64x48.nut");
    ASSERT_FALSE(nut.empty());
    const std::string message = openError(nut);
    EXPECT_NE(message.find("pixel format bgr4"), std::string::npos) << message;
    EXPECT_EQ(message.find(nut, 1), std::string::npos) << "the input is named twice: " << message;
}

// FFmpeg's codes in words: its own text where that is plain, an explanation where not.
TEST(FFmpegErrors, CodesReadAsWords) {
    EXPECT_EQ(ff::errorText(AVERROR(ENOENT)), "No such file or directory");
    EXPECT_EQ(ff::errorText(AVERROR(ECONNREFUSED)), "Connection refused");
    EXPECT_EQ(ff::errorText(AVERROR_HTTP_NOT_FOUND), "Server returned 404 Not Found");
    EXPECT_EQ(ff::errorText(AVERROR(EIO)).rfind("input/output error: nothing could be read", 0), 0u)
        << ff::errorText(AVERROR(EIO));
    EXPECT_EQ(ff::errorText(AVERROR_INVALIDDATA), "invalid data: damaged, or not in the format it claims to be");
    EXPECT_EQ(ff::errorText(AVERROR(EBUSY)), "Device or resource busy: another program is using it");
    EXPECT_EQ(ff::errorText(AVERROR_EXIT), "cancelled");
    EXPECT_EQ(ff::errorText(AVERROR_EOF), "the input ended");
    EXPECT_EQ(ff::errorText(AVERROR(ENOMEM)), "out of memory");
    EXPECT_EQ(ff::errorText(AVERROR_PATCHWELCOME), "uses a feature FFmpeg does not implement");
    EXPECT_EQ(ff::errorText(AVERROR_PROTOCOL_NOT_FOUND), "this FFmpeg cannot open that kind of URL: no such protocol");
    EXPECT_EQ(ff::errorText(AVERROR_BUG), "an internal error in FFmpeg");
    EXPECT_EQ(ff::errorText(-123456789).rfind("error ", 0), 0u) << "an unknown code still says something";
}

// A UDP address nothing sends to, with FFmpeg's own read timeout: the sentence says nothing
// could be read, not a bare "Input/output error".
TEST(BadInput, SilentUdpAddressSaysNothingCouldBeRead) {
    // A port that was free a moment ago. LiveSource reads "401", "403" and "404" anywhere in
    // an open error (URL included) as an HTTP refusal: keep those digits out of the port.
    std::string port;
    for (int attempt = 0; attempt < 20 && port.empty(); ++attempt) {
        const int probe = ::socket(AF_INET, SOCK_DGRAM, 0);
        ASSERT_GE(probe, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        socklen_t length = sizeof address;
        ASSERT_EQ(::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length), 0);
        ::close(probe);
        port = std::to_string(ntohs(address.sin_port));
        if (port.find("40") != std::string::npos) port.clear();
    }
    ASSERT_FALSE(port.empty());
    const std::string url = "udp://127.0.0.1:" + port + "?timeout=200000";
    const std::string message = openError(url);
    EXPECT_NE(message.find("nothing could be read"), std::string::npos) << message;
    EXPECT_NE(message, url + ": Input/output error");
}

TEST(BadInput, OddSizeIsFine) {
    TempDir dir;
    const std::string y4m = dir.file("odd.y4m");
    ASSERT_TRUE(runFfmpeg(testsrc(1921, 1081, 1) + " -pix_fmt yuv420p " + y4m));
    auto source = openOrFail(y4m);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().width, 1921);
    EXPECT_EQ(source->info().height, 1081);
    EXPECT_EQ(test::readAll(*source).size(), 1u);
}

// Motion JPEG frames are independent pictures: a stream whose middle frames claim 16400
// pixels a row skips exactly those, with a warning each, and goes on; starting with them
// is refused at open.
TEST(BadInput, AbsurdFramesMidStreamAreSkipped) {
    TempDir dir;
    const std::string normal = dir.file("normal.mjpeg"), wide = dir.file("wide.mjpeg"), mixed = dir.file("mixed.mjpeg"),
                      wideFirst = dir.file("wide-first.mjpeg");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 3) + " -c:v mjpeg -f mjpeg " + normal));
    ASSERT_TRUE(runFfmpeg("-f lavfi -i color=s=16400x16:r=25 -frames:v 2 -c:v mjpeg -f mjpeg " + wide));
    const auto n = test::readFile(normal), w = test::readFile(wide);
    std::vector<uint8_t> bytes(n);
    bytes.insert(bytes.end(), w.begin(), w.end());
    bytes.insert(bytes.end(), n.begin(), n.end());
    test::writeFile(mixed, bytes);
    bytes.assign(w.begin(), w.end());
    bytes.insert(bytes.end(), n.begin(), n.end());
    test::writeFile(wideFirst, bytes);

    auto source = openOrFail(mixed);
    ASSERT_TRUE(source);
    const auto frames = test::readAll(*source);
    ASSERT_EQ(frames.size(), 6u);
    for (const auto& f : frames) {
        EXPECT_EQ(f.view.width, 64);
        EXPECT_EQ(f.view.height, 48);
    }
    const auto warnings = source->takeWarnings();
    ASSERT_EQ(warnings.size(), 2u) << test::joined(warnings);
    // Frames are named by the index they are delivered with (from 0): the two skipped ones
    // come between delivered frames 2 and 3, at 0.120 s and 0.160 s (25 fps).
    EXPECT_NE(warnings[0].find("the frame at 0.120 s (before frame 3)"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("16400x16 exceeds the 16384x16384 limit; frame skipped"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[1].find("the frame at 0.160 s (before frame 3)"), std::string::npos) << warnings[1];

    EXPECT_NE(openError(wideFirst).find("16400x16 exceeds"), std::string::npos);
}

// Garbage written over the middle of an MPEG-TS clip: decoding continues past it, and the
// damage is reported with its position.
TEST(BadInput, GarbageInTheMiddleIsSurvived) {
    TempDir dir;
    const std::string clip = dir.file("clip.ts"), damaged = dir.file("damaged.ts");
    const int frames = 50;
    ASSERT_TRUE(runFfmpeg(testsrc(160, 120, frames) + " -pix_fmt yuv420p -c:v libx264 -g 10 -bf 2 " + clip));
    auto bytes = test::readFile(clip);
    std::mt19937 random(1);
    for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 3000 && i < bytes.size(); ++i) bytes[i] = uint8_t(random());
    test::writeFile(damaged, bytes);

    auto source = openOrFail(damaged);
    ASSERT_TRUE(source);
    const auto decoded = test::readAll(*source);
    EXPECT_GE(decoded.size(), 40u) << "frames after the garbage decode too";
    EXPECT_LE(decoded.size(), size_t(frames));
    EXPECT_GT(decoded.back().view.pts, 1.8) << "decoding reached the end of the clip";
    const auto warnings = source->takeWarnings();
    ASSERT_FALSE(warnings.empty());
    EXPECT_TRUE(test::anyContains(warnings, "packet ") || test::anyContains(warnings, "frame ")) << test::joined(warnings);
}

// Random bytes everywhere after the header: many errors, still no crash and no hang.
TEST(BadInput, HeavilyDamagedClipEndsCleanly) {
    TempDir dir;
    const std::string clip = dir.file("clip.mkv"), damaged = dir.file("noise.mkv");
    ASSERT_TRUE(runFfmpeg(testsrc(96, 64, 30) + " -pix_fmt yuv420p -c:v libx264 -g 5 " + clip));
    auto bytes = test::readFile(clip);
    std::mt19937 random(7);
    for (size_t i = 600; i < bytes.size(); i += 7) bytes[i] = uint8_t(random());
    test::writeFile(damaged, bytes);
    auto opened = openSource(damaged);
    if (!opened) {
        EXPECT_EQ(opened.message().rfind(damaged + ": ", 0), 0u) << opened.message();
        return;
    }
    auto& source = *opened.value();
    size_t frames = 0;
    VideoFrame f;
    for (int guard = 0; guard < 1000; ++guard) {
        const ReadResult r = source.read(f);
        if (r.status != ReadStatus::Frame) break;
        ++frames;
        EXPECT_TRUE(f.view.valid());
    }
    EXPECT_LE(frames, 30u);
}

// Two MPEG-TS H.264 segments of different sizes (and a third in 4:2:2) joined byte for byte:
// later frames carry the new size and format, warnings say what changed, SourceInfo follows.
TEST(BadInput, SizeAndFormatChangesMidStreamAreFollowed) {
    TempDir dir;
    const std::string a = dir.file("a.ts"), b = dir.file("b.ts"), c = dir.file("c.ts"), joined = dir.file("joined.ts");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 10) + " -pix_fmt yuv420p -c:v libx264 -g 5 " + a));
    ASSERT_TRUE(runFfmpeg(testsrc(96, 64, 10) + " -pix_fmt yuv420p -c:v libx264 -g 5 " + b));
    ASSERT_TRUE(runFfmpeg(testsrc(96, 64, 10) + " -pix_fmt yuv422p -c:v libx264 -g 5 " + c));
    std::vector<uint8_t> all;
    for (const auto& part : {a, b, c}) {
        const auto bytes = test::readFile(part);
        all.insert(all.end(), bytes.begin(), bytes.end());
    }
    test::writeFile(joined, all);

    auto source = openOrFail(joined);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().width, 64);
    EXPECT_EQ(source->info().height, 48);
    const auto frames = test::readAll(*source);
    EXPECT_GE(frames.size(), 27u);
    EXPECT_LE(frames.size(), 30u);
    size_t small = 0, large420 = 0, large422 = 0;
    for (const auto& f : frames) {
        ASSERT_TRUE(f.view.valid());
        if (f.view.width == 64 && f.view.height == 48 && f.view.format == PixelFormat::Yuv420p) ++small;
        else if (f.view.width == 96 && f.view.height == 64 && f.view.format == PixelFormat::Yuv420p) ++large420;
        else if (f.view.width == 96 && f.view.height == 64 && f.view.format == PixelFormat::Yuv422p) ++large422;
        else ADD_FAILURE() << "unexpected frame " << f.view.width << "x" << f.view.height;
    }
    EXPECT_GE(small, 9u);
    EXPECT_GE(large420, 9u);
    EXPECT_GE(large422, 9u);
    EXPECT_EQ(frames.front().view.width, 64);
    EXPECT_EQ(frames.back().view.format, PixelFormat::Yuv422p);
    EXPECT_EQ(source->info().width, 96);
    EXPECT_EQ(source->info().height, 64);
    EXPECT_EQ(source->info().format, PixelFormat::Yuv422p);
    EXPECT_EQ(source->info().sourcePixFmt, "yuv422p");
    const auto warnings = source->takeWarnings();
    EXPECT_TRUE(test::anyContains(warnings, "frame size changed from 64x48 to 96x64")) << test::joined(warnings);
    EXPECT_TRUE(test::anyContains(warnings, "pixel format changed from yuv420p to yuv422p")) << test::joined(warnings);
}

}  // namespace
}  // namespace cs
