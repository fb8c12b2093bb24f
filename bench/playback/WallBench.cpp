// playback_bench --wall (bench/playback/WallBench.h).
#include "WallBench.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "render/GlObjects.h"
#include "render/HeadlessContext.h"
#include "render/OffscreenTarget.h"
#include "ui/Gui.h"
#include "ui/wall/WallRenderer.h"
#include "playback/WallTile.h"
#include "ui/wall/WallView.h"
#include "ui/wall/WallWindow.h"

namespace cs::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kFirstFrameTimeoutMs = 30000;

HwDecode hwdecOf(const std::string& s) {
    return s == "nvdec" ? HwDecode::Nvdec : s == "none" ? HwDecode::None : HwDecode::Auto;
}

struct Baseline {
    TileCounters counters;
    TileDisplayStats display;
};

struct Percentiles {
    double median = 0, p99 = 0, max = 0;
};
Percentiles percentiles(std::vector<double> v) {
    Percentiles p;
    if (v.empty()) return p;
    std::sort(v.begin(), v.end());
    p.median = v[v.size() / 2];
    p.p99 = v[std::min(v.size() - 1, v.size() * 99 / 100)];
    p.max = v.back();
    return p;
}

// Runs `step` until `done` or the timeout (ms); returns done().
bool pump(const std::function<void()>& step, const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) step();
    return done();
}

// Every tile has shown a frame, or a tile failed (its status names why).
std::string firstFrames(const std::vector<WallTile*>& tiles, const WallRenderer& renderer, const std::function<void()>& step) {
    const bool ok = pump(step,
                         [&] {
                             for (WallTile* t : tiles)
                                 if (renderer.stats(*t).presented == 0) return false;
                             return true;
                         },
                         kFirstFrameTimeoutMs);
    if (ok) return {};
    for (WallTile* t : tiles)
        if (renderer.stats(*t).presented == 0) return t->input() + ": no frame within 30 s (" + t->statusText() + ")";
    return "no frame";
}

// Per tile over the measurement (differences from the baseline): every frame the reader
// delivered is presented, dropped (by cause) or pending (in flight at either end), and
// delivered = presented + dropped + pending change holds. False when it does not, for any tile.
bool printTable(const WallBenchOptions& o, const std::vector<WallTile*>& tiles, const WallRenderer& renderer,
                const std::vector<Baseline>& base, double seconds, const std::vector<double>& refreshMs, int64_t lateRefreshes,
                const std::string& how) {
    std::printf("| tile | input | decoder | engine | delivered | presented | fps | dropped (late / replaced / unshown / failed) "
                "| pending change | clock restarts (s stalled) | latency ms mean / max | worker ms |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    int64_t droppedAll = 0, deliveredAll = 0, presentedAll = 0;
    bool balanced = true;
    for (size_t i = 0; i < tiles.size(); ++i) {
        const TileCounters c = tiles[i]->counters();
        const TileCounters& b = base[i].counters;
        const TileDisplayStats d = renderer.stats(*tiles[i]);
        const int64_t delivered = c.delivered - b.delivered, presented = c.presented - b.presented;
        const int64_t late = c.skipped - b.skipped, live = c.liveDropped - b.liveDropped;
        const int64_t unshown = c.unshown - b.unshown, failed = c.failed - b.failed;
        const int64_t dropped = c.dropped() - b.dropped(), pending = c.pending - b.pending;
        const int64_t shown = d.presented - base[i].display.presented;
        const double latency = shown ? (d.sumLatencyMs - base[i].display.sumLatencyMs) / double(shown) : 0.0;
        droppedAll += dropped;
        deliveredAll += delivered;
        presentedAll += presented;
        if (delivered != presented + dropped + pending) balanced = false;
        std::printf("| %zu | %s | %s | %s | %lld | %lld | %.1f | %lld (%lld / %lld / %lld / %lld) | %+lld | %lld (%.2f) | %.1f / %.1f | %.1f |\n",
                    i + 1, tiles[i]->input().c_str(), tiles[i]->decoder().c_str(), tiles[i]->engineName().c_str(),
                    static_cast<long long>(delivered), static_cast<long long>(presented), double(presented) / seconds,
                    static_cast<long long>(dropped), static_cast<long long>(late), static_cast<long long>(live),
                    static_cast<long long>(unshown), static_cast<long long>(failed), static_cast<long long>(pending),
                    static_cast<long long>(c.clockRestarts - b.clockRestarts), c.stalledSeconds - b.stalledSeconds, latency,
                    d.maxLatencyMs, c.lastProcessMs);
    }
    const Percentiles p = percentiles(refreshMs);
    std::printf("\n%zu tiles, %.1f s measured (%s, %dx%d): delivered %lld = presented %lld + dropped %lld + pending change %+lld%s; "
                "the drawing thread per refresh (uploads + one pass over every tile%s): median %.2f ms, p99 %.2f ms, max %.2f ms over %zu refreshes",
                tiles.size(), seconds, how.c_str(), o.width, o.height, static_cast<long long>(deliveredAll),
                static_cast<long long>(presentedAll), static_cast<long long>(droppedAll),
                static_cast<long long>(deliveredAll - presentedAll - droppedAll), balanced ? "" : " (NOT BALANCED for some tile)",
                o.noWindow ? " + glFinish" : "", p.median, p.p99, p.max, refreshMs.size());
    if (o.noWindow) std::printf(", %lld refreshes later than their slot", static_cast<long long>(lateRefreshes));
    std::printf("\nGL: %s\n", gl::versionString().c_str());
    std::printf("(latency max is over the whole run, warm-up included; dropped: late = came due while the tile's worker"
                " was busy, replaced = replaced in a live mailbox, unshown = drawn by the tile, due at a refresh and never shown,"
                " failed = the engines failed on it; pending = in the worker's hands, queued for a refresh or waiting in the mailbox;"
                " a clock restart (the decoder more than 0.25 s behind) drops no frame, it loses the time stalled)\n");
    return balanced;
}

// Stops every tile (their counters are final then) and checks delivered = presented + dropped
// over the whole run, nothing pending. False, with a line per tile that does not balance.
bool checkFinalCounts(const std::vector<WallTile*>& tiles) {
    bool ok = true;
    for (WallTile* t : tiles) t->requestStop();
    int64_t delivered = 0, presented = 0, dropped = 0;
    for (WallTile* t : tiles) {
        t->stop();
        const TileCounters c = t->counters();
        delivered += c.delivered;
        presented += c.presented;
        dropped += c.dropped();
        if (c.delivered != c.presented + c.dropped() || c.pending != 0) {
            std::fprintf(stderr, "playback_bench: %s: delivered %lld != presented %lld + dropped %lld (pending %lld)\n",
                         t->input().c_str(), static_cast<long long>(c.delivered), static_cast<long long>(c.presented),
                         static_cast<long long>(c.dropped()), static_cast<long long>(c.pending));
            ok = false;
        }
    }
    std::printf("whole run, tiles stopped: delivered %lld = presented %lld + dropped %lld (late, replaced, unshown, failed, "
                "and those left at the stop)%s\n",
                static_cast<long long>(delivered), static_cast<long long>(presented), static_cast<long long>(dropped),
                ok ? "" : ": NOT BALANCED");
    return ok;
}

void snapshot(const std::vector<WallTile*>& tiles, const WallGrid& grid, int w, int h, const std::string& path) {
    QImage out(w, h, QImage::Format_RGBA8888);
    out.fill(Qt::black);
    QPainter p(&out);
    for (size_t i = 0; i < tiles.size(); ++i) {
        const auto canvas = tiles[i]->canvas();
        if (!canvas) continue;
        const TileRect r = wallTileRect(grid, int(i), w, h);
        const QImage tile(canvas->image.pixels.data(), canvas->image.width, canvas->image.height, canvas->image.width * 4,
                          QImage::Format_RGBA8888);
        p.drawImage(QPoint(r.x, r.y), tile);
    }
    p.end();
    out.save(QString::fromStdString(path));
}

int runHeadless(const WallBenchOptions& o, int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_QPA_OFFSCREEN_NO_GLX", "1");
    QApplication app(argc, argv);
    if (const Status s = gl::makeHeadlessContext(); !s) {
        std::fprintf(stderr, "playback_bench: --no-window: %s\n", s.message().c_str());
        return 77;
    }
    std::vector<std::unique_ptr<WallTile>> owned;
    std::vector<WallTile*> tiles;
    WallScopes scopes{true, true, true};
    for (const std::string& input : o.inputs) {
        WallTile::Options to;
        to.engine = o.engine;
        to.hwdec = hwdecOf(o.hwdec);
        to.decoderThreads = o.threads;
        owned.push_back(std::make_unique<WallTile>(input, to, nullptr));
        owned.back()->setScopes(scopes);
        tiles.push_back(owned.back().get());
    }
    const WallGrid grid = wallGrid(int(tiles.size()));
    WallRenderer renderer;
    gl::OffscreenTarget target;
    Status s = renderer.create();
    const auto finish = [&](int code) {
        renderer.release();
        target.release();
        for (auto& t : owned) t->requestStop();
        owned.clear();
        return code;
    };
    if (!s) {
        std::fprintf(stderr, "playback_bench: --no-window: %s\n", s.message().c_str());
        return finish(1);
    }
    if (o.engine == "cuda" && tiles.front()->engineName().rfind("cuda", 0) != 0) {
        // The worker sets its engine name as it starts.
        pump([] { std::this_thread::sleep_for(std::chrono::milliseconds(10)); },
             [&] { return !tiles.front()->engineName().empty(); }, 5000);
        if (tiles.front()->engineName().rfind("cuda", 0) != 0) {
            std::fprintf(stderr, "playback_bench: --engine cuda: %s\n", tiles.front()->engineName().c_str());
            return finish(1);
        }
    }
    // The refresh loop: one pass over every tile per refresh slot, as a display's vsync paces it.
    const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / o.refreshHz));
    Clock::time_point slot = Clock::now();
    renderer.setRefreshPeriod(period);
    std::vector<double> refreshMs, issueMs;   // with glFinish; up to the last GL call (the CPU's share)
    int64_t late = 0;
    bool measuring = false;
    const auto refresh = [&] {
        slot += period;
        const auto now = Clock::now();
        if (now < slot) std::this_thread::sleep_until(slot);
        else if (now - slot > period) {
            if (measuring) ++late;
            slot = now;
        }
        const auto begin = Clock::now();
        if ((s = target.bind(o.width, o.height))) renderer.draw(tiles, grid, o.width, o.height, -1, slot);
        gl::OffscreenTarget::unbind();
        const auto issued = Clock::now();
        gl::OffscreenTarget::finish();
        if (measuring) {
            refreshMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
            issueMs.push_back(std::chrono::duration<double, std::milli>(issued - begin).count());
        }
        QCoreApplication::processEvents();
    };
    if (const std::string error = firstFrames(tiles, renderer, refresh); !error.empty()) {
        std::fprintf(stderr, "playback_bench: %s\n", error.c_str());
        return finish(1);
    }
    const auto warmEnd = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.warmup));
    while (Clock::now() < warmEnd) refresh();
    std::vector<Baseline> base;
    for (WallTile* t : tiles) base.push_back({t->counters(), renderer.stats(*t)});
    measuring = true;
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    while (Clock::now() < end && s) refresh();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!s) {
        std::fprintf(stderr, "playback_bench: --no-window: %s\n", s.message().c_str());
        return finish(1);
    }
    bool balanced = printTable(o, tiles, renderer, base, seconds, refreshMs, late, "no window: EGL, offscreen framebuffer");
    const Percentiles issue = percentiles(issueMs);
    std::printf("the same without waiting for glFinish (the thread's own share): median %.2f ms, p99 %.2f ms, max %.2f ms\n",
                issue.median, issue.p99, issue.max);
    if (!o.snapshot.empty()) snapshot(tiles, grid, o.width, o.height, o.snapshot);
    balanced = checkFinalCounts(tiles) && balanced;
    return finish(balanced ? 0 : 1);
}

int runWindowed(const WallBenchOptions& o, int argc, char** argv) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if (!(display && *display) && !(wayland && *wayland)) {
        std::fprintf(stderr, "playback_bench: no display (run under xvfb-run, or --no-window)\n");
        return 77;
    }
    prepareGuiApplication();
    QApplication app(argc, argv);
    styleGuiApplication();
    WallWindow window(o.engine);
    WallConfig wall;
    wall.sources = o.inputs;
    wall.scopes = {true, true, true};
    window.setWall(wall);
    window.setWindowState(Qt::WindowNoState);   // the size asked for, not the screen (a wall opens maximized)
    window.resize(o.width, o.height);
    window.show();
    std::vector<WallTile*> tiles;
    for (int i = 0; i < window.tileCount(); ++i) tiles.push_back(&window.tile(i));
    const WallRenderer& renderer = window.view().renderer();
    QEventLoop loop;
    const auto step = [&] {
        QTimer::singleShot(5, &loop, &QEventLoop::quit);
        loop.exec();
    };
    if (const std::string error = firstFrames(tiles, renderer, step); !error.empty()) {
        std::fprintf(stderr, "playback_bench: %s\n", error.c_str());
        return 1;
    }
    pump(step, [] { return false; }, int(o.warmup * 1000));
    std::vector<Baseline> base;
    for (WallTile* t : tiles) base.push_back({t->counters(), renderer.stats(*t)});
    const int64_t paintsBefore = window.view().paintTimes().paints;
    QElapsedTimer t;
    t.start();
    pump(step, [] { return false; }, int(o.seconds * 1000));
    const double seconds = double(t.elapsed()) / 1000.0;
    const WallView::PaintTimes pt = window.view().paintTimes();
    // The view keeps its last 600 paints: the table's figures are of those.
    const std::vector<double>& ms = window.view().paintSamples();
    std::printf("paints during the measurement: %lld\n", static_cast<long long>(pt.paints - paintsBefore));
    bool balanced = printTable(o, tiles, renderer, base, seconds, ms, 0, "the wall's window");
    if (!o.snapshot.empty()) window.grab().save(QString::fromStdString(o.snapshot));
    balanced = checkFinalCounts(tiles) && balanced;
    return balanced ? 0 : 1;
}

}  // namespace

int runWallBench(const WallBenchOptions& o, int argc, char** argv) {
    return o.noWindow ? runHeadless(o, argc, argv) : runWindowed(o, argc, argv);
}

}  // namespace cs::bench
