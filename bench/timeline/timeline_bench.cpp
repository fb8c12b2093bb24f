// timeline_bench: the Timeline dock's drawing of one hour at 25 fps (90,000 frames, every
// series) into 1200 x 300 pixels, the cost the window pays at each redraw. Prints the best and
// the median of N drawings (default 200): the drawing thread's CPU time and the wall time.
// The target (issue 28): under 2 ms, by one min/max query per pixel column and series.
#include <QImage>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <time.h>
#include <vector>

#include "tests/common/TimelineHour.h"
#include "ui/timeline/TimelineView.h"

namespace {
double threadMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
    cs::timeline::TimelineData d;
    cs::timeline::fillHour(d);
    QImage image(1200, 300, QImage::Format_RGB32);
    std::vector<double> cpu, wall;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double c = threadMs();
        cs::timeline::drawGraphs(image, d, 0, d.frames() - 1);
        cpu.push_back(threadMs() - c);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("timeline, %lld frames, 1200x300, %d drawings: CPU best %.3f ms, median %.3f ms; wall best %.3f ms, median %.3f ms\n",
                static_cast<long long>(d.frames()), runs, *std::min_element(cpu.begin(), cpu.end()), median(cpu),
                *std::min_element(wall.begin(), wall.end()), median(wall));
    return 0;
}
