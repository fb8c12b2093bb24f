// Source timecode end to end, on clips the ffmpeg CLI writes with -timecode: `probe` names
// the start timecode and where the file keeps it (a MOV tmcd track, MXF's timecode
// component, MPEG-2 GOP headers in a transport stream); qc.json, qc.csv and export's
// report.json carry each frame's timecode; drop-frame at 29.97 counts across a minute
// boundary as libavutil does (01:00:59;29 -> 01:01:00;02), from GOP headers and from a
// tmcd track; qc events carry their first and last timecode; two files joined with
// different timecodes give a timecode_break with the expected and found values. No
// encoder in this FFmpeg writes H.264 time-code SEI (libx264 has no option for it; NVENC's
// comes with FFmpeg 6.1): that path is tested on AVFrames in tests/timecode.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>

#include "tests/app/CliRunner.h"

using namespace cs::testing;

namespace {

const QString kSmall = "testsrc2=size=64x36:rate=25";

QString writeClip(const QTemporaryDir& dir, const QString& name, const QStringList& args) {
    const QString path = dir.path() + "/" + name;
    const RunResult r = ffmpeg(args + QStringList{path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}

QString timecodeClip(const QTemporaryDir& dir, const QString& name, const QString& codec, const QString& tc,
                     const QString& graph = kSmall + ":d=1") {
    return writeClip(dir, name, {"-f", "lavfi", "-i", graph, "-timecode", tc, "-c:v", codec, "-pix_fmt", "yuv420p"});
}

std::string probeTimecodeLine(const QString& clip) {
    const RunResult r = cudascope({"probe", clip});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const QString& line : QString::fromStdString(r.out).split('\n'))
        if (line.startsWith("timecode:")) return line.toStdString();
    return "(no timecode line) " + r.out;
}

QJsonObject runQc(const QTemporaryDir& dir, const QString& clip) {
    const RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools", "--force"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return readJson((dir.path() + "/qc/" + QFileInfo(clip).fileName() + ".qc.json").toStdString());
}

QString at25(int frame, int hours = 10) {
    return QString::asprintf("%02d:%02d:%02d:%02d", hours + frame / 90000, frame / 1500 % 60, frame / 25 % 60, frame % 25);
}

}  // namespace

TEST(Timecode, ProbeNamesTheStartAndItsSource) {
    QTemporaryDir dir;
    EXPECT_EQ(probeTimecodeLine(timecodeClip(dir, "a.mov", "libx264", "10:00:00:00")), "timecode:    10:00:00:00 (mov tmcd track)");
    EXPECT_EQ(probeTimecodeLine(timecodeClip(dir, "a.mxf", "mpeg2video", "10:00:00:00")),
              "timecode:    10:00:00:00 (mpeg-2 gop header)");
    EXPECT_EQ(probeTimecodeLine(timecodeClip(dir, "a.ts", "mpeg2video", "10:00:00:00")),
              "timecode:    10:00:00:00 (mpeg-2 gop header)");
    // MXF's timecode component where the essence carries none (H.264 in MXF has no GOP timecode).
    EXPECT_EQ(probeTimecodeLine(writeClip(dir, "b.mxf", {"-f", "lavfi", "-i", kSmall + ":d=1", "-timecode", "10:00:00:00", "-c:v",
                                                         "libx264", "-pix_fmt", "yuv420p"})),
              "timecode:    10:00:00:00 (mxf timecode component)");
    EXPECT_EQ(probeTimecodeLine(writeClip(dir, "none.mkv", {"-f", "lavfi", "-i", kSmall + ":d=1", "-c:v", "ffv1"})),
              "timecode:    none (elapsed time is shown)");
}

TEST(Timecode, EveryFrameInQcJsonCsvAndExport) {
    QTemporaryDir dir;
    for (const auto& [name, codec] : {std::pair<QString, QString>{"tc.mov", "libx264"}, {"tc.mxf", "mpeg2video"}, {"tc.ts", "mpeg2video"}}) {
        const QString clip = timecodeClip(dir, name, codec, "10:00:00:00");
        const QJsonObject report = runQc(dir, clip);
        const QJsonArray frames = report["frames"].toArray();
        ASSERT_EQ(frames.size(), 25) << name.toStdString();
        for (int i = 0; i < frames.size(); ++i)
            EXPECT_EQ(frames[i].toObject()["timecode"].toString().toStdString(), at25(i).toStdString()) << name.toStdString() << " frame " << i;
        EXPECT_EQ(report["source"].toObject()["timecode"].toString().toStdString(), "10:00:00:00");
        // The CSV's timecode column holds the same values.
        QFile csv(dir.path() + "/qc/" + name + ".qc.csv");
        ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        const int column = int(rows[0].split(',').indexOf("timecode"));
        ASSERT_GE(column, 0) << rows[0].toStdString();
        ASSERT_EQ(rows.size(), 26);
        EXPECT_EQ(rows[1].split(',')[column], "\"10:00:00:00\"");
        EXPECT_EQ(rows[25].split(',')[column], "\"10:00:00:24\"");
    }
    const QString mov = dir.path() + "/tc.mov";
    ASSERT_EQ(cudascope({"export", mov, "--out", dir.path() + "/export", "--scopes", "stats", "--engine", "cpu"}).exitCode, 0);
    const QJsonObject report = readJson((dir.path() + "/export/report.json").toStdString());
    EXPECT_EQ(report["source"].toObject()["timecode_source"].toString().toStdString(), "mov tmcd track");
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 25);
    EXPECT_EQ(frames[7].toObject()["timecode"].toString().toStdString(), "10:00:00:07");
}

TEST(Timecode, WithoutOneTheElapsedTimeIsMarked) {
    QTemporaryDir dir;
    const QString clip = writeClip(dir, "plain.mkv", {"-f", "lavfi", "-i", kSmall + ":d=1", "-c:v", "ffv1"});
    const QJsonObject report = runQc(dir, clip);
    EXPECT_EQ(report["source"].toObject()["timecode_source"].toString().toStdString(), "elapsed time");
    EXPECT_TRUE(report["source"].toObject()["timecode"].isNull());
    EXPECT_EQ(report["frames"].toArray()[24].toObject()["timecode"].toString().toStdString(), "00:00:00:24");
}

TEST(Timecode, DropFrameAcrossAMinuteBoundary) {
    // 01:00:00;00 at 29.97: frame 1799 is 01:00:59;29 and frame 1800 is 01:01:00;02 (;00 and
    // ;01 are skipped at every minute but the tenth). From GOP headers (every 12th frame,
    // counted on between them) and from a tmcd track (counted from the start).
    QTemporaryDir dir;
    const QString graph = "testsrc2=size=32x32:rate=30000/1001:d=60.2";
    for (const auto& [name, codec] : {std::pair<QString, QString>{"df.ts", "mpeg2video"}, {"df.mov", "mpeg2video"}}) {
        const QString clip = timecodeClip(dir, name, codec, "01:00:00;00", graph);
        const QJsonArray frames = runQc(dir, clip)["frames"].toArray();
        ASSERT_GT(frames.size(), 1801) << name.toStdString();
        EXPECT_EQ(frames[0].toObject()["timecode"].toString().toStdString(), "01:00:00;00") << name.toStdString();
        EXPECT_EQ(frames[1799].toObject()["timecode"].toString().toStdString(), "01:00:59;29") << name.toStdString();
        EXPECT_EQ(frames[1800].toObject()["timecode"].toString().toStdString(), "01:01:00;02") << name.toStdString();
        EXPECT_EQ(frames[1801].toObject()["timecode"].toString().toStdString(), "01:01:00;03") << name.toStdString();
    }
}

TEST(Timecode, BreakBetweenJoinedFilesIsAnEvent) {
    QTemporaryDir dir;
    const QString first = timecodeClip(dir, "p1.ts", "mpeg2video", "10:00:00:00");
    const QString second = timecodeClip(dir, "p2.ts", "mpeg2video", "11:00:00:00");
    QFile list(dir.path() + "/list.txt");
    ASSERT_TRUE(list.open(QIODevice::WriteOnly));
    list.write(("file '" + first + "'\nfile '" + second + "'\n").toUtf8());
    list.close();
    const QString joined = writeClip(dir, "joined.ts", {"-f", "concat", "-safe", "0", "-i", list.fileName(), "-c", "copy"});
    const QJsonObject report = runQc(dir, joined);
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 50);
    EXPECT_EQ(frames[24].toObject()["timecode"].toString().toStdString(), "10:00:00:24");
    EXPECT_EQ(frames[25].toObject()["timecode"].toString().toStdString(), "11:00:00:00");
    const auto breaks = eventsOf(report, "timecode_break");
    ASSERT_EQ(breaks.size(), 1u);
    EXPECT_EQ(breaks[0]["first_frame"].toInt(), 25);
    EXPECT_EQ(breaks[0]["expected_timecode"].toString().toStdString(), "10:00:01:00");
    EXPECT_EQ(breaks[0]["found_timecode"].toString().toStdString(), "11:00:00:00");
    EXPECT_EQ(breaks[0]["first_timecode"].toString().toStdString(), "11:00:00:00");
    EXPECT_TRUE(breaks[0]["message"].toString().contains("jumps")) << breaks[0]["message"].toString().toStdString();
}

TEST(Timecode, EventsCarryTheirFirstAndLastTimecode) {
    // Moving 1 s, then black 2.5 s (frames 25-87): a black event from 10:00:01:00 to 10:00:03:12.
    QTemporaryDir dir;
    const QString clip = writeClip(dir, "black.mov", {"-f", "lavfi", "-i",
                                                      kSmall + ":d=1[a];color=black:size=64x36:rate=25:d=2.5[b];[a][b]concat=n=2",
                                                      "-timecode", "10:00:00:00", "-c:v", "mpeg2video", "-pix_fmt", "yuv420p"});
    const auto black = eventsOf(runQc(dir, clip), "black");
    ASSERT_EQ(black.size(), 1u);
    EXPECT_EQ(black[0]["first_timecode"].toString().toStdString(), "10:00:01:00");
    EXPECT_EQ(black[0]["last_timecode"].toString().toStdString(), "10:00:03:12");
}
