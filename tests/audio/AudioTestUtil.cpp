#include "AudioTestUtil.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <random>

extern "C" {
#include <libavutil/channel_layout.h>
}

namespace cs::audio::test {

ChannelLayoutInfo layoutOf(uint64_t mask) {
    AVChannelLayout l{};
    av_channel_layout_from_mask(&l, mask);
    ChannelLayoutInfo info = describeLayout(l);
    av_channel_layout_uninit(&l);
    return info;
}

void Signal::sine(double seconds, double dbfs, double hz, std::vector<int> channels, double phase) {
    if (channels.empty())
        for (int c = 0; c < int(planes.size()); ++c) channels.push_back(c);
    const size_t start = frames(), n = size_t(std::llround(seconds * rate));
    const double a = std::pow(10.0, dbfs / 20.0);
    for (auto& p : planes) p.resize(start + n, 0.0f);
    for (int c : channels)
        for (size_t i = 0; i < n; ++i)
            planes[size_t(c)][start + i] = float(a * std::sin(2 * M_PI * hz * double(start + i) / rate + phase));
}

void Signal::silence(double seconds) {
    const size_t n = size_t(std::llround(seconds * rate));
    for (auto& p : planes) p.resize(p.size() + n, 0.0f);
}

void feed(AudioMeter& meter, const Signal& s, size_t block) {
    std::vector<const float*> planes(s.planes.size());
    for (size_t done = 0; done < s.frames(); done += block) {
        const size_t n = std::min(block, s.frames() - done);
        for (size_t c = 0; c < planes.size(); ++c) planes[c] = s.planes[c].data() + done;
        meter.add(planes.data(), n);
    }
}

TempDir::TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("cs_audio_test_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

bool runFfmpeg(const std::string& args) {
    const std::string cmd = std::string(CS_TEST_FFMPEG) + " -nostdin -v error -y " + args;
    return std::system(cmd.c_str()) == 0;
}

std::string ffmpegOutput(const std::string& args) {
    const std::string cmd = std::string(CS_TEST_FFMPEG) + " -nostdin " + args + " 2>&1";
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        std::array<char, 4096> buf{};
        size_t n;
        while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
        pclose(p);
    }
    return out;
}

}  // namespace cs::audio::test
