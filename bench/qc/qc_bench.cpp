// qc_bench: the throughput of `cudascope qc`'s measurements on whole files against the
// QCTools engine, FFmpeg's signalstats + blackdetect + freezedetect, run in-process on the
// same files and machine (no ffmpeg CLI needed), with decoding alone beside each.
//
//   qc_bench [--engine cpu|cuda] [--hwdec none|nvdec] [--threads N] [--jobs N] CLIP...
//
// --jobs N runs N copies of each clip at once for the decode and qc columns (each its own
// source, engine and, on the CUDA engine, decode stream: NVDEC's several engines), their
// rates summed; the FFmpeg columns stay one graph with every thread.
//
// Per clip, frames per second over the whole file (the first frame, decoder start-up, not
// timed):
//   decode      decoding alone, as qc decodes (--hwdec; software: FFmpeg's threads)
//   qc          decoding + what qc computes per frame: the engine's statistics (--engine),
//               analysis/SignalStats (every signalstats value, blackdetect's count) and
//               freezedetect's MAFD; NVDEC frames counted on the GPU (cuda/analysis/CudaSignalStats)
//   ffmpeg-dec  software decoding alone, FFmpeg's own loop (thread_count 0: FFmpeg's pick)
//   ffmpeg-qc   that decoding + signalstats=stat=tout+vrep+brng,blackdetect,freezedetect in
//               one graph with nb_threads = --threads (0: every hardware thread)
// and the ratio qc / ffmpeg-qc. What qc writes (JSON, CSV, gzip XML, PNG) is not in these
// figures.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "FfmpegGraph.h"
#include "core/Engine.h"
#include "analysis/SignalStats.h"
#include "decode/Source.h"
#include "engine/EngineChoice.h"
#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#include "cuda/analysis/CudaSignalStats.h"
#endif

using namespace cs;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string engine = "cpu", hwdec = "none";
    int threads = 0;
    int jobs = 1;   // copies of each clip checked at once (qc --jobs): the rates are their sum
    std::vector<std::string> clips;
};

// Frames per second of `step` over a whole clip; step returns false at the end.
template <typename Step>
Result<double> timeFrames(const std::string& clip, Step&& step, int64_t& frames) {
    frames = 0;
    Clock::time_point start;
    for (;;) {
        Result<bool> more = step();
        if (!more) return more.status();
        if (!*more) break;
        if (frames == 0) start = Clock::now();
        ++frames;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (frames < 2 || seconds <= 0) return Status::error(clip + ": fewer than two frames to time");
    return double(frames - 1) / seconds;
}

Result<double> cudascopeRun(const Options& o, const std::string& clip, bool measure, int64_t& frames) {
    auto choice = chooseEngine(o.engine);
    if (!choice) return choice.status();
    OpenOptions open;
    open.hwdec = o.hwdec == "nvdec" ? HwDecode::Nvdec : HwDecode::None;
    auto stream = choice->decodeStream();
    if (!stream) return stream.status();
    open.deviceStream = *stream;
    auto source = openSource(clip, open);
    if (!source) return source.status();
    ScopeSpec spec;
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = false;
    spec.displayImages = spec.picture = false;
    ScopeResults results;
    SignalStatsMeter meter;
    SignalStats ss;
    FreezeReference reference;
#if CS_HAVE_CUDA
    std::unique_ptr<CudaSignalStatsMeter> gpuMeter;
#endif
    VideoFrame frame;
    double sink = 0;
    auto r = timeFrames(clip, [&]() -> Result<bool> {
        const ReadResult rr = (*source)->read(frame);
        if (rr.status == ReadStatus::EndOfStream) return false;
        if (rr.status == ReadStatus::Error) return Status::error(rr.message);
        if (!measure) return true;
        if (Status st = choice->engine->process(frame.view, spec, results); !st) return st;
        double mafd = 1.0;
        const int black = 37 << (results.bitDepth - 8);
#if CS_HAVE_CUDA
        if (frame.view.onDevice && choice->cuda) {   // NVDEC frames: counted on the GPU, as qc does
            if (!gpuMeter) {
                auto made = CudaSignalStatsMeter::create(choice->cuda->device());
                if (!made) return made.status();
                gpuMeter = std::move(*made);
            }
            if (Status st = gpuMeter->measure(frame.view, black, ss, mafd); !st) return st;
            if (mafd > 0.001)
                if (Status st = gpuMeter->setReference(); !st) return st;
            sink += mafd + ss.ydif + results.stats.y.avg;
            return true;
        }
#endif
        if (Status st = meter.measure(frame.view, black, ss); !st) return Status::error(clip + ": " + st.message());
        mafd = reference.mafd(meter.current());
        if (mafd > 0.001) reference.set(meter.current());
        sink += mafd + ss.ydif + results.stats.y.avg;
        return true;
    }, frames);
    if (sink < 0) std::fputs("", stderr);   // keeps the work observable
    return r;
}

// FFmpeg's own decoding loop, optionally through the QCTools filter chain.
Result<double> ffmpegRun(const Options& o, const std::string& clip, bool filter, int64_t& frames) {
    AVFormatContext* rawFormat = nullptr;
    if (int e = avformat_open_input(&rawFormat, clip.c_str(), nullptr, nullptr); e < 0)
        return Status::error(clip + ": " + bench::avErrorText(e));
    bench::FormatInputPtr format(rawFormat);
    if (int e = avformat_find_stream_info(format.get(), nullptr); e < 0) return Status::error(clip + ": " + bench::avErrorText(e));
    const int index = av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (index < 0) return Status::error(clip + ": no video stream");
    const AVCodecParameters* par = format->streams[index]->codecpar;
    const AVCodec* codec = avcodec_find_decoder(par->codec_id);
    if (!codec) return Status::error(clip + ": no decoder");
    bench::CodecContextPtr ctx(avcodec_alloc_context3(codec));
    avcodec_parameters_to_context(ctx.get(), par);
    ctx->thread_count = 0;
    if (int e = avcodec_open2(ctx.get(), codec, nullptr); e < 0) return Status::error(clip + ": " + bench::avErrorText(e));
    bench::PacketPtr packet(av_packet_alloc());
    bench::FramePtr decoded(av_frame_alloc());
    std::optional<bench::FilterGraphRunner> graph;
    const int threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    bool draining = false;
    return timeFrames(clip, [&]() -> Result<bool> {
        for (;;) {
            const int got = avcodec_receive_frame(ctx.get(), decoded.get());
            if (got == 0) break;
            if (got == AVERROR_EOF) return false;
            if (got != AVERROR(EAGAIN)) return Status::error(clip + ": " + bench::avErrorText(got));
            if (draining) return false;
            const int read = av_read_frame(format.get(), packet.get());
            if (read < 0) {
                draining = true;
                avcodec_send_packet(ctx.get(), nullptr);
                continue;
            }
            if (packet->stream_index == index) avcodec_send_packet(ctx.get(), packet.get());
            av_packet_unref(packet.get());
        }
        if (filter) {
            if (!graph) {
                auto g = bench::FilterGraphRunner::create(*decoded, {"signalstats=stat=tout+vrep+brng,blackdetect,freezedetect"}, threads);
                if (!g) return Status::error(clip + ": " + g.message());
                graph.emplace(std::move(*g));
            }
            if (Status st = graph->run(*decoded); !st) return st;
        }
        av_frame_unref(decoded.get());
        return true;
    }, frames);
}

// `jobs` copies of cudascopeRun at once, each with its own source and engine, as qc --jobs
// runs inputs: the sum of their rates.
Result<double> cudascopeJobs(const Options& o, const std::string& clip, bool measure, int64_t& frames) {
    if (o.jobs == 1) return cudascopeRun(o, clip, measure, frames);
    std::vector<Result<double>> rates(size_t(o.jobs), Status::error("not run"));
    std::vector<int64_t> counts(size_t(o.jobs), 0);
    std::vector<std::thread> threads;
    for (int j = 0; j < o.jobs; ++j)
        threads.emplace_back([&, j] { rates[size_t(j)] = cudascopeRun(o, clip, measure, counts[size_t(j)]); });
    for (auto& t : threads) t.join();
    double sum = 0;
    frames = 0;
    for (int j = 0; j < o.jobs; ++j) {
        if (!rates[size_t(j)]) return rates[size_t(j)].status();
        sum += *rates[size_t(j)];
        frames += counts[size_t(j)];
    }
    return sum;
}

int usage() {
    std::fputs("usage: qc_bench [--engine cpu|cuda] [--hwdec none|nvdec] [--threads N] [--jobs N] CLIP...\n", stderr);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--engine" || a == "--hwdec" || a == "--threads" || a == "--jobs") && i + 1 < argc) {
            const std::string v = argv[++i];
            if (a == "--engine" && (v == "cpu" || v == "cuda")) o.engine = v;
            else if (a == "--hwdec" && (v == "none" || v == "nvdec")) o.hwdec = v;
            else if (a == "--threads" && !v.empty() && v.find_first_not_of("0123456789") == std::string::npos && v.size() < 5) o.threads = std::atoi(v.c_str());
            else if (a == "--jobs" && !v.empty() && v.find_first_not_of("0123456789") == std::string::npos && v.size() < 3 && std::atoi(v.c_str()) > 0) o.jobs = std::atoi(v.c_str());
            else return usage();
        } else if (!a.empty() && a[0] == '-') {
            return usage();
        } else {
            o.clips.push_back(a);
        }
    }
    if (o.clips.empty()) return usage();
    std::printf("engine %s, hwdec %s, %d job%s at once (decode and qc: the sum of their rates), FFmpeg graph threads %d\n\n",
                o.engine.c_str(), o.hwdec.c_str(), o.jobs, o.jobs == 1 ? "" : "s",
                o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency())));
    std::printf("| clip | frames | decode fps | qc fps | ffmpeg-dec fps | ffmpeg-qc fps | qc / ffmpeg-qc |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    int rc = 0;
    for (const auto& clip : o.clips) {
        int64_t n = 0, n2 = 0, n3 = 0, n4 = 0;
        auto dec = cudascopeJobs(o, clip, false, n);
        auto qc = cudascopeJobs(o, clip, true, n2);
        auto fdec = ffmpegRun(o, clip, false, n3);
        auto fqc = ffmpegRun(o, clip, true, n4);
        for (const auto* r : {&dec, &qc, &fdec, &fqc})
            if (!*r) {
                std::fprintf(stderr, "qc_bench: %s\n", r->message().c_str());
                rc = 1;
            }
        if (!dec || !qc || !fdec || !fqc) continue;
        std::printf("| %s | %lld | %.1f | %.1f | %.1f | %.1f | %.2fx |\n", clip.c_str(), static_cast<long long>(n2), *dec, *qc,
                    *fdec, *fqc, *qc / *fqc);
    }
    return rc;
}
