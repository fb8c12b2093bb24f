// Signals for the meter tests (as EBU Tech 3341/3342 define them: a sine's level in dBFS is
// its peak amplitude) and clips made with the ffmpeg CLI in a temporary folder.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "audio/AudioMeter.h"
#include "audio/ChannelLayout.h"

namespace cs::audio::test {

// Planar samples: channel c is planes[c].
struct Signal {
    int rate = 48000;
    std::vector<std::vector<float>> planes;
    explicit Signal(int channels, int sampleRate = 48000) : rate(sampleRate), planes(size_t(channels)) {}
    size_t frames() const { return planes.empty() ? 0 : planes[0].size(); }
    // `seconds` of a sine of `hz` at `dbfs` peak in the given channels (others silent).
    void sine(double seconds, double dbfs, double hz = 1000, std::vector<int> channels = {}, double phase = 0);
    void silence(double seconds);
};

// The labels and roles of FFmpeg's layout of that mask (AV_CH_LAYOUT_5POINT1...).
ChannelLayoutInfo layoutOf(uint64_t mask);

// Adds the whole signal to the meter in blocks of `block` sample frames.
void feed(AudioMeter& meter, const Signal& s, size_t block = 1920);

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

// `ffmpeg -nostdin -v error -y ARGS`; true when it exits 0.
bool runFfmpeg(const std::string& args);
// What `ffmpeg -nostdin ARGS` prints on stderr and stdout.
std::string ffmpegOutput(const std::string& args);

}  // namespace cs::audio::test
