// The audio of each video frame: an AudioSource read in step with the picture, every sample
// fed to the meter and the detectors once, and each frame's levels taken over the samples
// in its interval [pts, pts + duration) on the picture's clock. Samples outside every
// frame's interval (before the first, between frames of a variable rate, after the last)
// still count for loudness and the detectors. Gaps in the audio are filled with silence
// (the source warned of them); audio that starts after the picture leaves the frames before
// it without audio.
//
// Memory is flat: a block of decoded audio at a time. One thread at a time.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "AudioDetectors.h"
#include "AudioMeter.h"
#include "AudioSource.h"

namespace cs::audio {

class AudioTimeline {
public:
    // The input's audio (stream -1: FFmpeg's best); fails when there is none or it cannot be decoded.
    static Result<std::unique_ptr<AudioTimeline>> open(const std::string& input, const AudioDetectRules& rules,
                                                       int streamIndex = -1);
    AudioTimeline(std::unique_ptr<AudioSource> source, std::unique_ptr<AudioMeter> meter, const AudioDetectRules& rules);

    // The levels of [start, end) seconds, the interval of video frame `frame`. Intervals come
    // in rising order; a part of one that was already read (overlapping intervals) is not read again.
    IntervalLevels measure(int64_t frame, double start, double end);   // frame's pts: start
    // The rest of the audio (after the last frame), for loudness and the detectors.
    void finish();
    // Reading on from `seconds` (the window's seeks); what the meter measured so far stays.
    Status seek(double seconds);
    // The phase pair's samples of the last interval measured, at most kPairPoints of them
    // (evenly picked): the goniometer's dots. Empty without a pair.
    static constexpr size_t kPairPoints = 2048;
    const std::vector<std::pair<float, float>>& pairSamples() const { return pair_; }

    LoudnessSummary summary() const { return meter_->summary(); }
    std::vector<AudioEvent> takeEvents() { return detectors_.takeEvents(); }
    std::vector<std::string> takeWarnings();
    const AudioStreamInfo& info() const { return source_->info(); }
    const AudioMeter& meter() const { return *meter_; }
    int sampleRate() const { return meter_->sampleRate(); }

private:
    bool fill();                              // the next block into block_; false at the end
    void feed(int64_t until, int64_t from);   // samples up to `until`; those from `from` on are the interval's
    void feedSamples(const float* const* planes, size_t n, bool attribute);
    std::unique_ptr<AudioSource> source_;
    std::unique_ptr<AudioMeter> meter_;
    AudioDetectors detectors_;
    AudioBlock block_;
    int offset_ = 0;                 // samples of block_ already fed
    bool haveBlock_ = false, ended_ = false, started_ = false;
    int64_t pos_ = 0;                // the next sample to feed
    std::vector<float> silence_;     // zeros for gaps
    std::vector<std::string> warnings_;
    std::vector<std::pair<float, float>> pair_;
    bool keepPair_ = false;          // within measure(): the interval's samples are kept
};

}  // namespace cs::audio
