// `cudascope record`: runs a source through an engine without a window and records the
// picture, the preview, the scopes or the composite of both (core/MonitorLayout, the one
// renderer of recorded frames) into a video file through encode/VideoEncoder.
//
// Threads: this one reads, measures and draws each frame and hands it to the encoder's
// thread; SIGINT/SIGTERM only set a flag that the loop reads between frames, so a stopped
// recording is closed as any other (encoder flushed, trailer written).
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "Commands.h"
#include "DecodeOptions.h"
#include "engine/EngineChoice.h"
#include "RecordOptions.h"
#include "core/Engine.h"
#include "core/MonitorLayout.h"
#include "decode/Source.h"
#include "encode/VideoEncoder.h"
#ifdef CS_HAVE_CUDA
#include "cuda/CudaEngine.h"
#include "cuda/Yuv420Converter.h"
#endif

namespace cs {
namespace {

std::atomic<bool> stopRequested{false};
extern "C" void requestStop(int) { stopRequested.store(true); }

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
#ifdef CS_HAVE_CUDA
    auto* cudaEngine = dynamic_cast<CudaEngine*>(&engine);
    auto made = cuda::makeYuv420Converter(cudaEngine ? cudaEngine->device() : 0);
    if (made) return std::move(*made);
    if (convert == "cuda") return Status::error("--convert cuda: no GPU conversion (" + made.message() + ")");
    note = "converted on the CPU: " + made.message();
    return std::shared_ptr<Yuv420Converter>();
#else
    (void)note;
    return Status::error("--convert cuda: this cudascope is built without CUDA");
#endif
}

}  // namespace

int runRecord(int argc, char** argv) {
    auto parsed = parseRecordArgs(argumentsOf(argc, argv));
    if (!parsed) {
        std::fprintf(stderr, "cudascope record: %s\n%s", parsed.message().c_str(), kRecordUsage);
        return kExitUsage;
    }
    if (parsed->help) {
        std::fputs(kRecordUsage, stdout);
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
    OpenOptions options = std::move(decoding.value());
    auto opened = openSource(a.input, options);
    if (!opened) {
        std::fprintf(stderr, "cudascope record: %s\n", opened.message().c_str());
        return kExitFailure;
    }
    Source& source = *opened.value();
    const SourceInfo& info = source.info();
    const bool live = info.live;
    const double rate = info.frameRate > 0 ? info.frameRate : 30.0;

    int width = 0, height = 0;
    recordingSize(a, info.width, info.height, width, height);
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

    struct sigaction action {};
    action.sa_handler = requestStop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);

    ScopeResults results;
    RgbaImage canvas;
    long recorded = 0;
    int64_t index = 0;
    int exitCode = kExitOk;
    Status submitError;
    const auto start = std::chrono::steady_clock::now();
    while (!stopRequested.load()) {
        if (a.frames > 0 && recorded >= a.frames) break;
        VideoFrame frame;
        const ReadResult rr = source.read(frame);
        for (const auto& w : source.takeWarnings()) std::fprintf(stderr, "cudascope record: warning: %s\n", w.c_str());
        if (rr.status == ReadStatus::EndOfStream) break;
        if (rr.status == ReadStatus::Error) {
            std::fprintf(stderr, "cudascope record: %s\n", rr.message.c_str());
            if (recorded == 0) exitCode = kExitFailure;
            break;
        }
        const double seconds = live ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                                    : double(index) / rate;
        ++index;
        // --realtime: each frame no earlier than its time, as a live source would bring it.
        if (a.realtime && !live) std::this_thread::sleep_until(start + std::chrono::duration<double>(seconds));
        if (a.seconds > 0 && seconds >= a.seconds) break;
        if (const Status st = engine.process(frame.view, spec, results); !st) {
            std::fprintf(stderr, "cudascope record: warning: frame %lld: %s\n", static_cast<long long>(index - 1), st.message().c_str());
            continue;
        }
        drawMonitorLayout(results, a.layout, width, height, canvas);
        // A failed write (a full disk) ends the recording. close() returns the encoder's first
        // error, with where the part recorded is: one line, printed below.
        const auto submitted = encoder.submit(canvas, seconds);
        if (!submitted) {
            submitError = submitted.status();
            break;
        }
        ++recorded;
    }
    Status closed = encoder.close();
    if (closed && !submitError) closed = submitError;
    if (!closed) {
        std::fprintf(stderr, "cudascope record: %s\n", closed.message().c_str());
        return kExitFailure;
    }
    const EncoderStats stats = encoder.stats();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "cudascope record: %lld frame%s from %s to %s (%s, %dx%d, %s layout, engine %s, conversion %s%s%s; %lld dropped; %.1f fps; per frame: conversion %.2f ms, encoding %.2f ms)\n",
                 static_cast<long long>(stats.encoded), stats.encoded == 1 ? "" : "s", a.input.c_str(), a.out.c_str(),
                 encoder.encoderName().c_str(), width, height, std::string(monitorLayoutName(a.layout)).c_str(),
                 std::string(engine.name()).c_str(), encoder.conversion(), encoder.fallbackReason().empty() ? "" : "; NVENC not used: ",
                 encoder.fallbackReason().c_str(), static_cast<long long>(stats.dropped), wall > 0 ? double(stats.encoded) / wall : 0.0,
                 stats.encoded > 0 ? 1000.0 * stats.convertSeconds / double(stats.encoded) : 0.0,
                 stats.encoded > 0 ? 1000.0 * stats.encodeSeconds / double(stats.encoded) : 0.0);
    if (stats.encoded == 0 && exitCode == kExitOk) {
        std::fprintf(stderr, "cudascope record: %s: no frame could be recorded\n", a.input.c_str());
        return kExitFailure;
    }
    return exitCode;
}

}  // namespace cs
