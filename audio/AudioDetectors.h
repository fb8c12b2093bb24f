// qc's sample-exact audio events, found as the samples stream by (nothing kept per sample):
//  - silence: FFmpeg silencedetect's definition and defaults (noise -60 dB, duration 2 s,
//    mono off): a stretch where every sample of every channel is below the noise amplitude
//    (|x| < 10^(noise/20)), at least the duration long; it starts at its first such sample.
//  - silent_channel: one channel below the same noise for at least its duration while
//    another channel is not silent somewhere in that stretch (a dropped or unpatched
//    channel, not programme silence).
//  - clipping: runs of at least `minRun` consecutive samples of one channel at full scale
//    (|x| >= 32767/32768, the largest positive 16-bit value: within one 16-bit step of full
//    scale); runs less than `mergeGap` apart are one event, counting its runs and samples.
// Positions are sample indexes on the picture's clock (AudioSource.h); each event also
// carries the video frames it started and ended in, as the caller labels the samples it adds.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ChannelLayout.h"

namespace cs::audio {

struct AudioDetectRules {
    double silenceNoiseDb = -60, silenceMinDuration = 2;                // silencedetect's defaults
    double silentChannelNoiseDb = -60, silentChannelMinDuration = 2;
    int clippingMinRun = 3;                                             // samples
    double clippingMergeGap = 0.5;                                      // seconds
};

inline constexpr float kFullScale = 32767.0f / 32768.0f;

struct AudioEvent {
    std::string type;            // silence, silent_channel, clipping
    int channel = -1;            // silent_channel: the channel; clipping: the first channel that clipped
    std::string label;           // its label ("Rs")
    int64_t start = 0, end = 0;  // samples [start, end)
    int64_t firstFrame = 0, lastFrame = 0;   // the video frames they fall in (caller's labels)
    double firstPts = 0, lastPts = 0;        // those frames' pts
    int64_t runs = 0, samples = 0;           // clipping: runs and clipped samples in the event
};

class AudioDetectors {
public:
    AudioDetectors(const AudioDetectRules& rules, int sampleRate, const ChannelLayoutInfo& layout);
    // The video frame the next samples belong to (events name it).
    void setFrame(int64_t index, double pts = 0) {
        frame_ = index;
        framePts_ = pts;
    }
    // `frames` sample frames starting at sample `first` (contiguous with the previous call,
    // or later: a jump ends open runs at the last sample seen).
    void add(const float* const* planes, int64_t first, size_t frames);
    // The end of the audio: open runs are closed there.
    void finish();
    // Events found since the last call, in the order they ended.
    std::vector<AudioEvent> takeEvents();

private:
    void closeSilence(int64_t end);
    void closeChannel(int c, int64_t end);
    void closeClip(int c, int64_t end);
    void flushClipEvent();
    AudioDetectRules rules_;
    int rate_ = 0, channels_ = 0;
    ChannelLayoutInfo layout_;
    float silenceNoise_ = 0, channelNoise_ = 0;
    int64_t minSilence_ = 0, minChannelSilence_ = 0, mergeGap_ = 0;
    int64_t frame_ = 0;
    double framePts_ = 0;
    int64_t pos_ = 0;            // the next sample expected
    bool any_ = false;
    // silence
    bool silent_ = false;
    int64_t silenceStart_ = 0, silenceFrame_ = 0;
    double silencePts_ = 0;
    // silent_channel, per channel
    struct ChannelRun {
        bool open = false, othersActive = false;
        int64_t start = 0, startFrame = 0;
        double startPts = 0;
    };
    std::vector<ChannelRun> runs_;
    // clipping, per channel: the current run of full-scale samples
    struct ClipRun {
        int64_t length = 0, startFrame = 0;
        double startPts = 0;
    };
    std::vector<ClipRun> clips_;
    bool clipOpen_ = false;
    AudioEvent clip_;            // the clipping event being gathered
    int64_t lastClipEnd_ = 0;
    std::vector<AudioEvent> events_;
};

}  // namespace cs::audio
