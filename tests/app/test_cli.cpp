// The command line: exit codes (0 ok, 1 runtime failure, 2 usage), one-line errors that
// name the input and the reason, damaged input exported as far as it decodes.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

}  // namespace

TEST(Cli, HelpAndVersion) {
    auto r = cudascope({"--help"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("export"), std::string::npos);
    r = cudascope({"export", "--help"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("--max-frames"), std::string::npos);
    EXPECT_EQ(cudascope({"--version"}).exitCode, 0);
}

TEST(Cli, UsageErrorsExitTwo) {
    QTemporaryDir dir;
    EXPECT_EQ(cudascope({"export"}).exitCode, 2);
    EXPECT_EQ(cudascope({"export", "pattern:bars"}).exitCode, 2);                              // no --out
    EXPECT_EQ(cudascope({"export", "pattern:bars", "--out", dir.path(), "--every", "0"}).exitCode, 2);
    EXPECT_EQ(cudascope({"export", "pattern:bars", "--out", dir.path(), "--scopes", "histo"}).exitCode, 2);
    EXPECT_EQ(cudascope({"export", "pattern:bars", "--out", dir.path(), "--bogus", "1"}).exitCode, 2);
    EXPECT_EQ(cudascope({"export", "pattern:bars", "--out", dir.path(), "--matrix", "999"}).exitCode, 2);
    EXPECT_EQ(cudascope({"probe"}).exitCode, 2);
    EXPECT_EQ(cudascope({"--frobnicate"}).exitCode, 2);
}

TEST(Cli, MissingFileIsOneLineNamingIt) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "/nonexistent/clip.mp4", "--out", dir.path()});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("/nonexistent/clip.mp4"), std::string::npos) << r.err;
    const auto p = cudascope({"probe", "/nonexistent/clip.mp4"});
    EXPECT_EQ(p.exitCode, 1);
    EXPECT_EQ(lineCount(p.err), 1) << p.err;
}

TEST(Cli, NotMediaAndNoVideoStreamFail) {
    QTemporaryDir dir;
    const QString text = dir.path() + "/notes.txt", audio = dir.path() + "/tone.wav", empty = dir.path() + "/empty.mp4";
    writeBytes(text, "these are not the frames you are looking for\n");
    writeBytes(empty, "");
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "sine=duration=0.2", audio}).exitCode, 0);
    for (const QString& input : {text, audio, empty}) {
        const auto r = cudascope({"export", input, "--out", dir.path() + "/out"});
        EXPECT_EQ(r.exitCode, 1) << input.toStdString();
        EXPECT_EQ(lineCount(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(input.toStdString()), std::string::npos) << r.err;
    }
    const auto r = cudascope({"export", audio, "--out", dir.path() + "/out"});
    EXPECT_NE(r.err.find("no video stream"), std::string::npos) << r.err;
}

TEST(Cli, UnknownPatternFailsAndUnknownEngineIsAUsageError) {
    QTemporaryDir dir;
    auto r = cudascope({"export", "pattern:plaid", "--out", dir.path()});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("pattern:plaid"), std::string::npos) << r.err;
    r = cudascope({"export", "pattern:bars", "--out", dir.path(), "--engine", "warp"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("warp"), std::string::npos) << r.err;
}

TEST(Cli, UnwritableOutputFails) {
    QTemporaryDir dir;
    writeBytes(dir.path() + "/file", "x");
    const auto r = cudascope({"export", "pattern:bars", "--out", dir.path() + "/file/sub", "--max-frames", "1"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("file/sub"), std::string::npos) << r.err;
}

// An MPEG-TS file cut inside the packet of frame 30 (its position read with ffprobe, so the
// cut lands there whatever the encoder wrote): export writes the frames before the cut, and the
// report and stderr say the file ends mid-packet (decode_tests covers every container).
TEST(Cli, TruncatedFileExportsWhatDecodesAndWarns) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/clip.ts", cut = dir.path() + "/cut.ts", out = dir.path() + "/out";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "50", "-c:v", "libx264",
                      "-g", "10", "-pix_fmt", "yuv420p", clip})
                  .exitCode,
              0);
    const auto probe = runProgram(CS_TEST_FFPROBE, {"-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "packet=pos,size", "-of", "json", clip});
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    const QJsonArray packets =
        QJsonDocument::fromJson(QByteArray::fromStdString(probe.out)).object()["packets"].toArray();
    ASSERT_EQ(packets.size(), 50);
    const QJsonObject packet = packets[30].toObject();
    qint64 cutAt = packet["pos"].toString().toLongLong() + packet["size"].toString().toLongLong() / 2;
    if (cutAt % 188 == 0) cutAt += 94;   // not where a transport packet ends: that would look whole

    QFile in(clip);
    ASSERT_TRUE(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    ASSERT_LT(cutAt, bytes.size());
    writeBytes(cut, bytes.left(cutAt));
    const auto r = cudascope({"export", cut, "--out", out, "--engine", "cpu", "--scopes", "stats"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto report = readJson(out.toStdString() + "/report.json");
    const int frames = int(report["frames"].toArray().size());
    EXPECT_GE(frames, 26);
    EXPECT_LE(frames, 31);
    bool saysWhy = false;
    for (const auto& w : report["warnings"].toArray()) {
        EXPECT_TRUE(w.toString().startsWith(cut + ": ")) << w.toString().toStdString();
        saysWhy = saysWhy || w.toString().contains("the file ends mid-packet");
    }
    EXPECT_TRUE(saysWhy) << r.err;
    EXPECT_NE(r.err.find(cut.toStdString() + ": the file ends mid-packet"), std::string::npos) << r.err;
}

TEST(Cli, CorruptMiddleKeepsDecoding) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/clip.ts", bad = dir.path() + "/bad.ts", out = dir.path() + "/out";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "50", "-c:v", "libx264",
                      "-g", "10", clip})
                  .exitCode,
              0);
    QFile in(clip);
    ASSERT_TRUE(in.open(QIODevice::ReadOnly));
    QByteArray bytes = in.readAll();
    for (qsizetype i = bytes.size() / 3; i < bytes.size() / 3 + 4000; ++i) bytes[i] = char((i * 7919) & 0xff);
    writeBytes(bad, bytes);
    const auto r = cudascope({"export", bad, "--out", out, "--engine", "cpu", "--scopes", "stats"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto report = readJson(out.toStdString() + "/report.json");
    EXPECT_GT(report["frames"].toArray().size(), 30);
    EXPECT_FALSE(report["warnings"].toArray().isEmpty());
}

TEST(Cli, EveryAndMaxFramesSelectFrames) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:zoneplate:320x180", "--out", dir.path(), "--every", "5",
                              "--max-frames", "3", "--engine", "cpu", "--scopes", "waveform,stats"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto frames = readJson(dir.path().toStdString() + "/report.json")["frames"].toArray();
    ASSERT_EQ(frames.size(), 3);
    EXPECT_EQ(frames[0].toObject()["index"].toInt(), 0);
    EXPECT_EQ(frames[1].toObject()["index"].toInt(), 5);
    EXPECT_EQ(frames[2].toObject()["index"].toInt(), 10);
    EXPECT_NEAR(frames[1].toObject()["pts"].toDouble(), 0.2, 1e-6);   // 25 fps
    EXPECT_TRUE(QFile::exists(dir.path() + "/000010-waveform.npy"));
    EXPECT_FALSE(QFile::exists(dir.path() + "/000010-vectorscope.npy"));
    EXPECT_FALSE(QFile::exists(dir.path() + "/000001-waveform.npy"));
}

TEST(Cli, ProbePrintsTheStream) {
    const auto r = cudascope({"probe", "pattern:bars:10bit"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("1920x1080"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bt709"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bit_depth:   10"), std::string::npos) << r.out;
}

TEST(Cli, ProbeNamesTheFieldOrder) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/fields.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=64x36:rate=25:d=0.2", "-pix_fmt", "yuv420p", "-c:v", "ffv1",
                      "-field_order", "bb", clip}).exitCode, 0);
    const auto r = cudascope({"probe", clip});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("field_order: bff (interlaced, bottom field first)"), std::string::npos) << r.out;
    const auto pattern = cudascope({"probe", "pattern:bars"});
    EXPECT_NE(pattern.out.find("field_order: unknown"), std::string::npos) << pattern.out;
}

TEST(Cli, RefusedConnectionIsOneLineNamingTheUrl) {
    QTemporaryDir dir;
    // Nothing listens on loopback port 1: refused at once.
    const auto r = cudascope({"export", "rtsp://127.0.0.1:1/live", "--out", dir.path(), "--max-frames", "1"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("rtsp://127.0.0.1:1/live"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("refused"), std::string::npos) << r.err;
}

TEST(Cli, MissingCameraIsOneLine) {
    const auto r = cudascope({"probe", "v4l2:/dev/video97"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("v4l2:/dev/video97"), std::string::npos) << r.err;
}
