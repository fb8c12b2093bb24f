// NAME.qc.png's values and picture (app/qc/QcSeries.h, QcGraph.h): buckets that keep every
// frame's min and max as they merge, NaN as "no value", the timecode axis at bucket starts,
// the panels an input's values call for, and the events in lanes under them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "app/qc/QcGraph.h"
#include "app/qc/QcSeries.h"

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

std::string timecodeOf(int64_t frame) {   // 25 fps from 10:00:00:00
    char s[48];   // room for any int: GCC's truncation warning cannot know the frame is small
    std::snprintf(s, sizeof s, "10:00:%02d:%02d", int(frame / 25), int(frame % 25));
    return s;
}

cs::QcSeries::Values values(double y, double momentary) {
    cs::QcSeries::Values v{};
    v.fill(0.0);
    v[cs::QcSeries::YMin] = y - 10;
    v[cs::QcSeries::YAvg] = y;
    v[cs::QcSeries::YMax] = y + 10;
    v[cs::QcSeries::YDif] = kNone;
    v[cs::QcSeries::Momentary] = momentary;
    v[cs::QcSeries::ShortTerm] = kNone;
    return v;
}

cs::QcSeries make(int64_t frames, size_t columns, bool audio) {
    cs::QcSeries s(columns);
    for (int64_t i = 0; i < frames; ++i)
        s.add(i, double(i) / 25.0, timecodeOf(i), values(double(i), audio && i % 2 ? -23.0 - double(i % 7) : kNone));
    return s;
}

}  // namespace

TEST(QcSeries, MergedBucketsKeepEveryFramesMinAndMaxAndSkipNoValue) {
    const cs::QcSeries s = make(101, 10, true);
    // 101 frames in at most 20 buckets: 8 frames a bucket after three merges, 13 buckets.
    ASSERT_EQ(s.framesPerBucket(), 8);
    ASSERT_EQ(s.buckets().size(), 13u);
    EXPECT_EQ(s.frames(), 101);
    for (size_t i = 0; i < s.buckets().size(); ++i) {
        const auto& b = s.buckets()[i];
        const int64_t first = int64_t(i) * 8, last = std::min<int64_t>(first + 7, 100);
        EXPECT_EQ(b.firstFrame, first);
        EXPECT_EQ(b.timecode, timecodeOf(first));
        EXPECT_EQ(b.min[cs::QcSeries::YMin], float(first - 10));
        EXPECT_EQ(b.max[cs::QcSeries::YMax], float(last + 10));
        EXPECT_TRUE(std::isnan(b.max[cs::QcSeries::YDif]));   // no value in any frame
        if (last > first) {
            EXPECT_FALSE(std::isnan(b.max[cs::QcSeries::Momentary]));   // odd frames have one
        }
    }
    EXPECT_FALSE(s.has(cs::QcSeries::YDif));
    EXPECT_TRUE(s.has(cs::QcSeries::Momentary));
}

TEST(QcGraph, TicksFallOnBucketStartsWithTheirTimecodes) {
    const cs::QcSeries s = make(250, 1000, false);   // a bucket a frame
    const auto ticks = cs::qcGraphTicks(s, 5);
    ASSERT_EQ(ticks.size(), 6u);
    for (size_t i = 0; i < ticks.size(); ++i) {
        const int64_t frame = std::lround(249.0 * double(i) / 5.0);
        EXPECT_EQ(ticks[i].frame, frame);
        EXPECT_EQ(ticks[i].timecode, timecodeOf(frame));
    }
    EXPECT_EQ(ticks.back().timecode, "10:00:09:24");
    EXPECT_EQ(cs::qcGraphTicks(make(3, 1000, false), 6).size(), 3u);   // no more ticks than buckets
}

TEST(QcGraph, ThePanelsFollowTheValuesAndTheAxisIsLabelled) {
    const cs::RgbaImage video = cs::renderQcGraph(make(250, 1000, false), {}, 256, "video");
    const cs::RgbaImage audio = cs::renderQcGraph(make(250, 1000, true), {}, 256, "audio");
    EXPECT_EQ(video.width, 1200);
    // Y, Cb/Cr and the shares (no YDIF: no value); with audio, loudness too: one panel more.
    EXPECT_EQ(audio.height - video.height, 150 + 26);
    // The axis labels: light (anti-aliased) text in the band under the last panel, none in an
    // empty picture's.
    const auto textIn = [](const cs::RgbaImage& img, int y0, int y1) {
        int n = 0;
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < img.width; ++x)
                if (img.at(x, y)[0] > 150 && img.at(x, y)[1] > 150 && img.at(x, y)[2] > 150) ++n;
        return n;
    };
    const int axis = video.height - 46 + 5;   // the last panel's bottom (46 px above the picture's) + 5
    EXPECT_GT(textIn(video, axis, axis + 12), 100);
    const cs::RgbaImage empty = cs::renderQcGraph(cs::QcSeries(10), {}, 256, "empty");
    EXPECT_EQ(textIn(empty, empty.height - 41, empty.height - 29), 0);
}

// The events in lanes under the graphs, one per type in the order they first occur, each a
// bar over its frames in its type's colour; the graphs themselves are not shaded.
TEST(QcGraph, EventsInLanesOnePerType) {
    const cs::QcSeries series = make(250, 1000, false);
    std::vector<cs::QcEvent> events(3);
    events[0].type = "black";
    events[0].firstFrame = 0;
    events[0].lastFrame = 24;
    events[1].type = "freeze";
    events[1].firstFrame = 100;
    events[1].lastFrame = 149;
    events[2].type = "black";
    events[2].firstFrame = 200;
    events[2].lastFrame = 209;
    const cs::RgbaImage plain = cs::renderQcGraph(series, {}, 256, "clip");
    const cs::RgbaImage laned = cs::renderQcGraph(series, events, 256, "clip");
    ASSERT_EQ(laned.height - plain.height, 8 + 2 * (12 + 3));   // two lanes
    const int lanes = plain.height - 46 + 8;                      // the first lane's top
    const int plotW = 1200 - 132 - 20;
    const auto xOf = [&](int64_t frame) { return 132 + int(std::floor(double(frame) / 250.0 * plotW)); };
    const auto isColour = [](const cs::RgbaImage& img, int x, int y, int r, int g, int b) {
        const uint8_t* p = img.at(x, y);
        return p[0] == r && p[1] == g && p[2] == b;
    };
    const int blackLane = lanes + 6, freezeLane = lanes + 15 + 6;
    // black's lane (first: its type occurs first): frames 0-24 and 200-209, nothing at 120.
    EXPECT_TRUE(isColour(laned, xOf(10), blackLane, 90, 90, 255));
    EXPECT_TRUE(isColour(laned, xOf(205), blackLane, 90, 90, 255));
    EXPECT_TRUE(isColour(laned, xOf(120), blackLane, 12, 12, 14));
    // freeze's lane: frames 100-149 only.
    EXPECT_TRUE(isColour(laned, xOf(120), freezeLane, 0, 200, 255));
    EXPECT_TRUE(isColour(laned, xOf(10), freezeLane, 12, 12, 14));
    // The graphs above are the same picture with or without the events.
    for (int y = 0; y < plain.height - 46; ++y)
        for (int x = 0; x < 1200; x += 7) ASSERT_TRUE(std::equal(plain.at(x, y), plain.at(x, y) + 4, laned.at(x, y))) << x << "," << y;
}
