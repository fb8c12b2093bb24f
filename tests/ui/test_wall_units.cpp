// The wall's pieces that need no display: the grid for n tiles, wall files, the reduction of a
// frame to a tile.
#include <gtest/gtest.h>

#include <QTemporaryDir>

#include "core/PixelAccess.h"
#include "ui/WallFile.h"
#include "ui/WallTile.h"

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

TEST(WallTile, ReduceFrameSamplesNearest) {
    Frame f(PixelFormat::Yuv420p10, 64, 32);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 64; ++x) f.setPixel(x, y, 64 + x * 10 + y, 512 + (x / 2), 400);
    Frame out;
    reduceFrame(f.view(), 16, 8, out);
    ASSERT_EQ(out.format(), PixelFormat::Yuv444p10);
    const PixelSource s = makePixelSource(out.view());
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 16; ++x) {
            const int sx = x * 4 + 2, sy = y * 4 + 2;   // the centre of each 4 x 4 block
            const YuvSample v = readYuv(s, x, y, 512);
            EXPECT_EQ(v.y, 64 + sx * 10 + sy);
            EXPECT_EQ(v.cb, 512 + sx / 2);
            EXPECT_EQ(v.cr, 400);
        }
}
