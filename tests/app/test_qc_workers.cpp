// `cudascope qc` runs each input in a worker process (app/qc/QcWorker.h): a worker that crashes
// or hangs fails its input alone, with the reason (the signal; the timeout), its .part
// files removed, while the other inputs are checked and the summary is printed. The faults
// are injected through CUDASCOPE_QC_WORKER_FAULT, which only the worker reads (tests only):
// there is no input left that crashes qc by itself.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <chrono>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

QString clip(const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.path() + "/" + name;
    const RunResult r = ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25:d=0.4", "-c:v", "ffv1", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}

// The fault for one run of the binary (the test process's environment, inherited by
// cudascope and its workers).
struct Fault {
    explicit Fault(const QByteArray& value) { qputenv("CUDASCOPE_QC_WORKER_FAULT", value); }
    ~Fault() { qunsetenv("CUDASCOPE_QC_WORKER_FAULT"); }
};

QStringList entries(const QString& dir) { return QDir(dir).entryList(QDir::Files, QDir::Name); }

}  // namespace

TEST(QcWorkers, CrashFailsThatInputAlone) {
    QTemporaryDir dir;
    const QString a = clip(dir, "a.mkv"), crash = clip(dir, "crash.mkv"), c = clip(dir, "c.mkv");
    const QString out = dir.path() + "/qc";
    const Fault fault("crash:crash.mkv");
    const RunResult r = cudascope({"qc", a, crash, c, "--out", out, "--engine", "cpu", "--jobs", "2"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("cudascope qc: " + crash.toStdString() + ": the qc worker crashed (SIGSEGV"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2 checked, 0 skipped, 1 failed of 3 inputs"), std::string::npos) << r.err;
    // The crashed input leaves nothing (its .part files removed); the others are complete.
    EXPECT_EQ(entries(out), (QStringList{"a.mkv.qc.csv", "a.mkv.qc.html", "a.mkv.qc.json", "a.mkv.qc.pdf", "a.mkv.qc.png", "a.mkv.qctools.xml.gz",
                                         "c.mkv.qc.csv", "c.mkv.qc.html", "c.mkv.qc.json", "c.mkv.qc.pdf", "c.mkv.qc.png", "c.mkv.qctools.xml.gz"}));
    // A re-run without the fault checks it (the others are skipped: their reports are complete).
    qunsetenv("CUDASCOPE_QC_WORKER_FAULT");
    const RunResult again = cudascope({"qc", a, crash, c, "--out", out, "--engine", "cpu"});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.err.find("1 checked, 2 skipped, 0 failed of 3 inputs"), std::string::npos) << again.err;
}

TEST(QcWorkers, HangIsKilledAfterTheInputTimeout) {
    QTemporaryDir dir;
    const QString hang = clip(dir, "hang.mkv"), b = clip(dir, "b.mkv");
    const QString out = dir.path() + "/qc";
    const Fault fault("hang:hang.mkv");
    const auto start = std::chrono::steady_clock::now();
    // Long enough for b.mkv's worker (64x48, 10 frames) to start and finish a frame on a
    // loaded machine; scaled for the sanitizer builds.
    const int timeout = 4 * CS_TEST_TIME_SCALE;
    const RunResult r = cudascope({"qc", hang, b, "--out", out, "--engine", "cpu", "--input-timeout", QString::number(timeout)});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find(hang.toStdString() + ": timed out: no frame finished in " + std::to_string(timeout) +
                         " s (--input-timeout), the qc worker was killed"),
              std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1 checked, 0 skipped, 1 failed of 2 inputs"), std::string::npos) << r.err;
    EXPECT_GE(seconds, double(timeout));
    EXPECT_EQ(entries(out), (QStringList{"b.mkv.qc.csv", "b.mkv.qc.html", "b.mkv.qc.json", "b.mkv.qc.pdf", "b.mkv.qc.png", "b.mkv.qctools.xml.gz"}));
}

TEST(QcWorkers, InputTimeoutIsReadStrictly) {
    QTemporaryDir dir;
    for (const char* bad : {"-1", "1.5", "86401", ""}) {
        const RunResult r = cudascope({"qc", "a.mp4", "--out", dir.path(), "--input-timeout", bad});
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--input-timeout must be whole seconds from 0 to 86400"), std::string::npos) << r.err;
    }
}

TEST(QcWorkers, WorkerCommandRefusesWhatQcDoesNotGive) {
    for (const QStringList& args : {QStringList{"qc-worker"}, QStringList{"qc-worker", "--result-fd", "1", "x.mp4"},
                                    QStringList{"qc-worker", "--result-fd", "99", "--", "x.mp4", "--out", "o"}}) {
        const RunResult r = cudascope(args);
        EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
        EXPECT_NE(r.err.find("cudascope qc-worker: the worker of `cudascope qc`"), std::string::npos) << r.err;
    }
}

// One thread budget for the run: each worker process gets --threads / --jobs (at least one),
// which its software decoder runs with (the decoder its qc.json names).
TEST(QcWorkers, EachJobGetsItsShareOfTheThreads) {
    QTemporaryDir dir;
    const QString a = dir.path() + "/a.mp4", b = dir.path() + "/b.mp4";
    for (const QString& path : {a, b})
        ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25:d=0.2", "-c:v", "libx264", "-pix_fmt", "yuv420p", path})
                      .exitCode, 0);
    for (const auto& [threads, decoder] : {std::pair{"4", "h264 (software, 2 threads)"}, {"1", "h264 (software, 1 thread)"}}) {
        const QString out = dir.path() + "/qc" + threads;
        const RunResult r = cudascope({"qc", a, b, "--out", out, "--engine", "cpu", "--jobs", "2", "--threads", threads});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        for (const char* name : {"a.mp4", "b.mp4"}) {
            const QJsonObject report = readJson(out.toStdString() + "/" + name + ".qc.json");
            EXPECT_EQ(report["source"].toObject()["decoder"].toString().toStdString(), decoder) << name;
        }
    }
    const RunResult bad = cudascope({"qc", a, "--out", dir.path() + "/bad", "--threads", "0"});
    EXPECT_EQ(bad.exitCode, 2) << bad.err;
    EXPECT_NE(bad.err.find("--threads"), std::string::npos) << bad.err;
}
