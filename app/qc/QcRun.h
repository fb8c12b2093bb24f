// One input of `cudascope qc`: decode it through an engine, measure every frame (the
// engine's statistics, analysis/SignalStats, blackdetect's and freezedetect's tests), find
// the events, and write NAME.qc.csv, NAME.qctools.xml.gz, NAME.qc.png and last
// NAME.qc.json, each through an AtomicFile: a run stopped or killed leaves no report, and
// a complete NAME.qc.json means every file of the input is there (NAME.qc.html and .qc.pdf
// too). One call per input, on whichever job thread takes it; nothing is shared between calls
// but `log` and `stop`. Within a call, the pictures of the events' first frames are read on a
// second thread (app/qc/QcThumbnails.h) while the other files are written.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "QcOptions.h"
#include "QcPolicy.h"
#include "decode/FrameInput.h"

namespace cs {

struct QcRunOptions {
    std::string outDir, engine = "auto", hwdec;
    int device = 0;
    bool qctools = true, force = false;
    bool onlyJson = false;                               // NAME.qc.json alone (no csv, png, html, pdf, pictures)
    // Frames NVDEC leaves on the GPU copied to the host as well, for the detectors that read
    // host frames (scdet, cropdetect, idet, the flash detector); also when a policy asks for
    // their events (qcNeedsHostDetectors).
    bool hostDetectors = false;
    QcThresholds thresholds;
    Primaries gamutTarget = Primaries::Bt709;            // each frame's share of pixels outside it
    std::vector<QcPolicy> policies;                      // --policy: every rule gets a verdict (QcPolicy.h)
    const std::atomic<bool>* stop = nullptr;             // set: stop between frames, write nothing
    std::function<void(const std::string&)> log;         // one line to stderr (thread-safe)
    double progressSeconds = 5.0;                        // a progress line this often
    int64_t maxFrames = 0;                               // more than 0: reading ends after this many frames (fuzz_qc)
    // How the input is opened (null: openFrameInput); fuzz_qc opens bytes from memory.
    std::function<Result<std::unique_ptr<FrameInput>>(const std::string&, const FrameInputOptions&)> open;
    std::function<void(int64_t frames)> frameDone;      // after each frame measured (a worker's heartbeat)
};

enum class QcOutcome { Checked, Skipped, Failed, Stopped };

// Whether a run measures NVDEC's frames on the host too: --host-detectors, or a policy rule
// on the events only host frames give (flash, red_flash, field_order, scene_cut,
// repeated_frame, active_area).
bool qcNeedsHostDetectors(const QcRunOptions& o);

struct QcRunResult {
    QcOutcome outcome = QcOutcome::Failed;
    std::string message;   // Failed: one sentence naming the input and the reason; Checked: the summary
};

// The paths of an input's reports in `dir`.
std::string qcPath(const std::string& dir, const std::string& name, const char* suffix);

QcRunResult runQcInput(const std::string& input, const QcRunOptions& options);

}  // namespace cs
