// Helpers for the decode tests: a temporary directory, clips made with the ffmpeg CLI,
// raw frames the CLI decodes as the independent reference, and frame comparisons.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "decode/Source.h"

extern "C" {
#include <libavutil/frame.h>
}

namespace cs::test {

// A fresh directory under the system temp dir, removed with everything in it at the end.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// The ffmpeg CLI: $CS_TEST_FFMPEG when set, else the one found at configure time.
std::string ffmpegExecutable();

// Runs `ffmpeg -nostdin -v error -y <arguments>`; true when it exits 0.
bool runFfmpeg(const std::string& arguments);

std::vector<uint8_t> readFile(const std::string& path);
void writeFile(const std::string& path, const std::vector<uint8_t>& bytes);

// The frame's pixels packed as the CLI's `-f rawvideo` writes them (rows without padding,
// planes one after the other) for FFmpeg's pixel format of the given name.
std::vector<uint8_t> packFrame(const FrameView& view, const std::string& avPixelFormatName);

// Bytes of one packed frame of that format and size.
size_t packedFrameSize(const std::string& avPixelFormatName, int width, int height);

// Reads every frame until the end (or an error, which fails the calling test).
std::vector<VideoFrame> readAll(Source& source);

// Opens with default options and fails the calling test with the error if that fails.
std::unique_ptr<Source> openOrFail(const std::string& input, const OpenOptions& options = {});

// True when any warning contains `text`.
bool anyContains(const std::vector<std::string>& warnings, const std::string& text);
std::string joined(const std::vector<std::string>& lines);

// ffmpeg CLI input arguments for a testsrc2 clip of any size (odd sizes included).
std::string testsrc(int width, int height, int frames);

// Where one packet of a file lies, as libavformat reads it.
struct PacketSpan {
    int64_t pos = -1;   // byte offset of its data (-1: unknown)
    int size = 0;
};

// The first video stream's packets in the order libavformat reads them (fails the calling
// test if the file cannot be read).
std::vector<PacketSpan> videoPackets(const std::string& path);

// A committed test input under tests/data (tests/data/README.md lists them). A missing one
// is a failure of the calling test, never a reason to skip: "" is returned after it is
// recorded.
std::string dataFile(const std::string& relativePath);

}  // namespace cs::test
