// cpu_bench: cudascope's CPU engine side by side with FFmpeg's own scope filters
// (waveform, histogram, vectorscope, signalstats) on the same frames in the same run,
// printed as a markdown table of median milliseconds per frame.
//
//   cpu_bench [--quick] [--threads N] [--reps N] [--reps-4k N] [--warmup N]
//             [--content zoneplate|noise|both] [--size 1080p|4k|both] [--counts-only]
//             [--clip FILE]
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "BenchFrames.h"
#include "FfmpegGraph.h"
#include "core/Engine.h"
#include "cpu/CpuEngine.h"

extern "C" {
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
}

namespace cs::bench {
namespace {

struct Options {
    bool quick = false;
    int threads = 0;            // 0: one per hardware thread
    int reps = 30;              // timed runs per measurement up to 1080p-sized frames
    int repsLarge = 10;         // timed runs per measurement for larger frames (4K)
    int warmup = 1;             // untimed runs before each measurement (buffers allocated, caches warm)
    bool scopeImages = true;    // single-scope rows also draw that scope's display image
    std::vector<Content> contents{Content::ZonePlate, Content::Noise};
    bool hd = true, uhd = true;   // 1920x1080, 3840x2160
    std::string clip;
};

const char* kUsage =
    "usage: cpu_bench [options]\n"
    "  --quick             smoke run: 1080p only, one timed run each, no warm-up\n"
    "  --threads N         threads for cudascope's engine and FFmpeg's graph (default: hardware threads)\n"
    "  --reps N            timed runs per measurement at 1080p (default 30)\n"
    "  --reps-4k N         timed runs per measurement at 4K (default 10)\n"
    "  --warmup N          untimed runs before each measurement (default 1)\n"
    "  --content C         zoneplate, noise or both (default both)\n"
    "  --size S            1080p, 4k or both (default both)\n"
    "  --counts-only       single-scope rows count only, without drawing the scope's image\n"
    "  --clip FILE         also measure the first frame of FILE (at its own size)\n";

bool parseInt(std::string_view text, int minimum, int& out) {
    int v = 0;
    const auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (err != std::errc{} || end != text.data() + text.size() || v < minimum) return false;
    out = v;
    return true;
}

Result<Options> parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](std::string_view& v) {
            if (i + 1 >= argc) return false;
            v = argv[++i];
            return true;
        };
        std::string_view v;
        if (arg == "--quick") {
            o.quick = true;
        } else if (arg == "--counts-only") {
            o.scopeImages = false;
        } else if (arg == "--threads" || arg == "--reps" || arg == "--reps-4k" || arg == "--warmup") {
            int* target = arg == "--threads" ? &o.threads : arg == "--reps" ? &o.reps : arg == "--reps-4k" ? &o.repsLarge : &o.warmup;
            const int minimum = arg == "--reps" || arg == "--reps-4k" ? 1 : 0;
            if (!value(v) || !parseInt(v, minimum, *target))
                return Status::error(std::string(arg) + " needs a whole number of at least " + std::to_string(minimum) + ".");
        } else if (arg == "--content") {
            if (!value(v)) return Status::error("--content needs zoneplate, noise or both.");
            if (v == "zoneplate") o.contents = {Content::ZonePlate};
            else if (v == "noise") o.contents = {Content::Noise};
            else if (v == "both") o.contents = {Content::ZonePlate, Content::Noise};
            else return Status::error("--content " + std::string(v) + ": expected zoneplate, noise or both.");
        } else if (arg == "--size") {
            if (!value(v)) return Status::error("--size needs 1080p, 4k or both.");
            if (v != "1080p" && v != "4k" && v != "both")
                return Status::error("--size " + std::string(v) + ": expected 1080p, 4k or both.");
            o.hd = v != "4k";
            o.uhd = v != "1080p";
        } else if (arg == "--clip") {
            if (!value(v)) return Status::error("--clip needs a file.");
            o.clip = std::string(v);
        } else if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else {
            return Status::error("Unknown option " + std::string(arg) + " (see --help).");
        }
    }
    if (o.threads == 0) o.threads = int(std::max(1u, std::thread::hardware_concurrency()));
    if (o.quick) {
        o.reps = o.repsLarge = 1;
        o.warmup = 0;
        o.hd = true;
        o.uhd = false;
    }
    return o;
}

// One row kind of the table: what cudascope computes and the FFmpeg graph set beside it.
struct Scenario {
    std::string name;
    ScopeSpec spec;
    std::vector<std::string> ffmpegChains;
};

ScopeSpec nothing() {
    ScopeSpec s;
    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
    s.displayImages = s.picture = false;
    s.preview = PreviewFilter::None;
    return s;
}

std::vector<Scenario> scenarios(const Options& o) {
    const std::string waveform = "waveform=mode=column:components=1";
    const std::string parade = "waveform=mode=column:components=7:display=parade";
    const std::string histogram = "histogram";
    const std::string vectorscope = "vectorscope";
    const std::string signalstats = "signalstats=stat=brng";
    const std::string picture = "scale,format=rgba";
    std::vector<Scenario> list;

    ScopeSpec s = nothing();
    s.waveform = true;
    s.displayImages = o.scopeImages;
    list.push_back({"waveform", s, {waveform}});
    s = nothing();
    s.histogram = true;
    s.displayImages = o.scopeImages;
    list.push_back({"histogram", s, {histogram}});
    s = nothing();
    s.vectorscope = true;
    s.displayImages = o.scopeImages;
    list.push_back({"vectorscope", s, {vectorscope}});
    s = nothing();
    s.stats = true;
    list.push_back({"stats", s, {signalstats}});
    s = ScopeSpec{};
    s.displayImages = s.picture = false;
    s.preview = PreviewFilter::None;
    list.push_back({"all scopes + stats, no images", s, {waveform, parade, histogram, vectorscope, signalstats}});
    s = ScopeSpec{};
    s.preview = PreviewFilter::None;
    list.push_back({"everything + images", s, {waveform, parade, histogram, vectorscope, signalstats, picture}});
    s = nothing();
    s.cie = true;
    s.displayImages = o.scopeImages;
    list.push_back({"cie + gamut", s, {"ciescope"}});
    s = ScopeSpec{};
    s.preview = PreviewFilter::None;
    s.cie = true;
    list.push_back({"everything + cie + images", s, {waveform, parade, histogram, vectorscope, signalstats, picture, "ciescope"}});
    return list;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Medians { double a = 0, b = 0; };

// Median milliseconds of `reps` timed calls of each step after `warmup` untimed ones.
// The two steps alternate, so that load from elsewhere on a shared machine falls on
// both sides alike rather than on whichever ran while it lasted.
template <typename StepA, typename StepB>
Result<Medians> timeMedians(int warmup, int reps, StepA&& a, StepB&& b) {
    for (int i = 0; i < warmup; ++i) {
        if (Status s = a(); !s.ok()) return s;
        if (Status s = b(); !s.ok()) return s;
    }
    std::vector<double> msA, msB;
    msA.reserve(size_t(reps));
    msB.reserve(size_t(reps));
    auto timed = [](auto& step, std::vector<double>& into) {
        const auto t0 = std::chrono::steady_clock::now();
        Status s = step();
        into.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        return s;
    };
    for (int i = 0; i < reps; ++i) {
        if (Status s = timed(a, msA); !s.ok()) return s;
        if (Status s = timed(b, msB); !s.ok()) return s;
    }
    return Medians{median(std::move(msA)), median(std::move(msB))};
}

// Counts that must sum to the pixel count: proof that the engine did the work timed.
std::string countsProblem(const ScopeSpec& spec, const ScopeResults& r, const FrameView& f) {
    const uint64_t pixels = uint64_t(f.width) * uint64_t(f.height);
    auto sum = [](const std::vector<uint32_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); };
    if (spec.histogram && sum(r.histY) != pixels) return "histY sums to " + std::to_string(sum(r.histY));
    if (spec.waveform && sum(r.waveform) != pixels) return "waveform sums to " + std::to_string(sum(r.waveform));
    if (spec.parade && sum(r.parade) != 3 * pixels) return "parade sums to " + std::to_string(sum(r.parade));
    if (spec.vectorscope && sum(r.vectorscope) != pixels) return "vectorscope sums to " + std::to_string(sum(r.vectorscope));
    if (spec.cie && sum(r.gamut.counts) != pixels) return "cie counts sum to " + std::to_string(sum(r.gamut.counts));
    return {};
}

// signalstats' YMIN..VAVG beside the engine's statistics (the same definitions).
std::string statsDisagreement(const AVFrame& signalstatsOut, const FrameStats& s) {
    struct Field { const char* key; double ours; };
    const Field fields[] = {{"YMIN", double(s.y.min)}, {"YMAX", double(s.y.max)}, {"YAVG", s.y.avg},
                            {"UMIN", double(s.u.min)}, {"UMAX", double(s.u.max)}, {"UAVG", s.u.avg},
                            {"VMIN", double(s.v.min)}, {"VMAX", double(s.v.max)}, {"VAVG", s.v.avg}};
    std::string out;
    for (const Field& f : fields) {
        const std::string key = std::string("lavfi.signalstats.") + f.key;
        const AVDictionaryEntry* e = av_dict_get(signalstatsOut.metadata, key.c_str(), nullptr, 0);
        if (!e) return std::string("signalstats wrote no ") + f.key;
        const double theirs = std::strtod(e->value, nullptr);
        // Averages are printed by FFmpeg with limited precision.
        if (std::fabs(theirs - f.ours) > 0.01) out += std::string(out.empty() ? "" : ", ") + f.key + " " + e->value + " vs " + std::to_string(f.ours);
    }
    return out;
}

struct Row {
    std::string frame, depth, content, scope;
    int runs = 0;
    double oursMs = 0, ffmpegMs = 0;
    int ourThreads = 0;
    std::string ffmpegThreads;
};

std::string fixed(double v, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

std::string cpuModel() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 2);
        }
    return "unknown CPU";
}

// The 1-minute load average: other work on the machine skews every timing.
std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string first;
    return in >> first ? first : std::string("unknown");
}

class Bench {
public:
    explicit Bench(Options o) : options_(std::move(o)), scenarios_(scenarios(options_)), loadAtStart_(loadAverage()) {}

    Status measure(BenchFrame& f) {
        const bool large = int64_t(f.view.width) * f.view.height > int64_t(1920) * 1088 * 2;
        const int reps = large ? options_.repsLarge : options_.reps;
        const std::string size = std::to_string(f.view.width) + "x" + std::to_string(f.view.height);
        const std::string depth = std::to_string(f.view.bitDepth()) + "-bit " +
                                  (f.view.bitDepth() == 8 ? "yuv420p" : "yuv420p10le");
        for (const Scenario& sc : scenarios_) {
            std::fprintf(stderr, "  %s %s %s: %s\n", size.c_str(), depth.c_str(), f.content.c_str(), sc.name.c_str());
            ScopeResults results;
            auto graph = FilterGraphRunner::create(*f.frame, sc.ffmpegChains, options_.threads);
            if (!graph) return graph.status();
            auto times = timeMedians(
                options_.warmup, reps, [&] { return engine_->process(f.view, sc.spec, results); },
                [&] { return graph->run(*f.frame); });
            if (!times) return times.status();
            if (const std::string problem = countsProblem(sc.spec, results, f.view); !problem.empty())
                notes_.push_back("cudascope " + sc.name + " on " + size + " " + depth + " " + f.content + ": " + problem +
                                 ", not the pixel count.");
            for (const std::string& c : graph->insertedConversions())
                notes_.push_back("FFmpeg " + sc.name + " on " + depth + ": the graph inserted " + c + " (timed).");

            if (sc.spec.stats && sc.ffmpegChains.size() == 1) {   // the stats row: cross-check
                FramePtr out;
                if (Status s = graph->run(*f.frame, &out); !s.ok()) return s;
                const std::string diff = statsDisagreement(*out, results.stats);
                crossChecks_.push_back(size + " " + depth + " " + f.content + ": " + (diff.empty() ? "agree" : diff));
            }
            std::string ffThreads = std::to_string(graph->threads());
            if (!graph->singleThreadedFilters().empty()) {
                ffThreads += " (1 in ";
                for (size_t i = 0; i < graph->singleThreadedFilters().size(); ++i)
                    ffThreads += (i ? ", " : "") + graph->singleThreadedFilters()[i];
                ffThreads += ")";
            }
            rows_.push_back({size, depth, f.content, sc.name, reps, times->a, times->b, options_.threads, ffThreads});
        }
        return {};
    }

    Status init() {
        engine_ = makeCpuEngine(options_.threads);
        if (!engine_) return Status::error("cudascope's CPU engine could not be created.");
        return {};
    }

    void print() const {
        std::printf("| frame | depth | content | scope | runs | cudascope ms | FFmpeg ms | FFmpeg / cudascope | threads cudascope / FFmpeg |\n");
        std::printf("|---|---|---|---|---:|---:|---:|---:|---|\n");
        for (const Row& r : rows_)
            std::printf("| %s | %s | %s | %s | %d | %s | %s | %sx | %d / %s |\n", r.frame.c_str(), r.depth.c_str(),
                        r.content.c_str(), r.scope.c_str(), r.runs, fixed(r.oursMs, 2).c_str(),
                        fixed(r.ffmpegMs, 2).c_str(), fixed(r.ffmpegMs / std::max(r.oursMs, 1e-6), 2).c_str(),
                        r.ourThreads, r.ffmpegThreads.c_str());
        std::printf("\n");
        if (options_.quick)
            std::printf("Quick smoke run (--quick): one cold run each, 1080p only; not a measurement.\n");
        else
            std::printf("Times are medians of the runs shown (ms per frame), after %d untimed warm-up run(s) each; "
                        "%d runs at 1080p, %d at 4K. Ratio above 1: cudascope is faster.\n",
                        options_.warmup, options_.reps, options_.repsLarge);
        std::printf("Threads: cudascope's CPU engine is makeCpuEngine(%d) (a pool of %d); FFmpeg's filter graph has "
                    "nb_threads = %d (slice threading). FFmpeg filters without slice threading run on one thread "
                    "and are named in the threads column; scale passes the count to swscale.\n",
                    options_.threads, options_.threads, options_.threads);
        std::printf("Machine: %s, %u hardware threads; 1-minute load average %s at the start, %s at the end "
                    "(other work on the cores skews the times). FFmpeg %s (libavfilter %d.%d.%d).\n",
                    cpuModel().c_str(), std::thread::hardware_concurrency(), loadAtStart_.c_str(),
                    loadAverage().c_str(), av_version_info(), LIBAVFILTER_VERSION_MAJOR, LIBAVFILTER_VERSION_MINOR,
                    LIBAVFILTER_VERSION_MICRO);
        std::printf("\nWhat each row runs (both sides read the same AVFrame's planes; FFmpeg: buffer -> filters -> "
                    "buffersink, the frame sent with AV_BUFFERSRC_FLAG_KEEP_REF and every output pulled and unreferenced):\n\n");
        for (const Scenario& sc : scenarios_) {
            std::string chains;
            for (size_t i = 0; i < sc.ffmpegChains.size(); ++i) chains += (i ? "` + `" : "") + sc.ffmpegChains[i];
            if (sc.ffmpegChains.size() > 1) chains = "split to `" + chains + "`";
            else chains = "`" + chains + "`";
            std::printf("- %s: cudascope %s; FFmpeg %s\n", sc.name.c_str(), describe(sc.spec).c_str(), chains.c_str());
        }
        std::printf("\nContent: zone plate (luma rings up to Nyquist, chroma a full circle on the vectorscope), "
                    "noise (uniform over every code value, all planes); BT.709 limited range.\n");
        if (!crossChecks_.empty()) {
            std::printf("\nStatistics cross-check, cudascope vs signalstats YMIN..VAVG:\n");
            for (const std::string& c : crossChecks_) std::printf("- %s\n", c.c_str());
        }
        if (!notes_.empty()) {
            std::printf("\nNotes:\n");
            for (const std::string& n : notes_) std::printf("- %s\n", n.c_str());
        }
    }

private:
    static std::string describe(const ScopeSpec& s) {
        std::string parts;
        auto add = [&](bool on, const char* what) { if (on) parts += std::string(parts.empty() ? "" : ", ") + what; };
        add(s.waveform, "luma waveform");
        add(s.parade, s.paradeMode == ParadeMode::Rgb ? "R'G'B' parade" : "Y'CbCr parade");
        add(s.histogram, "histograms (Y at native depth, R'G'B' 8-bit)");
        add(s.vectorscope, "vectorscope");
        add(s.stats, "statistics (min/max/avg, out of legal, out of gamut)");
        if (s.displayImages) {
            parts += s.picture ? "; display images of each and the RGBA picture" : "; the scope's display image";
        } else if (s.waveform || s.histogram || s.vectorscope || s.parade) {
            parts += "; counts only, no images";
        }
        return parts;
    }

    Options options_;
    std::vector<Scenario> scenarios_;
    std::unique_ptr<Engine> engine_;
    std::vector<Row> rows_;
    std::vector<std::string> crossChecks_, notes_;
    std::string loadAtStart_;
};

int run(int argc, char** argv) {
    auto options = parseOptions(argc, argv);
    if (!options) {
        std::fprintf(stderr, "cpu_bench: %s\n", options.message().c_str());
        return 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    const Options o = *options;
    Bench bench(o);
    if (Status s = bench.init(); !s.ok()) {
        std::fprintf(stderr, "cpu_bench: %s\n", s.message().c_str());
        return 1;
    }
    struct Size { int w, h; };
    std::vector<Size> sizes;
    if (o.hd) sizes.push_back({1920, 1080});
    if (o.uhd) sizes.push_back({3840, 2160});
    const auto start = std::chrono::steady_clock::now();
    for (const Size& size : sizes)
        for (const int depth : {8, 10})
            for (const Content content : o.contents) {
                auto frame = makeSyntheticFrame(content, size.w, size.h, depth);
                Status s = frame ? bench.measure(*frame) : frame.status();
                if (!s.ok()) {
                    std::fprintf(stderr, "cpu_bench: %s\n", s.message().c_str());
                    return 1;
                }
            }
    if (!o.clip.empty()) {
        auto frame = decodeClipFrame(o.clip);
        Status s = frame ? bench.measure(*frame) : frame.status();
        if (!s.ok()) {
            std::fprintf(stderr, "cpu_bench: %s\n", s.message().c_str());
            return 1;
        }
    }
    std::fprintf(stderr, "cpu_bench: measured in %.0f s\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    bench.print();
    return 0;
}

}  // namespace
}  // namespace cs::bench

int main(int argc, char** argv) { return cs::bench::run(argc, argv); }
