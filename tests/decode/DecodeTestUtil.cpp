// Helpers for the decode tests (see DecodeTestUtil.h).
#include "DecodeTestUtil.h"

#include "decode/Source.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
}

namespace cs::test {

TempDir::TempDir() {
    std::random_device random;
    const auto base = std::filesystem::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
        auto candidate = base / ("cudascope-decode-" + std::to_string(random()));
        std::error_code ec;
        if (std::filesystem::create_directory(candidate, ec)) {
            path_ = candidate;
            return;
        }
    }
    ADD_FAILURE() << "cannot create a temporary directory in " << base;
}

TempDir::~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string ffmpegExecutable() {
    if (const char* overridden = std::getenv("CS_TEST_FFMPEG"); overridden && *overridden) return overridden;
    return CS_TEST_FFMPEG;
}

bool runFfmpeg(const std::string& arguments) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on one long concatenation.
    std::string command = "\"";
    command.append(ffmpegExecutable());
    command.append("\" -nostdin -hide_banner -v error -y ");
    command.append(arguments);
    const int rc = std::system(command.c_str());
    if (rc != 0) ADD_FAILURE() << "ffmpeg failed (" << rc << "): " << command;
    return rc == 0;
}

std::vector<uint8_t> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

size_t packedFrameSize(const std::string& name, int width, int height) {
    const AVPixelFormat format = av_get_pix_fmt(name.c_str());
    const int size = av_image_get_buffer_size(format, width, height, 1);
    return size > 0 ? size_t(size) : 0;
}

std::vector<uint8_t> packFrame(const FrameView& view, const std::string& name) {
    const AVPixelFormat format = av_get_pix_fmt(name.c_str());
    std::vector<uint8_t> packed(packedFrameSize(name, view.width, view.height));
    const uint8_t* data[4] = {view.data[0], view.data[1], view.data[2], nullptr};
    const int linesize[4] = {int(view.pitch[0]), int(view.pitch[1]), int(view.pitch[2]), 0};
    const int written = av_image_copy_to_buffer(packed.data(), int(packed.size()), data, linesize, format,
                                                view.width, view.height, 1);
    EXPECT_EQ(size_t(written), packed.size()) << "packing a " << name << " frame";
    return packed;
}

std::vector<VideoFrame> readAll(Source& source) {
    std::vector<VideoFrame> frames;
    for (int guard = 0; guard < 100000; ++guard) {
        VideoFrame frame;
        const ReadResult r = source.read(frame);
        if (r.status == ReadStatus::EndOfStream) break;
        if (r.status == ReadStatus::Error) {
            ADD_FAILURE() << "read failed: " << r.message;
            break;
        }
        frames.push_back(std::move(frame));
    }
    return frames;
}

std::unique_ptr<Source> openOrFail(const std::string& input, const OpenOptions& options) {
    auto opened = openSource(input, options);
    if (!opened) {
        ADD_FAILURE() << "openSource(" << input << ") failed: " << opened.message();
        return nullptr;
    }
    return std::move(opened.value());
}

bool anyContains(const std::vector<std::string>& warnings, const std::string& text) {
    for (const auto& w : warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const auto& l : lines) all += l + "\n";
    return all;
}

// testsrc2 makes even sizes only: odd ones are cropped (in 4:4:4, so the crop is exact)
// from the next even size.
std::string testsrc(int width, int height, int frames) {
    std::string args = "-f lavfi -i testsrc2=s=" + std::to_string((width + 1) & ~1) + "x" +
                       std::to_string((height + 1) & ~1) + ":r=25 -frames:v " + std::to_string(frames);
    if ((width | height) & 1)
        args += " -vf format=yuv444p,crop=" + std::to_string(width) + ":" + std::to_string(height) + ":0:0";
    return args;
}

std::vector<PacketSpan> videoPackets(const std::string& path) {
    std::vector<PacketSpan> packets;
    AVFormatContext* format = nullptr;
    if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) {
        ADD_FAILURE() << "libavformat cannot open " << path;
        return packets;
    }
    const int video = avformat_find_stream_info(format, nullptr) >= 0
                          ? av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0)
                          : -1;
    AVPacket* packet = av_packet_alloc();
    while (video >= 0 && packet && av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == video) packets.push_back({packet->pos, packet->size});
        av_packet_unref(packet);
    }
    av_packet_free(&packet);
    avformat_close_input(&format);
    if (video < 0) ADD_FAILURE() << "no video stream in " << path;
    return packets;
}

std::string dataFile(const std::string& relativePath) {
    const auto path = std::filesystem::path(CS_TEST_SOURCE_DIR) / "tests" / "data" / relativePath;
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path.string();
    ADD_FAILURE() << "the test input " << path.string() << " is missing (it is committed under tests/data)";
    return {};
}

// FFmpeg's own complaints about the damaged clips would drown the test output; what the
// tests assert (errors, warnings) is captured whatever the log level.
const bool kQuietFfmpeg = [] {
    setLibraryLogging(false);
    return true;
}();

}  // namespace cs::test
