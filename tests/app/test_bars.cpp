// `cudascope export pattern:bars`: the SMPTE bars land at their code values in the
// histogram, the waveform and the vectorscope (8 and 10 bits).
#include <gtest/gtest.h>

#include <QJsonArray>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

struct Bar { const char* name; int y8, cb8, cr8, y10; };
// 75% bars, BT.709 limited (SMPTE RP 219).
constexpr Bar kBars[] = {{"white", 180, 128, 128, 721}, {"yellow", 168, 44, 136, 674}, {"cyan", 145, 147, 44, 581},
                         {"green", 133, 63, 52, 534},   {"magenta", 63, 193, 204, 251}, {"red", 51, 109, 212, 204},
                         {"blue", 28, 212, 120, 111}};

struct Export {
    QTemporaryDir dir;
    QJsonObject report;
    std::vector<uint32_t> waveform, vectorscope;
    std::vector<size_t> wShape, vShape;
};

void exportBars(const char* input, Export& e) {
    ASSERT_TRUE(e.dir.isValid());
    const auto r = cudascope({"export", input, "--out", e.dir.path(), "--max-frames", "1", "--engine", "cpu"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string d = e.dir.path().toStdString();
    e.report = readJson(d + "/report.json");
    e.waveform = readNpyUint32(d + "/000000-waveform.npy", e.wShape);
    e.vectorscope = readNpyUint32(d + "/000000-vectorscope.npy", e.vShape);
    for (const char* png : {"picture", "histogram", "waveform", "parade", "vectorscope"})
        EXPECT_TRUE(QFile::exists(e.dir.path() + "/000000-" + png + ".png")) << png;
}

// The level holding most of a waveform column's counts, and that count.
std::pair<int, uint32_t> columnPeak(const Export& e, size_t x) {
    const size_t levels = e.wShape[0], width = e.wShape[1];
    int best = 0;
    uint32_t most = 0;
    for (size_t l = 0; l < levels; ++l)
        if (e.waveform[l * width + x] > most) { most = e.waveform[l * width + x]; best = int(l); }
    return {best, most};
}

}  // namespace

TEST(Bars, EightBitBarsLandAtTheirCodeValues) {
    Export e;
    exportBars("pattern:bars", e);
    const auto source = e.report["source"].toObject();
    EXPECT_EQ(source["width"].toInt(), 1920);
    EXPECT_EQ(source["bit_depth"].toInt(), 8);
    EXPECT_EQ(source["matrix"].toString(), "bt709");
    EXPECT_EQ(source["range"].toString(), "limited");
    const auto frame = e.report["frames"].toArray().at(0).toObject();
    const auto histY = toCounts(frame["histogram"].toObject()["y"]);
    ASSERT_EQ(histY.size(), 256u);
    uint64_t total = 0;
    for (auto c : histY) total += c;
    EXPECT_EQ(total, 1920u * 1080u);
    // Each 75% bar is 206 px wide over the top 7/12 of the picture at least.
    for (const Bar& b : kBars) EXPECT_GE(histY[size_t(b.y8)], 206u * 1080u * 7 / 12) << b.name;
    EXPECT_GE(histY[16], 1000u);   // black appears (pluge row, lower bars)
    // The waveform: the column at the centre of each bar peaks at the bar's level.
    ASSERT_EQ(e.wShape, (std::vector<size_t>{256, 1920}));
    for (int i = 0; i < 7; ++i) {
        const size_t x = size_t(240 + 206 * i + 103);
        const auto [level, count] = columnPeak(e, x);
        EXPECT_EQ(level, kBars[i].y8) << kBars[i].name;
        EXPECT_GE(count, 1080u * 7 / 12) << kBars[i].name;
    }
    // The vectorscope: each bar's Cb/Cr holds at least its bar's pixels.
    ASSERT_EQ(e.vShape, (std::vector<size_t>{256, 256}));
    for (const Bar& b : kBars)
        EXPECT_GE(e.vectorscope[size_t(b.cr8) * 256 + size_t(b.cb8)], 206u * 1080u * 7 / 12) << b.name;
}

TEST(Bars, TenBitBarsLandAtTheirCodeValues) {
    Export e;
    exportBars("pattern:bars:10bit", e);
    EXPECT_EQ(e.report["source"].toObject()["bit_depth"].toInt(), 10);
    const auto frame = e.report["frames"].toArray().at(0).toObject();
    const auto histY = toCounts(frame["histogram"].toObject()["y"]);
    ASSERT_EQ(histY.size(), 1024u);
    for (const Bar& b : kBars) EXPECT_GE(histY[size_t(b.y10)], 206u * 1080u * 7 / 12) << b.name;
    EXPECT_GE(histY[64], 1000u);
    ASSERT_EQ(e.wShape, (std::vector<size_t>{1024, 1920}));
    for (int i = 0; i < 7; ++i) {
        const auto [level, count] = columnPeak(e, size_t(240 + 206 * i + 103));
        EXPECT_EQ(level, kBars[i].y10) << kBars[i].name;
    }
    ASSERT_EQ(e.vShape, (std::vector<size_t>{1024, 1024}));
    // 10-bit chroma of the bars is within one 8-bit step (4 codes) of 4x the 8-bit value;
    // the peak of the vectorscope near each bar's position holds the bar.
    for (const Bar& b : kBars) {
        uint32_t best = 0;
        for (int cr = b.cr8 * 4 - 4; cr <= b.cr8 * 4 + 4; ++cr)
            for (int cb = b.cb8 * 4 - 4; cb <= b.cb8 * 4 + 4; ++cb)
                best = std::max(best, e.vectorscope[size_t(cr) * 1024 + size_t(cb)]);
        EXPECT_GE(best, 206u * 1080u * 7 / 12) << b.name;
    }
    // Statistics: min is black or below (pluge), max the 100% white at 940.
    const auto stats = frame["stats"].toObject()["y"].toObject();
    EXPECT_LE(stats["min"].toInt(), 64);
    EXPECT_EQ(stats["max"].toInt(), 940);
}
