// Damage reports from evidence. Each container cut inside the packet of one frame (the cut
// point read from the packets' positions with libavformat, so it lands where the test means
// whatever the encoder wrote): every frame before the cut decodes as in the whole file, and a
// warning names the input and what FFmpeg saw. The same files whole, and files whose audio
// outlasts the video, get no warning. The damaged files in tests/data/damaged, which once
// exported fewer frames in silence, now say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "DecodeTestUtil.h"

extern "C" {
#include <libavformat/avformat.h>
}

namespace cs {
namespace {

using test::openOrFail;
using test::runFfmpeg;
using test::TempDir;
using test::testsrc;

constexpr int kFrames = 50;
constexpr int kWidth = 96, kHeight = 64;
constexpr size_t kCutPacket = 30;   // cut inside the 31st video packet (decode order)

struct Container {
    const char* name;        // the test's name
    const char* extension;
    const char* encode;      // ffmpeg CLI output options
    const char* evidence;    // what the warning about the cut must say
    int transportPacket;     // MPEG-TS packet size (188, 192): the cut must not fall on a packet's end
};

std::string containerName(const testing::TestParamInfo<Container>& info) { return info.param.name; }

const auto kContainers = testing::Values(
    Container{"mp4", "mp4", "-c:v libx264 -g 10 -bf 2 -movflags +faststart", "partial file", 0},
    Container{"mov", "mov", "-c:v libx264 -g 10 -bf 2 -movflags +faststart", "partial file", 0},
    Container{"mkv", "mkv", "-c:v libx264 -g 10 -bf 2", "File ended prematurely", 0},
    Container{"mpegts", "ts", "-c:v libx264 -g 10 -bf 2", "the file ends mid-packet", 188},
    Container{"m2ts", "m2ts", "-c:v libx264 -g 10 -bf 2 -f mpegts -mpegts_m2ts_mode 1", "192-byte MPEG-TS packet", 192},
    Container{"avi", "avi", "-c:v libx264 -g 10 -bf 2", "before the 2.000 s its header states", 0},
    Container{"nut", "nut", "-c:v libx264 -g 10 -bf 2", "no index at the end", 0},
    Container{"mxf", "mxf", "-c:v mpeg2video -g 10 -bf 2", "before the 2.000 s its header states", 0},
    Container{"y4m", "y4m", "", "the file ends mid-frame", 0});

// A clip of kFrames frames in the container, and the raw frames the ffmpeg CLI decodes from it.
struct ClipWithReference {
    std::string path;
    std::vector<uint8_t> reference;
};

ClipWithReference makeClip(const TempDir& dir, const Container& c, const std::string& stem) {
    ClipWithReference clip{dir.file(stem + "." + c.extension), {}};
    const std::string raw = dir.file(stem + ".raw");
    EXPECT_TRUE(runFfmpeg(testsrc(kWidth, kHeight, kFrames) + " -pix_fmt yuv420p " + c.encode + " " + clip.path));
    EXPECT_TRUE(runFfmpeg("-i " + clip.path + " -f rawvideo -pix_fmt yuv420p " + raw));
    clip.reference = test::readFile(raw);
    return clip;
}

class WholeFile : public testing::TestWithParam<Container> {};

TEST_P(WholeFile, DecodesEveryFrameAndSaysNothing) {
    TempDir dir;
    const ClipWithReference clip = makeClip(dir, GetParam(), "whole");
    auto source = openOrFail(clip.path);
    ASSERT_TRUE(source);
    EXPECT_EQ(test::readAll(*source).size(), size_t(kFrames));
    const auto warnings = source->takeWarnings();
    EXPECT_TRUE(warnings.empty()) << test::joined(warnings);
}

class CutFile : public testing::TestWithParam<Container> {};

TEST_P(CutFile, DecodesUpToTheCutAndSaysWhatWasSeen) {
    const Container& c = GetParam();
    TempDir dir;
    const ClipWithReference clip = makeClip(dir, c, "whole");
    const auto packets = test::videoPackets(clip.path);
    ASSERT_EQ(packets.size(), size_t(kFrames));
    const test::PacketSpan& target = packets[kCutPacket];
    ASSERT_GE(target.pos, 0);
    ASSERT_GT(target.size, 1);
    int64_t cutAt = target.pos + target.size / 2;
    // A transport stream cut where one of its fixed-size packets ends looks whole: move the
    // cut half a packet on (still inside the frame's data, which spans several packets).
    if (c.transportPacket > 0 && cutAt % c.transportPacket == 0) cutAt += c.transportPacket / 2;

    auto bytes = test::readFile(clip.path);
    ASSERT_LT(size_t(cutAt), bytes.size());
    bytes.resize(size_t(cutAt));
    const std::string cut = dir.file(std::string("cut.") + c.extension);
    test::writeFile(cut, bytes);

    auto source = openOrFail(cut);
    ASSERT_TRUE(source);
    const auto decoded = test::readAll(*source);
    // Frames are reordered (B-frames) and the packets before the cut hold kCutPacket frames:
    // about that many decode, the one cut in half perhaps with concealed damage.
    EXPECT_GE(decoded.size(), kCutPacket - 4);
    EXPECT_LE(decoded.size(), kCutPacket + 1);
    const size_t frameSize = test::packedFrameSize("yuv420p", kWidth, kHeight);
    // The last few before the cut may lack references; the ones well before it are exact.
    for (size_t i = 0; i + 5 < decoded.size(); ++i) {
        const std::vector<uint8_t> expected(clip.reference.begin() + std::ptrdiff_t(i * frameSize),
                                            clip.reference.begin() + std::ptrdiff_t((i + 1) * frameSize));
        EXPECT_TRUE(test::packFrame(decoded[i].view, "yuv420p") == expected) << "frame " << i;
    }
    const auto warnings = source->takeWarnings();
    ASSERT_FALSE(warnings.empty()) << "a cut file must not look whole";
    for (const auto& w : warnings) EXPECT_EQ(w.rfind(cut + ": ", 0), 0u) << w;
    EXPECT_TRUE(test::anyContains(warnings, c.evidence)) << test::joined(warnings);
}

INSTANTIATE_TEST_SUITE_P(Containers, WholeFile, kContainers, containerName);
INSTANTIATE_TEST_SUITE_P(Containers, CutFile, kContainers, containerName);

// A 1 s video beside 3 s of audio is whole: the container's duration covers the audio, so
// it is no evidence about the video.
class AudioOutlastsVideo : public testing::TestWithParam<const char*> {};

// The whole file's duration (every stream), as libavformat reports it.
double containerDuration(const std::string& path) {
    AVFormatContext* format = nullptr;
    if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) return 0.0;
    double seconds = 0.0;
    if (avformat_find_stream_info(format, nullptr) >= 0 && format->duration > 0)
        seconds = double(format->duration) / AV_TIME_BASE;
    avformat_close_input(&format);
    return seconds;
}

TEST_P(AudioOutlastsVideo, SaysNothing) {
    TempDir dir;
    const std::string clip = dir.file(std::string("clip.") + GetParam());
    ASSERT_TRUE(runFfmpeg("-f lavfi -i testsrc2=s=96x64:r=25:d=1 -f lavfi -i sine=duration=3 -pix_fmt yuv420p "
                          "-c:v libx264 " + clip));
    EXPECT_GE(containerDuration(clip), 2.9) << "the audio outlasts the video";
    auto source = openOrFail(clip);
    ASSERT_TRUE(source);
    EXPECT_EQ(test::readAll(*source).size(), 25u);
    const auto warnings = source->takeWarnings();
    EXPECT_TRUE(warnings.empty()) << test::joined(warnings);
}

std::string extensionName(const testing::TestParamInfo<const char*>& param) { return param.param; }

INSTANTIATE_TEST_SUITE_P(Containers, AudioOutlastsVideo, testing::Values("mkv", "mp4", "mov", "ts", "avi", "nut"),
                         extensionName);

// A file read twice (a loop: seek to the start, read to the end again) reports its damage
// once: the second pass tells nothing new.
TEST(Integrity, DamageReadAgainIsNotReportedAgain) {
    TempDir dir;
    const std::string whole = dir.file("whole.mkv"), cut = dir.file("cut.mkv");
    ASSERT_TRUE(runFfmpeg(testsrc(kWidth, kHeight, 20) + " -pix_fmt yuv420p -c:v libx264 -g 10 " + whole));
    const auto packets = test::videoPackets(whole);
    ASSERT_EQ(packets.size(), 20u);
    auto bytes = test::readFile(whole);
    bytes.resize(size_t(packets[12].pos + packets[12].size / 2));
    test::writeFile(cut, bytes);

    auto source = openOrFail(cut);
    ASSERT_TRUE(source);
    const size_t first = test::readAll(*source).size();
    const auto warnings = source->takeWarnings();
    ASSERT_TRUE(test::anyContains(warnings, "File ended prematurely")) << test::joined(warnings);
    ASSERT_TRUE(source->seek(0.0));
    EXPECT_EQ(test::readAll(*source).size(), first);
    const auto again = source->takeWarnings();
    EXPECT_TRUE(again.empty()) << test::joined(again);
}

// ---- the damaged files found by hand (tests/data/damaged) -----------------------------------

// How many frames the ffmpeg CLI decodes from `path` (the independent reference).
size_t framesTheCliDecodes(const TempDir& dir, const std::string& path, const std::string& pixFmt, int width,
                           int height) {
    const std::string raw = dir.file("reference.raw");
    // Every decoded frame once: no frames repeated or dropped to make the rate constant.
    EXPECT_TRUE(runFfmpeg("-i " + path + " -fps_mode passthrough -f rawvideo -pix_fmt " + pixFmt + " " + raw));
    const size_t frameSize = test::packedFrameSize(pixFmt, width, height);
    return frameSize ? test::readFile(raw).size() / frameSize : 0;
}

struct Fixture {
    const char* file;
    const char* pixFmt;
    const char* evidence;   // what the warning must say
};

std::string fixtureName(const testing::TestParamInfo<Fixture>& param) {
    std::string name = param.param.file;
    std::replace_if(name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
    return name;
}

class DamagedFixture : public testing::TestWithParam<Fixture> {};

TEST_P(DamagedFixture, ExportsWhatTheCliDecodesAndSaysWhy) {
    const Fixture& f = GetParam();
    const std::string path = test::dataFile(std::string("damaged/") + f.file);
    ASSERT_FALSE(path.empty());
    TempDir dir;
    auto source = openOrFail(path);
    ASSERT_TRUE(source);
    const size_t expected = framesTheCliDecodes(dir, path, f.pixFmt, source->info().width, source->info().height);
    ASSERT_GT(expected, 0u);
    EXPECT_EQ(test::readAll(*source).size(), expected);
    const auto warnings = source->takeWarnings();
    ASSERT_FALSE(warnings.empty()) << "fewer frames than the file holds, and nothing said";
    for (const auto& w : warnings) EXPECT_EQ(w.rfind(path + ": ", 0), 0u) << w;
    EXPECT_TRUE(test::anyContains(warnings, f.evidence)) << test::joined(warnings);
}

INSTANTIATE_TEST_SUITE_P(
    DamagedFiles, DamagedFixture,
    testing::Values(Fixture{"y4m_trunc25833.y4m", "yuv422p10le", "its last 1171 bytes (from byte 24662) hold no whole frame"},
                    Fixture{"ts_trunc9494.ts", "yuv420p", "its last 94 bytes (from byte 9400) are all there is of a 188-byte"},
                    Fixture{"nut_del40_5322.nut", "uyvy422", "Last frame must have been damaged"}),
    fixtureName);

}  // namespace
}  // namespace cs
