// `cudascope qc --policy`: delivery rules as data. A policy is a JSON file (the presets ship
// in app/qc/policies/ and are installed beside the binary, docs/QC.md) naming its source
// document and its rules; each rule is one check with its numbers: EBU R 103's video limits
// over an area of the picture, the programme's integrated loudness, its maximum true peak,
// or "no event of this type" for qc's detectors. After an input is read every rule gets a
// verdict (pass, fail or not_applicable) with its evidence (frames, timecodes, values).
// Plain data and functions; QcRuleMonitor is used by one thread (the run's).
#pragma once
#include <QJsonArray>
#include <QJsonObject>

#include <cstdint>
#include <string>
#include <vector>

#include "QcEvents.h"
#include "core/Status.h"

namespace cs {

class QcMetadataMonitor;

struct QcRule {
    // check: r103_limits, integrated_loudness, true_peak, event, and the metadata checks
    // content_light_level, mastering_gamut, range_tag, bt2020_in_bt709 (QcMetadata.h)
    std::string id, title, check;
    // r103_limits: a frame is in error when at least `area` of its pixels are outside R 103's
    // limits (core/Color.h's yuvOutsideR103); an error is a run of such frames lasting at
    // least `minDuration` seconds (0: any frame).
    double area = 0.01, minDuration = 0;
    double integrated = -23, tolerance = 0.5;   // integrated_loudness: LUFS, LU either side
    double maxTruePeak = -1;                    // true_peak: dBTP
    std::string eventType;                      // event: qc's event type (docs/QC.md)
    int64_t maxEvents = 0;                      // event: more than this many fail
    // content_light_level: the signalled MaxCLL / MaxFALL fails below measured x (1 - below)
    // or above measured x (1 + above) + 1 cd/m2 (QcMetadata.h).
    double below = 0.05, above = 1.0;
    // mastering_gamut: a frame with more than `share` of its pixels outside the mastering
    // display's primaries fails; bt2020_in_bt709: a BT.2020 file none of whose frames has more
    // than `share` outside BT.709 fails.
    double share = 0.01;
};

struct QcPolicy {
    std::string name, title, source, file;   // file: where it was read from
    std::vector<QcRule> rules;
};

// The folders searched for a preset named on the command line: next to the binary
// (policies/, the build tree) and ../share/cudascope/policies (installed).
std::vector<std::string> qcPolicyDirs();
// The names of the presets found there, sorted.
std::vector<std::string> qcPresetNames();
// A policy's JSON; errors say what is wrong (the caller names the file).
Result<QcPolicy> parseQcPolicy(const std::string& jsonText);
// --policy's value: a comma list of preset names (r103, r128, a85, bt1702, detectors, metadata) and files
// (anything with a '/' or ending in .json). An error is one sentence naming the file or the
// name and the reason. Two rules with the same id are refused.
Result<std::vector<QcPolicy>> loadQcPolicies(const std::string& spec);
// The policies as recorded in a report (made_from's settings, the tail's "policies").
QJsonArray qcPoliciesJson(const std::vector<QcPolicy>& policies);

// What the verdicts are drawn from besides the frames the monitor saw.
struct QcVerdictInputs {
    const std::vector<QcEvent>* events = nullptr;
    QJsonObject audioSummary;     // AudioReport's summary; empty: no audio stream
    bool ycbcr = true;            // R 103's limits apply (R'G'B' sources: not applicable)
    bool signalstats = true;      // black and freeze were measured
    std::string flashesNotMeasured;   // set: why flash and red_flash were not measured (their rules: not applicable)
    std::string fieldOrderNotMeasured;   // set: why field_order was not measured (its rules: not applicable)
    const QcMetadataMonitor* metadata = nullptr;   // the metadata checks' findings
    int64_t frames = 0;
};

// Follows the frames for the rules that need them (R 103's runs) and gives every rule its verdict.
class QcRuleMonitor {
public:
    explicit QcRuleMonitor(const std::vector<QcPolicy>& policies);
    // share: the frame's share of pixels outside R 103's limits (stats.out_of_r103).
    void frame(int64_t index, double pts, const std::string& timecode, double share);
    void finish(double frameDuration);
    // One object per rule: policy, rule, title, check, verdict, reason, evidence.
    QJsonArray verdicts(const QcVerdictInputs& in) const;
    static constexpr size_t kMaxListed = 100;   // runs and events listed per rule (the rest counted)

private:
    struct Run {
        int64_t first = 0, last = 0, worstFrame = 0;
        double firstPts = 0, lastPts = 0, endPts = 0, worst = 0;
        std::string firstTimecode, lastTimecode, worstTimecode;
    };
    struct Limits {   // one r103_limits rule's runs
        double area = 0, minDuration = 0;
        bool open = false;
        Run run;
        std::vector<Run> runs;
        int64_t errorRuns = 0, errorFrames = 0;
        double worst = 0;
        int64_t worstFrame = -1;
        std::string worstTimecode;
    };
    void close(Limits& l, double endPts);
    std::vector<QcPolicy> policies_;
    std::vector<Limits> limits_;   // per r103_limits rule, in policy and rule order
};

// "pass" when no rule failed ("not_applicable" rules do not count), else "fail".
std::string qcOverallVerdict(const QJsonArray& verdicts);

}  // namespace cs
