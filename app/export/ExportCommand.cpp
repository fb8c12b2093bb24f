// `cudascope export`: runs a source through an engine without a window and writes, per
// exported frame, PNGs of the picture and each scope (graticule included), the raw
// counts as .npy, and one report.json for the whole run.
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "app/cli/Commands.h"
#include "app/cli/DecodeOptions.h"
#include "app/qc/AudioReport.h"
#include "ExportOptions.h"
#include "ExportPipeline.h"
#include "ReportWriter.h"
#include "app/cli/StopSignals.h"
#include "core/Engine.h"
#include "core/SampleRange.h"
#include "core/ThreadPool.h"
#include "decode/FrameInput.h"
#include "decode/Source.h"
#include "engine/EngineChoice.h"

namespace cs {

int runExport(int argc, char** argv) {
    ExportOptions a;
    if (auto code = readExportOptions(argc, argv, a)) return *code;

    auto engineChoice = chooseEngine(a.engine);
    if (!engineChoice) {
        std::fprintf(stderr, "cudascope export: %s: %s\n", a.input.c_str(), engineChoice.message().c_str());
        return kExitFailure;
    }
    Engine& engine = *engineChoice->engine;
    ReportWriter report;
    // Guards `report`: this thread adds warnings (and the head), the pipeline's writer thread the frames' lines.
    std::mutex reportMutex;
    auto warn = [&](const std::string& w) {
        std::fprintf(stderr, "cudascope export: warning: %s\n", w.c_str());
        std::lock_guard<std::mutex> lock(reportMutex);
        report.addWarning(w);
    };
    // Why auto fell back to the CPU goes in the report and the closing summary line, not
    // as an early stderr line of its own: an error about the input must stay one line.
    if (!engineChoice->note.empty()) report.addWarning(engineChoice->note);

    auto decoding = decodeOptions(*engineChoice, a.hwdec);
    if (!decoding) {
        std::fprintf(stderr, "cudascope export: %s\n", decoding.message().c_str());
        return kExitFailure;
    }
    OpenOptions options = std::move(decoding.value());
    options.cancel = StopSignals::flag();   // a live read waiting for a frame gives up on Ctrl-C
    FrameInputOptions inputOptions;
    inputOptions.open = options;
    inputOptions.timeout = a.timeout;
    inputOptions.allFrames = a.allFrames;
    inputOptions.notice = [](const std::string& state) { std::fprintf(stderr, "cudascope export: %s\n", state.c_str()); };
    auto opened = openFrameInput(a.input, inputOptions);
    if (!opened) {
        std::fprintf(stderr, "cudascope export: %s\n", opened.message().c_str());
        return kExitFailure;
    }
    FrameInput& source = *opened.value();

    std::error_code ec;
    std::filesystem::create_directories(a.outDir, ec);
    if (ec || !std::filesystem::is_directory(a.outDir)) {
        std::fprintf(stderr, "cudascope export: %s: cannot create the output folder (%s)\n", a.outDir.c_str(),
                     ec ? ec.message().c_str() : "not a folder");
        return kExitFailure;
    }
    const std::filesystem::path dir(a.outDir);
    if (Status st = report.open((dir / "report.json").string()); !st) {
        std::fprintf(stderr, "cudascope export: %s\n", st.message().c_str());
        return kExitFailure;
    }
    const StopSignals stopSignals;
    // The audio beside the picture (app/qc/AudioReport.h): each exported frame's levels and a
    // summary; files only (a live input's audio is not read here).
    std::unique_ptr<AudioReport> audio;
    if (!source.summary().live && a.input.rfind("pattern:", 0) != 0) {
        std::string problem;
        audio = AudioReport::open(a.input, QcThresholds{}, problem);
        if (!problem.empty()) warn(problem);
    }

    // Files and report lines are encoded and written by the pipeline (ExportPipeline.h) while
    // this thread reads and computes the next frames: a few frames in flight, in frame order.
    const int encoders = std::clamp(ThreadPool::processThreads(), 1, 8);
    ExportPipeline pipeline(
        dir, a.spec,
        [&](const QJsonObject& line) {
            std::lock_guard<std::mutex> lock(reportMutex);
            return report.addFrame(line);
        },
        encoders + 2, encoders);
    ScopeResults results;   // the first frame's, for the report's head
    long submitted = 0;
    int exitCode = kExitOk;
    std::string ended = "end_of_stream";
    Status written;
    const bool liveInput = source.summary().live;
    // One warning per run of exported frames with samples above the format's range (core/SampleRange.h).
    AboveRangeRuns aboveRange;
    const auto warnAboveRange = [&](const std::optional<std::string>& w) {
        if (w) warn(a.input + ": " + *w);
    };
    for (;;) {
        if (stopSignals.received()) break;
        if (a.maxFrames > 0 && submitted >= a.maxFrames) {
            ended = "max_frames";
            break;
        }
        InputFrame input;
        const InputResult rr = source.next(input);
        const VideoFrame& frame = input.frame;
        for (const auto& w : source.takeWarnings()) warn(w);
        if (rr.status == InputStatus::End) break;
        if (rr.status == InputStatus::TimedOut) {   // a live stream that stayed away: an error, the report kept
            std::fprintf(stderr, "cudascope export: %s\n", rr.message.c_str());
            report.addWarning(rr.message);
            exitCode = kExitFailure;
            ended = "timed_out";
            break;
        }
        if (rr.status == InputStatus::Error) {
            if (stopSignals.received()) break;   // a live read given up for the stop
            // A stream that breaks off keeps what was exported; the failure is reported.
            warn(rr.message);
            if (submitted == 0) exitCode = kExitFailure;
            ended = "read_error";
            break;
        }
        const int64_t thisIndex = input.index;
        if (thisIndex % a.every != 0) continue;
        if (const std::optional<int64_t> above = samplesAboveRange(frame.view))
            warnAboveRange(aboveRange.frame(thisIndex, *above, frame.view.bitDepth()));
        ExportPipeline::Slot* slot = pipeline.acquire();
        if (!slot) break;   // an earlier frame's file or line failed: finish() below says which
        const Status st = engine.process(frame.view, a.spec, slot->results);
        if (!st) {
            pipeline.release(slot);
            warn("frame " + std::to_string(thisIndex) + ": " + st.message());
            continue;
        }
        if (!report.begun()) {
            std::lock_guard<std::mutex> lock(reportMutex);
            results = slot->results;
            QJsonObject head = reportHead(source.info(), engine.name(), a.spec, results);
            if (audio) head["audio"] = audio->streamJson();
            written = report.begin(head);
        }
        if (!written) {
            pipeline.release(slot);
            break;
        }
        // The frame's files first, then its line in the report (the pipeline's order): a frame
        // the report lists has all its files.
        // The frame's timecode (the source's, or the elapsed time: the head's timecode_source
        // says which), the stream's own timestamp, and the first frame after a restart.
        QJsonObject liveFields{{"timecode", QString::fromStdString(input.timecode.text())}};
        if (liveInput) liveFields["source_pts"] = input.sourcePts;
        if (input.discontinuity) liveFields["discontinuity"] = true;
        if (audio) {
            const double rate = source.info().frameRate;
            liveFields["audio"] = audio->frame(thisIndex, input.pts, rate > 0 ? 1.0 / rate : 0.04);
            for (const auto& w : audio->takeWarnings()) warn(w);
        }
        slot->index = thisIndex;
        slot->line = reportFrame(thisIndex, input.pts, a.spec, slot->results, liveFields);
        pipeline.submit(slot);
        ++submitted;
    }
    warnAboveRange(aboveRange.finish());
    if (written) written = pipeline.finish();
    if (!written) ended = "write_error";
    const long exported = pipeline.written();

    const SourceInfo& info = source.info();
    const int stopSignal = written ? stopSignals.received() : 0;
    if (stopSignal) ended = signalName(stopSignal);
    std::lock_guard<std::mutex> lock(reportMutex);   // the pipeline has finished: this thread alone from here
    if (!written) report.addWarning(written.message());
    // The report of the frames done, also after a stop or a failed frame file. One that
    // cannot be finished stays as report.json.part, readable as a killed run's.
    Status finished = report.begun() ? Status{} : report.begin(reportHead(info, engine.name(), a.spec, results));
    QJsonObject tail = reportLiveTail(source.summary());
    if (audio && !stopSignal) {   // a stopped run ends at once: the rest of the audio is not read
        audio->finish();
        for (const auto& w : audio->takeWarnings()) report.addWarning(w);
        tail["audio_summary"] = audio->summaryJson();
    }
    if (finished) finished = report.finish(ended, tail);
    if (!written || !finished) {
        const bool kept = !finished && report.keepPartial();
        std::fprintf(stderr, "cudascope export: %s%s%s%s\n", (!written ? written : finished).message().c_str(),
                     kept ? " (the frames done are listed in " : "", kept ? report.path().c_str() : "",
                     kept ? ".part)" : "");
        return kExitFailure;
    }
    // A live input that never brought a picture has opened no decoder.
    const std::string decoder = info.decoder.empty() ? "no decoder opened" : "decoder " + info.decoder;
    std::fprintf(stderr, "cudascope export: %ld frame%s from %s to %s (engine %s%s%s, %s)\n", exported,
                 exported == 1 ? "" : "s", a.input.c_str(), a.outDir.c_str(), std::string(engine.name()).c_str(),
                 engineChoice->note.empty() ? "" : ": ", engineChoice->note.c_str(), decoder.c_str());
    if (stopSignal) {
        std::fprintf(stderr, "cudascope export: stopped by %s; report.json lists the %ld frame%s done\n",
                     signalName(stopSignal), exported, exported == 1 ? "" : "s");
        return 128 + stopSignal;
    }
    if (exported == 0 && exitCode == kExitOk) {
        std::fprintf(stderr, "cudascope export: %s: no frame could be decoded\n", a.input.c_str());
        return kExitFailure;
    }
    return exitCode;
}

}  // namespace cs
