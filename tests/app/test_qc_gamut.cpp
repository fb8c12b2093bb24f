// `cudascope qc`'s gamut check: a BT.2020 clip made here with the ffmpeg CLI, 2 s of grey,
// 3 s of BT.2020's green primary (outside BT.709 and P3), 2 s of grey. Each frame's gamut
// object in NAME.qc.json and its columns in NAME.qc.csv; one out_of_target_gamut event over
// the green frames against the default target (BT.709), none against BT.2020 or with a
// longer minimum duration from --thresholds; a bad --gamut-target is a usage error. An R'G'B'
// gamut event carries the Diamond display of its first frame beside its picture in the HTML.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>

#include "CliRunner.h"

namespace cs::testing {
namespace {

const QString kColour = "size=96x64:rate=25";

QString greenClip(const QTemporaryDir& dir) {
    const QString path = dir.path() + "/green.mkv";
    const RunResult r = ffmpeg({"-f", "lavfi", "-i",
                                "color=c=gray:" + kColour + ":d=2[a];color=c=0x00FF00:" + kColour + ":d=3[b];color=c=gray:" +
                                    kColour + ":d=2[c];[a][b][c]concat=n=3,format=rgb24,scale=out_color_matrix=bt2020:out_range=tv,"
                                              "format=yuv420p10le",
                                "-c:v", "ffv1", "-color_range", "tv", "-colorspace", "bt2020nc", "-color_primaries", "bt2020",
                                "-color_trc", "bt709", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}

TEST(QcGamut, OutOfTargetGamutEventOverTheSaturatedFrames) {
    QTemporaryDir dir;
    const QString clip = greenClip(dir);
    const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonObject report = readJson((dir.path() + "/qc/green.mkv.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 175);
    for (int i : {0, 49, 125, 174}) {
        const QJsonObject g = frames[i].toObject()["gamut"].toObject();
        EXPECT_EQ(g["source"].toString(), "BT.2020") << i;
        EXPECT_EQ(g["target"].toString(), "bt709") << i;
        EXPECT_EQ(g["outside"].toInt(-1), 0) << i;
    }
    for (int i : {50, 100, 124}) {
        const QJsonObject g = frames[i].toObject()["gamut"].toObject();
        EXPECT_EQ(g["outside"].toInt(-1), 96 * 64) << i;
        EXPECT_EQ(g["outside_share"].toDouble(-1), 1.0) << i;
    }
    const auto events = eventsOf(report, "out_of_target_gamut");
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0]["first_frame"].toInt(), 50);
    EXPECT_EQ(events[0]["last_frame"].toInt(), 124);
    EXPECT_DOUBLE_EQ(events[0]["first_pts"].toDouble(), 2.0);
    const QJsonObject t = report["thresholds"].toObject()["out_of_target_gamut"].toObject();
    EXPECT_EQ(t["share"].toDouble(), 0.01);
    EXPECT_EQ(t["min_duration"].toDouble(), 1.0);
    // The CSV carries the same per-frame object as columns.
    const QStringList csv = QString::fromStdString(readFile((dir.path() + "/qc/green.mkv.qc.csv").toStdString())).split('\n');
    ASSERT_GT(csv.size(), 101);
    const QStringList header = csv[0].split(',');
    const qsizetype share = header.indexOf("gamut_outside_share");
    ASSERT_GE(share, 0) << csv[0].toStdString();
    EXPECT_EQ(csv[1 + 100].split(',')[share], "1");
    EXPECT_EQ(csv[1 + 10].split(',')[share], "0");
}

TEST(QcGamut, TargetAndThresholdsChangeTheEvents) {
    QTemporaryDir dir;
    const QString clip = greenClip(dir);
    // Against BT.2020 the green is inside: no event, shares 0.
    ASSERT_EQ(cudascope({"qc", clip, "--out", dir.path() + "/wide", "--engine", "cpu", "--no-qctools", "--gamut-target", "bt2020"})
                  .exitCode,
              0);
    const QJsonObject wide = readJson((dir.path() + "/wide/green.mkv.qc.json").toStdString());
    EXPECT_TRUE(eventsOf(wide, "out_of_target_gamut").empty());
    const QJsonObject g = wide["frames"].toArray()[100].toObject()["gamut"].toObject();
    EXPECT_EQ(g["target"].toString(), "bt2020");
    EXPECT_EQ(g["outside"].toInt(-1), 0);
    // A minimum of 4 s: the 3 s run is no event.
    const QString thresholds = dir.path() + "/t.json";
    QFile f(thresholds);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"out_of_target_gamut": {"min_duration": 4}})");
    f.close();
    ASSERT_EQ(cudascope({"qc", clip, "--out", dir.path() + "/long", "--engine", "cpu", "--no-qctools", "--thresholds", thresholds})
                  .exitCode,
              0);
    const QJsonObject longer = readJson((dir.path() + "/long/green.mkv.qc.json").toStdString());
    EXPECT_TRUE(eventsOf(longer, "out_of_target_gamut").empty());
    EXPECT_EQ(longer["thresholds"].toObject()["out_of_target_gamut"].toObject()["min_duration"].toDouble(), 4.0);
}

TEST(QcGamut, RgbGamutEventHasItsDiamondInTheHtml) {
    // Y'CbCr far outside R'G'B' (Cb and Cr at 240: R' and B' above 105%) for 1.2 s (events last 1 s or more).
    QTemporaryDir dir;
    const QString clip = dir.path() + "/illegal.mkv", out = dir.path() + "/qc";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=64x48:rate=25:d=1.2,format=yuv420p,geq=lum=180:cb=240:cr=240", "-c:v",
                      "ffv1", "-color_range", "tv", "-colorspace", "bt709", clip})
                  .exitCode,
              0);
    const RunResult qc = cudascope({"qc", clip, "--out", out, "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonObject report = readJson((out + "/illegal.mkv.qc.json").toStdString());
    const std::vector<QJsonObject> events = eventsOf(report, "out_of_gamut");
    ASSERT_EQ(events.size(), 1u);
    const int first = events[0]["first_frame"].toInt(-1);
    const std::string html = readFile((out + "/illegal.mkv.qc.html").toStdString());
    const std::string alt = "alt=\"Diamond of frame " + std::to_string(first) + "\"";
    const size_t at = html.find(alt), data = html.rfind("data:image/png;base64,", at);
    ASSERT_NE(at, std::string::npos) << "no Diamond in the report";
    const size_t from = data + std::string("data:image/png;base64,").size();
    const QImage diamond =
        QImage::fromData(QByteArray::fromBase64(QByteArray::fromStdString(html.substr(from, html.find('"', from) - from))));
    EXPECT_EQ(diamond.size(), QSize(160, 160));
}

TEST(QcGamut, BadTargetAndThresholdsAreUsageErrors) {
    QTemporaryDir dir;
    const QString thresholds = dir.path() + "/bad.json";
    QFile f(thresholds);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"out_of_target_gamut": {"share": 2}})");
    f.close();
    const std::vector<std::pair<QStringList, std::string>> cases{
        {{"qc", "a.mp4", "--out", dir.path(), "--gamut-target", "srgb"}, "--gamut-target must be bt709, p3 or bt2020, not 'srgb'"},
        {{"qc", "a.mp4", "--out", dir.path(), "--thresholds", thresholds}, "out_of_target_gamut.share must be a number from 0 to 1"}};
    for (const auto& [args, message] : cases) {
        const RunResult r = cudascope(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace cs::testing
