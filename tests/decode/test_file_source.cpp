// File decoding against an independent reference: every frame equals the raw frame the
// ffmpeg CLI writes for the same clip (`-f rawvideo`), for every supported pixel format
// (odd sizes and 10-bit included); conversions of other formats; colour tags; seeking;
// draining at the end of the stream; software decoders' threads (libdav1d's own included)
// as reported and as running; the software fallback when NVDEC is asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <sched.h>

#include "DecodeTestUtil.h"

extern "C" {
#include <libavutil/pixdesc.h>
}

namespace cs {
namespace {

using test::openOrFail;
using test::runFfmpeg;
using test::TempDir;
using test::testsrc;


// Frame i of a raw file of packed frames.
std::vector<uint8_t> rawFrame(const std::vector<uint8_t>& raw, size_t frameSize, size_t i) {
    if ((i + 1) * frameSize > raw.size()) return {};
    return std::vector<uint8_t>(raw.begin() + std::ptrdiff_t(i * frameSize),
                                raw.begin() + std::ptrdiff_t((i + 1) * frameSize));
}

// ---- every supported pixel format, decoded in place, equals the CLI's raw frames ----------

struct FormatCase {
    const char* pixFmt;     // FFmpeg's name, as written and as expected back
    const char* codec;
    const char* container;
    int width, height, frames;
    PixelFormat expected;
    bool fullRange;         // yuvj formats
};

std::string caseName(const testing::TestParamInfo<FormatCase>& info) {
    std::string name = std::string(info.param.pixFmt) + "_" + info.param.codec + "_" + std::to_string(info.param.width) +
                       "x" + std::to_string(info.param.height);
    std::replace_if(name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
    return name;
}

class SupportedFormat : public testing::TestWithParam<FormatCase> {};

TEST_P(SupportedFormat, DecodesInPlaceAndEqualsTheCliRawFrames) {
    const FormatCase& c = GetParam();
    TempDir dir;
    const std::string clip = dir.file(std::string("clip.") + c.container), raw = dir.file("clip.raw");
    ASSERT_TRUE(runFfmpeg(testsrc(c.width, c.height, c.frames) + " -pix_fmt " + c.pixFmt + " -c:v " + c.codec + " " + clip));
    ASSERT_TRUE(runFfmpeg("-i " + clip + " -f rawvideo -pix_fmt " + c.pixFmt + " " + raw));
    const auto reference = test::readFile(raw);
    const size_t frameSize = test::packedFrameSize(c.pixFmt, c.width, c.height);
    ASSERT_GT(frameSize, 0u);
    ASSERT_EQ(reference.size(), frameSize * size_t(c.frames));

    auto source = openOrFail(clip);
    ASSERT_TRUE(source);
    const SourceInfo& info = source->info();
    EXPECT_EQ(info.width, c.width);
    EXPECT_EQ(info.height, c.height);
    EXPECT_EQ(info.format, c.expected);
    EXPECT_EQ(info.sourcePixFmt, c.pixFmt);
    EXPECT_EQ(info.codec, c.codec);
    EXPECT_NEAR(info.frameRate, 25.0, 1e-9);
    EXPECT_TRUE(info.seekable);
    if (c.fullRange) {   // the JPEG formats imply full range whatever the tags say
        EXPECT_EQ(info.color.range, Range::Full);
        EXPECT_TRUE(info.color.rangeTagged);
    }

    const auto frames = test::readAll(*source);
    ASSERT_EQ(frames.size(), size_t(c.frames));
    for (size_t i = 0; i < frames.size(); ++i) {
        SCOPED_TRACE("frame " + std::to_string(i));
        const VideoFrame& f = frames[i];
        ASSERT_TRUE(f.view.valid());
        EXPECT_EQ(f.view.format, c.expected);
        EXPECT_EQ(f.index, int64_t(i));
        EXPECT_NEAR(f.view.pts, double(i) / 25.0, 1e-3);
        EXPECT_FALSE(f.onDevice);
        ASSERT_TRUE(f.holder);
        for (int p = 0; p < formatInfo(c.expected).planeCount; ++p) {
            EXPECT_EQ(f.view.data[size_t(p)], f.holder->data[p]) << "plane " << p << " is not viewed in place";
            EXPECT_EQ(f.view.pitch[size_t(p)], f.holder->linesize[p]);
        }
        EXPECT_TRUE(test::packFrame(f.view, c.pixFmt) == rawFrame(reference, frameSize, i)) << "pixels differ";
    }
    EXPECT_TRUE(source->takeWarnings().empty());
}

INSTANTIATE_TEST_SUITE_P(
    AllNativeFormats, SupportedFormat,
    testing::Values(FormatCase{"yuv420p", "ffv1", "mkv", 64, 48, 3, PixelFormat::Yuv420p, false},
                    FormatCase{"yuv422p", "ffv1", "mkv", 64, 48, 3, PixelFormat::Yuv422p, false},
                    FormatCase{"yuv444p", "ffv1", "mkv", 64, 48, 3, PixelFormat::Yuv444p, false},
                    FormatCase{"yuv420p10le", "ffv1", "mkv", 64, 48, 3, PixelFormat::Yuv420p10, false},
                    FormatCase{"yuv422p10le", "ffv1", "mkv", 64, 48, 3, PixelFormat::Yuv422p10, false},
                    FormatCase{"yuv444p10le", "ffv1", "mkv", 64, 48, 3, PixelFormat::Yuv444p10, false},
                    FormatCase{"yuv420p", "ffv1", "mkv", 1921, 1081, 2, PixelFormat::Yuv420p, false},
                    FormatCase{"yuv420p10le", "ffv1", "mkv", 1921, 1081, 1, PixelFormat::Yuv420p10, false},
                    FormatCase{"yuv422p", "ffv1", "mkv", 65, 47, 3, PixelFormat::Yuv422p, false},
                    FormatCase{"yuv444p10le", "ffv1", "mkv", 67, 45, 3, PixelFormat::Yuv444p10, false},
                    FormatCase{"nv12", "rawvideo", "nut", 66, 46, 3, PixelFormat::Nv12, false},
                    FormatCase{"uyvy422", "rawvideo", "nut", 64, 48, 3, PixelFormat::Uyvy422, false},
                    FormatCase{"yuyv422", "rawvideo", "nut", 64, 48, 3, PixelFormat::Yuyv422, false},
                    FormatCase{"rgb24", "rawvideo", "nut", 65, 47, 3, PixelFormat::Rgb24, false},
                    FormatCase{"bgr24", "rawvideo", "nut", 64, 48, 3, PixelFormat::Bgr24, false},
                    FormatCase{"rgba", "rawvideo", "nut", 64, 48, 3, PixelFormat::Rgba, false},
                    FormatCase{"bgra", "rawvideo", "nut", 64, 48, 3, PixelFormat::Bgra, false},
                    FormatCase{"argb", "rawvideo", "nut", 64, 48, 3, PixelFormat::Argb, false},
                    FormatCase{"gray", "ffv1", "mkv", 64, 48, 3, PixelFormat::Gray8, false},
                    FormatCase{"gray10le", "ffv1", "mkv", 63, 49, 3, PixelFormat::Gray10, false},
                    FormatCase{"yuvj420p", "mjpeg", "avi", 64, 48, 3, PixelFormat::Yuv420p, true},
                    FormatCase{"yuvj422p", "mjpeg", "avi", 64, 48, 3, PixelFormat::Yuv422p, true},
                    FormatCase{"yuvj444p", "mjpeg", "avi", 64, 48, 3, PixelFormat::Yuv444p, true}),
    caseName);

// ---- other formats are converted to the nearest supported one, with a warning ------------

struct ConversionCase {
    const char* pixFmt;
    const char* codec;
    const char* container;
    PixelFormat expected;
};

class ConvertedFormat : public testing::TestWithParam<ConversionCase> {};

// Largest difference between two packed frames, sample by sample (16-bit little-endian
// samples for 10-bit formats).
int largestDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int bytesPerSample) {
    if (a.size() != b.size()) return 1 << 20;
    int largest = 0;
    for (size_t i = 0; i + size_t(bytesPerSample) <= a.size(); i += size_t(bytesPerSample)) {
        const int va = bytesPerSample == 1 ? a[i] : a[i] | (a[i + 1] << 8);
        const int vb = bytesPerSample == 1 ? b[i] : b[i] | (b[i + 1] << 8);
        largest = std::max(largest, std::abs(va - vb));
    }
    return largest;
}

TEST_P(ConvertedFormat, ArrivesInTheNearestSupportedFormat) {
    const ConversionCase& c = GetParam();
    const int width = 64, height = 48, frames = 3;
    TempDir dir;
    const std::string clip = dir.file(std::string("clip.") + c.container), raw = dir.file("clip.raw");
    const std::string target(formatInfo(c.expected).name);
    ASSERT_TRUE(runFfmpeg(testsrc(width, height, frames) + " -pix_fmt " + c.pixFmt + " -c:v " + c.codec + " " + clip));
    ASSERT_TRUE(runFfmpeg("-i " + clip + " -f rawvideo -pix_fmt " + target + " " + raw));
    const auto reference = test::readFile(raw);
    const size_t frameSize = test::packedFrameSize(target, width, height);

    auto source = openOrFail(clip);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().sourcePixFmt, c.pixFmt);
    EXPECT_EQ(source->info().format, c.expected);
    const auto decoded = test::readAll(*source);
    ASSERT_EQ(decoded.size(), size_t(frames));
    for (size_t i = 0; i < decoded.size(); ++i) {
        EXPECT_EQ(decoded[i].view.format, c.expected);
        ASSERT_TRUE(decoded[i].view.valid());
        // Same library, same swscale settings as the CLI: the very same code values.
        EXPECT_LE(largestDifference(test::packFrame(decoded[i].view, target), rawFrame(reference, frameSize, i),
                                    formatInfo(c.expected).bytesPerSample),
                  0)
            << "frame " << i;
    }
    const auto warnings = source->takeWarnings();
    ASSERT_EQ(warnings.size(), 1u) << test::joined(warnings);
    EXPECT_NE(warnings[0].find(c.pixFmt), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find(target), std::string::npos) << warnings[0];
}

INSTANTIATE_TEST_SUITE_P(
    OtherFormats, ConvertedFormat,
    testing::Values(ConversionCase{"yuv420p12le", "ffv1", "mkv", PixelFormat::Yuv420p10},
                    ConversionCase{"yuv422p12le", "ffv1", "mkv", PixelFormat::Yuv422p10},
                    ConversionCase{"yuv444p16le", "ffv1", "mkv", PixelFormat::Yuv444p10},
                    ConversionCase{"gray12le", "ffv1", "mkv", PixelFormat::Gray10},
                    ConversionCase{"rgb48le", "rawvideo", "nut", PixelFormat::Rgb24},
                    ConversionCase{"bgr0", "ffv1", "mkv", PixelFormat::Rgb24},
                    ConversionCase{"gbrp", "rawvideo", "nut", PixelFormat::Rgb24},
                    ConversionCase{"pal8", "rawvideo", "nut", PixelFormat::Rgba},
                    ConversionCase{"nv21", "rawvideo", "nut", PixelFormat::Yuv420p},
                    ConversionCase{"yuv410p", "rawvideo", "nut", PixelFormat::Yuv444p}),
    [](const testing::TestParamInfo<ConversionCase>& p) { return std::string(p.param.pixFmt); });

// ---- colour tags ----------------------------------------------------------------------------

TEST(FileColour, TagsAreReadFromTheStream) {
    TempDir dir;
    const std::string tagged = dir.file("tagged.mkv"), untagged = dir.file("untagged.mkv"), bt601 = dir.file("601.mkv"),
                      hlg = dir.file("hlg.mkv");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 2) + " -pix_fmt yuv420p10le -c:v ffv1 -colorspace bt2020nc -color_primaries bt2020"
                                               " -color_trc smpte2084 -color_range pc " + tagged));
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 2) + " -pix_fmt yuv420p -c:v ffv1 " + untagged));
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 2) + " -pix_fmt yuv420p -c:v ffv1 -colorspace smpte170m -color_trc smpte170m"
                                               " -color_range tv " + bt601));
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 2) + " -pix_fmt yuv420p -c:v ffv1 -colorspace bt709 -color_trc arib-std-b67 " + hlg));

    auto t = openOrFail(tagged);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->info().color.matrix, Matrix::Bt2020Ncl);
    EXPECT_TRUE(t->info().color.matrixTagged);
    EXPECT_EQ(t->info().color.range, Range::Full);
    EXPECT_TRUE(t->info().color.rangeTagged);
    EXPECT_EQ(t->info().color.transfer, Transfer::Pq);
    VideoFrame f;
    ASSERT_EQ(t->read(f).status, ReadStatus::Frame);
    EXPECT_EQ(f.view.color.matrix, Matrix::Bt2020Ncl);
    EXPECT_EQ(f.view.color.range, Range::Full);

    auto u = openOrFail(untagged);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->info().color.matrix, guessMatrix(64, 48));
    EXPECT_FALSE(u->info().color.matrixTagged);
    EXPECT_EQ(u->info().color.range, Range::Limited);
    EXPECT_FALSE(u->info().color.rangeTagged);

    auto s = openOrFail(bt601);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->info().color.matrix, Matrix::Bt601);
    EXPECT_TRUE(s->info().color.matrixTagged);
    EXPECT_EQ(s->info().color.range, Range::Limited);
    EXPECT_TRUE(s->info().color.rangeTagged);
    EXPECT_EQ(s->info().color.transfer, Transfer::Bt709);

    auto h = openOrFail(hlg);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->info().color.matrix, Matrix::Bt709);
    EXPECT_EQ(h->info().color.transfer, Transfer::Hlg);
}

// ---- a long-GOP clip with B-frames: drain, seek ----------------------------------------------

class LongGop : public testing::TestWithParam<const char*> {
protected:
    static constexpr int kFrames = 60, kWidth = 96, kHeight = 64;
    void SetUp() override {
        clip_ = dir_.file(std::string("gop.") + GetParam());
        const std::string raw = dir_.file("gop.raw");
        // Lossless H.264 with B-frames and a 12-frame GOP: seeks must decode from a keyframe.
        ASSERT_TRUE(runFfmpeg(testsrc(kWidth, kHeight, kFrames) + " -pix_fmt yuv420p -c:v libx264 -qp 0 -g 12 -bf 3 " + clip_));
        ASSERT_TRUE(runFfmpeg("-i " + clip_ + " -f rawvideo -pix_fmt yuv420p " + raw));
        reference_ = test::readFile(raw);
        frameSize_ = test::packedFrameSize("yuv420p", kWidth, kHeight);
        ASSERT_EQ(reference_.size(), frameSize_ * kFrames);
    }
    std::vector<uint8_t> expected(size_t i) const { return rawFrame(reference_, frameSize_, i); }

    TempDir dir_;
    std::string clip_;
    std::vector<uint8_t> reference_;
    size_t frameSize_ = 0;
};

TEST_P(LongGop, EndOfStreamDrainsEveryFrame) {
    OpenOptions options;
    options.decoderThreads = 2;
    auto source = openOrFail(clip_, options);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().codec, "h264");
    EXPECT_EQ(source->info().decoder, "h264 (software, 2 threads)");
    const auto frames = test::readAll(*source);
    ASSERT_EQ(frames.size(), size_t(kFrames)) << "frames buffered in the decoder must all come out";
    for (size_t i = 0; i < frames.size(); ++i) {
        EXPECT_TRUE(test::packFrame(frames[i].view, "yuv420p") == expected(i)) << "frame " << i;
        EXPECT_NEAR(frames[i].view.pts, double(i) / 25.0, 1e-3) << "frame " << i;
    }
    VideoFrame after;
    EXPECT_EQ(source->read(after).status, ReadStatus::EndOfStream);
    EXPECT_EQ(source->read(after).status, ReadStatus::EndOfStream) << "end of stream is sticky";
    EXPECT_TRUE(source->takeWarnings().empty()) << test::joined(source->takeWarnings());
}

TEST_P(LongGop, SeekLandsOnTheFrameAtOrJustAfterTheTarget) {
    auto source = openOrFail(clip_);
    ASSERT_TRUE(source);
    EXPECT_TRUE(source->info().seekable);
    VideoFrame f;
    for (int i = 0; i < 5; ++i) ASSERT_EQ(source->read(f).status, ReadStatus::Frame);
    struct Case {
        double target;
        int frame;
    };
    // Mid-GOP targets, exact frame times, times between frames, backwards and forwards.
    for (const Case& c : {Case{1.0, 25}, Case{0.5, 13}, Case{0.52, 13}, Case{2.36, 59}, Case{0.0, 0}, Case{1.17, 30},
                          Case{0.04 * 37, 37}, Case{0.2, 5}, Case{0.04 * 11, 11}}) {
        SCOPED_TRACE("seek " + std::to_string(c.target));
        ASSERT_TRUE(source->seek(c.target));
        ASSERT_EQ(source->read(f).status, ReadStatus::Frame);
        EXPECT_NEAR(f.view.pts, c.frame / 25.0, 1e-3);
        EXPECT_EQ(f.index, 0);
        EXPECT_TRUE(test::packFrame(f.view, "yuv420p") == expected(size_t(c.frame))) << "not frame " << c.frame;
        // And the stream goes on from there.
        ASSERT_EQ(source->read(f).status, c.frame + 1 < kFrames ? ReadStatus::Frame : ReadStatus::EndOfStream);
        if (c.frame + 1 < kFrames) {
            EXPECT_EQ(f.index, 1);
            EXPECT_TRUE(test::packFrame(f.view, "yuv420p") == expected(size_t(c.frame + 1)));
        }
    }
    // Past the end: nothing left. Then back to the start after the end was reached.
    ASSERT_TRUE(source->seek(100.0));
    EXPECT_EQ(source->read(f).status, ReadStatus::EndOfStream);
    ASSERT_TRUE(source->seek(0.0));
    const auto all = test::readAll(*source);
    ASSERT_EQ(all.size(), size_t(kFrames));
    EXPECT_TRUE(test::packFrame(all.back().view, "yuv420p") == expected(kFrames - 1));
    EXPECT_TRUE(source->takeWarnings().empty()) << test::joined(source->takeWarnings());
}

INSTANTIATE_TEST_SUITE_P(Containers, LongGop, testing::Values("mp4", "mkv", "ts"),
                         [](const testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// ---- software decoders' threads: the figure reported is the one running --------------------

// The CPUs this process may run on: what libdav1d takes one thread each of when left to itself.
int cpusAvailable() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;
}

// Threads of this process now (each GoogleTest case runs in a process of its own). A thread
// is started and joined first: ThreadSanitizer's runtime starts a thread of its own at the
// process's first pthread_create, which would otherwise count as one the decoder started.
int threadsRunning() {
    std::thread([] {}).join();
    int n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ++n;
    return n;
}

std::string threadsText(int n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); }

// libavcodec's own frame threads when left to pick: CPUs + 1, at most 16; one on one CPU.
int autoFrameThreads() {
    const int cpus = cpusAvailable();
    return cpus > 1 ? std::min(cpus + 1, 16) : 1;
}

// AV1 (libaom, tiny) in 8 and 10 bits: the default decoder is libdav1d, which runs threads of
// its own that libavcodec's thread_count does not show; frames equal the CLI's.
class Av1Software : public testing::TestWithParam<const char*> {};

TEST_P(Av1Software, LibDav1dDecodesLikeTheCliWithOneThreadPerCpu) {
    const std::string pixFmt = GetParam();
    constexpr int kW = 64, kH = 48, kN = 8;
    TempDir dir;
    const std::string clip = dir.file("clip.mkv"), raw = dir.file("clip.raw");
    ASSERT_TRUE(runFfmpeg(testsrc(kW, kH, kN) + " -pix_fmt " + pixFmt + " -c:v libaom-av1 -cpu-used 8 -usage realtime -g 4 " + clip));
    ASSERT_TRUE(runFfmpeg("-i " + clip + " -f rawvideo -pix_fmt " + pixFmt + " " + raw));
    const auto reference = test::readFile(raw);
    const size_t frameSize = test::packedFrameSize(pixFmt, kW, kH);
    ASSERT_EQ(reference.size(), frameSize * kN);

    const int before = threadsRunning();
    auto source = openOrFail(clip);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().codec, "av1");
    EXPECT_EQ(source->info().sourcePixFmt, pixFmt);
    const int cpus = cpusAvailable();
    EXPECT_EQ(source->info().decoder, "libdav1d (software, " + threadsText(cpus) + ")");
    // dav1d starts a worker per thread when it has more than one, none otherwise.
    EXPECT_EQ(threadsRunning() - before, cpus > 1 ? cpus : 0);
    const auto frames = test::readAll(*source);
    ASSERT_EQ(frames.size(), size_t(kN));
    for (size_t i = 0; i < frames.size(); ++i)
        EXPECT_TRUE(test::packFrame(frames[i].view, pixFmt) == rawFrame(reference, frameSize, i)) << "frame " << i;
    EXPECT_TRUE(source->takeWarnings().empty()) << test::joined(source->takeWarnings());
}

INSTANTIATE_TEST_SUITE_P(Depths, Av1Software, testing::Values("yuv420p", "yuv420p10le"),
                         [](const testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// A count asked for is the count run: libdav1d's workers and libavcodec's frame threads (H.264)
// appear in the process as reported; one thread starts none.
TEST(SoftwareThreads, AskedCountIsReportedAndRunning) {
    TempDir dir;
    const std::string av1 = dir.file("clip.mkv"), h264 = dir.file("clip.mp4");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 4) + " -pix_fmt yuv420p -c:v libaom-av1 -cpu-used 8 -usage realtime " + av1));
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 4) + " -pix_fmt yuv420p -c:v libx264 " + h264));
    struct Case {
        const std::string& clip;
        int threads;
        const char* decoder;
        int started;
    };
    for (const Case& c : {Case{av1, 3, "libdav1d (software, 3 threads)", 3}, Case{av1, 1, "libdav1d (software, 1 thread)", 0},
                          Case{h264, 3, "h264 (software, 3 threads)", 3}, Case{h264, 1, "h264 (software, 1 thread)", 0}}) {
        SCOPED_TRACE(c.decoder);
        OpenOptions options;
        options.decoderThreads = c.threads;
        const int before = threadsRunning();
        auto source = openOrFail(c.clip, options);
        ASSERT_TRUE(source);
        EXPECT_EQ(source->info().decoder, c.decoder);
        EXPECT_EQ(threadsRunning() - before, c.started);
        EXPECT_EQ(test::readAll(*source).size(), 4u);
    }
}

// ---- NVDEC requested where it cannot be had -------------------------------------------------

// FFV1 has no NVDEC decoder and this may run where there is no GPU at all: either way Auto
// falls back to software, says why, and decodes; forced NVDEC is an error.
TEST(FileHardware, AutoFallsBackToSoftwareAndSaysWhy) {
    TempDir dir;
    const std::string clip = dir.file("clip.mkv"), raw = dir.file("clip.raw");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 3) + " -pix_fmt yuv420p -c:v ffv1 " + clip));
    ASSERT_TRUE(runFfmpeg("-i " + clip + " -f rawvideo -pix_fmt yuv420p " + raw));
    const auto reference = test::readFile(raw);

    OpenOptions options;
    options.hwdec = HwDecode::Auto;
    auto source = openOrFail(clip, options);
    ASSERT_TRUE(source);
    const std::string& decoder = source->info().decoder;
    // The fallback is threaded like any software decoding (FFV1: frame threads).
    EXPECT_EQ(decoder.rfind("ffv1 (software, " + threadsText(autoFrameThreads()) + ", fallback: ", 0), 0u) << decoder;
    const auto warnings = source->takeWarnings();
    EXPECT_TRUE(test::anyContains(warnings, "NVDEC not used")) << test::joined(warnings);
    const auto frames = test::readAll(*source);
    ASSERT_EQ(frames.size(), 3u);
    const size_t frameSize = test::packedFrameSize("yuv420p", 64, 48);
    for (size_t i = 0; i < frames.size(); ++i) {
        EXPECT_FALSE(frames[i].onDevice);
        EXPECT_TRUE(test::packFrame(frames[i].view, "yuv420p") == rawFrame(reference, frameSize, i));
    }

    options.hwdec = HwDecode::Nvdec;
    auto forced = openSource(clip, options);
    ASSERT_FALSE(forced);
    EXPECT_EQ(forced.message().rfind(clip + ": NVDEC decoding failed: ", 0), 0u) << forced.message();
    EXPECT_EQ(forced.message().find('\n'), std::string::npos);
}

// H.264 is NVDEC's bread and butter, so here the outcome depends on the machine: NVDEC when
// a CUDA device exists, otherwise a fallback naming the missing device.
TEST(FileHardware, H264WithoutACudaDeviceFallsBack) {
    TempDir dir;
    const std::string clip = dir.file("clip.mp4");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 3) + " -pix_fmt yuv420p -c:v libx264 " + clip));
    OpenOptions options;
    options.hwdec = HwDecode::Auto;
    auto source = openOrFail(clip, options);
    ASSERT_TRUE(source);
    const std::string& decoder = source->info().decoder;
    if (decoder == "h264 (nvdec)") GTEST_SKIP() << "a CUDA device is present: NVDEC decodes (decode_nvdec_tests covers it)";
    EXPECT_EQ(decoder.rfind("h264 (software, " + threadsText(autoFrameThreads()) + ", fallback: no CUDA device", 0), 0u)
        << decoder;
    EXPECT_EQ(test::readAll(*source).size(), 3u);
}

// ---- a file cut short ------------------------------------------------------------------------

// A Matroska file cut in half keeps its header's duration: the source states the end of its
// last frame instead (the frames there are, as the ffmpeg CLI counts them), warns, and still
// reads from the first frame; the whole file keeps its duration.
TEST(FileDuration, ATruncatedFileStatesTheDurationItHas) {
    TempDir dir;
    const std::string whole = dir.file("whole.mkv"), cut = dir.file("cut.mkv");
    ASSERT_TRUE(runFfmpeg(testsrc(64, 48, 50) + " -pix_fmt yuv420p -c:v ffv1 " + whole));
    {
        std::ifstream in(whole, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(cut, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size() / 2));
    }
    auto w = openOrFail(whole);
    ASSERT_TRUE(w);
    EXPECT_NEAR(w->info().duration, 2.0, 1e-6);
    EXPECT_TRUE(w->takeWarnings().empty());
    auto c = openOrFail(cut);
    ASSERT_TRUE(c);
    const std::vector<std::string> said = c->takeWarnings();
    EXPECT_TRUE(std::any_of(said.begin(), said.end(), [](const std::string& m) { return m.find("before the 2.000 s its header states") != std::string::npos; }))
        << test::joined(said);
    int frames = 0;
    VideoFrame f;
    double firstPts = -1;
    while (c->read(f).status == ReadStatus::Frame) {
        if (frames == 0) firstPts = f.view.pts;
        ++frames;
    }
    EXPECT_EQ(firstPts, 0.0);
    ASSERT_GT(frames, 5);
    ASSERT_LT(frames, 45);
    EXPECT_NEAR(c->info().duration, frames / 25.0, 1e-6);   // the last frame's end
}

}  // namespace
}  // namespace cs
