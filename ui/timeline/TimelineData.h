// The timeline's data: per-frame statistics of a whole file, as `cudascope qc` writes them
// (one qc.json frame line each: the same values, by construction), the timecode of each
// frame and the qc events. Each series keeps a min/max pyramid (levels of pairs), so the
// view asks for the least and greatest value over any run of frames in O(log n): one query
// per pixel column draws a 90,000-frame file without visiting every frame.
//
// Threading: one thread at a time (the GUI thread: TimelinePass appends as lines arrive).
#pragma once
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/Status.h"
#include "playback/FlightRecorder.h"

namespace cs::timeline {

enum class Series : int {
    YMin, YAvg, YMax,          // luma code values (stats.y)
    UAvg, VAvg,                // chroma averages (stats.u/v.avg)
    SatAvg,                    // signalstats SATAVG
    Ydif,                      // signalstats YDIF
    OutOfLegal,                // share of pixels out of the legal range (stats.out_of_legal)
    OutsideTarget,             // share outside the gamut target (gamut.outside_share)
    MaxNits, AvgNits,          // HDR light levels (hdr.max_nits/avg_nits)
    Momentary, ShortTerm,      // the audio's loudness over the frame (audio.momentary/short_term, LUFS)
    TruePeak,                  // the loudest channel's true peak over the frame (audio.true_peak, dBTP)
    Count
};
// A loudness or true peak with no value (silence below the gate, no audio in the frame's
// interval) is kept at this floor, under every scale, so that it draws at the band's foot.
inline constexpr float kLoudnessFloor = -70.0f;
inline bool isLoudness(Series s) { return s == Series::Momentary || s == Series::ShortTerm || s == Series::TruePeak; }
inline constexpr int kSeriesCount = int(Series::Count);
// "Y min", "sat avg", "max nits"...
const char* seriesLabel(Series s);

// Least and greatest of a growing list of values over any run of them.
class MinMaxPyramid {
public:
    void clear() { levels_.clear(); }
    void append(float v);
    int64_t size() const { return levels_.empty() ? 0 : int64_t(levels_[0].size()); }
    // Over values [first, last] (clamped); {0, 0} when empty.
    std::pair<float, float> range(int64_t first, int64_t last) const;
    float at(int64_t i) const { return levels_[0][size_t(i)].first; }

private:
    std::vector<std::vector<std::pair<float, float>>> levels_;   // level k: blocks of 2^k values
};

struct TimelineEvent {
    std::string type;      // qc's event types
    int64_t first = 0, last = 0;
    std::string firstTimecode, lastTimecode, message;
};

// One frame's values from a document other than qc.json (a QCTools document): a series
// without `present` is one the document does not carry for this frame.
struct FrameValues {
    double pts = 0;
    std::string timecode;
    std::array<float, kSeriesCount> value{};
    std::array<bool, kSeriesCount> present{};
};

class TimelineData {
public:
    void clear();
    // One qc.json frame line (app/QcRun.cpp writes them).
    void addFrame(const QJsonObject& frame);
    // qc.json's "events".
    void setEvents(const QJsonArray& events);
    // A live source's recorded frame (playback/FlightRecorder.h): its pts here is the
    // recorder's clock, its timecode the stream's or else the time of day; SatAvg and YDIF,
    // which only qc's signalstats pass measures, stay absent.
    void addFlight(const FlightFrame& frame);
    void setEventList(std::vector<TimelineEvent> events) { events_ = std::move(events); }
    // A frame read from another document (ui/timeline/QcToolsDocument.h).
    void addValues(const FrameValues& frame);
    // Every frame is here: the axis ends at the last one.
    void markWhole() { expected_ = frames(); }
    // Frame `i`'s label (a QCTools document's frames relabelled from the source's timecode).
    void setTimecode(int64_t i, std::string text) { timecodes_[size_t(i)] = std::move(text); }
    // qc.json's "source" head: the frame rate and the expected length, for the axis.
    void setSource(const QJsonObject& source);

    int64_t frames() const { return int64_t(pts_.size()); }
    int64_t expectedFrames() const { return std::max(expected_, frames()); }
    double frameRate() const { return frameRate_; }
    void setFrameRate(double rate) { if (rate > 0) frameRate_ = rate; }
    double pts(int64_t i) const { return pts_[size_t(i)]; }
    const std::string& timecode(int64_t i) const { return timecodes_[size_t(i)]; }
    bool has(Series s) const { return present_[size_t(s)]; }
    float value(Series s, int64_t i) const { return series_[size_t(s)].at(i); }
    std::pair<float, float> range(Series s, int64_t first, int64_t last) const { return series_[size_t(s)].range(first, last); }
    // The greatest value of a series over the whole file so far (for its scale).
    float peak(Series s) const { return series_[size_t(s)].range(0, frames() - 1).second; }
    const std::vector<TimelineEvent>& events() const { return events_; }
    // The frame at or after `seconds` (by pts), clamped to the frames there are.
    int64_t frameAt(double seconds) const;

    // A whole qc.json (a report beside the video, or a finished pass). Errors name the file.
    static Result<TimelineData> fromQcJson(const QString& path);

private:
    std::array<MinMaxPyramid, kSeriesCount> series_;
    std::array<bool, kSeriesCount> present_{};
    std::vector<double> pts_;
    std::vector<std::string> timecodes_;
    std::vector<TimelineEvent> events_;
    int64_t expected_ = 0;
    double frameRate_ = 25.0;
    int64_t todSecond_ = -1;   // addFlight's last time-of-day label and its second
    std::string todText_;
};

}  // namespace cs::timeline
