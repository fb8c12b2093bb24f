// What export leaves on disk when writing fails or the run is stopped: a full disk
// (simulated with a file size limit, RLIMIT_FSIZE, set in the child: writes past it fail
// with EFBIG) is exit 1 with one line naming the file and no cut-short file under a final
// name; SIGTERM / SIGINT stop after the frame in hand with a valid report of the frames
// done (exit 143 / 130); SIGKILL leaves report.json.part readable as README.md says.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>

#include <signal.h>
#include <sys/resource.h>

#include <functional>
#include <set>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

// cudascope with RLIMIT_FSIZE = `limit` bytes (SIGXFSZ left at its default: the binary
// must ignore it itself, or it dies and the test sees the crash).
RunResult cudascopeWithFileLimit(const QStringList& args, rlim_t limit) {
    QProcess p;
    p.setChildProcessModifier([limit] {
        const rlimit rl{limit, limit};
        setrlimit(RLIMIT_FSIZE, &rl);
    });
    p.start(CS_TEST_CUDASCOPE, args);
    RunResult r;
    if (!p.waitForFinished(120000)) { p.kill(); p.waitForFinished(); r.err = "timed out"; return r; }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

// Waits (bounded) until `ready` holds while `p` runs; false if `p` ended first or time ran out.
bool waitWhileRunning(QProcess& p, const std::function<bool()>& ready, int timeoutMs = 60000) {
    QElapsedTimer t;
    t.start();
    while (!ready()) {
        if (p.waitForFinished(10) || p.state() == QProcess::NotRunning || t.elapsed() > timeoutMs) return false;
    }
    return true;
}

// Frame indices that have a file ending in `suffix` ("-picture.png") in `dir`.
std::set<int> framesWith(const QString& dir, const QString& suffix) {
    std::set<int> out;
    for (const QString& name : QDir(dir).entryList({"*" + suffix}, QDir::Files)) out.insert(name.left(6).toInt());
    return out;
}

QStringList partFiles(const QString& dir) { return QDir(dir).entryList({"*.part"}, QDir::Files | QDir::Hidden); }

std::set<int> reportIndices(const QJsonArray& frames) {
    std::set<int> out;
    for (const auto& f : frames) out.insert(f.toObject()["index"].toInt());
    return out;
}

// Every file of a frame exported with every scope.
void expectWholeFrames(const QString& dir, const std::set<int>& indices) {
    for (int i : indices)
        for (const char* what : {"picture.png", "histogram.png", "waveform.png", "waveform.npy", "parade.png",
                                 "parade.npy", "vectorscope.png", "vectorscope.npy"}) {
            const QString name = QString("%1-%2").arg(i, 6, 10, QChar('0')).arg(what);
            EXPECT_TRUE(QFile::exists(dir + "/" + name)) << name.toStdString();
        }
}

// Stops an export of every scope with `signal` once its first frame is on disk.
void stopWithSignal(int signal, int expectedExit, const char* name) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    QProcess p;
    // Default dispositions, whatever started the test (a background job ignores SIGINT).
    p.setChildProcessModifier([] {
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
    });
    p.start(CS_TEST_CUDASCOPE, {"export", "pattern:zoneplate", "--out", out, "--engine", "cpu"});
    ASSERT_TRUE(p.waitForStarted());
    // 250 frames of 1080p with every scope take far longer than the signal needs to arrive.
    ASSERT_TRUE(waitWhileRunning(p, [&] { return QFile::exists(out + "/000000-picture.png"); }))
        << p.readAllStandardError().toStdString();
    ASSERT_EQ(::kill(pid_t(p.processId()), signal), 0);
    ASSERT_TRUE(p.waitForFinished(60000));
    const std::string err = p.readAllStandardError().toStdString();
    ASSERT_EQ(p.exitStatus(), QProcess::NormalExit) << err;
    EXPECT_EQ(p.exitCode(), expectedExit) << err;
    EXPECT_NE(err.find(std::string("stopped by ") + name), std::string::npos) << err;

    QJsonParseError parsed{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readFile(out.toStdString() + "/report.json")), &parsed);
    ASSERT_EQ(parsed.error, QJsonParseError::NoError) << parsed.errorString().toStdString();
    const QJsonObject report = doc.object();
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_GE(frames.size(), 1);
    EXPECT_LT(frames.size(), 250);
    EXPECT_EQ(report["summary"].toObject()["ended"].toString().toStdString(), name);
    EXPECT_EQ(report["summary"].toObject()["frames"].toInt(), frames.size());
    EXPECT_EQ(report["source"].toObject()["width"].toInt(), 1920);
    // The stop falls between frames: the frames on disk are exactly those in the report.
    const std::set<int> listed = reportIndices(frames);
    EXPECT_EQ(listed, framesWith(out, "-picture.png"));
    EXPECT_EQ(listed, framesWith(out, "-vectorscope.npy"));
    expectWholeFrames(out, listed);
    EXPECT_TRUE(frames[0].toObject().contains("histogram"));
    EXPECT_TRUE(partFiles(out).isEmpty()) << partFiles(out).join(' ').toStdString();
}

}  // namespace

TEST(ExportIo, SigtermStopsAfterTheFrameWithAValidReport) { stopWithSignal(SIGTERM, 143, "SIGTERM"); }

TEST(ExportIo, SigintStopsAfterTheFrameWithAValidReport) { stopWithSignal(SIGINT, 130, "SIGINT"); }

TEST(ExportIo, SigkillLeavesTheFramesDoneReadable) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    QProcess p;
    p.start(CS_TEST_CUDASCOPE, {"export", "pattern:zoneplate:10bit:1280x720", "--out", out, "--engine", "cpu",
                                "--scopes", "picture,histogram,stats"});
    ASSERT_TRUE(p.waitForStarted());
    // Frame 2's picture on disk: frames 0 and 1 are in the report by then (and the 247
    // frames still to come, a 2 MB PNG each, take far longer than the kill).
    ASSERT_TRUE(waitWhileRunning(p, [&] { return QFile::exists(out + "/000002-picture.png"); }))
        << p.readAllStandardError().toStdString();
    p.kill();
    ASSERT_TRUE(p.waitForFinished(60000));
    EXPECT_FALSE(QFile::exists(out + "/report.json"));

    // README.md's recovery: keep report.json.part up to its last newline, append "]}".
    std::string text = readFile(out.toStdString() + "/report.json.part");
    const size_t lastNewline = text.rfind('\n');
    ASSERT_NE(lastNewline, std::string::npos) << text;
    text = text.substr(0, lastNewline + 1) + "]}";
    QJsonParseError parsed{};
    const QJsonObject report = QJsonDocument::fromJson(QByteArray::fromStdString(text), &parsed).object();
    ASSERT_EQ(parsed.error, QJsonParseError::NoError) << parsed.errorString().toStdString() << "\n" << text.substr(0, 2000);
    EXPECT_EQ(report["source"].toObject()["bit_depth"].toInt(), 10);
    EXPECT_EQ(report["engine"].toString(), "cpu");
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_GE(frames.size(), 2);
    const std::set<int> pictures = framesWith(out, "-picture.png");
    for (qsizetype i = 0; i < frames.size(); ++i) {
        const QJsonObject f = frames[i].toObject();
        EXPECT_EQ(f["index"].toInt(), i);
        EXPECT_EQ(toCounts(f["histogram"].toObject()["y"]).size(), 1024u);
        EXPECT_TRUE(pictures.count(int(i))) << i;
    }
}

TEST(ExportIo, DiskFullOnAPictureFailsNamingItAndLeavesNoPartialFile) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    // A 640x360 zone plate's PNG is about 480 kB: the first picture cannot be written.
    const auto r = cudascopeWithFileLimit(
        {"export", "pattern:zoneplate:640x360", "--out", out, "--engine", "cpu", "--scopes", "picture,stats", "--max-frames", "3"},
        256 * 1024);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(r.err, "cudascope export: " + out.toStdString() + "/000000-picture.png: File too large\n");
    EXPECT_FALSE(QFile::exists(out + "/000000-picture.png"));
    EXPECT_TRUE(partFiles(out).isEmpty()) << partFiles(out).join(' ').toStdString();
    // The report is small enough: it is there, lists no frame and says why the run ended.
    const QJsonObject report = readJson(out.toStdString() + "/report.json");
    EXPECT_TRUE(report["frames"].toArray().isEmpty());
    EXPECT_EQ(report["summary"].toObject()["ended"].toString(), "write_error");
    EXPECT_NE(report["warnings"].toArray().last().toString().indexOf("000000-picture.png: File too large"), -1);
}

TEST(ExportIo, DiskFullOnCountsFailsNamingTheNpy) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    // The waveform image (1024x540) fits under 1 MiB; its 1080p counts (256 x 1920 x 4 bytes) do not.
    const auto r = cudascopeWithFileLimit(
        {"export", "pattern:bars", "--out", out, "--engine", "cpu", "--scopes", "waveform", "--max-frames", "3"},
        1024 * 1024);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(r.err, "cudascope export: " + out.toStdString() + "/000000-waveform.npy: File too large\n");
    EXPECT_TRUE(QFile::exists(out + "/000000-waveform.png"));
    EXPECT_FALSE(QFile::exists(out + "/000000-waveform.npy"));
    EXPECT_TRUE(partFiles(out).isEmpty()) << partFiles(out).join(' ').toStdString();
    EXPECT_TRUE(readJson(out.toStdString() + "/report.json")["frames"].toArray().isEmpty());
}

TEST(ExportIo, DiskFullOnTheReportFailsNamingItAndKeepsTheFramesDone) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    // No image files; each frame's line (a 1024-bin histogram and three of 256) is a few
    // kB, so the report passes 64 KiB within the 250 frames.
    const auto r = cudascopeWithFileLimit(
        {"export", "pattern:bars:10bit", "--out", out, "--engine", "cpu", "--scopes", "histogram,stats"}, 64 * 1024);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const std::string report = out.toStdString() + "/report.json";
    EXPECT_EQ(r.err, "cudascope export: " + report + ": File too large (the frames done are listed in " + report + ".part)\n");
    EXPECT_FALSE(QFile::exists(out + "/report.json"));
    EXPECT_EQ(partFiles(out), QStringList{"report.json.part"});
    // Cut back to its last whole frame: "]}" closes it.
    const std::string text = readFile(report + ".part");
    EXPECT_LE(text.size(), 64u * 1024u);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    QJsonParseError parsed{};
    const QJsonArray frames = QJsonDocument::fromJson(QByteArray::fromStdString(text + "]}"), &parsed).object()["frames"].toArray();
    ASSERT_EQ(parsed.error, QJsonParseError::NoError) << parsed.errorString().toStdString();
    ASSERT_GE(frames.size(), 2);
    EXPECT_LT(frames.size(), 250);
    for (qsizetype i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(frames[i].toObject()["index"].toInt(), i);
        EXPECT_EQ(toCounts(frames[i].toObject()["histogram"].toObject()["y"]).size(), 1024u);
    }
    // Every frame listed has its histogram image, and so has the one whose line did not fit.
    std::set<int> withFiles = reportIndices(frames);
    withFiles.insert(int(frames.size()));
    EXPECT_EQ(framesWith(out, "-histogram.png"), withFiles);
}

TEST(ExportIo, FinishedReportIsOneDocumentWithASummary) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:ramp:320x180", "--out", dir.path(), "--engine", "cpu", "--scopes",
                              "stats", "--max-frames", "4"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    QJsonParseError parsed{};
    const QJsonObject report =
        QJsonDocument::fromJson(QByteArray::fromStdString(readFile(dir.path().toStdString() + "/report.json")), &parsed)
            .object();
    ASSERT_EQ(parsed.error, QJsonParseError::NoError) << parsed.errorString().toStdString();
    EXPECT_EQ(report["frames"].toArray().size(), 4);
    EXPECT_EQ(report["summary"].toObject()["frames"].toInt(), 4);
    EXPECT_EQ(report["summary"].toObject()["ended"].toString(), "max_frames");
    EXPECT_EQ(report["scopes"].toObject()["matrix"].toString(), "bt709");
    EXPECT_TRUE(report["warnings"].toArray().isEmpty());
    EXPECT_TRUE(partFiles(dir.path()).isEmpty());
}

// The output pipeline encodes and writes frames while later ones are computed: every frame's
// files belong to it (a moving pattern's frames, exported with every frame and with every
// other, are the same bytes), and report.json lists the frames in order.
TEST(ExportIo, PipelinedFramesKeepTheirOrderAndFiles) {
    QTemporaryDir dir;
    const QString all = dir.path() + "/all", even = dir.path() + "/even";
    const auto a = cudascope({"export", "pattern:zoneplate:320x180", "--out", all, "--engine", "cpu", "--max-frames", "12"});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    const auto b = cudascope(
        {"export", "pattern:zoneplate:320x180", "--out", even, "--engine", "cpu", "--every", "2", "--max-frames", "6"});
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const QJsonArray frames = readJson(all.toStdString() + "/report.json")["frames"].toArray();
    ASSERT_EQ(frames.size(), 12);
    for (qsizetype i = 0; i < frames.size(); ++i) EXPECT_EQ(frames[i].toObject()["index"].toInt(), i);
    const QJsonArray evenFrames = readJson(even.toStdString() + "/report.json")["frames"].toArray();
    ASSERT_EQ(evenFrames.size(), 6);
    for (qsizetype i = 0; i < evenFrames.size(); ++i) EXPECT_EQ(evenFrames[i].toObject()["index"].toInt(), 2 * i);
    expectWholeFrames(all, reportIndices(frames));
    expectWholeFrames(even, reportIndices(evenFrames));
    EXPECT_TRUE(partFiles(all).isEmpty());
    for (int i = 0; i < 12; i += 2)
        for (const char* what : {"picture.png", "waveform.png", "vectorscope.png", "parade.npy"}) {
            const std::string name = "/" + QString("%1-%2").arg(i, 6, 10, QChar('0')).arg(what).toStdString();
            const std::string x = readFile(all.toStdString() + name), y = readFile(even.toStdString() + name);
            EXPECT_FALSE(x.empty()) << name;
            EXPECT_TRUE(x == y) << name << " differs between the two exports";
        }
    // The zone plate moves: consecutive frames' pictures differ, so the comparison above can fail.
    EXPECT_NE(readFile(all.toStdString() + "/000000-picture.png"), readFile(all.toStdString() + "/000001-picture.png"));
}

TEST(ExportIo, NoNpyWritesTheImagesAndNoCounts) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars", "--out", dir.path(), "--engine", "cpu", "--max-frames", "2", "--no-npy"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(QDir(dir.path()).entryList({"*.npy"}, QDir::Files).isEmpty());
    EXPECT_EQ(framesWith(dir.path(), "-waveform.png"), (std::set<int>{0, 1}));
    EXPECT_EQ(framesWith(dir.path(), "-vectorscope.png"), (std::set<int>{0, 1}));
    EXPECT_EQ(readJson(dir.path().toStdString() + "/report.json")["frames"].toArray().size(), 2);
}
