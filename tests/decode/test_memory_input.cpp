// Inputs from memory (decode/MemoryInput.h through DemuxSetup::io): the same demuxing and
// decoding as the file itself (frames, properties, seeking, the software attempt after a
// refused NVDEC one), errors that name the input, and the reader's size and bounds.
#include <gtest/gtest.h>

#include "DecodeTestUtil.h"
#include "decode/FileSource.h"
#include "decode/MemoryInput.h"

extern "C" {
#include <libavformat/avio.h>
}

namespace cs {
namespace {

using test::TempDir;

// A clip made with the ffmpeg CLI, and its bytes.
struct ClipBytes {
    ClipBytes(const std::string& name, const std::string& encode, int frames) : path(dir.file(name)) {
        EXPECT_TRUE(test::runFfmpeg(test::testsrc(64, 48, frames) + " " + encode + " " + path));
        bytes = test::readFile(path);
    }
    TempDir dir;
    std::string path;
    std::vector<uint8_t> bytes;
};

Result<std::unique_ptr<Source>> openMemory(const std::string& name, const MemoryInput& memory,
                                           HwDecode hwdec = HwDecode::None) {
    DemuxSetup setup;
    setup.io = memory.io();
    OpenOptions options;
    options.hwdec = hwdec;
    return openFileSource(name, options, setup);
}

TEST(MemoryInput, DecodesTheSameFramesAsTheFile) {
    const ClipBytes clip("clip.mkv", "-c:v libx264 -g 4 -bf 2 -pix_fmt yuv420p", 10);
    MemoryInput memory(clip.bytes);
    ASSERT_NE(memory.io(), nullptr);
    auto fromMemory = openMemory("clip in memory", memory);
    ASSERT_TRUE(fromMemory) << fromMemory.message();
    auto fromFile = test::openOrFail(clip.path);
    ASSERT_TRUE(fromFile);

    const SourceInfo& m = fromMemory.value()->info();
    const SourceInfo& f = fromFile->info();
    EXPECT_EQ(m.input, "clip in memory");
    EXPECT_EQ(m.container, f.container);
    EXPECT_EQ(m.codec, f.codec);
    EXPECT_EQ(m.width, f.width);
    EXPECT_EQ(m.height, f.height);
    EXPECT_EQ(m.format, f.format);
    EXPECT_DOUBLE_EQ(m.duration, f.duration);
    EXPECT_TRUE(m.seekable);

    const auto memoryFrames = test::readAll(*fromMemory.value());
    const auto fileFrames = test::readAll(*fromFile);
    ASSERT_EQ(memoryFrames.size(), 10u);
    ASSERT_EQ(fileFrames.size(), 10u);
    for (size_t i = 0; i < fileFrames.size(); ++i) {
        EXPECT_DOUBLE_EQ(memoryFrames[i].view.pts, fileFrames[i].view.pts) << "frame " << i;
        EXPECT_EQ(test::packFrame(memoryFrames[i].view, "yuv420p"), test::packFrame(fileFrames[i].view, "yuv420p"))
            << "frame " << i;
    }
}

TEST(MemoryInput, SeeksLikeTheFile) {
    const ClipBytes clip("clip.mp4", "-c:v libx264 -g 5 -bf 0 -pix_fmt yuv420p", 15);
    MemoryInput memory(clip.bytes);
    auto opened = openMemory("clip in memory", memory);
    ASSERT_TRUE(opened) << opened.message();
    Source& source = *opened.value();
    ASSERT_TRUE(source.seek(0.32));   // frame 8, decoded from the keyframe at frame 5
    VideoFrame frame;
    ASSERT_EQ(source.read(frame).status, ReadStatus::Frame);
    EXPECT_NEAR(frame.view.pts, 0.32, 1e-9);

    auto file = test::openOrFail(clip.path);
    ASSERT_TRUE(file);
    ASSERT_TRUE(file->seek(0.32));
    VideoFrame expected;
    ASSERT_EQ(file->read(expected).status, ReadStatus::Frame);
    EXPECT_EQ(test::packFrame(frame.view, "yuv420p"), test::packFrame(expected.view, "yuv420p"));
}

// Without a CUDA device the NVDEC attempt fails after reading the header; the software
// attempt must read the bytes again from their start. (With a device, NVDEC decodes.)
TEST(MemoryInput, SecondAttemptReadsFromTheStart) {
    const ClipBytes clip("clip.mp4", "-c:v libx264 -pix_fmt yuv420p", 6);
    MemoryInput memory(clip.bytes);
    auto opened = openMemory("clip in memory", memory, HwDecode::Auto);
    ASSERT_TRUE(opened) << opened.message();
    EXPECT_EQ(test::readAll(*opened.value()).size(), 6u);
}

TEST(MemoryInput, BytesThatAreNoMediaNameTheInput) {
    const std::string text = "Shot list for Tuesday.\nScene 4, take 2: use the wide.\n";
    const std::vector<uint8_t> bytes(text.begin(), text.end());
    MemoryInput memory(bytes);
    auto opened = openMemory("notes in memory", memory);
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.message(), "notes in memory: not a media file (its contents match no format FFmpeg knows)");

    MemoryInput nothing(std::span<const uint8_t>{});
    auto empty = openMemory("nothing", nothing);
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.message().rfind("nothing: ", 0), 0u) << empty.message();
}

TEST(MemoryInput, ReaderKnowsItsSizeAndRefusesToSeekOutside) {
    const std::vector<uint8_t> bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    MemoryInput memory(bytes);
    AVIOContext* io = memory.io();
    ASSERT_NE(io, nullptr);
    EXPECT_EQ(avio_size(io), 10);
    EXPECT_LT(avio_seek(io, 11, SEEK_SET), 0);
    EXPECT_LT(avio_seek(io, -1, SEEK_SET), 0);
    EXPECT_EQ(avio_seek(io, 7, SEEK_SET), 7);
    uint8_t read[8] = {};
    EXPECT_EQ(avio_read(io, read, 8), 3);   // the last three bytes, then the end
    EXPECT_EQ(read[0], 8);
    EXPECT_EQ(read[2], 10);
    EXPECT_TRUE(avio_feof(io));
    EXPECT_EQ(avio_seek(io, 0, SEEK_SET), 0);
    EXPECT_EQ(avio_r8(io), 1);
}

}  // namespace
}  // namespace cs
