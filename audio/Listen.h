// Listening (docs/AUDIO.md, "Listening"): what the window sends to the desktop's audio output,
// without Qt. Which channels are heard (a pair, one channel solo, or a downmix of all to
// stereo), the volume, and the audio clock that paces the picture at normal speed.
//
// The downmix is ITU-R BS.775's stereo downmix: Lo = L + 0.7071 C + 0.7071 Ls,
// Ro = R + 0.7071 C + 0.7071 Rs, the LFE left out; 7.1's side and rear pairs both go to their
// side at 0.7071; a channel with no side (numbered PCM, heights, centre pairs) to both at
// 0.7071; a single channel to both at 1.0. Not normalised (a full-scale 5.1 programme can sum
// above full scale): the output is clipped at +-1, as the sink would clip it.
//
// ListenFeed: one thread at a time (the window's GUI thread, which feeds the sink).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "AudioSource.h"
#include "ChannelLayout.h"
#include "core/Status.h"

namespace cs::audio {

enum class ListenMode { Downmix, Pair, Solo };

struct ListenChoice {
    ListenMode mode = ListenMode::Downmix;
    int channel = 0;   // Pair: the pair's first channel (0, 2, 4...); Solo: the channel (0-based)
    bool operator==(const ListenChoice&) const = default;
};

// "downmix", "pair:1" (channels 1-2), "solo:3" (channel 3): 1-based, as the window's menu and
// settings name them. parse returns nothing for anything else.
std::string listenChoiceName(ListenChoice c);
std::optional<ListenChoice> parseListenChoice(const std::string& s);
// The choice as it applies to a stream of `channels`: a pair or solo channel the stream does
// not have is the downmix.
ListenChoice fitListenChoice(ListenChoice c, int channels);

// Every choice for a layout, in menu order (downmix, the pairs, each channel solo), with its
// words: "Downmix (L R C Ls Rs, no LFE)", "1-2 (L R)", "3 C solo".
struct ListenOption {
    ListenChoice choice;
    std::string text;
};
std::vector<ListenOption> listenOptions(const ChannelLayoutInfo& layout);

// Per input channel, its gain into the left and right outputs.
struct StereoMatrix {
    std::vector<float> left, right;
};
inline constexpr float kMinus3Db = 0.70710678f;   // BS.775's coefficient for C and the surrounds
StereoMatrix listenMatrix(const ChannelLayoutInfo& layout, ListenChoice choice);

// `frames` samples of each planar channel (planes[c], c < matrix size) mixed to interleaved
// stereo (L R L R ...) in `out` (2 * frames floats), times `gain`, clipped to [-1, 1].
void mixToStereo(const float* const* planes, size_t frames, const StereoMatrix& m, float gain, float* out);

// The audio clock. The media time heard now: the first sample sent to the sink (`startPts`,
// seconds on the picture's clock) plus what the sink says it has played (`playedSeconds`:
// QAudioSink::processedUSecs, which Qt's PulseAudio sink reports less the server's latency)
// less `latencySeconds` still between that count and the ear; never before `startPts`.
double heardPosition(double startPts, double playedSeconds, double latencySeconds);
// The frame on screen at media time `position` for a constant rate: the last frame whose pts
// (firstPts + i / frameRate) is at or before it (a nanosecond of slack for rounding); -1 before the first.
int64_t frameAtPosition(double position, double firstPts, double frameRate);

// A file's audio read on from a place and mixed for listening: its own AudioSource (a demuxer
// of its own, apart from the meter's, which follows the picture at every speed).
class ListenFeed {
public:
    static Result<std::unique_ptr<ListenFeed>> open(const std::string& input, int streamIndex = -1);
    const AudioStreamInfo& info() const { return source_->info(); }
    int sampleRate() const { return info().sampleRate; }

    void setChoice(ListenChoice c);
    ListenChoice choice() const { return choice_; }
    void setGain(float gain) { gain_ = gain; }

    // Reading from `pts` seconds on the picture's clock: the first frame produced is its
    // sample (rounded to the nearest), silence where the stream has none yet.
    Status start(double pts);
    // The sample first produced after start(), in seconds (start's pts on the sample grid).
    double startPts() const { return double(startSample_) / double(sampleRate()); }
    // The next `frames` stereo frames, interleaved, in `out`; fewer only at the end (0: ended).
    // Gaps in the stream are silence, overlaps are dropped (as the meter reads them).
    size_t produce(float* out, size_t frames);
    bool ended() const { return ended_; }
    std::vector<std::string> takeWarnings() { return source_->takeWarnings(); }

private:
    explicit ListenFeed(std::unique_ptr<AudioSource> source);
    std::unique_ptr<AudioSource> source_;
    ListenChoice choice_;
    StereoMatrix matrix_;
    float gain_ = 1.0f;
    AudioBlock block_;
    int offset_ = 0;            // frames of block_ already produced or skipped
    bool haveBlock_ = false, ended_ = false;
    int64_t startSample_ = 0;
    int64_t pos_ = 0;           // the next sample to produce, on the picture's clock
    std::vector<const float*> planes_;
};

}  // namespace cs::audio
