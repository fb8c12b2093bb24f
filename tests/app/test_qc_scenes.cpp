// `cudascope qc`'s scene cuts and repeated frames (analysis/SceneCuts.h) against FFmpeg's own
// scdet on a clip made here: 10 frames of noise with frame 5 a copy of frame 4, 5 frames of
// a still red, 10 frames of a noisy test pattern. Every frame's lavfi.scd.mafd and
// lavfi.scd.score as ffprobe prints them (%.3f) equal qc's scd_mafd and scd_score; one
// scene_cut where scdet puts lavfi.scd.time (frame 15; frame 10 scores 9.952, under the
// threshold); one repeated_frame (frame 5), none for the red hold, which repeats more than
// two frames. The active picture against cropdetect: every frame's area (x, y, w, h) equal to
// ffprobe's lavfi.cropdetect tags (none for the two frames it skips) on a letterboxed test
// pattern followed by the full picture, and an active_area event wherever the area changes.
#include <gtest/gtest.h>

#include <QJsonArray>

#include <cstdio>

#include "CliRunner.h"

namespace cs::testing {
namespace {

TEST(QcScenes, ScoresAndCutsEqualScdetAndSingleRepeatsAreEvents) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/cuts.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i",
                      "color=c=gray:size=64x48:rate=25:d=0.4,format=yuv420p,noise=alls=30:allf=t,shuffleframes=0 1 2 3 4 4 6 7 8 9[a];"
                      "color=c=red:size=64x48:rate=25:d=0.2,format=yuv420p[b];"
                      "testsrc=size=64x48:rate=25:d=0.4,format=yuv420p,noise=alls=10:allf=t[c];[a][b][c]concat=n=3",
                      "-c:v", "ffv1", clip})
                  .exitCode,
              0);
    const RunResult probe = runProgram(CS_TEST_FFPROBE,
                                       {"-v", "error", "-f", "lavfi", "movie=" + clip + ",scdet", "-show_entries",
                                        "frame_tags=lavfi.scd.mafd,lavfi.scd.score,lavfi.scd.time", "-of", "csv=p=0"});
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    const QStringList rows = QString::fromStdString(probe.out).trimmed().split('\n');
    ASSERT_EQ(rows.size(), 25);
    const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonObject report = readJson((dir.path() + "/qc/cuts.mkv.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 25);
    std::vector<int> ffmpegCuts;
    for (int i = 0; i < 25; ++i) {
        const QStringList f = rows[i].split(',');
        ASSERT_GE(f.size(), 2) << rows[i].toStdString();
        const QJsonObject line = frames[i].toObject();
        char mafd[32], score[32];
        std::snprintf(mafd, sizeof mafd, "%.3f", line["scd_mafd"].toDouble(-1));
        std::snprintf(score, sizeof score, "%.3f", line["scd_score"].toDouble(-1));
        EXPECT_EQ(f[0].toStdString(), mafd) << "frame " << i;
        EXPECT_EQ(f[1].toStdString(), score) << "frame " << i;
        if (f.size() > 2) ffmpegCuts.push_back(i);
    }
    EXPECT_EQ(ffmpegCuts, std::vector<int>{15});
    std::vector<int> cuts, repeats;
    for (const auto& e : report["events"].toArray()) {
        const QJsonObject o = e.toObject();
        if (o["type"] == "scene_cut") cuts.push_back(o["first_frame"].toInt());
        if (o["type"] == "repeated_frame") {
            repeats.push_back(o["first_frame"].toInt());
            EXPECT_EQ(o["last_frame"].toInt(), 5);
            EXPECT_EQ(o["message"].toString(), "frame 5 repeats frame 4");
        }
    }
    EXPECT_EQ(cuts, ffmpegCuts);
    EXPECT_EQ(repeats, std::vector<int>{5});
}

TEST(QcScenes, ActiveAreaEqualsCropdetect) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/box.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i",
                      "testsrc=size=96x48:rate=25:d=0.24,pad=96:64:0:8:black,format=yuv420p[a];"
                      "testsrc=size=96x64:rate=25:d=0.24,format=yuv420p[b];[a][b]concat=n=2",
                      "-c:v", "ffv1", clip})
                  .exitCode,
              0);
    const RunResult probe = runProgram(CS_TEST_FFPROBE, {"-v", "error", "-f", "lavfi", "movie=" + clip + ",cropdetect", "-show_entries",
                                                         "frame_tags=lavfi.cropdetect.w,lavfi.cropdetect.h,lavfi.cropdetect.x,lavfi.cropdetect.y",
                                                         "-of", "csv=p=0"});
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    const QStringList rows = QString::fromStdString(probe.out).split('\n');
    ASSERT_GE(rows.size(), 12);
    const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonObject report = readJson((dir.path() + "/qc/box.mkv.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 12);
    std::vector<int> changes;
    QString last;
    for (int i = 0; i < 12; ++i) {
        const QJsonObject c = frames[i].toObject()["crop"].toObject();
        const QString ours = c["w"].isNull() ? QString() : QString("%1,%2,%3,%4").arg(c["w"].toInt()).arg(c["h"].toInt()).arg(c["x"].toInt()).arg(c["y"].toInt());
        EXPECT_EQ(ours, rows[i].trimmed()) << "frame " << i;
        if (!last.isEmpty() && ours != last) changes.push_back(i);
        if (!ours.isEmpty()) last = ours;
    }
    EXPECT_EQ(changes, (std::vector<int>{4, 6}));
    std::vector<int> events;
    for (const auto& e : report["events"].toArray())
        if (e.toObject()["type"] == "active_area") events.push_back(e.toObject()["first_frame"].toInt());
    EXPECT_EQ(events, changes);
}

// idet's single and multi-frame counts on 10 frames each of a scrolling pattern interlaced
// bottom field first and progressive, equal to the counts FFmpeg's idet prints at the end.
TEST(QcScenes, FieldOrderCountsEqualIdet) {
    QTemporaryDir dir;
    for (const QString scan : {"bff", "progressive"}) {
        const QString clip = dir.path() + "/" + scan + ".mkv";
        const QString interlace = scan == "progressive" ? QString() : ",interlace=scan=" + scan;
        ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i",
                          QString("testsrc2=size=128x96:rate=%1:d=0.4,scroll=h=0.03:v=0.02,format=yuv420p").arg(interlace.isEmpty() ? 25 : 50) +
                              interlace,
                          "-c:v", "ffv1", clip})
                      .exitCode,
                  0);
        const RunResult idet = runProgram(CS_TEST_FFMPEG, {"-hide_banner", "-nostats", "-i", clip, "-vf", "idet", "-f", "null", "-"});
        ASSERT_EQ(idet.exitCode, 0) << idet.err;
        const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
        ASSERT_EQ(qc.exitCode, 0) << qc.err;
        const QJsonObject counts = readJson((dir.path() + "/qc/" + scan + ".mkv.qc.json").toStdString())["idet"].toObject();
        for (const auto& [kind, label] : {std::pair{"single", "Single frame detection:"}, std::pair{"multiple", "Multi frame detection:"}}) {
            const QJsonObject c = counts[kind].toObject();
            char line[160];
            std::snprintf(line, sizeof line, "%s TFF:%6lld BFF:%6lld Progressive:%6lld Undetermined:%6lld", label,
                          static_cast<long long>(c["tff"].toInteger(-1)), static_cast<long long>(c["bff"].toInteger(-1)),
                          static_cast<long long>(c["progressive"].toInteger(-1)), static_cast<long long>(c["undetermined"].toInteger(-1)));
            EXPECT_NE(idet.err.find(line), std::string::npos) << scan.toStdString() << ": " << line << "\n" << idet.err;
        }
    }
}

}  // namespace
}  // namespace cs::testing
