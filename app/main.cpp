// cudascope's entry point: the window (default), or a headless subcommand.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "app/cli/CommandOptions.h"
#include "app/cli/Commands.h"
#include "app/cli/Completion.h"
#include "app/qc/QcWorker.h"
#include "decode/Source.h"
#if CS_HAVE_BENCH_COMMAND
#include "app/bench/Bench.h"
#endif
#if CS_HAVE_GUI
#include "ui/Gui.h"
#endif

namespace {

constexpr const char* kUsage =
    "usage: cudascope [INPUT] [--compare B]   open the monitoring window (default: pattern:bars),\n"
    "                                         optionally comparing INPUT with B (a wipe)\n"
    "       cudascope IN1 IN2 ... | --wall FILE  open a wall of several sources (a saved wall)\n"
    "       cudascope export INPUT --out DIR  write scope images, counts and report.json\n"
    "       cudascope probe INPUT             print the stream's properties\n"
    "       cudascope record INPUT --out FILE record the picture, scopes or both to .mp4/.mkv\n"
    "       cudascope bench [INPUT]           time the engines (and NVDEC) on this machine\n"
    "       cudascope qc INPUT... --out DIR   quality control of whole files (QCTools reports, events)\n"
    "       cudascope completion bash         print a bash completion script (commands, options, values)\n"
    "       cudascope --help | --version\n"
    "INPUT: a media file; a live URL (rtsp://, udp://, srt://, ...) or camera (v4l2:/dev/video0);\n"
    "       or pattern:bars, pattern:ramp, pattern:zoneplate (add :10bit, :WxH).\n"
    "The window needs a display (DISPLAY or WAYLAND_DISPLAY); without one, use `cudascope export`.\n"
    "Run `cudascope COMMAND --help` for a command's options.\n"
    "Exit codes: 0 success, 1 runtime failure, 2 usage error.\n"
    "Set CUDASCOPE_FFMPEG_LOG=1 to see FFmpeg's own log lines.\n";

}  // namespace

int main(int argc, char** argv) {
    // FFmpeg's own log lines only on request: cudascope reports each problem as one sentence.
    cs::setLibraryLogging(std::getenv("CUDASCOPE_FFMPEG_LOG") != nullptr);
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "help") {
        std::fputs(kUsage, stdout);
        return cs::kExitOk;
    }
    if (first == "export") return cs::runExport(argc - 2, argv + 2);
    if (first == "probe") return cs::runProbe(argc - 2, argv + 2);
    if (first == "record") return cs::runRecord(argc - 2, argv + 2);
    if (first == "qc") return cs::runQc(argc - 2, argv + 2);
#if CS_HAVE_BENCH_COMMAND
    constexpr bool withBench = true;
#else
    constexpr bool withBench = false;
#endif
    if (first == "completion") return cs::runCompletion(argc - 2, argv + 2, withBench);
    if (first == "qc-worker") return cs::runQcWorker(argc - 2, argv + 2);   // started by qc (QcWorker.h), not listed
    if (first == "bench") {
#if CS_HAVE_BENCH_COMMAND
        return cs::runBench(argc - 2, argv + 2);
#else
        std::fputs("cudascope bench: this build has no bench command\n", stderr);
        return cs::kExitFailure;
#endif
    }
    // The window: `cudascope [INPUT]`.
    auto options = cs::parseWindowArgs(cs::argumentsOf(argc - 1, argv + 1));
    if (!options) {
        std::fprintf(stderr, "cudascope: %s\n%s", options.message().c_str(), kUsage);
        return cs::kExitUsage;
    }
    if (options->help) {
        std::fputs(kUsage, stdout);
        return cs::kExitOk;
    }
    if (options->version) {
        std::puts("cudascope " CS_VERSION);
        return cs::kExitOk;
    }
#if CS_HAVE_GUI
    // Qt sees no argument of ours: every one was read above (and Qt's own, such as
    // -platform, are not options of cudascope: QT_QPA_PLATFORM chooses the platform).
    if (options->wall()) return cs::runWallGui(1, argv, options->wallInputs, options->wallFile);
    return cs::runGui(1, argv, options->input, options->compare);
#else
    std::fprintf(stderr, "cudascope: %s: this build has no window; use `cudascope export` or `cudascope probe`\n",
                 options->input.empty() ? "pattern:bars" : options->input.c_str());
    return cs::kExitFailure;
#endif
}
