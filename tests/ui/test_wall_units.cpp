// The wall's pieces that need no display: the grid for n tiles, wall files, the presentation rule
// (the reduction of a frame to a tile: tests/core/test_frame_reduce.cpp).
#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <chrono>
#include <vector>

#include "core/PixelAccess.h"
#include "ui/wall/WallFile.h"
#include "playback/WallPacing.h"
#include "playback/WallTile.h"

using namespace cs;

TEST(WallGrid, ColumnsAndRowsForN) {
    const std::pair<int, std::pair<int, int>> cases[] = {{1, {1, 1}}, {2, {2, 1}}, {3, {2, 2}},  {4, {2, 2}},
                                                         {5, {3, 2}}, {9, {3, 3}}, {10, {4, 3}}, {16, {4, 4}},
                                                         {17, {5, 4}}};
    for (const auto& [n, expected] : cases) {
        const WallGrid g = wallGrid(n);
        EXPECT_EQ(g.columns, expected.first) << n;
        EXPECT_EQ(g.rows, expected.second) << n;
    }
    EXPECT_EQ(wallGrid(6, 1).columns, 1);
    EXPECT_EQ(wallGrid(6, 1).rows, 6);
}

TEST(WallGrid, TilesCoverTheViewWithoutOverlap) {
    const WallGrid g = wallGrid(7);   // 3 x 3, the last row partly empty
    int area = 0;
    for (int i = 0; i < 9; ++i) {
        const TileRect r = wallTileRect(g, i, 1001, 700);
        area += r.width * r.height;
    }
    EXPECT_EQ(area, 1001 * 700);
    const TileRect last = wallTileRect(g, 8, 1001, 700);
    EXPECT_EQ(last.x + last.width, 1001);
    EXPECT_EQ(last.y + last.height, 700);
    EXPECT_TRUE(wallTileRect(g, 4, 1001, 700).contains(500, 350));
}

TEST(WallFile, RoundTrip) {
    WallConfig wall;
    wall.sources = {"a.mp4", "udp://127.0.0.1:5000", "pattern:bars:10bit"};
    wall.columns = 2;
    wall.scopes = {false, true, true};
    QTemporaryDir dir;
    const std::string path = dir.filePath("studio.wall").toStdString();
    ASSERT_TRUE(saveWall(wall, path));
    auto back = loadWall(path);
    ASSERT_TRUE(back) << back.message();
    EXPECT_EQ(*back, wall);
}

TEST(WallFile, BadFilesNameTheFileAndTheReason) {
    const auto error = [](const std::string& text) { return wallFromJson(text, "x.wall").message(); };
    EXPECT_EQ(error("{"), "x.wall: not a wall file (JSON: unterminated object at byte 1)");
    EXPECT_EQ(error("[]"), "x.wall: not a wall file (a JSON object is expected)");
    EXPECT_EQ(error(R"({"sources": ["a"]})"), "x.wall: not a wall file (no \"cudascope_wall\": 1)");
    EXPECT_EQ(error(R"({"cudascope_wall": 1, "sources": []})"), "x.wall: the wall has no sources");
    EXPECT_EQ(error(R"({"cudascope_wall": 1, "sources": "a"})"), "x.wall: 'sources' must be a list of inputs");
    EXPECT_EQ(error(R"({"cudascope_wall": 1, "sources": ["a"], "colums": 2})"), "x.wall: unknown key 'colums'");
    EXPECT_EQ(error(R"({"cudascope_wall": 1, "sources": ["a"], "columns": 2.5})"),
              "x.wall: 'columns' must be a whole number from 0 (automatic) to 64");
    EXPECT_EQ(error(R"({"cudascope_wall": 1, "sources": ["a"], "scopes": ["parade"]})"),
              "x.wall: unknown scope 'parade' (waveform, vectorscope, histogram)");
    EXPECT_EQ(loadWall("/nonexistent/x.wall").message(), "/nonexistent/x.wall: No such file or directory");
}

namespace {

using PaceClock = std::chrono::steady_clock;

// A synthetic 60 Hz display showing a tile's queue: canvases published by a worker with jitter,
// each refresh taking what pickDueCanvas picks. Returns the due times shown, in order, and the
// canvases dropped.
struct PacingRun {
    std::vector<PaceClock::time_point> shown;
    int dropped = 0;
};

PacingRun runPacing(const std::vector<std::pair<PaceClock::time_point, PaceClock::time_point>>& published,   // due, published
                    const std::vector<PaceClock::time_point>& refreshes, PaceClock::duration delay, bool live) {
    PacingRun run;
    std::vector<PaceClock::time_point> queue;
    size_t next = 0;
    for (const PaceClock::time_point r : refreshes) {
        while (next < published.size() && published[next].second <= r) queue.push_back(published[next++].first);
        const CanvasPick pick = pickDueCanvas(queue, r, delay, live);
        if (pick.index < 0) continue;
        run.dropped += pick.dropped;
        run.shown.push_back(queue[size_t(pick.index)]);
        queue.erase(queue.begin(), queue.begin() + pick.index + 1);
    }
    return run;
}

}  // namespace

TEST(WallPacing, SixtyOnSixtyShowsEveryFrameDespiteJitter) {
    const PaceClock::time_point t0{};
    const auto period = std::chrono::microseconds(16667);
    std::vector<std::pair<PaceClock::time_point, PaceClock::time_point>> published;
    std::vector<PaceClock::time_point> refreshes;
    for (int i = 0; i < 120; ++i) {
        const auto due = t0 + i * period;
        // The worker publishes 1-15 ms after the due time: every third frame late, the next early,
        // so two canvases often land within one refresh interval.
        const auto work = std::chrono::milliseconds(i % 3 == 0 ? 15 : i % 3 == 1 ? 1 : 6);
        published.push_back({due, due + work});
        refreshes.push_back(t0 + i * period + std::chrono::microseconds(8000));   // refreshes halfway between
    }
    for (int i = 120; i < 124; ++i) refreshes.push_back(t0 + i * period + std::chrono::microseconds(8000));
    const PacingRun paced = runPacing(published, refreshes, period, false);
    EXPECT_EQ(paced.dropped, 0);
    ASSERT_EQ(paced.shown.size(), 120u);
    for (int i = 0; i < 120; ++i) EXPECT_EQ(paced.shown[size_t(i)], t0 + i * period) << i;

    // Newest-wins on the same publications loses frames: what the pacing is for.
    const PacingRun newest = runPacing(published, refreshes, period, true);
    EXPECT_GT(newest.dropped, 20);
    EXPECT_EQ(newest.shown.size() + size_t(newest.dropped), 120u);
}

TEST(WallPacing, PicksTheLatestDueAtOrBeforeTheTarget) {
    const PaceClock::time_point t0{};
    const auto ms = [&](int v) { return t0 + std::chrono::milliseconds(v); };
    const std::vector<PaceClock::time_point> due = {ms(0), ms(17), ms(33), ms(50)};
    const auto delay = std::chrono::milliseconds(17);
    // Nothing due yet: keep the current picture.
    CanvasPick p = pickDueCanvas(due, ms(16), delay, false);
    EXPECT_EQ(p.index, -1);
    EXPECT_EQ(p.dropped, 0);
    // Exactly due (the target is inclusive).
    p = pickDueCanvas(due, ms(17), delay, false);
    EXPECT_EQ(p.index, 0);
    EXPECT_EQ(p.dropped, 0);
    // A refresh that came late by two periods: the two before the due one are dropped.
    p = pickDueCanvas(due, ms(51), delay, false);
    EXPECT_EQ(p.index, 2);
    EXPECT_EQ(p.dropped, 2);
    // A clock that restarted (a loop): a later canvas stamped earlier is still the one picked.
    const std::vector<PaceClock::time_point> restarted = {ms(40), ms(5)};
    p = pickDueCanvas(restarted, ms(30), delay, false);
    EXPECT_EQ(p.index, 1);
    EXPECT_EQ(p.dropped, 1);
    // Live: the newest, whatever the times.
    p = pickDueCanvas(due, ms(0), delay, true);
    EXPECT_EQ(p.index, 3);
    EXPECT_EQ(p.dropped, 3);
    EXPECT_EQ(pickDueCanvas({}, ms(100), delay, true).index, -1);
}
