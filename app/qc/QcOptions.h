// `cudascope qc`'s options (read by the rules of CommandOptions.h), its thresholds (defaults,
// or a JSON file), the list of inputs (files and folders expanded, sorted) and --shard.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/cli/CommandOptions.h"
#include "audio/AudioDetectors.h"
#include "audio/LoudnessTarget.h"
#include "core/Color.h"
#include "analysis/DetectRules.h"
#include "analysis/SceneCuts.h"
#include "core/Status.h"

namespace cs {

// qc --help: the synopsis, then a line per option of qcOptionTable(), then the exit codes.
const std::string& qcUsage();

// What makes an event (docs/QC.md). Durations in seconds.
struct QcThresholds {
    // blackdetect: a frame is black when more than pictureRatio of its pixels have luma at or
    // below 16 + pixelRatio * 219 (limited range; pixelRatio * max for full range).
    double blackPictureRatio = kBlackPictureRatio, blackPixelRatio = kBlackPixelRatio, blackMinDuration = kBlackMinDuration;
    // freezedetect: frames whose MAFD from the reference frame is at most noise (-60 dB).
    double freezeNoiseDb = kFreezeNoiseDb, freezeMinDuration = kFreezeMinDuration;
    // Frames whose share of out-of-legal (BRNG) / out-of-gamut pixels is above `share`.
    double legalShare = kShareThreshold, legalMinDuration = kShareMinDuration;
    double gamutShare = kShareThreshold, gamutMinDuration = kShareMinDuration;
    // Frames whose share of pixels outside the --gamut-target (core/Gamut.h's rule) is above `share`.
    double targetGamutShare = kShareThreshold, targetGamutMinDuration = kShareMinDuration;
    // Audio (docs/AUDIO.md): the loudness target (EBU R128 unless --loudness-target or the
    // file says otherwise: the `loudness` event, and the true-peak limit of `true_peak`),
    // silencedetect's silence, silent channels, clipping, and phase: frames whose L/R
    // correlation is below `phaseCorrelation` for at least its duration.
    audio::LoudnessTarget loudness = audio::ebuR128Target();
    double truePeakMinDuration = 0;
    double phaseCorrelation = -0.3, phaseMinDuration = 1.0;
    audio::AudioDetectRules audioRules;
    // scdet: a scene cut where the frame's score is above the threshold (analysis/SceneCuts.h).
    double sceneThreshold = kSceneThreshold;
    double freezeNoise() const;   // 10^(dB/20)
};

// A thresholds file: {"black": {"picture_ratio", "pixel_ratio", "min_duration"},
// "freeze": {"noise_db", "min_duration"}, "out_of_legal": {"share", "min_duration"},
// "out_of_gamut": {"share", "min_duration"}, "out_of_target_gamut": {"share", "min_duration"},
// "loudness": {"target" ("r128"|"a85"), "integrated", "tolerance", "max_true_peak"} (a number
// given makes the target "custom"), "true_peak": {"min_duration"}, "phase": {"correlation",
// "min_duration"}, "silence": {"noise_db", "min_duration"}, "silent_channel": {"noise_db",
// "min_duration"}, "clipping": {"min_run", "merge_gap"}}, every member optional, unknown ones
// refused; what the file leaves out stays as in `base`.
Result<QcThresholds> parseQcThresholds(const std::string& jsonText, const QcThresholds& base = {});

struct QcOptions {
    bool help = false;
    std::vector<std::string> inputs;   // as given (folders not yet expanded)
    std::string outDir, engine = "auto", hwdec, listDir, thresholdsFile;
    std::string summaryDir;            // --summary: the index of the reports in this folder, no input checked
    int jobs = 1;
    int threads = 0;                   // CPU threads for the run (0: every CPU); each job gets threads / jobs
    std::vector<int> devices;          // CUDA devices; empty: device 0
    int shardIndex = 0, shardCount = 1;
    bool qctools = true, force = false;
    bool onlyJson = false;             // --only-json: NAME.qc.json alone (the window's Timeline pass)
    bool hostDetectors = false;        // --host-detectors: NVDEC's frames measured on the host too (QcRun.h)
    QcThresholds thresholds;
    Primaries gamutTarget = Primaries::Bt709;   // --gamut-target: each frame's share outside it
    double inputTimeout = 600;         // --input-timeout: seconds without a frame finished (0: never)
    std::string loudnessTarget;        // --loudness-target r128|a85 (also in thresholds.loudness); "" if not given
    std::string policy;                // --policy: preset names and files, comma-separated (QcPolicy.h); "" if not given
    std::string failOn = "never";      // --fail-on never|fail|any: which verdicts make the exit code 3
};

const std::vector<OptionDef>& qcOptionTable();
// The arguments after "qc" -> the options (the thresholds file not read yet), or the usage
// error's sentence.
Result<QcOptions> parseQcArgs(const std::vector<std::string>& args);

// The media files under `dir` (recursively; hidden entries skipped), sorted by path.
Result<std::vector<std::string>> listMediaFiles(const std::string& dir);
// Inputs with each folder replaced by its media files; then sorted and made unique. A folder
// without media files is an error naming it.
Result<std::vector<std::string>> expandInputs(const std::vector<std::string>& inputs);
// The inputs of shard K of N: every N-th from the K-th (K from 0), over the sorted list.
std::vector<std::string> shardOf(const std::vector<std::string>& sorted, int index, int count);
// The report name of an input: its file name (pattern:... and URLs made file-safe).
std::string qcName(const std::string& input);

}  // namespace cs
