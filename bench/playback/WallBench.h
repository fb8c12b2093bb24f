// playback_bench --wall: the monitoring wall (playback/WallTile, ui/wall/WallRenderer) of several inputs,
// measured per tile (frames presented, dropped, latency) and per refresh (the drawing thread's
// time), headless on an EGL context (--no-window) or in the wall's window (ui/wall/WallWindow).
#pragma once
#include <string>
#include <vector>

namespace cs::bench {

struct WallBenchOptions {
    std::vector<std::string> inputs;
    double seconds = 10.0, warmup = 1.0;
    std::string engine = "auto";
    std::string hwdec = "auto";
    int width = 1920, height = 1080;
    int threads = 0;            // FFmpeg's decoder threads per source (0: FFmpeg's choice)
    bool noWindow = false;
    double refreshHz = 60.0;    // --no-window: the refresh the drawing loop keeps
    std::string snapshot;       // PNG of the wall after measuring ("": none)
};

// Exit: 0 measured; 1 an input or the engine failed, or a tile's delivered frames are not its presented plus
// dropped ones; 77 no display / no OpenGL 3.3.
int runWallBench(const WallBenchOptions& options, int argc, char** argv);

}  // namespace cs::bench
