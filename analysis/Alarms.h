// Alarm rules for a picture stream watched frame by frame (the wall's tiles): black, frozen,
// out of legal range, out of gamut, and a lost signal. The black and frozen rules are FFmpeg's
// blackdetect and freezedetect, with their defaults and decisions taken from analysis/DetectRules.h
// (the ones `cudascope qc` uses), so that what the wall flags, what qc reports and what a file
// run through those filters reports agree:
//   black  (blackdetect): a pixel is black when its luma is at or below blackThresholdFor
//          (analysis/SignalStats.h: limited 16 + 0.10 x 219 codes at 8 bits, scaled to the depth;
//          full 0.10 x (2^depth - 1)); a picture is black when at least
//          picture_black_ratio_th = 98% of its pixels are; the alarm holds once pictures have
//          been black for d = 2 s, from the first black one until one that is not.
//   frozen (freezedetect): the mean absolute difference of the luma samples from the
//          reference frame's (the last frame that was not frozen: the caller keeps it), over
//          2^depth (MAFD, freezeMafd), at most noise = -60 dB (0.001) for d = 2 s.
//          freezedetect averages every plane; the luma alone is used here (a change of colour
//          alone, with every luma sample still, is not seen).
//   out of legal / R'G'B' out of range: FrameStats::outOfLegal / outOfGamut (signalstats' BRNG and
//          EBU R 103's -5%..105%, docs/SCOPES.md) above a share of the pixels (1%) for a duration
//          (1 s: single damaged frames do not raise it), as qc's events (analysis/DetectRules.h).
//   no signal: the source's reader is reconnecting, failed or ended (decode/LiveReader.h), or a
//          file could not be opened or read (missing, empty, undecodable).
// The tracker measures durations on the time it is given (seconds, rising): the wall gives it a
// steady clock, so a looping file or a restarted stream never runs time backwards.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "DetectRules.h"
#include "core/Frame.h"
#include "core/ScopeResults.h"

namespace cs {

struct BlackRule {
    double pixelThreshold = kBlackPixelRatio;   // blackdetect pixel_black_th (pix_th)
    double pictureRatio = kBlackPictureRatio;   // blackdetect picture_black_ratio_th (pic_th)
    double duration = kBlackMinDuration;        // blackdetect black_min_duration (d), seconds
};
struct FreezeRule {
    double noise = freezeNoiseFromDb(kFreezeNoiseDb);   // freezedetect noise (n), -60 dB
    double duration = kFreezeMinDuration;               // freezedetect duration (d), seconds
};
struct ShareRule {
    double share = kShareThreshold;         // of the picture's pixels
    double duration = kShareMinDuration;    // seconds
};
struct AlarmRules {
    BlackRule black;
    FreezeRule freeze;
    ShareRule legal;
    ShareRule gamut;
};

enum class AlarmKind : uint8_t { Black, Frozen, OutOfLegal, OutOfGamut, Signal };
constexpr int kAlarmKinds = 5;
// "black", "frozen", "out of legal", "R'G'B' out of range" (EBU R 103's R'G'B' gamut: not the
// colour gamut, the chromaticity outside a target), "no signal"
std::string_view alarmName(AlarmKind kind);

// The share of pixels at or below `threshold` in a luma histogram (0 for an empty one).
double shareAtOrBelow(const std::vector<uint32_t>& histY, int32_t threshold);
// freezedetect's MAFD on the luma planes of two host frames of the same format and size: the
// mean absolute difference of their samples over 2^depth (freezeMafd). Nullopt when
// they cannot be compared (sizes, formats, device memory, RGB layouts).
std::optional<double> lumaMafd(const FrameView& a, const FrameView& b);

// One frame's measurements.
struct AlarmMeasure {
    double blackShare = 0.0;            // pixels at or below the black threshold
    std::optional<double> mafd;         // against the reference frame; nullopt: no reference yet
    double outOfLegal = 0.0;
    double outOfGamut = 0.0;
};

// An alarm that began (`start`) or ended; `since` is when the condition began (for the
// duration rules, earlier than the frame that raised it).
struct AlarmEvent {
    AlarmKind kind = AlarmKind::Black;
    bool start = true;
    double since = 0.0;                 // tracker time (seconds)
    double at = 0.0;                    // tracker time of the frame or state change that decided it
    std::string detail;                 // e.g. "99.7% black", the reason a signal was lost
};

class AlarmTracker {
public:
    explicit AlarmTracker(AlarmRules rules = {}) : rules_(rules) {}
    const AlarmRules& rules() const { return rules_; }

    // The measures of the frame shown at time `t`; events that begin or end with it are appended.
    void frame(double t, const AlarmMeasure& m, std::vector<AlarmEvent>& events);
    // The reader's state: `lost` while it reconnects (or failed, or ended); `why` for the log.
    void signal(double t, bool lost, const std::string& why, std::vector<AlarmEvent>& events);
    // The picture rules start over (a new source, a seek, a reconnect): running durations are
    // dropped and active picture alarms end at `t`.
    void restart(double t, std::vector<AlarmEvent>& events);

    bool active(AlarmKind kind) const { return state_[size_t(kind)].active; }
    bool anyActive() const;
    // The active alarms' names joined with ", " ("" when none).
    std::string activeText() const;

private:
    struct State {
        std::optional<double> since;   // the condition holds since then
        bool active = false;
    };
    void apply(AlarmKind kind, bool holds, double duration, double t, const std::string& detail,
               std::vector<AlarmEvent>& events);

    AlarmRules rules_;
    std::array<State, kAlarmKinds> state_{};
};

}  // namespace cs
