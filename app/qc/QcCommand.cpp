// `cudascope qc`: quality control of whole files. The inputs (folders expanded, sorted,
// --shard applied) are taken in order by --jobs job threads, each running one input at a
// time in a worker process of its own (app/qc/QcWorker.h: the binary again, running
// app/qc/QcRun.cpp with its own source and engine), so that a crash or a hang fails that
// input alone; with several --devices the jobs are spread over them (job j on device j mod
// count). Threading: the job threads share only the next-input counter (atomic), the
// outcome counters (atomic), the per-input outcome slots (each written by one job, read
// after the joins) and stderr, whose lines are written whole under `logLock` (the workers'
// own lines are single writes to the same stderr). With --policy the main thread then
// writes the run's index.html and summary.csv (QcIndex.h; a shard of --shard K/N leaves them
// to `qc --summary DIR`) and --fail-on picks the exit code.
#include <QByteArray>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "app/cli/Commands.h"
#include "QcIndex.h"
#include "QcOptions.h"
#include "QcPolicy.h"
#include "QcRun.h"
#include "QcWorker.h"
#include "app/cli/StopSignals.h"
#include "core/ThreadPool.h"

namespace cs {

namespace {

// `qc --summary DIR`: index.html and summary.csv from the reports in DIR (QcIndex.h). Exit 1
// when a report is not whole (listed as failed) or DIR has none, else 3 for --fail-on's
// verdicts, else 0.
int writeQcSummary(const std::string& dir, const std::string& failOn) {
    auto entries = qcSummaryEntries(dir);
    if (!entries) {
        std::fprintf(stderr, "cudascope qc: --summary %s\n", entries.message().c_str());
        return kExitFailure;
    }
    int damaged = 0, verdictFailures = 0, withVerdicts = 0;
    for (const QcIndexEntry& e : *entries) {
        if (e.outcome == "failed") {
            ++damaged;
            std::fprintf(stderr, "cudascope qc: %s\n", e.message.c_str());
        }
        withVerdicts += !e.report["verdicts"].toArray().isEmpty();
        verdictFailures += qcFailsOn(e, failOn);
    }
    if (Status st = writeQcIndex(dir, *entries); !st) {
        std::fprintf(stderr, "cudascope qc: %s\n", st.message().c_str());
        return kExitFailure;
    }
    std::fprintf(stderr, "cudascope qc: %zu report%s (%d with verdicts, %d not whole) in %s/index.html and summary.csv\n",
                 entries->size(), entries->size() == 1 ? "" : "s", withVerdicts, damaged, dir.c_str());
    if (verdictFailures)
        std::fprintf(stderr, "cudascope qc: %d input%s failed --fail-on %s\n", verdictFailures, verdictFailures == 1 ? "" : "s",
                     failOn.c_str());
    if (damaged) return kExitFailure;
    return verdictFailures ? kExitVerdict : kExitOk;
}

}  // namespace

int runQc(int argc, char** argv) {
    auto parsed = parseQcArgs(argumentsOf(argc, argv));
    const auto usage = [](const std::string& message) {
        std::fprintf(stderr, "cudascope qc: %s\n%s", message.c_str(), qcUsage().c_str());
        return kExitUsage;
    };
    if (!parsed) return usage(parsed.message());
    QcOptions a = std::move(*parsed);
    if (a.help) {
        std::fputs(qcUsage().c_str(), stdout);
        return kExitOk;
    }
    if (!a.listDir.empty()) {
        auto files = listMediaFiles(a.listDir);
        if (!files) {
            std::fprintf(stderr, "cudascope qc: %s\n", files.message().c_str());
            return kExitFailure;
        }
        for (const auto& f : shardOf(*files, a.shardIndex, a.shardCount)) std::printf("%s\n", f.c_str());
        return kExitOk;
    }
    if (!a.summaryDir.empty()) return writeQcSummary(a.summaryDir, a.failOn);
    if (!a.thresholdsFile.empty()) {
        std::ifstream in(a.thresholdsFile, std::ios::binary);
        if (!in) return usage("--thresholds " + a.thresholdsFile + ": cannot be read");
        std::stringstream text;
        text << in.rdbuf();
        auto t = parseQcThresholds(text.str(), a.thresholds);
        if (!t) return usage("--thresholds " + a.thresholdsFile + ": " + t.message());
        a.thresholds = *t;
    }
    if (!a.policy.empty()) {   // read here to refuse a bad one before any input; each worker reads them again
        auto p = loadQcPolicies(a.policy);
        if (!p) return usage(p.message());
    } else if (a.failOn != "never") {   // (--summary reads the verdicts its reports carry)
        return usage("--fail-on " + a.failOn + " needs --policy: without rules there are no verdicts");
    }
    auto expanded = expandInputs(a.inputs);
    if (!expanded) {
        std::fprintf(stderr, "cudascope qc: %s\n", expanded.message().c_str());
        return kExitFailure;
    }
    const std::vector<std::string> inputs = shardOf(*expanded, a.shardIndex, a.shardCount);
    std::map<std::string, std::string> names;   // report name -> input: two inputs must not share one
    for (const auto& in : inputs) {
        const auto [it, added] = names.emplace(qcName(in), in);
        if (!added) return usage(in + " and " + it->second + " would write the same report " + it->first + ".qc.json");
    }
    if (inputs.empty()) {
        std::fprintf(stderr, "cudascope qc: no input in this shard (%d/%d of %zu)\n", a.shardIndex, a.shardCount, expanded->size());
        return kExitOk;
    }
    std::error_code ec;
    const std::filesystem::path out(a.outDir);
    std::vector<std::filesystem::path> made;   // the folders create_directories makes, the deepest first
    for (auto p = std::filesystem::absolute(out, ec); !ec && !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path())
        made.push_back(p);
    const auto resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(out, ec), ec);
    if (!ec && resolved == resolved.root_path()) {
        std::fprintf(stderr, "cudascope qc: %s: refusing to write reports into the root of the file system\n", a.outDir.c_str());
        return kExitFailure;
    }
    std::filesystem::create_directories(out, ec);
    if (ec || !std::filesystem::is_directory(out)) {
        std::fprintf(stderr, "cudascope qc: %s: cannot create the output folder (%s)\n", a.outDir.c_str(),
                     ec ? ec.message().c_str() : "not a folder");
        return kExitFailure;
    }

    const StopSignals stopSignals;
    std::mutex logLock;
    const auto log = [&](const std::string& line) {
        const std::lock_guard<std::mutex> lock(logLock);
        std::fprintf(stderr, "cudascope qc: %s\n", line.c_str());
    };
    // One thread budget for the run (core/ThreadPool.h): each worker process gets its job's
    // share of --threads (default: the CPUs), for its engine's pool, its decoder and its writers.
    const int jobs = int(std::min<size_t>(size_t(a.jobs), inputs.size()));
    const int threadsPerJob = std::max(1, (a.threads > 0 ? a.threads : ThreadPool::processThreads()) / std::max(1, jobs));
    std::atomic<size_t> next{0};
    std::atomic<int> checked{0}, skipped{0}, failed{0}, stopped{0};
    // Each input's outcome, for index.html: slot i is written only by the job thread that took input i
    // (the next-input counter hands each index out once) and read after the joins.
    std::vector<std::pair<std::string, std::string>> outcomes(inputs.size());
    const auto job = [&](int jobIndex) {
        QcWorkerRequest o;
        o.outDir = a.outDir;
        o.engine = a.engine;
        o.hwdec = a.hwdec;
        o.device = a.devices.empty() ? 0 : a.devices[size_t(jobIndex) % a.devices.size()];
        o.qctools = a.qctools;
        o.onlyJson = a.onlyJson;
        o.hostDetectors = a.hostDetectors;
        o.force = a.force;
        o.thresholdsFile = a.thresholdsFile;
        o.loudnessTarget = a.loudnessTarget;
        o.policy = a.policy;
        o.gamutTarget = a.gamutTarget;
        o.inputTimeout = a.inputTimeout;
        o.threads = threadsPerJob;
        for (size_t i; (i = next.fetch_add(1)) < inputs.size();) {
            if (stopSignals.received()) break;
            const QcRunResult r = runQcInputInWorker(inputs[i], o, [&] { return stopSignals.received(); });
            log(r.message);
            static constexpr const char* kWords[] = {"checked", "skipped", "failed", "stopped"};
            outcomes[i] = {kWords[int(r.outcome)], r.message};
            switch (r.outcome) {
                case QcOutcome::Checked: ++checked; break;
                case QcOutcome::Skipped: ++skipped; break;
                case QcOutcome::Failed: ++failed; break;
                case QcOutcome::Stopped: ++stopped; break;
            }
        }
    };
    std::vector<std::thread> threads;
    for (int j = 1; j < jobs; ++j) threads.emplace_back(job, j);
    job(0);
    for (auto& t : threads) t.join();
    for (const auto& p : made)   // made here and left empty (every input failed): removed
        if (!std::filesystem::is_empty(p, ec) || !std::filesystem::remove(p, ec)) break;

    std::fprintf(stderr, "cudascope qc: %d checked, %d skipped, %d failed of %zu input%s; reports in %s\n", checked.load(),
                 skipped.load(), failed.load(), inputs.size(), inputs.size() == 1 ? "" : "s", a.outDir.c_str());
    if (const int sig = stopSignals.received()) {
        std::fprintf(stderr, "cudascope qc: stopped by %s; inputs in progress have no report\n", signalName(sig));
        return 128 + sig;
    }
    int verdictFailures = 0;
    if (!a.policy.empty() && (checked || skipped) && a.shardCount > 1) {
        // A shard knows only its own inputs, and the shards of one run share DIR: the index is
        // written once they are all done, by `qc --summary DIR`.
        for (size_t i = 0; i < inputs.size(); ++i) {
            const QcIndexEntry e = qcIndexEntry(a.outDir, inputs[i], outcomes[i].first, outcomes[i].second);
            verdictFailures += qcFailsOn(e, a.failOn);
        }
        std::fprintf(stderr, "cudascope qc: shard %d/%d writes no index; once every shard is done: cudascope qc --summary %s\n",
                     a.shardIndex, a.shardCount, a.outDir.c_str());
    } else if (!a.policy.empty() && (checked || skipped)) {   // the run's index of verdicts (QcIndex.h)
        std::vector<QcIndexEntry> entries;
        for (size_t i = 0; i < inputs.size(); ++i) {
            entries.push_back(qcIndexEntry(a.outDir, inputs[i], outcomes[i].first, outcomes[i].second));
            verdictFailures += qcFailsOn(entries.back(), a.failOn);
        }
        if (Status st = writeQcIndex(a.outDir, entries); !st) {
            std::fprintf(stderr, "cudascope qc: %s\n", st.message().c_str());
            return kExitFailure;
        }
        if (verdictFailures)
            std::fprintf(stderr, "cudascope qc: %d input%s failed --fail-on %s (index in %s/index.html)\n", verdictFailures,
                         verdictFailures == 1 ? "" : "s", a.failOn.c_str(), a.outDir.c_str());
    }
    if (failed) return kExitFailure;
    return verdictFailures ? kExitVerdict : kExitOk;
}

}  // namespace cs
