// `cudascope record`: runs a source through an engine without a window and records the
// picture, the preview, the scopes or the composite of both (scope/MonitorLayout, the one
// renderer of recorded frames) into a video file through encode/VideoEncoder.
//
// Threads: this one reads, measures and draws each frame and hands it to the encoder's
// thread; SIGINT/SIGTERM only set a flag (StopSignals.h) that the loop reads between frames
// (and that a live read waiting for a frame gives up on), so a stopped recording is closed as
// any other (encoder flushed, trailer written).
//
// Files and patterns are read frame after frame; live inputs through decode/FrameInput's
// LiveReader, which reconnects after an outage (the recording goes on; each gap is a warning
// as it happens and is summed up at the end) and gives up after 30 s without a picture.
// The closing lines account for every frame the input delivered (recorded, or dropped with
// its cause) and say why the recording ended. Exit: 0 at the end of the input or of --frames /
// --seconds; 130 / 143 stopped by SIGINT / SIGTERM (the file is closed and playable); 1 a live
// stream gone for 30 s, a read or write error, or no frame recorded.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "app/cli/Commands.h"
#include "app/cli/DecodeOptions.h"
#include "engine/EngineChoice.h"
#include "RecordOptions.h"
#include "core/Engine.h"
#include "scope/MonitorLayout.h"
#include "app/cli/StopSignals.h"
#include "decode/FrameInput.h"
#include "decode/Source.h"
#include "encode/VideoEncoder.h"

namespace cs {
namespace {

// A live stream that sends no picture for this long ends the recording (exit 1).
constexpr double kLiveTimeoutSeconds = 30.0;

// Why the recording ended: "end of stream", "--frames", "--seconds", "SIGINT", "SIGTERM",
// "timeout", "read error", "write error"; the exit code that goes with it; the input's sentence.
struct Stop {
    std::string reason = "end of stream";
    int exitCode = 0;
    std::string message;
};

// Each frame the input delivered ends in exactly one of: recorded, or dropped as late
// (--realtime), replaced (live: a newer frame came before this one was taken), encoder queue
// full, engine failed, after the stop (live: arrived and not taken when the recording ended).
struct FrameCounts {
    int64_t delivered = 0, recorded = 0, late = 0, replaced = 0, queueFull = 0, failed = 0, afterStop = 0;
    int64_t taken = 0;        // frames next() gave
    int64_t pastTheEnd = 0;   // the frame read after --seconds' end (not part of the recording)
    int64_t dropped() const { return late + replaced + queueFull + failed + afterStop; }
};

// The recording's size: --size, else the source's (picture, preview: rounded up to even; the
// spare column or row stays black), else 1920x1080.
void recordingSize(const RecordOptions& a, int sourceW, int sourceH, int& w, int& h) {
    if (a.width > 0) { w = a.width; h = a.height; return; }
    if (a.layout == MonitorLayout::Picture || a.layout == MonitorLayout::Preview) {
        w = std::max(16, (sourceW + 1) / 2 * 2);
        h = std::max(16, (sourceH + 1) / 2 * 2);
        return;
    }
    w = 1920;
    h = 1080;
}

// The converter --convert asks for: null for the CPU (core/Yuv420 on the encoder's thread);
// the GPU's for cuda, and for auto with the CUDA engine. auto falls back to the CPU with a
// note; cuda fails where no GPU converter can be made.
Result<std::shared_ptr<Yuv420Converter>> chooseConverter(const std::string& convert, Engine& engine, std::string& note) {
    if (convert == "cpu" || convert == "swscale" || (convert == "auto" && engine.name() != "cuda"))
        return std::shared_ptr<Yuv420Converter>();
    auto made = makeGpuConverter(engine);
    if (made) return std::move(*made);
    if (convert == "cuda") return Status::error("--convert cuda: no GPU conversion (" + made.message() + ")");
    note = "converted on the CPU: " + made.message();
    return std::shared_ptr<Yuv420Converter>();
}

}  // namespace

int runRecord(int argc, char** argv) {
    auto parsed = parseRecordArgs(argumentsOf(argc, argv));
    if (!parsed) {
        std::fprintf(stderr, "cudascope record: %s\n%s", parsed.message().c_str(), recordUsage().c_str());
        return kExitUsage;
    }
    if (parsed->help) {
        std::fputs(recordUsage().c_str(), stdout);
        return kExitOk;
    }
    const RecordOptions a = std::move(*parsed);
    // The output is checked before anything is read: its type, and a folder to write into.
    {
        std::error_code ec;
        if (std::filesystem::is_directory(a.out, ec)) {
            std::fprintf(stderr, "cudascope record: %s: is a folder, not a file\n", a.out.c_str());
            return kExitFailure;
        }
        std::string ext = std::filesystem::path(a.out).extension().string();
        for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (ext != ".mp4" && ext != ".m4v" && ext != ".mov" && ext != ".mkv") {
            std::fprintf(stderr, "cudascope record: %s: unknown file type (the extension must be .mp4, .m4v, .mov or .mkv)\n",
                         a.out.c_str());
            return kExitFailure;
        }
        const auto parent = std::filesystem::absolute(a.out, ec).parent_path();
        if (!std::filesystem::is_directory(parent, ec)) {
            std::fprintf(stderr, "cudascope record: %s: %s %s\n", a.out.c_str(), parent.string().c_str(),
                         std::filesystem::exists(parent, ec) ? "is not a folder" : "does not exist");
            return kExitFailure;
        }
    }

    auto engineChoice = chooseEngine(a.engine);
    if (!engineChoice) {
        std::fprintf(stderr, "cudascope record: %s: %s\n", a.input.c_str(), engineChoice.message().c_str());
        return kExitFailure;
    }
    Engine& engine = *engineChoice->engine;
    auto decoding = decodeOptions(*engineChoice, a.hwdec);
    if (!decoding) {
        std::fprintf(stderr, "cudascope record: %s\n", decoding.message().c_str());
        return kExitFailure;
    }
    const StopSignals stopSignals;
    FrameInputOptions inputOptions;
    inputOptions.open = std::move(decoding.value());
    inputOptions.open.cancel = StopSignals::flag();   // a live read waiting for a frame gives up on Ctrl-C
    inputOptions.timeout = kLiveTimeoutSeconds;
    inputOptions.notice = [](const std::string& state) { std::fprintf(stderr, "cudascope record: %s\n", state.c_str()); };
    auto opened = openFrameInput(a.input, inputOptions);
    if (!opened) {
        std::fprintf(stderr, "cudascope record: %s\n", opened.message().c_str());
        return kExitFailure;
    }
    FrameInput& source = *opened.value();
    const bool live = source.summary().live;

    // Why the recording ended, and its exit code (RecordCommand.h's rule).
    Stop stop;
    FrameCounts counts;
    const auto readNext = [&](InputFrame& frame) {
        const InputResult rr = source.next(frame);
        for (const auto& w : source.takeWarnings()) std::fprintf(stderr, "cudascope record: warning: %s\n", w.c_str());
        if (rr.status == InputStatus::Frame) {
            ++counts.taken;
            return true;
        }
        if (stopSignals.received()) return false;   // a live read given up for the stop: the signal says why
        if (rr.status == InputStatus::End) stop = {"end of stream", kExitOk, {}};
        else stop = {rr.status == InputStatus::TimedOut ? "timeout" : "read error", kExitFailure, rr.message};
        return false;
    };

    // The first frame: a live source's size and rate are known with its first picture.
    InputFrame in;
    const bool haveFrame = readNext(in);
    const SourceInfo info = source.info();
    const double rate = info.frameRate > 0 ? info.frameRate : 30.0;
    int width = 0, height = 0;
    recordingSize(a, haveFrame ? in.frame.view.width : info.width, haveFrame ? in.frame.view.height : info.height, width, height);
    ScopeSpec spec;
    spec.preview = a.preview;
    spec.filter = a.filter;
    spec.counts = false;   // only the images are recorded: the CUDA engine copies no large counts back
    prepareSpecForLayout(a.layout, width, height, spec);

    EncoderOptions eo;
    eo.path = a.out;
    eo.width = width;
    eo.height = height;
    eo.frameRate = rate;
    eo.wallClock = live;
    eo.codec = a.codec == "hevc" ? VideoCodec::Hevc : VideoCodec::H264;
    eo.bitrate = a.bitrate;
    eo.quality = a.quality;
    // A file waits for the encoder; a live source never does, nor a file played in real time.
    eo.dropWhenBehind = live || a.realtime;
    std::string conversionNote;
    auto converter = chooseConverter(a.convert, engine, conversionNote);
    if (!converter) {
        std::fprintf(stderr, "cudascope record: %s\n", converter.message().c_str());
        return kExitFailure;
    }
    if (!conversionNote.empty()) std::fprintf(stderr, "cudascope record: warning: %s\n", conversionNote.c_str());
    eo.converter = std::move(*converter);
    eo.swscale = a.convert == "swscale";
    auto encoderOpened = VideoEncoder::open(eo);
    if (!encoderOpened) {
        std::fprintf(stderr, "cudascope record: %s\n", encoderOpened.message().c_str());
        return kExitFailure;
    }
    VideoEncoder& encoder = **encoderOpened;

    ScopeResults results;
    RgbaImage canvas;
    long accepted = 0;   // pictures the encoder took (--frames counts these)
    Status submitError;  // the first failed write (a full disk): reported once, by close() below
    const auto start = std::chrono::steady_clock::now();
    const auto frameDuration = std::chrono::duration<double>(1.0 / rate);
    for (bool more = haveFrame; more; more = !stopSignals.received() && readNext(in)) {
        // Files: the frame's place in the stream at the file's rate; live: the wall clock.
        const double seconds = live ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                                    : double(in.index) / rate;
        if (a.seconds > 0 && seconds >= a.seconds) {
            ++counts.pastTheEnd;   // read, but after the recording's end
            stop = {"--seconds", kExitOk, {}};
            break;
        }
        ++counts.delivered;
        // --realtime: each frame no earlier than its time, as a live source would bring it; a
        // frame whose time has passed by more than a frame (the engine, the drawing or the
        // encoder's queue took longer) is dropped as late, as the window drops it.
        if (a.realtime && !live) {
            const auto due = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
            if (std::chrono::steady_clock::now() > due + frameDuration) {
                ++counts.late;
                continue;
            }
            std::this_thread::sleep_until(due);
        }
        if (const Status st = engine.process(in.frame.view, spec, results); !st) {
            std::fprintf(stderr, "cudascope record: warning: frame %lld: %s\n", static_cast<long long>(in.index), st.message().c_str());
            ++counts.failed;
            continue;
        }
        drawMonitorLayout(results, a.layout, width, height, canvas);
        // A failed write (a full disk) ends the recording. close() returns the encoder's first
        // error, with where the part recorded is: one line, printed below.
        auto submitted = encoder.submit(canvas, seconds);
        if (!submitted) {
            submitError = submitted.status();
            stop = {"write error", kExitFailure, {}};
            ++counts.failed;
            break;
        }
        if (*submitted) ++accepted;
        if (a.frames > 0 && accepted >= a.frames) {
            stop = {"--frames", kExitOk, {}};
            break;
        }
    }
    if (const int signal = stopSignals.received()) stop = {signalName(signal), 128 + signal, {}};
    Status closed = encoder.close();
    if (closed && !submitError) closed = submitError;
    if (!closed) {
        std::fprintf(stderr, "cudascope record: %s\n", closed.message().c_str());
        return kExitFailure;
    }
    const EncoderStats stats = encoder.stats();
    const InputSummary summary = source.summary();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!stop.message.empty()) std::fprintf(stderr, "cudascope record: %s\n", stop.message.c_str());

    // Every frame the input delivered: recorded, or dropped with its cause.
    FrameCounts& c = counts;
    c.recorded = stats.encoded;
    c.queueFull = stats.dropped;
    if (live) {
        c.replaced = int64_t(summary.droppedFrames);
        // Arrived but never taken (waiting when the recording stopped), and the one read past --seconds.
        c.afterStop = int64_t(summary.framesArrived) - c.taken - c.replaced + c.pastTheEnd;
        c.delivered = int64_t(summary.framesArrived);
    }
    const bool balanced = c.delivered == c.recorded + c.dropped();
    std::fprintf(stderr, "cudascope record: frames: %lld delivered = %lld recorded + %lld dropped (late %lld, replaced %lld, "
                         "encoder queue full %lld, engine failed %lld, after the stop %lld)%s\n",
                 static_cast<long long>(c.delivered), static_cast<long long>(c.recorded), static_cast<long long>(c.dropped()),
                 static_cast<long long>(c.late), static_cast<long long>(c.replaced), static_cast<long long>(c.queueFull),
                 static_cast<long long>(c.failed), static_cast<long long>(c.afterStop), balanced ? "" : ": the counts do not balance");
    if (live) {
        double gapSeconds = 0;
        int64_t reconnects = 0;
        for (const InputRestart& r : summary.restarts) {
            gapSeconds += r.gapSeconds;
            if (r.reason.rfind("reconnected", 0) == 0) ++reconnects;
        }
        std::fprintf(stderr, "cudascope record: stream: %zu gap%s (%.1f s in all), %lld reconnect%s\n", summary.restarts.size(),
                     summary.restarts.size() == 1 ? "" : "s", gapSeconds, static_cast<long long>(reconnects), reconnects == 1 ? "" : "s");
    }
    std::fprintf(stderr, "cudascope record: %lld frame%s from %s to %s (%s, %dx%d, %s layout, engine %s, conversion %s%s%s; %lld dropped; %.1f fps; per frame: conversion %.2f ms, encoding %.2f ms); ended: %s\n",
                 static_cast<long long>(stats.encoded), stats.encoded == 1 ? "" : "s", a.input.c_str(), a.out.c_str(),
                 encoder.encoderName().c_str(), width, height, std::string(monitorLayoutName(a.layout)).c_str(),
                 std::string(engine.name()).c_str(), encoder.conversion(), encoder.fallbackReason().empty() ? "" : "; NVENC not used: ",
                 encoder.fallbackReason().c_str(), static_cast<long long>(c.dropped()), wall > 0 ? double(stats.encoded) / wall : 0.0,
                 stats.encoded > 0 ? 1000.0 * stats.convertSeconds / double(stats.encoded) : 0.0,
                 stats.encoded > 0 ? 1000.0 * stats.encodeSeconds / double(stats.encoded) : 0.0, stop.reason.c_str());
    if (!balanced) return kExitFailure;
    if (stats.encoded == 0 && stop.exitCode == kExitOk) {
        std::fprintf(stderr, "cudascope record: %s: no frame could be recorded\n", a.input.c_str());
        return kExitFailure;
    }
    return stop.exitCode;
}

}  // namespace cs
