// nvdec_bench: end-to-end frames per second of NVDEC decoding alone against NVDEC decoding
// plus every scope on the CUDA engine, over whole clips (issue 3's ">= 95% of decode-only").
// The scopes run as the GUI runs them: CudaEngine::processToGl on the decoder's frames in
// device memory, each after its ready event on the decode stream, counts left on the GPU (downloadCounts
// off: histograms and statistics come back, the waveform, parade and vectorscope stay),
// here with no GL texture named (nothing is drawn). Links cs_decode, cs_cuda and cs_core
// only: no Qt, so it travels to a GPU machine with a small set of FFmpeg libraries.
//
//   nvdec_bench [--hwdec nvdec|none] [--passes N] CLIP...
//
// Each pass reads the whole clip twice, once decoding only and once decoding and scoping;
// the first frame of a read (decoder start-up) is not timed. Prints a markdown table with
// the best pass of each; the exit code is non-zero when a clip cannot be read.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "cuda/engine/CudaEngine.h"
#include "decode/Source.h"

namespace cs {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    HwDecode hwdec = HwDecode::Nvdec;
    int passes = 3;
    std::vector<std::string> clips;
};

struct Timing {
    double fps = 0.0;
    int frames = 0;               // frames timed (all but the first)
    double scopeMsMedian = 0.0;   // median wall time of one processToGl call (scoped reads)
};

// Reads `clip` to its end; with `engine` set, runs every scope on each frame.
Result<Timing> readClip(const std::string& clip, const Options& opt, CudaEngine* engine, bool scopes, std::string& decoder) {
    OpenOptions options;
    options.hwdec = opt.hwdec;
    if (engine) {   // a decode stream of the source's own, as the window's
        auto stream = engine->makeDecodeStream();
        if (!stream.ok()) return stream.status();
        options.deviceStream = std::move(stream.value());
    }
    auto opened = openSource(clip, options);
    if (!opened.ok()) return opened.status();
    Source& source = *opened.value();
    decoder = source.info().decoder;
    ScopeSpec spec;             // every scope and statistic, as the GUI asks
    spec.displayImages = false;
    const GlTargets none;       // no texture: nothing drawn, counts stay on the GPU
    ScopeResults results;
    VideoFrame frame;
    std::shared_ptr<void> lastReady;   // the last frame's ready event
    std::vector<double> scopeMs;
    Timing t;
    Clock::time_point start;
    for (int i = 0;; ++i) {
        if (i == 1) start = Clock::now();   // the first frame (decoder start-up) is not timed
        const ReadResult r = source.read(frame);
        if (r.status == ReadStatus::EndOfStream) break;
        if (r.status == ReadStatus::Error) return Status::error(r.message);
        if (scopes) {
            const auto s0 = Clock::now();
            const Status s = engine->processToGl(frame.view, spec, results, none);
            if (!s.ok()) return Status::error(clip + ": " + s.message());
            if (i > 0) scopeMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - s0).count());
        }
        if (i > 0) ++t.frames;
        lastReady = frame.ready;
    }
    // Decoding alone leaves each picture's post-processing queued on the decode stream: wait
    // for the last one, as the scoped read waits for each frame.
    if (lastReady) cudaEventSynchronize(static_cast<cudaEvent_t>(lastReady.get()));
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (t.frames == 0 || seconds <= 0.0) return Status::error(clip + ": fewer than two frames to time");
    t.fps = double(t.frames) / seconds;
    if (!scopeMs.empty()) {
        std::nth_element(scopeMs.begin(), scopeMs.begin() + std::ptrdiff_t(scopeMs.size() / 2), scopeMs.end());
        t.scopeMsMedian = scopeMs[scopeMs.size() / 2];
    }
    return t;
}

int usage() {
    std::fputs("usage: nvdec_bench [--hwdec nvdec|none] [--passes N] CLIP...\n", stderr);
    return 2;
}

}  // namespace
}  // namespace cs

int main(int argc, char** argv) {
    using namespace cs;
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--hwdec" && i + 1 < argc) {
            const std::string v = argv[++i];
            if (v == "nvdec") opt.hwdec = HwDecode::Nvdec;
            else if (v == "none") opt.hwdec = HwDecode::None;
            else return usage();
        } else if (a == "--passes" && i + 1 < argc) {
            opt.passes = std::max(1, std::atoi(argv[++i]));
        } else if (a == "-h" || a == "--help") {
            usage();
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            return usage();
        } else {
            opt.clips.push_back(a);
        }
    }
    if (opt.clips.empty()) return usage();

    auto made = makeCudaEngine(0);
    std::unique_ptr<CudaEngine> engine;
    if (made.ok()) {
        engine = std::move(made.value());
        std::printf("nvdec_bench on %s\n", engine->deviceName().c_str());
    } else if (opt.hwdec == HwDecode::Nvdec) {
        std::fprintf(stderr, "nvdec_bench: skipped: %s\n", made.message().c_str());
        return 77;
    } else {
        std::printf("nvdec_bench: no CUDA engine (%s): software decoding only\n", made.message().c_str());
    }

    std::printf("\n| clip | decoder | frames | decode fps | decode + all scopes fps | ratio | scopes ms/frame (median) |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|\n");
    int failures = 0;
    for (const std::string& clip : opt.clips) {
        Timing bestDecode, bestScoped;
        std::string decoder, error;
        for (int p = 0; p < opt.passes && error.empty(); ++p) {
            auto d = readClip(clip, opt, engine.get(), false, decoder);
            if (!d.ok()) { error = d.message(); break; }
            if (d.value().fps > bestDecode.fps) bestDecode = d.value();
            if (!engine) continue;
            auto s = readClip(clip, opt, engine.get(), true, decoder);
            if (!s.ok()) { error = s.message(); break; }
            if (s.value().fps > bestScoped.fps) bestScoped = s.value();
        }
        const std::string name = clip.substr(clip.find_last_of('/') + 1);
        if (!error.empty()) {
            std::printf("| %s | - | - | - | - | - | %s |\n", name.c_str(), error.c_str());
            ++failures;
            continue;
        }
        if (engine)
            std::printf("| %s | %s | %d | %.1f | %.1f | %.1f%% | %.3f |\n", name.c_str(), decoder.c_str(), bestDecode.frames, bestDecode.fps,
                        bestScoped.fps, 100.0 * bestScoped.fps / bestDecode.fps, bestScoped.scopeMsMedian);
        else
            std::printf("| %s | %s | %d | %.1f | - | - | - |\n", name.c_str(), decoder.c_str(), bestDecode.frames, bestDecode.fps);
    }
    std::printf("\nbest of %d passes; each pass reads the clip decoding only, then decoding + every scope "
                "(CudaEngine::processToGl, counts kept on the GPU)\n", opt.passes);
    return failures ? 1 : 0;
}
