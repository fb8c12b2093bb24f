// cie_bench: the CIE diagram's drawing (core's renderCieDiagram, one thread), beside the
// straightforward drawing it replaced (CieReference.cpp) on the same counts in the same run,
// and a check that both draw the same bytes. Counts from a frame counted by the CPU engine
// (a zone plate, or the first frame of --clip) and from a worst case, every bin filled;
// panels of 460x412 and 1000x900 (the diagram is square: 412 and 900) and the 540 square that
// export and `cudascope bench` draw by default. Prints median ms.
//
//   cie_bench [--quick] [--reps N] [--clip FILE]
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "BenchFrames.h"
#include "CieReference.h"
#include "scope/CieDiagram.h"
#include "core/Engine.h"
#include "cpu/CpuEngine.h"

extern "C" {
#include <libavutil/log.h>
}

namespace cs::bench {
namespace {

const char* kUsage =
    "usage: cie_bench [options]\n"
    "  --quick       smoke run: 3 timed runs each\n"
    "  --reps N      timed runs per measurement (default 200)\n"
    "  --clip FILE   count the first frame of FILE instead of a 4K 10-bit zone plate\n";

struct Options {
    int reps = 200;
    std::string clip;
};

struct Input {
    std::string name;
    ScopeResults results;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The chromaticity counts of `frame`, as the window's engine makes them (BT.709 target).
Result<Input> counted(const BenchFrame& frame) {
    ScopeSpec s;
    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
    s.displayImages = s.picture = false;
    s.preview = PreviewFilter::None;
    s.cie = true;
    s.gamutTarget = Primaries::Bt709;
    Input in;
    in.name = frame.content + " " + std::to_string(frame.view.width) + "x" + std::to_string(frame.view.height);
    if (Status st = makeCpuEngine(1)->process(frame.view, s, in.results); !st.ok()) return st;
    if (!in.results.gamut.measured) return Status::error(in.name + ": the engine measured no chromaticities.");
    return in;
}

// Every bin non-empty, with counts from 1 to 1000 (a 4K BT.2020 frame against BT.709).
Input everyBin() {
    Input in;
    in.name = "every bin filled (4K)";
    ScopeResults& r = in.results;
    r.width = 3840;
    r.height = 2160;
    GamutResults& g = r.gamut;
    g.measured = true;
    g.source = Primaries::Bt2020;
    g.target = Primaries::Bt709;
    g.counts.resize(size_t(kCieBins) * kCieBins);
    for (size_t i = 0; i < g.counts.size(); ++i) g.counts[i] = uint32_t(1 + (i * 7919) % 1000);
    g.outside = 123456;
    g.outsideShare = double(g.outside) / (3840.0 * 2160.0);
    return in;
}

int run(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--quick") {
            o.reps = 3;
        } else if (arg == "--reps" && i + 1 < argc) {
            const std::string_view v = argv[++i];
            const auto [end, err] = std::from_chars(v.data(), v.data() + v.size(), o.reps);
            if (err != std::errc{} || end != v.data() + v.size() || o.reps < 1) {
                std::fprintf(stderr, "cie_bench: --reps %s: expected a whole number of at least 1.\n", argv[i]);
                return 2;
            }
        } else if (arg == "--clip" && i + 1 < argc) {
            o.clip = argv[++i];
        } else if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else {
            std::fprintf(stderr, "cie_bench: unknown option or missing value: %s (see --help).\n", argv[i]);
            return 2;
        }
    }
    av_log_set_level(AV_LOG_ERROR);
    auto frame = o.clip.empty() ? makeSyntheticFrame(Content::ZonePlate, 3840, 2160, 10) : decodeClipFrame(o.clip);
    if (!frame) {
        std::fprintf(stderr, "cie_bench: %s\n", frame.message().c_str());
        return 1;
    }
    auto real = counted(*frame);
    if (!real) {
        std::fprintf(stderr, "cie_bench: %s\n", real.message().c_str());
        return 1;
    }
    std::vector<Input> inputs;
    inputs.push_back(std::move(*real));
    inputs.push_back(everyBin());
    Input none;
    none.name = "no counts (diagram alone)";
    inputs.push_back(std::move(none));

    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("| counts | non-empty bins | panel | diagram | before ms | after ms | after, first call ms | speed-up | same bytes |\n");
    std::printf("|---|---:|---|---:|---:|---:|---:|---:|---|\n");
    bool allSame = true;
    for (const Input& in : inputs) {
        const auto nonEmpty = std::count_if(in.results.gamut.counts.begin(), in.results.gamut.counts.end(), [](uint32_t c) { return c != 0; });
        for (const auto& [panelW, panelH] : {std::pair{460, 412}, std::pair{540, 540}, std::pair{1000, 900}}) {
            ScopeSpec spec;
            spec.cieSize = std::min(panelW, panelH);
            RgbaImage before, after;
            // The first call after a change of size draws the graticule and the plot's colours.
            spec.cieSize = 64;
            renderCieDiagram(in.results, spec, after);
            spec.cieSize = std::min(panelW, panelH);
            const auto t0 = Clock::now();
            renderCieDiagram(in.results, spec, after);
            const double first = ms(t0, Clock::now());
            renderCieDiagramReference(in.results, spec, before);
            std::vector<double> msBefore, msAfter;
            for (int rep = 0; rep < o.reps; ++rep) {   // alternating: load from elsewhere falls on both
                const auto a = Clock::now();
                renderCieDiagramReference(in.results, spec, before);
                const auto b = Clock::now();
                renderCieDiagram(in.results, spec, after);
                const auto c = Clock::now();
                msBefore.push_back(ms(a, b));
                msAfter.push_back(ms(b, c));
            }
            const bool same = before.width == after.width && before.height == after.height && before.pixels == after.pixels;
            allSame = allSame && same;
            const double mb = median(msBefore), ma = median(msAfter);
            std::printf("| %s | %ld | %dx%d | %d | %.3f | %.3f | %.3f | %.1fx | %s |\n", in.name.c_str(), long(nonEmpty), panelW,
                        panelH, spec.cieSize, mb, ma, first, mb / ma, same ? "yes" : "NO");
        }
    }
    std::printf("\nMedians of %d calls each, one thread, the two drawings alternating.\n", o.reps);
    if (!allSame) {
        std::fprintf(stderr, "cie_bench: the cached drawing differs from the reference drawing.\n");
        return 1;
    }
    return 0;
}

}  // namespace
}  // namespace cs::bench

int main(int argc, char** argv) { return cs::bench::run(argc, argv); }
