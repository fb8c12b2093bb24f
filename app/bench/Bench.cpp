// `cudascope bench [INPUT] [--engine cpu|cuda|both] [--frames N] [--hwdec auto|nvdec|none]
// [--threads N]`: times Engine::process() per frame for the engines available on this
// machine (median of N frames, the frames decoded or generated outside the timing), prints
// them side by side with their ratio; for a file with NVDEC, the frame rate of decoding
// alone against decoding plus all scopes on the GPU (the decoder writing into the engine's
// stream, frames read in place). Without INPUT: pattern:zoneplate at 1080p and 4K, 8 and 10 bit.
#include "Bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/CommandOptions.h"
#include "app/cli/Commands.h"
#include "core/Engine.h"
#include "decode/Source.h"
#include "engine/EngineChoice.h"
#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#endif

namespace cs {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// What a row times: export's work for a set of --scopes.
struct BenchWork {
    const char* name;
    ScopeSpec spec;
};
std::vector<BenchWork> benchWorks() {
    ScopeSpec all;   // every scope, statistics, the picture and the scope images, and the counts (.npy)
    ScopeSpec images = all;   // the same without the large counts (export --no-npy)
    images.counts = false;
    ScopeSpec statsHistogram;   // export --scopes stats,histogram: the statistics, the histograms and their image
    statsHistogram.waveform = statsHistogram.parade = statsHistogram.vectorscope = false;
    statsHistogram.picture = false;
    statsHistogram.counts = false;
    ScopeSpec cie = all;   // export --scopes all,cie --gamut-target bt709: the chromaticity counts and the gamut check added
    cie.cie = true;
    cie.gamutTarget = Primaries::Bt709;
    ScopeSpec cieImages = cie;   // the same with --no-npy
    cieImages.counts = false;
    return {{"all + counts", all},
            {"all, no counts", images},
            {"stats,histogram", statsHistogram},
            {"all + cie + counts", cie},
            {"all + cie, no counts", cieImages}};
}

// The process's CPU time (all threads), milliseconds.
double processCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// The 1-minute load average, or -1 where /proc/loadavg cannot be read.
double loadAverage() {
    std::ifstream in("/proc/loadavg");
    double load = -1.0;
    in >> load;
    return in ? load : -1.0;
}

struct EngineTime {
    double wallMs = 0;   // median wall time of a call
    double cpuMs = 0;    // median CPU time of the process over a call, all threads together
};

// Medians of engine.process() over up to `frames` frames of `input` (host frames).
Result<EngineTime> timeEngine(Engine& engine, const std::string& input, const ScopeSpec& spec, int frames, int& timed) {
    auto opened = openSource(input, OpenOptions{});
    if (!opened.ok()) return opened.status();
    Source& source = *opened.value();
    ScopeResults results;
    std::vector<double> ms, cpuMs;
    VideoFrame frame;
    // One untimed frame first: buffers, CUDA module loading and the like.
    for (int i = 0; i <= frames; ++i) {
        const ReadResult r = source.read(frame);
        if (r.status == ReadStatus::EndOfStream) break;
        if (r.status == ReadStatus::Error) return Status::error(r.message);
        const double c0 = processCpuMs();
        const auto t0 = Clock::now();
        const Status s = engine.process(frame.view, spec, results);
        const auto t1 = Clock::now();
        const double c1 = processCpuMs();
        if (!s.ok()) return Status::error(input + ": " + s.message());
        if (i > 0) {
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            cpuMs.push_back(c1 - c0);
        }
    }
    timed = int(ms.size());
    if (ms.empty()) return Status::error(input + ": no frame to time");
    return EngineTime{median(ms), median(cpuMs)};
}

std::string formatMs(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

#if CS_HAVE_CUDA
// Frames per second of reading `frames` frames from `input` through NVDEC, with the CUDA
// engine processing each with `spec` (none: decoding alone).
Result<double> nvdecFps(CudaEngine& engine, const std::string& input, HwDecode hwdec, int frames, const ScopeSpec* spec, int& done,
                        std::string& decoder) {
    OpenOptions options;
    options.hwdec = hwdec;
    auto stream = engine.makeDecodeStream();   // a stream of the source's own, as the window's
    if (!stream.ok()) return stream.status();
    options.deviceStream = std::move(stream.value());
    auto opened = openSource(input, options);
    if (!opened.ok()) return opened.status();
    Source& source = *opened.value();
    decoder = source.info().decoder;
    ScopeResults results;
    VideoFrame frame;
    done = 0;
    Clock::time_point start;
    for (int i = 0; i <= frames; ++i) {
        if (i == 1) start = Clock::now();   // the first frame (decoder start-up) is not timed
        const ReadResult r = source.read(frame);
        if (r.status == ReadStatus::EndOfStream) break;
        if (r.status == ReadStatus::Error) return Status::error(r.message);
        if (spec) {
            const Status s = engine.process(frame.view, *spec, results);
            if (!s.ok()) return Status::error(input + ": " + s.message());
        }
        if (i > 0) ++done;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (done == 0 || seconds <= 0.0) return Status::error(input + ": fewer than two frames to time");
    return double(done) / seconds;
}
#endif

}  // namespace

int runBench(int argc, char** argv) {
    auto options = parseBenchArgs(argumentsOf(argc, argv));
    if (!options) {
        std::fprintf(stderr, "cudascope bench: %s\n%s", options.message().c_str(), benchUsage().c_str());
        return kExitUsage;
    }
    if (options->help) {
        std::fputs(benchUsage().c_str(), stdout);
        return kExitOk;
    }
    BenchOptions& a = *options;
    const bool patternsByDefault = a.inputs.empty();
    if (patternsByDefault)
        a.inputs = {"pattern:zoneplate:1920x1080", "pattern:zoneplate:1920x1080:10bit", "pattern:zoneplate:3840x2160",
                    "pattern:zoneplate:3840x2160:10bit"};

    // Every input is opened once before any timing: one that cannot be read is one line and
    // exit 1, not a table of empty rows with its error on each.
    bool unreadable = false;
    for (const std::string& input : a.inputs)
        if (auto opened = openSource(input, OpenOptions{}); !opened) {
            std::fprintf(stderr, "cudascope bench: %s\n", opened.message().c_str());
            unreadable = true;
        }
    if (unreadable) return kExitFailure;

    // Both engines from the one factory (engine/EngineChoice.h), as every other command gets them.
    EngineChoice cpuChoice, cudaChoice;
    if (a.engine != "cuda") {
        auto made = chooseEngine("cpu", CudaUnavailable::Error, 0, a.threads);
        if (!made) {
            std::fprintf(stderr, "cudascope bench: %s\n", made.message().c_str());
            return kExitFailure;
        }
        cpuChoice = std::move(*made);
    }
    Engine* const cpu = cpuChoice.engine.get();
#if CS_HAVE_CUDA
    std::string cudaNote;
    if (a.engine != "cpu") {
        auto made = chooseEngine("cuda", CudaUnavailable::Error, 0);
        if (made) cudaChoice = std::move(*made);
        else cudaNote = made.message();
    }
    CudaEngine* const cuda = cudaChoice.cuda;
    if (a.engine == "cuda" && !cuda) {
        std::fprintf(stderr, "cudascope bench: %s\n", cudaNote.c_str());
        return kExitFailure;
    }
    if (!cudaNote.empty()) std::printf("%s: timing the CPU engine only\n", cudaNote.c_str());
    if (cuda) std::printf("CUDA engine on %s\n", cuda->deviceName().c_str());
#else
    if (a.engine == "cuda") {
        std::fputs("cudascope bench: this build has no CUDA engine\n", stderr);
        return kExitFailure;
    }
    Engine* const cuda = nullptr;
#endif
    std::printf("Engine::process() per frame, headless (host frames: uploaded, results copied back); median of up to %d frames\n\n",
                a.frames);
    const double loadAtStart = loadAverage();
    std::printf("| input | work | frames | cpu ms | cpu engine CPU time ms | cuda ms | cpu / cuda |\n|---|---|---:|---:|---:|---:|---:|\n");
    bool failed = false;
    for (const std::string& input : a.inputs)
        for (const BenchWork& work : benchWorks()) {
            double cpuMs = -1, cpuTimeMs = -1, cudaMs = -1;
            int timed = 0;
            if (cpu) {
                auto r = timeEngine(*cpu, input, work.spec, a.frames, timed);
                if (!r.ok()) { std::fprintf(stderr, "cudascope bench: %s (cpu engine)\n", r.message().c_str()); failed = true; }
                else cpuMs = r.value().wallMs, cpuTimeMs = r.value().cpuMs;
            }
            if (cuda) {
                auto r = timeEngine(*cuda, input, work.spec, a.frames, timed);
                if (!r.ok()) { std::fprintf(stderr, "cudascope bench: %s (cuda engine)\n", r.message().c_str()); failed = true; }
                else cudaMs = r.value().wallMs;
            }
            std::printf("| %s | %s | %d | %s | %s | %s | %s |\n", input.c_str(), work.name, timed, cpuMs >= 0 ? formatMs(cpuMs).c_str() : "-",
                        cpuTimeMs >= 0 ? formatMs(cpuTimeMs).c_str() : "-",
                        cudaMs >= 0 ? formatMs(cudaMs).c_str() : "-",
                        cpuMs > 0 && cudaMs > 0 ? formatMs(cpuMs / cudaMs).c_str() : "-");
            std::fflush(stdout);
        }
    if (cpu)
        std::printf("\ncpu engine CPU time: the process's CPU time per frame, all of the engine's threads together; over\n"
                    "the threads used, about the wall time on as many otherwise idle cores (load average %.2f at the start,\n"
                    "%.2f at the end).\n",
                    loadAtStart, loadAverage());

#if CS_HAVE_CUDA
    // NVDEC: decoding alone against decoding plus all scopes, for file inputs.
    if (cuda && a.hwdec != "none" && !patternsByDefault) {
        const HwDecode hw = a.hwdec == "nvdec" ? HwDecode::Nvdec : HwDecode::Auto;
        std::printf("\nDecoding on a decode stream of the engine (frames stay in GPU memory), up to %d frames after the first\n\n", a.frames);
        std::printf("| input | decoder | frames | decode fps | + all scopes, no images fps | + stats,histogram fps | "
                    "+ all scopes and images, no counts fps | + all scopes, cie and images, no counts fps |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|\n");
        ScopeSpec counted;   // every scope counted, no display images
        counted.displayImages = false;
        const std::vector<BenchWork> works = benchWorks();
        const ScopeSpec* specs[4] = {&counted, &works[2].spec, &works[1].spec, &works[4].spec};
        for (const std::string& input : a.inputs) {
            if (input.rfind("pattern:", 0) == 0) continue;
            int n = 0;
            std::string decoder;
            auto alone = nvdecFps(*cuda, input, hw, a.frames, nullptr, n, decoder);
            if (!alone.ok()) {
                std::fprintf(stderr, "cudascope bench: %s (NVDEC)\n", alone.message().c_str());
                failed = true;
                continue;
            }
            std::printf("| %s | %s | %d | %.1f |", input.c_str(), decoder.c_str(), n, alone.value());
            for (const ScopeSpec* spec : specs) {
                auto fps = nvdecFps(*cuda, input, hw, a.frames, spec, n, decoder);
                if (!fps.ok()) {
                    std::fprintf(stderr, "cudascope bench: %s (NVDEC)\n", fps.message().c_str());
                    failed = true;
                    std::printf(" - |");
                } else {
                    std::printf(" %.1f |", fps.value());
                }
            }
            std::printf("\n");
            std::fflush(stdout);
        }
    }
#endif
    return failed ? kExitFailure : kExitOk;
}

}  // namespace cs
