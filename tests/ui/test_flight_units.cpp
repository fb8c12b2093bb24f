// The flight recorder (playback/FlightRecorder.h) and its export (ui/timeline/FlightExport.h):
// the ring's wrap-around and bound, time to frame lookup, thumbnails spilled and read back
// unchanged, a spill file that cannot be made, an hour of 1080p50 statistics within the
// stated bound, and a recorded range written as qc.json/qc.csv rows.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstring>
#include <string>

#include "playback/FlightRecorder.h"
#include "ui/timeline/FlightExport.h"
#include "ui/timeline/TimelineData.h"

namespace cs::timeline {
namespace {

FlightFrame frameAt(double time, int32_t y) {
    FlightFrame f;
    f.time = time;
    f.pts = time + 100.0;
    f.wallClock = 1.8e9 + time;
    f.yMin = y, f.yMax = y + 100, f.yAvg = y + 50.5;
    f.uMin = 100, f.uMax = 140, f.uAvg = 128.25;
    f.vMin = 110, f.vMax = 150, f.vAvg = 127.75;
    f.outOfLegal = 0.125;
    return f;
}

FlightOptions options(double seconds, double rate, size_t memory = 8u << 20, std::string spill = {}, size_t spillBytes = 0) {
    FlightOptions o;
    o.hours = seconds / 3600.0;
    o.frameRate = rate;
    o.thumbnailMemoryBytes = memory;
    o.spillPath = std::move(spill);
    o.spillBytes = spillBytes;
    return o;
}

RgbaImage gradient(int w, int h) {
    RgbaImage img;
    img.resize(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = img.at(x, y);
            p[0] = uint8_t(x * 255 / w), p[1] = uint8_t(y * 255 / h), p[2] = uint8_t((x + y) & 255), p[3] = 255;
        }
    return img;
}

TEST(FlightRecorder, RingWrapsKeepingTheNewest) {
    FlightRecorder r(options(10.0, 10.0));
    ASSERT_EQ(r.capacity(), 100u);
    for (int i = 0; i < 250; ++i) EXPECT_EQ(r.add(frameAt(i * 0.1, i)), i);
    EXPECT_EQ(r.first(), 150);
    EXPECT_EQ(r.end(), 250);
    EXPECT_FALSE(r.frame(149));
    ASSERT_TRUE(r.frame(150));
    EXPECT_EQ(r.frame(150)->yMin, 150);
    EXPECT_EQ(r.frame(249)->yMin, 249);
    int64_t first = -1;
    const auto kept = r.frames(0, 1000, &first);
    ASSERT_EQ(kept.size(), 100u);
    EXPECT_EQ(first, 150);
    EXPECT_EQ(kept.front().yMin, 150);
    EXPECT_EQ(r.usage().ringBytes, 100 * sizeof(FlightFrame));   // never more than the ring
}

TEST(FlightRecorder, TimeFindsTheNearestFrame) {
    FlightRecorder r(options(10.0, 10.0));
    EXPECT_EQ(r.serialAt(1.0), -1);
    for (int i = 0; i < 150; ++i) r.add(frameAt(i * 0.1, i));   // keeps 50..149: 5.0 .. 14.9 s
    EXPECT_EQ(r.serialAt(7.04), 70);
    EXPECT_EQ(r.serialAt(7.06), 71);
    EXPECT_EQ(r.serialAt(0.0), 50);     // before the oldest kept
    EXPECT_EQ(r.serialAt(99.0), 149);   // after the newest
}

TEST(FlightRecorder, SpilledThumbnailReadsBackTheSameImage) {
    QTemporaryDir dir;
    const std::string path = QDir(dir.path()).filePath("flight.spill").toStdString();
    const std::vector<uint8_t> jpeg = encodeThumbnail(gradient(320, 180));
    ASSERT_GT(jpeg.size(), 500u);
    const QImage original = decodeThumbnail(jpeg);
    EXPECT_EQ(original.size(), QSize(160, 90));
    // Memory for two thumbnails, the file for three: the fifth write wraps over the oldest.
    FlightRecorder r(options(60.0, 10.0, 2 * jpeg.size(), path, 3 * jpeg.size() + 10));
    ASSERT_TRUE(r.spillStatus()) << r.spillStatus().message();
    for (int i = 0; i < 80; ++i) {
        const int64_t s = r.add(frameAt(i * 0.1, i));
        if (r.wantsThumbnail(i * 0.1)) {
            std::vector<uint8_t> bytes = jpeg;
            bytes[bytes.size() / 2] ^= uint8_t(i);   // each one its own (a changed scan byte)
            r.addThumbnail(s, i * 0.1, std::move(bytes));
        }
    }
    // 8 taken (0, 1, ... 7 s): 2 in memory, 3 in the file, 3 overwritten.
    EXPECT_EQ(r.thumbnails(), 5u);
    EXPECT_EQ(r.usage().thumbnailBytes, 2 * jpeg.size());
    EXPECT_EQ(r.usage().spilledBytes, 3 * jpeg.size());
    EXPECT_EQ(QFile(QString::fromStdString(path)).size(), qint64(3 * jpeg.size()));
    auto spilled = r.thumbnailAt(3.2);   // the oldest left, read from the file
    ASSERT_TRUE(spilled) << spilled.status().message();
    ASSERT_TRUE(*spilled);
    EXPECT_DOUBLE_EQ((*spilled)->time, 3.0);
    std::vector<uint8_t> expected = jpeg;
    expected[expected.size() / 2] ^= uint8_t(30);
    EXPECT_EQ((*spilled)->bytes, expected);
    EXPECT_EQ(decodeThumbnail((*spilled)->bytes).size(), original.size());
    auto early = r.thumbnailAt(0.0);     // the overwritten ones are gone: the nearest is 3 s
    ASSERT_TRUE(early && *early);
    EXPECT_DOUBLE_EQ((*early)->time, 3.0);
    auto latest = r.thumbnailAt(7.0);    // in memory
    ASSERT_TRUE(latest && *latest);
    expected = jpeg;
    expected[expected.size() / 2] ^= uint8_t(70);
    EXPECT_EQ((*latest)->bytes, expected);
}

TEST(FlightRecorder, BadCacheFolderIsOneLineAndMemoryGoesOn) {
    const std::string path = "/nonexistent-cudascope-cache/flight.spill";
    FlightRecorder r(options(60.0, 10.0, 3000, path));
    const Status s = r.spillStatus();
    ASSERT_FALSE(s);
    EXPECT_EQ(s.message(), path + ": cannot be used as the flight recorder's spill file (No such file or directory); "
                                  "thumbnails are kept in memory only");
    for (int i = 0; i < 100; ++i) {
        const int64_t serial = r.add(frameAt(i * 0.1, i));
        if (r.wantsThumbnail(i * 0.1)) r.addThumbnail(serial, i * 0.1, std::vector<uint8_t>(1000, uint8_t(i)));
    }
    EXPECT_EQ(r.end(), 100);                // recording goes on
    EXPECT_EQ(r.thumbnails(), 3u);          // the newest three within 3000 bytes
    EXPECT_LE(r.usage().thumbnailBytes, 3000u);
    auto t = r.thumbnailAt(9.0);
    ASSERT_TRUE(t && *t);
    EXPECT_EQ((*t)->bytes, std::vector<uint8_t>(1000, uint8_t(90)));
}

// An hour of 1080p50: 180,000 frames of statistics and 3,600 thumbnails of 6 KB (a 160 x 90
// JPEG is 3 to 6 KB) stay within the recorder's bound, itself within 200 MB.
TEST(FlightRecorder, AnHourAt50FpsStaysWithinTheBound) {
    QTemporaryDir dir;
    FlightRecorder r(options(3600.0, 50.0, 8u << 20, QDir(dir.path()).filePath("hour.spill").toStdString()));
    ASSERT_EQ(r.capacity(), 180000u);
    const size_t bound = r.memoryBound();
    EXPECT_LE(bound, 200u << 20);
    EXPECT_LE(FlightRecorder::bytesPerHour(50.0, 6000), 200u << 20);
    size_t peak = 0;
    for (int i = 0; i < 190000; ++i) {   // a little over the hour: the ring wraps
        const double t = i / 50.0;
        const int64_t s = r.add(frameAt(t, i & 255));
        if (r.wantsThumbnail(t)) {
            r.addThumbnail(s, t, std::vector<uint8_t>(6000, uint8_t(i)));
            peak = std::max(peak, r.usage().memoryBytes());
        }
    }
    EXPECT_EQ(r.end() - r.first(), 180000);
    EXPECT_LE(peak, bound);
    EXPECT_LE(r.usage().memoryBytes() + r.usage().spilledBytes, FlightRecorder::bytesPerHour(50.0, 6000) + (8u << 20));
    EXPECT_EQ(r.thumbnails(), 3600u);   // the thumbnails of the frames kept
}

// The live timeline's series: what the engine measured, by the recorder's clock; saturation
// and YDIF (qc's signalstats pass only) absent; the stream's timecode, else the time of day.
TEST(FlightRecorder, TimelineTakesRecordedFrames) {
    TimelineData d;
    FlightFrame a = frameAt(10.0, 20);
    std::snprintf(a.timecode, sizeof a.timecode, "01:00:00;02");
    FlightFrame b = frameAt(10.04, 30);
    b.flags = FlightFrame::kHdr;
    b.maxNits = 1000.0f;
    d.addFlight(a);
    d.addFlight(b);
    ASSERT_EQ(d.frames(), 2);
    EXPECT_EQ(d.value(Series::YMin, 1), 30.0f);
    EXPECT_EQ(d.value(Series::YAvg, 0), 70.5f);
    EXPECT_EQ(d.value(Series::OutOfLegal, 0), 0.125f);
    EXPECT_TRUE(d.has(Series::YMax));
    EXPECT_FALSE(d.has(Series::SatAvg));
    EXPECT_FALSE(d.has(Series::Ydif));
    EXPECT_FALSE(d.has(Series::OutsideTarget));
    EXPECT_TRUE(d.has(Series::MaxNits));
    EXPECT_EQ(d.value(Series::MaxNits, 1), 1000.0f);
    EXPECT_EQ(d.timecode(0), "01:00:00;02");
    EXPECT_EQ(d.timecode(1).size(), 8u);   // HH:MM:SS of the time shown
    EXPECT_EQ(d.frameAt(10.03), 1);
}

TEST(FlightRecorder, ExportedRangeIsQcRows) {
    FlightRecorder r(options(10.0, 10.0));
    for (int i = 0; i < 6; ++i) {
        FlightFrame f = frameAt(i * 0.5, 16 + i);
        const std::string tc = "10:00:00:0" + std::to_string(i);   // (snprintf's %02d: GCC's truncation warning under ASan)
        std::snprintf(f.timecode, sizeof f.timecode, "%s", tc.c_str());
        r.add(f);
    }
    r.beginEvent("black", 1.0, "black picture");
    r.endEvent("black", 1.5);
    QTemporaryDir dir;
    const QString base = QDir(dir.path()).filePath("moment");
    ASSERT_TRUE(exportFlightRange(r, 0.9, 2.1, base, QJsonObject{{"input", "udp://x"}}));
    QFile csv(base + ".qc.csv");
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    EXPECT_EQ(csv.readAll().toStdString(),
              "index,pts,stats_out_of_gamut,stats_out_of_legal,stats_out_of_r103,stats_u_avg,stats_u_max,stats_u_min,"
              "stats_v_avg,stats_v_max,stats_v_min,stats_y_avg,stats_y_max,stats_y_min,timecode,wall_clock\n"
              "2,101,0,0.125,0,128.25,140,100,127.75,150,110,68.5,118,18,\"10:00:00:02\",\"2027-01-15T08:00:01.000+00:00\"\n"
              "3,101.5,0,0.125,0,128.25,140,100,127.75,150,110,69.5,119,19,\"10:00:00:03\",\"2027-01-15T08:00:01.500+00:00\"\n"
              "4,102,0,0.125,0,128.25,140,100,127.75,150,110,70.5,120,20,\"10:00:00:04\",\"2027-01-15T08:00:02.000+00:00\"\n");
    auto data = TimelineData::fromQcJson(base + ".qc.json");   // the timeline reads it as a qc report
    ASSERT_TRUE(data) << data.status().message();
    EXPECT_EQ(data->frames(), 3);
    EXPECT_EQ(data->value(Series::YMin, 0), 18.0f);
    ASSERT_EQ(data->events().size(), 1u);
    EXPECT_EQ(data->events()[0].type, "black");
    EXPECT_EQ(data->events()[0].first, 2);
    EXPECT_EQ(data->events()[0].last, 3);
    EXPECT_EQ(data->events()[0].firstTimecode, "10:00:00:02");
    // Nothing recorded: a sentence naming the file.
    FlightRecorder empty(FlightOptions{});
    const Status none = exportFlightRange(empty, 0, 1, base, {});
    EXPECT_EQ(none.message(), (base + ".qc.json: nothing is recorded yet").toStdString());
}

}  // namespace
}  // namespace cs::timeline
