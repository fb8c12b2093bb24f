// Audio channels by name and by role: the label a broadcast engineer reads on a meter (L R C
// LFE Ls Rs ...) and the role BS.1770 weights in the loudness sum. Made from FFmpeg's channel
// layout (AVChannelLayout), so every demuxer's layout reads the same way.
#pragma once
#include <string>
#include <vector>

struct AVChannelLayout;

namespace cs::audio {

inline constexpr int kMaxChannels = 16;   // the most channels metered (16-channel PCM of broadcast MXF)

// BS.1770-4 Table 3: a channel's weight in the loudness sum follows its azimuth. Front
// channels (|azimuth| < 60) 1.0, surrounds between 60 and 120 degrees 1.41 (+1.5 dB), rear
// ones beyond 120 degrees 1.0, the LFE not at all.
enum class ChannelRole {
    Left,       // M+030
    Right,      // M-030
    Centre,     // M+000
    Lfe,        // left out of loudness
    LeftSurround,    // M+110 (5.1's Ls) or M+090 (7.1's side): weighted 1.41
    RightSurround,   // M-110 / M-090: weighted 1.41
    LeftRear,        // M+135 (7.1's back): weighted 1.0
    RightRear,       // M-135
    Other,           // any other channel (centre pairs, heights, unlabelled PCM): weighted 1.0
};

struct ChannelLayoutInfo {
    std::string name;                   // FFmpeg's description: "stereo", "5.1(side)", "16 channels"
    std::vector<std::string> labels;    // one per channel, in the stream's order
    std::vector<ChannelRole> roles;     // one per channel
    int channels() const { return int(labels.size()); }
    // The channel pair whose phase is measured (L and R, else the first two channels); -1
    // when there is only one channel.
    int pairLeft = -1;
    int pairRight = -1;
};

// Up to this many channels without positions (a container that gives only a count: WAV
// without a mask, Matroska PCM) take FFmpeg's default layout, as the ffmpeg CLI guesses it
// (mono, stereo, ..., 6: 5.1); more (the 8 and 16 discrete tracks of broadcast MXF) are
// numbered 1, 2, ... and weighted 1.0, with channels 1 and 2 the phase pair.
inline constexpr int kGuessedUpTo = 6;

// Labels and roles of a layout.
ChannelLayoutInfo describeLayout(const AVChannelLayout& layout);

}  // namespace cs::audio
