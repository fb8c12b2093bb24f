// The timeline's data and drawing without a display: the min/max pyramid against a plain
// scan, qc.json frame lines read into the series, and the graphs of a 90,000-frame file
// drawn (one query per pixel column and series) within 2 ms.
#include <gtest/gtest.h>

#include <QImage>
#include <QJsonDocument>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <time.h>

#include "ui/timeline/TimelineData.h"
#include "ui/timeline/TimelineView.h"
#include "tests/common/TimelineHour.h"

namespace cs::timeline {
namespace {

TEST(Timeline, PyramidEqualsAPlainScan) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f);
    MinMaxPyramid p;
    std::vector<float> plain;
    for (int n = 0; n < 1000; ++n) {
        const float v = value(rng);
        p.append(v);
        plain.push_back(v);
        // Ranges over what is there so far, growing as the pass would append.
        std::uniform_int_distribution<int64_t> index(0, n);
        for (int k = 0; k < 5; ++k) {
            int64_t a = index(rng), b = index(rng);
            if (a > b) std::swap(a, b);
            const auto [lo, hi] = p.range(a, b);
            EXPECT_EQ(lo, *std::min_element(plain.begin() + a, plain.begin() + b + 1)) << n << " " << a << " " << b;
            EXPECT_EQ(hi, *std::max_element(plain.begin() + a, plain.begin() + b + 1)) << n << " " << a << " " << b;
        }
    }
}

TEST(Timeline, ReadsQcFrameLines) {
    TimelineData d;
    const char* line =
        R"({"index":0,"pts":0.04,"timecode":"10:00:00:01","ydif":1.5,"satavg":20.25,)"
        R"("stats":{"y":{"min":16,"max":235,"avg":120.5},"u":{"avg":128.25},"v":{"avg":127.75},"out_of_legal":0.125},)"
        R"("gamut":{"outside_share":0.0625},"hdr":{"max_nits":1000,"avg_nits":80.5}})";
    d.addFrame(QJsonDocument::fromJson(line).object());
    ASSERT_EQ(d.frames(), 1);
    EXPECT_EQ(d.value(Series::YMin, 0), 16.0f);
    EXPECT_EQ(d.value(Series::YAvg, 0), 120.5f);
    EXPECT_EQ(d.value(Series::YMax, 0), 235.0f);
    EXPECT_EQ(d.value(Series::UAvg, 0), 128.25f);
    EXPECT_EQ(d.value(Series::VAvg, 0), 127.75f);
    EXPECT_EQ(d.value(Series::SatAvg, 0), 20.25f);
    EXPECT_EQ(d.value(Series::Ydif, 0), 1.5f);
    EXPECT_EQ(d.value(Series::OutOfLegal, 0), 0.125f);
    EXPECT_EQ(d.value(Series::OutsideTarget, 0), 0.0625f);
    EXPECT_EQ(d.value(Series::MaxNits, 0), 1000.0f);
    EXPECT_EQ(d.value(Series::AvgNits, 0), 80.5f);
    EXPECT_EQ(d.timecode(0), "10:00:00:01");
    EXPECT_DOUBLE_EQ(d.pts(0), 0.04);
    // An SDR frame line has no "hdr": those series stay absent (not drawn).
    TimelineData sdr;
    sdr.addFrame(QJsonDocument::fromJson(R"({"pts":0,"stats":{"y":{"min":1,"max":2,"avg":1.5}}})").object());
    EXPECT_TRUE(sdr.has(Series::YAvg));
    EXPECT_FALSE(sdr.has(Series::MaxNits));
    auto missing = TimelineData::fromQcJson(QStringLiteral("/nonexistent/clip.qc.json"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.message().rfind("/nonexistent/clip.qc.json: cannot be read", 0), 0u) << missing.message();
}

TEST(Timeline, ReadsTheAudioOfQcFrameLines) {
    TimelineData d;
    d.addFrame(QJsonDocument::fromJson(R"({"pts":0,"stats":{"y":{"min":1,"max":2,"avg":1.5}},)"
                                       R"("audio":{"momentary":-21.5,"short_term":-23.25,"true_peak":{"L":-3.5,"R":-1.25}}})").object());
    // Below the gate (null), a channel without a value, and a louder peak than the floor.
    d.addFrame(QJsonDocument::fromJson(R"({"pts":0.04,"stats":{"y":{"min":1,"max":2,"avg":1.5}},)"
                                       R"("audio":{"momentary":null,"short_term":-80,"true_peak":{"L":null,"R":-90}}})").object());
    ASSERT_EQ(d.frames(), 2);
    EXPECT_TRUE(d.has(Series::Momentary) && d.has(Series::ShortTerm) && d.has(Series::TruePeak));
    EXPECT_EQ(d.value(Series::Momentary, 0), -21.5f);
    EXPECT_EQ(d.value(Series::ShortTerm, 0), -23.25f);
    EXPECT_EQ(d.value(Series::TruePeak, 0), -1.25f);   // the loudest channel
    EXPECT_EQ(d.value(Series::Momentary, 1), kLoudnessFloor);
    EXPECT_EQ(d.value(Series::ShortTerm, 1), kLoudnessFloor);
    EXPECT_EQ(d.value(Series::TruePeak, 1), kLoudnessFloor);
    EXPECT_EQ(d.range(Series::ShortTerm, 0, 1), std::make_pair(kLoudnessFloor, -23.25f));
    // A picture without sound has no loudness band.
    TimelineData silent;
    silent.addFrame(QJsonDocument::fromJson(R"({"pts":0,"stats":{"y":{"min":1,"max":2,"avg":1.5}}})").object());
    EXPECT_FALSE(silent.has(Series::Momentary));
    EXPECT_EQ(silent.value(Series::TruePeak, 0), kLoudnessFloor);
}

TEST(Timeline, NinetyThousandFramesDrawEveryBand) {
    // One hour at 25 fps, every series present, drawn 1200 pixels wide (its time:
    // bench/timeline's timeline_bench).
    TimelineData d;
    fillHour(d);
    ASSERT_EQ(d.frames(), 90000);
    QImage image(1200, 300, QImage::Format_RGB32);
    drawGraphs(image, d, 0, d.frames() - 1);
    // Something was drawn in each band (not the background everywhere).
    int lit = 0;
    for (int y = 0; y < 300; ++y)
        if (image.pixel(600, y) != qRgb(18, 18, 20)) ++lit;
    EXPECT_GT(lit, 30);
}

}  // namespace
}  // namespace cs::timeline
