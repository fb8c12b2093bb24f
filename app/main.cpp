// cudascope's entry point: the window (default), or a headless subcommand.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Commands.h"
#include "decode/Source.h"
#if CS_HAVE_BENCH_COMMAND
#include "Bench.h"
#endif
#if CS_HAVE_GUI
#include "ui/Gui.h"
#endif

namespace {

constexpr const char* kUsage =
    "usage: cudascope [INPUT]                 open the monitoring window (default: pattern:bars)\n"
    "       cudascope export INPUT --out DIR  write scope images, counts and report.json\n"
    "       cudascope probe INPUT             print the stream's properties\n"
    "       cudascope bench [INPUT]           time the engines (and NVDEC) on this machine\n"
    "       cudascope --help | --version\n"
    "INPUT: a media file, or pattern:bars, pattern:ramp, pattern:zoneplate (add :10bit, :WxH).\n"
    "Run `cudascope COMMAND --help` for a command's options.\n"
    "Exit codes: 0 success, 1 runtime failure, 2 usage error.\n"
    "Set CUDASCOPE_FFMPEG_LOG=1 to see FFmpeg's own log lines.\n";

}  // namespace

int main(int argc, char** argv) {
    // FFmpeg's own log lines only on request: cudascope reports each problem as one sentence.
    cs::setLibraryLogging(std::getenv("CUDASCOPE_FFMPEG_LOG") != nullptr);
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "-h" || first == "--help" || first == "help") {
        std::fputs(kUsage, stdout);
        return cs::kExitOk;
    }
    if (first == "--version") {
        std::puts("cudascope " CS_VERSION);
        return cs::kExitOk;
    }
    if (first == "export") return cs::runExport(argc - 2, argv + 2);
    if (first == "probe") return cs::runProbe(argc - 2, argv + 2);
    if (first == "bench") {
#if CS_HAVE_BENCH_COMMAND
        return cs::runBench(argc - 2, argv + 2);
#else
        std::fputs("cudascope: this build has no bench command\n", stderr);
        return cs::kExitFailure;
#endif
    }
    if (!first.empty() && first[0] == '-' && first != "-") {
        std::fprintf(stderr, "cudascope: unknown option %s\n%s", first.c_str(), kUsage);
        return cs::kExitUsage;
    }
#if CS_HAVE_GUI
    return cs::runGui(argc, argv, first);
#else
    std::fputs("cudascope: this build has no window; use export or probe\n", stderr);
    return cs::kExitFailure;
#endif
}
