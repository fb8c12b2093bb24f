// `cudascope record` through the binary: the frames asked for, the colour tags, the picture
// against `cudascope export`'s PNG of the same frame (PSNR by FFmpeg's psnr filter), a
// killed recording still playable, a stopped one closed cleanly, bad outputs refused, a
// failed one (a full disk) reported once and never under the file's name.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>

#include <csignal>
#include <chrono>
#include <tuple>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

QString ffprobePath() {
    QString p = QString::fromUtf8(CS_TEST_FFMPEG);
    return p.left(p.lastIndexOf("ffmpeg")) + "ffprobe";
}

// ffprobe's answer for the first video stream: key=value lines.
std::string probe(const QString& file, bool countFrames) {
    QStringList args{"-v", "error", "-select_streams", "v:0"};
    if (countFrames) args << "-count_frames";
    args << "-show_entries"
         << "stream=codec_name,width,height,nb_read_frames,color_range,color_space,color_primaries,color_transfer"
         << "-of" << "default=nw=1" << file;
    return runProgram(ffprobePath(), args).out;
}

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

// A minute of moving test picture (1500 frames at 25 fps), made by the ffmpeg CLI.
QString longClip(const QTemporaryDir& dir) {
    const QString clip = dir.filePath("long.mp4");
    const auto r = ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "1500", "-pix_fmt", "yuv420p",
                           "-c:v", "libx264", "-preset", "ultrafast", clip});
    return r.exitCode == 0 ? clip : QString();
}

// Starts recording `input` to its end, and waits (up to 60 s) until the file being written
// (`out`.part until the recording closes) holds `bytes`.
bool startRecording(QProcess& p, const QString& input, const QString& out, qint64 bytes) {
    if (input.isEmpty()) return false;
    p.start(CS_TEST_CUDASCOPE, {"record", input, "--out", out, "--engine", "cpu"});
    if (!p.waitForStarted()) return false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (QFileInfo(out + ".part").size() < bytes) {
        if (std::chrono::steady_clock::now() > deadline || p.state() != QProcess::Running) return false;
        p.waitForFinished(50);   // returns early only if the recorder ends by itself
    }
    return true;
}

}  // namespace

TEST(Record, HasTheFramesAskedForAndBt709Tags) {
    QTemporaryDir dir;
    const QString out = dir.filePath("bars.mp4");
    const auto r = cudascope({"record", "pattern:bars:320x240", "--out", out, "--frames", "12"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("12 frames"), std::string::npos) << r.err;
    const std::string p = probe(out, true);
    EXPECT_TRUE(has(p, "nb_read_frames=12")) << p;
    EXPECT_TRUE(has(p, "codec_name=h264")) << p;
    EXPECT_TRUE(has(p, "width=320")) << p;
    EXPECT_TRUE(has(p, "height=240")) << p;
    EXPECT_TRUE(has(p, "color_range=tv")) << p;
    EXPECT_TRUE(has(p, "color_space=bt709")) << p;
    EXPECT_TRUE(has(p, "color_primaries=bt709")) << p;
    EXPECT_TRUE(has(p, "color_transfer=bt709")) << p;
}

TEST(Record, MkvHevcAndCompositeAtAFixedSize) {
    QTemporaryDir dir;
    const QString out = dir.filePath("scopes.mkv");
    const auto r = cudascope({"record", "pattern:bars:320x240", "--out", out, "--frames", "3", "--layout", "composite",
                              "--size", "640x360", "--codec", "hevc"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string p = probe(out, true);
    EXPECT_TRUE(has(p, "nb_read_frames=3")) << p;
    EXPECT_TRUE(has(p, "codec_name=hevc")) << p;
    EXPECT_TRUE(has(p, "width=640")) << p;
    EXPECT_TRUE(has(p, "height=360")) << p;
}

TEST(Record, PictureDecodesToTheExportedPicture) {
    QTemporaryDir dir;
    const QString clip = dir.filePath("clip.mkv");
    auto made = ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "8", "-pix_fmt", "yuv420p",
                        "-c:v", "ffv1", clip});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    const auto exported = cudascope({"export", clip, "--out", dir.filePath("png"), "--scopes", "picture", "--engine", "cpu"});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    const QString rec = dir.filePath("rec.mp4");
    const auto r = cudascope({"record", clip, "--out", rec, "--engine", "cpu"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (int frame : {0, 5}) {
        const QString png = dir.filePath(QString("png/%1-picture.png").arg(frame, 6, 10, QChar('0')));
        const auto psnr = runProgram(CS_TEST_FFMPEG, {"-hide_banner", "-i", rec, "-i", png, "-lavfi",
                                                      QString("[0:v]select=eq(n\\,%1),format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr").arg(frame),
                                                      "-f", "null", "-"});
        ASSERT_EQ(psnr.exitCode, 0) << psnr.err;
        const auto m = QRegularExpression("PSNR r:[0-9.inf]+ g:[0-9.inf]+ b:[0-9.inf]+ average:([0-9.inf]+)").match(QString::fromStdString(psnr.err));
        ASSERT_TRUE(m.hasMatch()) << psnr.err;
        const double db = m.captured(1) == "inf" ? 100.0 : m.captured(1).toDouble();
        EXPECT_GE(db, 35.0) << "frame " << frame;
    }
}

TEST(Record, KilledRecordingIsPlayableUpToItsLastFragment) {
    QTemporaryDir dir;
    const QString out = dir.filePath("killed.mp4");
    QProcess p;
    ASSERT_TRUE(startRecording(p, longClip(dir), out, 150000)) << p.readAllStandardError().toStdString();
    p.kill();   // SIGKILL: no trailer, no flush, no rename
    p.waitForFinished();
    EXPECT_FALSE(QFileInfo::exists(out)) << "a killed recording is never under the file's name";
    const QString part = out + ".part";
    const std::string info = probe(part, true);
    const auto m = QRegularExpression("nb_read_frames=([0-9]+)").match(QString::fromStdString(info));
    ASSERT_TRUE(m.hasMatch()) << info;
    EXPECT_GE(m.captured(1).toInt(), 25) << info;   // at least one whole fragment (a keyframe a second at 25 fps)
    // The whole fragments decode without a single error; only the one cut off may be damaged.
    const int whole = m.captured(1).toInt() / 25 * 25;
    const auto decode = runProgram(CS_TEST_FFMPEG, {"-v", "error", "-xerror", "-i", part, "-frames:v", QString::number(whole - 25 > 0 ? whole - 25 : 25),
                                                    "-f", "null", "-"});
    EXPECT_EQ(decode.exitCode, 0) << decode.err;
    EXPECT_EQ(decode.err, "");
}

// SIGTERM and SIGINT stop a recording with the file closed (playable to its end), the reason
// in the closing line and exit 128 + the signal, as export.
TEST(Record, StopSignalsCloseTheFileAndSayWhy) {
    QTemporaryDir dir;
    const QString clip = longClip(dir);
    for (const auto& [signal, name, code] : {std::tuple{SIGTERM, "SIGTERM", 143}, std::tuple{SIGINT, "SIGINT", 130}}) {
        const QString out = dir.filePath(QString("stopped-%1.mkv").arg(name));
        QProcess p;
        ASSERT_TRUE(startRecording(p, clip, out, 50000)) << p.readAllStandardError().toStdString();
        ::kill(pid_t(p.processId()), signal);
        ASSERT_TRUE(p.waitForFinished(30000));
        const std::string err = p.readAllStandardError().toStdString();
        EXPECT_EQ(p.exitStatus(), QProcess::NormalExit) << name;
        EXPECT_EQ(p.exitCode(), code) << err;
        EXPECT_NE(err.find(std::string("ended: ") + name), std::string::npos) << err;
        EXPECT_FALSE(QFileInfo::exists(out + ".part")) << "closed whole: renamed into place";
        const auto decode = runProgram(CS_TEST_FFMPEG, {"-v", "error", "-xerror", "-i", out, "-f", "null", "-"});
        EXPECT_EQ(decode.exitCode, 0) << decode.err;
        EXPECT_NE(probe(out, false).find("codec_name=h264"), std::string::npos);
    }
}

// The closing lines account for every frame: delivered = recorded + dropped. A file without
// --realtime records every frame (the file's own count, by ffprobe); with --realtime the
// frames it had no time for are dropped as late, and the recorded ones are those in the file.
TEST(Record, EveryFrameIsRecordedOrCountedAsDropped) {
    QTemporaryDir dir;
    const QString clip = dir.filePath("two-seconds.mp4");
    const auto made = ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "50", "-pix_fmt", "yuv420p",
                              "-c:v", "libx264", "-preset", "ultrafast", clip});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    for (const bool realtime : {false, true}) {
        const QString out = dir.filePath(realtime ? "realtime.mp4" : "all.mp4");
        QStringList args{"record", clip, "--out", out, "--engine", "cpu", "--layout", "composite", "--size", "640x360"};
        if (realtime) args << "--realtime";
        const auto r = cudascope(args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto m = QRegularExpression("frames: (\\d+) delivered = (\\d+) recorded \\+ (\\d+) dropped \\(late (\\d+), "
                                          "replaced (\\d+), encoder queue full (\\d+), engine failed (\\d+), after the stop (\\d+)\\)\n")
                           .match(QString::fromStdString(r.err));
        ASSERT_TRUE(m.hasMatch()) << r.err;
        const int delivered = m.captured(1).toInt(), recorded = m.captured(2).toInt(), dropped = m.captured(3).toInt();
        EXPECT_EQ(delivered, 50) << r.err;
        EXPECT_EQ(delivered, recorded + dropped) << r.err;
        EXPECT_EQ(dropped, m.captured(4).toInt() + m.captured(5).toInt() + m.captured(6).toInt() + m.captured(7).toInt() +
                               m.captured(8).toInt())
            << r.err;
        EXPECT_NE(r.err.find("ended: end of stream"), std::string::npos) << r.err;
        const std::string p = probe(out, true);
        EXPECT_TRUE(has(p, "nb_read_frames=" + std::to_string(recorded))) << p << r.err;
        if (!realtime) {
            EXPECT_EQ(recorded, 50) << r.err;
        }
    }
}

TEST(Record, BadOutputIsOneLineAndExitOne) {
    QTemporaryDir dir;
    for (const QString& out : {dir.filePath("clip.avi"), dir.filePath("missing/clip.mp4"), dir.path(),
                               QString("/proc/clip.mp4")}) {
        const auto r = cudascope({"record", "pattern:bars:320x240", "--out", out, "--frames", "2"});
        EXPECT_EQ(r.exitCode, 1) << out.toStdString() << ": " << r.err;
        EXPECT_EQ(lineCount(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(out.toStdString()), std::string::npos) << r.err;
        EXPECT_FALSE(QFileInfo(out).isFile() && QFileInfo(out).size() > 0) << out.toStdString();
    }
    // A folder is named as one, whatever its name ends with.
    QDir(dir.path()).mkdir("folder.mp4");
    for (const QString& folder : {dir.path(), dir.filePath("folder.mp4")}) {
        const auto r = cudascope({"record", "pattern:bars:320x240", "--out", folder, "--frames", "2"});
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_NE(r.err.find(folder.toStdString() + ": is a folder, not a file"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("unknown file type"), std::string::npos) << r.err;
    }
}

// Writes that fail part-way (a full disk): the file being written, FILE.part, is a link to
// /dev/full, where every write fails with ENOSPC, as on a full disk, with no mount or
// privilege needed. The error is one line, exit 1, and nothing is left under FILE.
TEST(Record, FullDiskIsOneLineAndLeavesNoFileUnderItsName) {
    ASSERT_TRUE(QFileInfo::exists("/dev/full")) << "Linux's /dev/full is what this test writes to";
    QTemporaryDir dir;
    for (const QString name : {"full.mkv", "full.mp4"}) {
        const QString out = dir.filePath(name);
        ASSERT_TRUE(QFile::link("/dev/full", out + ".part"));
        const auto r = cudascope({"record", "pattern:zoneplate:640x360", "--out", out, "--frames", "50", "--engine", "cpu"});
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_EQ(lineCount(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("cudascope record: " + out.toStdString() + ": "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
        EXPECT_FALSE(QFileInfo::exists(out)) << "a failed recording left " << out.toStdString();
        QFile::remove(out + ".part");
    }
}

TEST(Record, UsageErrorsExitTwo) {
    QTemporaryDir dir;
    const QString out = dir.filePath("x.mp4");
    for (const QStringList& args : {QStringList{"record", "pattern:bars"}, QStringList{"record", "--out", out},
                                    QStringList{"record", "pattern:bars", "--out", out, "--frames", "0"},
                                    QStringList{"record", "pattern:bars", "--out", out, "--size", "641x360"},
                                    QStringList{"record", "pattern:bars", "--out", out, "--layout", "grid"},
                                    QStringList{"record", "pattern:bars", "--out", out, "--quality", "52"},
                                    QStringList{"record", "pattern:bars", "--out", out, "--seconds", "1e3"},
                                    QStringList{"record", "pattern:bars", "--out", out, "--frames", "2", "--seconds", "1"}}) {
        const auto r = cudascope(args);
        EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString() << ": " << r.err;
        EXPECT_NE(r.err.find("cudascope record: "), std::string::npos) << r.err;
    }
}

// --convert cuda: where a GPU converter can be made, its recording is the CPU conversion's
// byte for byte (the kernel equals core/Yuv420, and libx264 is deterministic); elsewhere one
// line naming the option and the reason, exit 1.
TEST(Record, GpuConversionEqualsTheCpuConversionOrIsRefused) {
    QTemporaryDir dir;
    const QString cpu = dir.filePath("cpu.mp4"), gpu = dir.filePath("gpu.mp4");
    const QStringList common{"record", "pattern:zoneplate:320x240", "--frames", "6", "--engine", "cpu"};
    const auto viaCpu = cudascope(QStringList(common) << "--out" << cpu << "--convert" << "cpu");
    ASSERT_EQ(viaCpu.exitCode, 0) << viaCpu.err;
    EXPECT_NE(viaCpu.err.find("conversion cpu"), std::string::npos) << viaCpu.err;
    const auto viaGpu = cudascope(QStringList(common) << "--out" << gpu << "--convert" << "cuda");
    if (viaGpu.exitCode != 0) {
        EXPECT_EQ(viaGpu.exitCode, 1) << viaGpu.err;
        EXPECT_EQ(lineCount(viaGpu.err), 1) << viaGpu.err;
        EXPECT_NE(viaGpu.err.find("--convert cuda: "), std::string::npos) << viaGpu.err;
        return;
    }
    EXPECT_NE(viaGpu.err.find("conversion gpu"), std::string::npos) << viaGpu.err;
    QFile a(cpu), b(gpu);
    ASSERT_TRUE(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    EXPECT_TRUE(a.readAll() == b.readAll()) << "the GPU-converted recording differs from the CPU-converted one";
}
