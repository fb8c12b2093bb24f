// Reports that agree with themselves, end to end through the binary: qc reuses a report only
// when it is whole and made from the same input with the same settings (and says why it
// checks again); frames are numbered from 0 in warnings as in `index` and `first_frame`; an
// untagged file's primaries are one answer in the head and in every frame; and the commands'
// edges: an empty folder for qc, a qc whose inputs all fail, bench on a missing file,
// --cie without the cie scope, --version with more arguments.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <tuple>
#include <vector>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void writeText(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate)) << path.toStdString();
    f.write(bytes);
}

// A lossless moving clip of `seconds` at 25 fps, 96x64.
QString clip(const QString& path, double seconds) {
    const RunResult r = ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:d=" + QString::number(seconds) + ",format=yuv420p",
                                "-c:v", "ffv1", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}

}  // namespace

// Each way an earlier report can fail to stand for this run, then the one way it does.
TEST(Reports, QcReusesAReportOnlyWhenMadeFromTheSameInputAndSettings) {
    QTemporaryDir dir;
    QDir(dir.path()).mkpath("a");
    QDir(dir.path()).mkpath("b");
    const QString input = clip(dir.path() + "/a/moving.mkv", 1.0);
    const QString other = clip(dir.path() + "/b/moving.mkv", 0.4);   // the same file name, another file
    const QString out = dir.path() + "/qc", json = out + "/moving.mkv.qc.json";
    const QStringList common{"--out", out, "--engine", "cpu", "--no-qctools"};
    const auto qc = [&](const QString& in, const QStringList& more = {}) { return cudascope(QStringList{"qc", in} + common + more); };
    const auto frames = [&] { return readJson(json.toStdString())["frames"].toArray().size(); };

    RunResult r = qc(input);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ASSERT_EQ(frames(), 25);
    // The head records what the report was made from.
    const QJsonObject madeFrom = readJson(json.toStdString())["made_from"].toObject();
    const QJsonObject madeInput = madeFrom["input"].toObject();
    EXPECT_EQ(madeInput["path"].toString(), QFileInfo(input).canonicalFilePath());
    EXPECT_EQ(madeInput["size"].toInteger(), QFileInfo(input).size());
    EXPECT_FALSE(madeInput["modified_ns"].toString().isEmpty());
    EXPECT_EQ(madeFrom["settings"].toObject()["gamut_target"].toString(), "bt709");
    EXPECT_EQ(madeFrom["settings"].toObject()["thresholds"], readJson(json.toStdString())["thresholds"]);
    EXPECT_TRUE(madeFrom["program"].toString().startsWith("cudascope ")) << madeFrom["program"].toString().toStdString();

    r = qc(input);   // the same input and settings: reused
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "skipped: its report is complete")) << r.err;
    EXPECT_TRUE(contains(r.err, "0 checked, 1 skipped, 0 failed")) << r.err;

    const std::string whole = readFile(json.toStdString());
    const std::vector<std::pair<QByteArray, std::string>> broken{{QByteArray::fromStdString(whole.substr(0, whole.size() / 2)), "is not a whole report"},
                                                                 {"{}", "is not a whole report (no frames or summary)"},
                                                                 {"", "is not a whole report"}};
    for (const auto& [bytes, why] : broken) {
        writeText(json, bytes);
        r = qc(input);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_TRUE(contains(r.err, "moving.mkv: checked again: " + json.toStdString() + " " + why)) << r.err;
        EXPECT_TRUE(contains(r.err, "1 checked, 0 skipped")) << r.err;
        EXPECT_EQ(frames(), 25) << bytes.size() << " bytes";
    }

    r = qc(other);   // another file of the same name
    EXPECT_TRUE(contains(r.err, "checked again: its report was made from another input (" +
                                    QFileInfo(input).canonicalFilePath().toStdString() + ")")) << r.err;
    EXPECT_EQ(frames(), 10);
    r = qc(input);
    EXPECT_TRUE(contains(r.err, "checked again: its report was made from another input")) << r.err;
    ASSERT_EQ(frames(), 25);

    const QString thresholds = dir.path() + "/thresholds.json";
    writeText(thresholds, R"({"black": {"min_duration": 0.5}})");
    r = qc(input, {"--thresholds", thresholds});
    EXPECT_TRUE(contains(r.err, "checked again: its report was made with other --thresholds")) << r.err;
    EXPECT_EQ(readJson(json.toStdString())["thresholds"].toObject()["black"].toObject()["min_duration"].toDouble(), 0.5);
    r = qc(input, {"--thresholds", thresholds});
    EXPECT_TRUE(contains(r.err, "skipped: its report is complete")) << r.err;

    r = qc(input, {"--thresholds", thresholds, "--gamut-target", "p3"});
    EXPECT_TRUE(contains(r.err, "checked again: its report was made with --gamut-target bt709")) << r.err;
    EXPECT_EQ(readJson(json.toStdString())["frames"].toArray()[0].toObject()["gamut"].toObject()["target"].toString(), "p3-d65");

    // The input itself changed (written again: its modification time moves).
    const auto later = std::filesystem::last_write_time(input.toStdString()) + std::chrono::seconds(5);
    std::filesystem::last_write_time(input.toStdString(), later);
    r = qc(input, {"--thresholds", thresholds, "--gamut-target", "p3"});
    EXPECT_TRUE(contains(r.err, "checked again: the input changed since its report was made")) << r.err;
    r = qc(input, {"--thresholds", thresholds, "--gamut-target", "p3"});
    EXPECT_TRUE(contains(r.err, "skipped: its report is complete")) << r.err;

    // A missing companion file: checked again.
    ASSERT_TRUE(QFile::remove(out + "/moving.mkv.qc.png"));
    r = qc(input, {"--thresholds", thresholds, "--gamut-target", "p3"});
    EXPECT_TRUE(contains(r.err, "checked again: its report has no moving.mkv.qc.png")) << r.err;
    EXPECT_TRUE(QFile::exists(out + "/moving.mkv.qc.png"));
}

// Frames skipped by the decoder are named by their time and the index of the next frame
// delivered; that index is the decode_error event's first_frame (from 0, as `index`).
TEST(Reports, FramesAreNumberedFromZeroInWarningsAndEvents) {
    QTemporaryDir dir;
    // Three 64x48 MJPEG frames, two 16400x16 ones (beyond FFmpeg's size limit: skipped), three more.
    const QString normal = dir.filePath("normal.mjpeg"), wide = dir.filePath("wide.mjpeg"), mixed = dir.filePath("mixed.mjpeg");
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "3", "-c:v", "mjpeg", "-f", "mjpeg", normal}).exitCode, 0);
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "color=s=16400x16:r=25", "-frames:v", "2", "-c:v", "mjpeg", "-f", "mjpeg", wide}).exitCode, 0);
    const std::string n = readFile(normal.toStdString()), w = readFile(wide.toStdString());
    writeText(mixed, QByteArray::fromStdString(n + w + n));

    const RunResult r = cudascope({"qc", mixed, "--out", dir.filePath("qc"), "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson(dir.filePath("qc/mixed.mjpeg.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 6);
    for (qsizetype i = 0; i < frames.size(); ++i) EXPECT_EQ(frames[i].toObject()["index"].toInt(), i);
    int errors = 0;
    for (const auto& v : report["events"].toArray()) {
        const QJsonObject e = v.toObject();
        if (e["type"].toString() != "decode_error") continue;
        ++errors;
        EXPECT_EQ(e["first_frame"].toInt(), 3) << e["message"].toString().toStdString();
        EXPECT_TRUE(e["message"].toString().contains("(before frame 3): frame size 16400x16 exceeds")) << e["message"].toString().toStdString();
    }
    EXPECT_EQ(errors, 2);
    const QJsonArray warnings = report["warnings"].toArray();
    ASSERT_EQ(warnings.size(), 2);
    EXPECT_TRUE(warnings[0].toString().contains("the frame at 0.120 s (before frame 3)")) << warnings[0].toString().toStdString();
    EXPECT_TRUE(warnings[1].toString().contains("the frame at 0.160 s (before frame 3)")) << warnings[1].toString().toStdString();
}

// An untagged 640x480 file: BT.601 by its size, so BT.601 525-line primaries are assumed, and
// the head and every frame say the same, marked untagged; a tagged file says its tag.
TEST(Reports, UntaggedPrimariesAreOneAnswerMarkedAssumed) {
    QTemporaryDir dir;
    const QString untagged = dir.filePath("untagged.mkv"), tagged = dir.filePath("tagged.mkv");
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=640x480:rate=25:d=0.12", "-pix_fmt", "yuv420p", "-c:v", "ffv1", untagged}).exitCode, 0);
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=640x480:rate=25:d=0.12", "-pix_fmt", "yuv420p", "-c:v", "ffv1",
                      "-color_primaries", "bt709", "-colorspace", "bt709", tagged}).exitCode, 0);
    for (const auto& [input, primaries, isTagged] :
         {std::tuple{untagged, QString("BT.601-525"), false}, std::tuple{tagged, QString("BT.709"), true}}) {
        const QString name = QFileInfo(input).completeBaseName();
        const RunResult ex = cudascope({"export", input, "--out", dir.filePath(name + "-export"), "--engine", "cpu", "--scopes", "stats,cie", "--no-npy"});
        ASSERT_EQ(ex.exitCode, 0) << ex.err;
        const RunResult qc = cudascope({"qc", input, "--out", dir.filePath(name + "-qc"), "--engine", "cpu", "--no-qctools"});
        ASSERT_EQ(qc.exitCode, 0) << qc.err;
        for (const QString& report : {dir.filePath(name + "-export/report.json"), dir.filePath(name + "-qc/" + name + ".mkv.qc.json")}) {
            const QJsonObject r = readJson(report.toStdString());
            const QJsonObject source = r["source"].toObject();
            EXPECT_EQ(source["primaries"].toString(), primaries) << report.toStdString();
            EXPECT_EQ(source["primaries_tagged"].toBool(), isTagged) << report.toStdString();
            const QJsonArray frames = r["frames"].toArray();
            ASSERT_EQ(frames.size(), 3) << report.toStdString();
            for (const auto& f : frames) {
                const QJsonObject g = f.toObject()["gamut"].toObject();
                EXPECT_EQ(g["source"].toString(), primaries) << report.toStdString();
                EXPECT_EQ(g["source_tagged"].toBool(), isTagged) << report.toStdString();
            }
        }
    }
}

// A folder with nothing to check is an error naming it (exit 1), and no output folder is made.
TEST(Reports, QcOfAnEmptyFolderFails) {
    QTemporaryDir dir;
    QDir(dir.path()).mkpath("empty/.hidden");
    writeText(dir.filePath("empty/.hidden/clip.mp4"), "hidden entries are skipped");
    writeText(dir.filePath("empty/notes.txt"), "not media");
    const QString out = dir.filePath("qc");
    const RunResult r = cudascope({"qc", dir.filePath("empty"), "--out", out});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "cudascope qc: " + dir.filePath("empty").toStdString() + ": no media files in this folder")) << r.err;
    EXPECT_FALSE(QFileInfo::exists(out));
}

// A qc whose every input fails leaves no empty output folder behind; a folder that was there
// before stays.
TEST(Reports, FailingQcLeavesNoEmptyOutputFolder) {
    QTemporaryDir dir;
    const QString missing = dir.filePath("missing.mp4"), out = dir.filePath("new/qc");
    RunResult r = cudascope({"qc", missing, "--out", out, "--engine", "cpu"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "0 checked, 0 skipped, 1 failed of 1 input")) << r.err;
    EXPECT_FALSE(QFileInfo::exists(dir.filePath("new"))) << "an empty output folder was left";
    const QString existing = dir.filePath("existing");
    ASSERT_TRUE(QDir(dir.path()).mkdir("existing"));
    r = cudascope({"qc", missing, "--out", existing, "--engine", "cpu"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(QFileInfo(existing).isDir());
}

// bench on an input that cannot be opened: one line naming it, exit 1, no table.
TEST(Reports, BenchOfAMissingFileIsOneLine) {
    QTemporaryDir dir;
    const QString missing = dir.filePath("missing.mp4");
    const RunResult r = cudascope({"bench", missing, "--engine", "cpu", "--frames", "2"});
    if (contains(r.err, "this build has no bench command")) GTEST_SKIP() << r.err;
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "cudascope bench: " + missing.toStdString() + ": ")) << r.err;
    EXPECT_FALSE(contains(r.out, "| input")) << r.out;
}

// --cie and --gamut-target set the cie scope (and the gamut preview): without it they are
// refused, not ignored.
TEST(Reports, CieOptionsNeedTheCieScope) {
    QTemporaryDir dir;
    const QString out = dir.filePath("o");
    const std::vector<std::pair<QStringList, std::string>> refused{
        {{"--cie", "uv"}, "--cie uv sets the cie scope's diagram: add cie to --scopes"},
        {{"--scopes", "histogram", "--cie", "xy"}, "--cie xy sets the cie scope's diagram: add cie to --scopes"},
        {{"--gamut-target", "p3"}, "--gamut-target p3 is the gamut checked by the cie scope and --preview gamut"}};
    for (const auto& [options, message] : refused) {
        const RunResult r = cudascope(QStringList{"export", "pattern:bars:320x240", "--out", out} + options);
        EXPECT_EQ(r.exitCode, 2) << options.join(' ').toStdString() << ": " << r.err;
        EXPECT_TRUE(contains(r.err, "cudascope export: " + message)) << r.err;
        EXPECT_FALSE(QFileInfo::exists(out));
    }
    for (const QStringList& options : {QStringList{"--scopes", "cie", "--cie", "uv", "--gamut-target", "p3"},
                                       QStringList{"--scopes", "picture", "--preview", "gamut", "--gamut-target", "bt2020"}}) {
        const RunResult r = cudascope(QStringList{"export", "pattern:bars:320x240", "--out", out, "--max-frames", "1", "--no-npy",
                                                  "--engine", "cpu"} + options);
        EXPECT_EQ(r.exitCode, 0) << options.join(' ').toStdString() << ": " << r.err;
    }
}

TEST(Reports, VersionTakesNoOtherArgument) {
    const RunResult plain = cudascope({"--version"});
    EXPECT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_TRUE(contains(plain.out, "cudascope ")) << plain.out;
    for (const auto& [args, message] : std::vector<std::pair<QStringList, std::string>>{
             {{"--version", "extra"}, "--version takes no other argument: unexpected 'extra'"},
             {{"extra", "--version"}, "--version takes no other argument: unexpected 'extra'"},
             {{"--version", "--compare", "pattern:ramp"}, "--version takes no other argument: unexpected --compare"}}) {
        const RunResult r = cudascope(args);
        EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
        EXPECT_TRUE(contains(r.err, "cudascope: " + message)) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}
