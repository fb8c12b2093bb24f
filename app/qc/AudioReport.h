// The audio in export's report.json and qc's NAME.qc.json: the stream (head), each video
// frame's levels over its interval [pts, pts + duration) (per channel sample peak in dBFS and
// true peak in dBTP, momentary and short-term loudness in LUFS, the L/R phase correlation),
// the summary (integrated loudness, loudness range, maximum true peak, per channel) and qc's
// audio events: loudness, true_peak, phase (runs of frames), silence, silent_channel and
// clipping (sample-exact, audio/AudioDetectors.h). Levels of silence (-inf) are null.
// One thread (the run's).
#pragma once
#include <QJsonObject>

#include <memory>
#include <string>
#include <vector>

#include "QcEvents.h"
#include "audio/AudioTimeline.h"

namespace cs {

class AudioReport {
public:
    // The input's audio (FFmpeg's best stream). No audio stream: null, nothing said; audio that
    // cannot be read: null and `warning` says why (the picture is still checked).
    static std::unique_ptr<AudioReport> open(const std::string& input, const QcThresholds& thresholds, std::string& warning);
    explicit AudioReport(std::unique_ptr<audio::AudioTimeline> timeline, const QcThresholds& thresholds);

    QJsonObject streamJson() const;   // the head's "audio": index, codec, rate, layout, channels, ...
    // A frame's "audio" object; the same members in every frame (null where the frame has no audio).
    QJsonObject frame(int64_t index, double pts, double duration);
    // The rest of the audio read; the events closed at the last frame (lastPts + duration).
    void finish();
    QJsonObject summaryJson() const;
    std::vector<QcEvent> takeEvents();
    std::vector<std::string> takeWarnings() { return timeline_->takeWarnings(); }
    const audio::LoudnessSummary& summary() const { return summary_; }

private:
    void collectDetectorEvents();
    std::unique_ptr<audio::AudioTimeline> timeline_;
    QcThresholds t_;
    std::vector<QString> keys_;       // per channel: its label, made unique
    RunDetector truePeak_, phase_;
    std::vector<QcEvent> events_;
    int64_t firstIndex_ = -1, lastIndex_ = 0;
    double firstPts_ = 0, lastPts_ = 0, lastDuration_ = 0;
    bool finished_ = false;
    audio::LoudnessSummary summary_;
};

}  // namespace cs
