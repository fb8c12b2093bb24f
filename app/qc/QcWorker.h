// `cudascope qc` runs each input in a worker process of its own: the cudascope binary run
// again with the hidden subcommand `qc-worker`, supervised by the job thread that started
// it. A worker that crashes (a signal) or hangs (no frame finished for --input-timeout
// seconds, then killed) fails its input alone: the parent reports the reason, removes the
// .part files the worker left and goes on with the other inputs; the summary always comes.
//
// Protocol: the worker writes lines to a pipe (its --result-fd): "alive" after frames (at
// most a few a second: the parent's clock of progress), and last "result OUTCOME MESSAGE"
// (OUTCOME: checked, skipped, failed, stopped; MESSAGE one line). Its progress and warning
// lines go straight to the inherited stderr, each written whole. Workers run in their own
// process group (Ctrl-C reaches the parent only), and the parent passes a stop
// (SIGINT/SIGTERM) on to each running worker once.
#pragma once
#include <functional>
#include <string>

#include "QcOptions.h"
#include "QcRun.h"

namespace cs {

// What a worker is given: the options of one input's run, in qc's own option syntax.
struct QcWorkerRequest {
    std::string outDir, engine = "auto", hwdec, thresholdsFile, loudnessTarget, policy;
    int device = 0;
    int threads = 0;             // the worker process's thread budget (core/ThreadPool.h; 0: every CPU)
    bool qctools = true, force = false;
    bool onlyJson = false;   // --only-json
    bool hostDetectors = false;   // --host-detectors
    Primaries gamutTarget = Primaries::Bt709;
    double inputTimeout = 600;   // seconds without a frame finished before the worker is killed (0: never)
};

// Runs `input` in a worker and waits for it. `stopSignal()` gives the signal that asked the
// parent to stop (0: none); it is passed on to the worker. Thread-safe: one call per job thread.
QcRunResult runQcInputInWorker(const std::string& input, const QcWorkerRequest& request,
                               const std::function<int()>& stopSignal);

// `cudascope qc-worker --result-fd N -- QC_ARGS...`: one input, run by runQcInput.
int runQcWorker(int argc, char** argv);

}  // namespace cs
