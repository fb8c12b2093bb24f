// The command line's strictness, through the binary: every option read whole and once,
// every message `cudascope <command>: <subject>: <reason>` on one line (usage errors: the
// reason, then the usage, exit 2; runtime errors: exit 1), the output folder checked before
// anything is written, and the window without a display.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QProcessEnvironment>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

// A usage error: exit 2, the sentence on the first line, the command's usage after it.
void expectUsageError(const RunResult& r, const std::string& line) {
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(firstLine(r.err), line) << r.err;
    EXPECT_NE(r.err.find("\nusage: cudascope"), std::string::npos) << r.err;
}

// A runtime error: exit 1, one line.
void expectRuntimeError(const RunResult& r, const std::string& prefix) {
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_TRUE(startsWith(r.err, prefix)) << r.err;
}

// cudascope with the environment changed: `unset` removed, `set` added.
RunResult cudascopeWithEnvironment(const QStringList& args, const QStringList& unset,
                                   const QList<QPair<QString, QString>>& set = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto& name : unset) env.remove(name);
    for (const auto& [name, value] : set) env.insert(name, value);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(CS_TEST_CUDASCOPE, args);
    RunResult r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

const QStringList kNoDisplay{"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"};

// An X display number with no server: no socket for it (xvfb-run -a counts up from 99).
QString deadDisplay() {
    for (int n = 4711;; ++n)
        if (!QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n))) return QStringLiteral(":%1").arg(n);
}

}  // namespace

TEST(CommandLine, SizeWithThreeNumbersIsRefused) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1", "--size", "64x64x64"});
    expectUsageError(r, "cudascope export: --size must be WxH (from 64x64 to 8192x8192), not '64x64x64'");
    EXPECT_FALSE(QFile::exists(dir.path() + "/report.json"));
}

TEST(CommandLine, NumberWithASpaceIsRefused) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", " 5"});
    expectUsageError(r, "cudascope export: --max-frames must be a positive whole number, not ' 5'");
}

TEST(CommandLine, RepeatedSingleValuedOptionIsRefused) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1", "--preview", "zebra",
                              "--preview", "edges"});
    expectUsageError(r, "cudascope export: --preview is given more than once");
}

TEST(CommandLine, UnknownLastOptionIsUnknown) {
    QTemporaryDir dir;
    expectUsageError(cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--bogus"}),
                     "cudascope export: unknown option --bogus");
    expectUsageError(cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--bogus=1"}),
                     "cudascope export: unknown option --bogus");
    expectUsageError(cudascope({"export", "pattern:bars:64x48", "--=3", "--out", dir.path()}),
                     "cudascope export: unknown option --=3");
}

TEST(CommandLine, LastOptionWithoutItsValueNeedsAValue) {
    expectUsageError(cudascope({"export", "pattern:bars:64x48", "--out"}), "cudascope export: --out needs a value");
}

TEST(CommandLine, UnavailableCudaEngineNamesTheInput) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--engine", "cuda", "--max-frames", "1"});
    if (r.exitCode == 0) GTEST_SKIP() << "the CUDA engine runs here";
    expectRuntimeError(r, "cudascope export: pattern:bars:64x48: CUDA engine unavailable");
#ifdef CS_TEST_HAVE_CUDA
    // No NVIDIA driver on this machine: the reason says so (not the runtime's "driver version is insufficient").
    if (!QFile::exists("/dev/nvidiactl")) {
        EXPECT_NE(r.err.find("no NVIDIA GPU or driver"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("insufficient"), std::string::npos) << r.err;
    }
#else
    // A build without CUDA (the sanitizer presets) says that, whatever the machine has.
    EXPECT_NE(r.err.find("this build has no CUDA support"), std::string::npos) << r.err;
#endif
}

TEST(CommandLine, OutputIntoTheFileSystemRootIsRefused) {
    const bool reportBefore = QFile::exists("/report.json");
    for (const QString out : {"/", "//", "/tmp/..", "/."}) {
        const auto r = cudascope({"export", "pattern:bars:64x48", "--out", out, "--max-frames", "1", "--scopes", "stats"});
        expectRuntimeError(r, "cudascope export: " + out.toStdString() +
                                  ": refusing to write an export into the root of the file system");
    }
    EXPECT_EQ(QFile::exists("/report.json"), reportBefore);
}

TEST(CommandLine, OutputIntoAFolderOfOtherFilesIsRefused) {
    QTemporaryDir dir;
    QFile notes(dir.path() + "/notes.txt");
    ASSERT_TRUE(notes.open(QIODevice::WriteOnly));
    notes.write("mine\n");
    notes.close();
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1"});
    expectRuntimeError(r, "cudascope export: " + dir.path().toStdString() + ": the output folder holds other files");
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{"notes.txt"});
}

TEST(CommandLine, ReExportIntoTheSameFolderIsAllowed) {
    QTemporaryDir dir;
    const QString out = dir.path() + "/out";
    const QStringList args{"export", "pattern:bars:64x48", "--out", out, "--max-frames", "1", "--scopes", "picture,stats"};
    ASSERT_EQ(cudascope(args).exitCode, 0);
    const auto again = cudascope(args);
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(readJson(out.toStdString() + "/report.json")["frames"].toArray().size(), 1);
}

TEST(CommandLine, ExportIntoAFolderOfAnInterruptedExportIsAllowed) {
    // A run stopped before its report leaves frame files only.
    QTemporaryDir dir;
    QFile frame(dir.path() + "/000000-picture.png");
    ASSERT_TRUE(frame.open(QIODevice::WriteOnly));
    frame.close();
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(QFile::exists(dir.path() + "/report.json"));
}

// An earlier export is recognised by its file names exactly (README "Export files"): six or
// more digits, a dash, a scope or preview-NAME, .png or .npy; a name close to one is another file.
TEST(CommandLine, OnlyExportFileNamesMarkAnEarlierExport) {
    const auto folderWith = [](QTemporaryDir& dir, const QString& name) {
        QFile file(dir.path() + "/" + name);
        return file.open(QIODevice::WriteOnly);
    };
    for (const QString name : {"12345-picture.png", "000000-picture.jpg", "000000-pictures.png", "000000picture.png",
                               "000000-preview-.png", "000000-preview-Blur.png", "000000-preview-blur2.png",
                               "x000000-cie.npy", "000000-cie.npy.part", "report.json.part"}) {
        SCOPED_TRACE(name.toStdString());
        QTemporaryDir dir;
        ASSERT_TRUE(folderWith(dir, name));
        const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1", "--scopes", "stats"});
        expectRuntimeError(r, "cudascope export: " + dir.path().toStdString() + ": the output folder holds other files");
    }
    for (const QString name : {"report.json", "1234567-cie.npy", "000042-waveform.npy", "000000-preview-falsecolour.png"}) {
        SCOPED_TRACE(name.toStdString());
        QTemporaryDir dir;
        ASSERT_TRUE(folderWith(dir, name));
        const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1", "--scopes", "stats"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
    }
}

TEST(CommandLine, EveryDocumentedExportOptionIsAccepted) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--every", "2", "--max-frames", "1",
                              "--engine", "cpu", "--hwdec", "none", "--scopes",
                              "picture,histogram,waveform,parade,vectorscope,stats", "--parade", "ycbcr", "--preview",
                              "zebra", "--matrix", "709", "--range", "full", "--histogram-scale", "log",
                              "--waveform-scale", "code", "--size", "128x64"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto report = readJson(dir.path().toStdString() + "/report.json");
    EXPECT_EQ(report["scopes"].toObject()["parade"].toString(), "ycbcr");
    EXPECT_EQ(report["scopes"].toObject()["preview"].toString(), "zebra");
    EXPECT_EQ(report["scopes"].toObject()["range"].toString(), "full");
    EXPECT_TRUE(QFile::exists(dir.path() + "/000000-preview-zebra.png"));
    // The waveform image is --size (a PNG's IHDR: width, height as big-endian words at 16, 20).
    const std::string png = readFile(dir.path().toStdString() + "/000000-waveform.png");
    ASSERT_GE(png.size(), 24u);
    const auto word = [&](size_t at) {
        return uint32_t(uint8_t(png[at])) << 24 | uint32_t(uint8_t(png[at + 1])) << 16 | uint32_t(uint8_t(png[at + 2])) << 8 |
               uint32_t(uint8_t(png[at + 3]));
    };
    EXPECT_EQ(word(16), 128u);
    EXPECT_EQ(word(20), 64u);
}

// --preview gamut: the picture with the pixels outside --gamut-target painted, as a PNG of the
// picture's size.
TEST(CommandLine, ExportWritesTheGamutPreview) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "pattern:bars:64x48", "--out", dir.path(), "--max-frames", "1", "--engine", "cpu",
                              "--hwdec", "none", "--preview", "gamut", "--gamut-target", "bt2020"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto report = readJson(dir.path().toStdString() + "/report.json");
    EXPECT_EQ(report["scopes"].toObject()["preview"].toString(), "gamut");
    const std::string png = readFile(dir.path().toStdString() + "/000000-preview-gamut.png");
    ASSERT_GE(png.size(), 24u);
    EXPECT_EQ(uint8_t(png[19]), 64u);   // IHDR width, big-endian at 16
    EXPECT_EQ(uint8_t(png[23]), 48u);   // IHDR height at 20
}

TEST(CommandLine, EveryBenchOptionIsAccepted) {
    const auto r = cudascope({"bench", "pattern:bars:64x48", "--engine", "cpu", "--frames", "2", "--hwdec", "none",
                              "--threads", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("| pattern:bars:64x48 | all + counts | 2 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| pattern:bars:64x48 | all + cie + counts | 2 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| pattern:bars:64x48 | all + cie, no counts | 2 |"), std::string::npos) << r.out;
}

TEST(CommandLine, OptionValuesMayFollowAnEqualsSign) {
    QTemporaryDir dir;
    const auto r = cudascope({"export", "--out=" + dir.path(), "--max-frames=2", "--scopes=stats", "pattern:ramp:64x48"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(readJson(dir.path().toStdString() + "/report.json")["frames"].toArray().size(), 2);
}

TEST(CommandLine, RuntimeErrorsNameCommandInputAndReason) {
    QTemporaryDir dir;
    expectRuntimeError(cudascope({"export", "/nonexistent/clip.mp4", "--out", dir.path()}),
                       "cudascope export: /nonexistent/clip.mp4: ");
    expectRuntimeError(cudascope({"probe", "/nonexistent/clip.mp4"}), "cudascope probe: /nonexistent/clip.mp4: ");
    expectRuntimeError(cudascope({"export", "pattern:bars:64x64x64", "--out", dir.path()}),
                       "cudascope export: pattern:bars:64x64x64: unknown pattern option '64x64x64'");
    expectRuntimeError(cudascope({"probe", "udp://127.0.0.1:1234?timeout=1s"}),
                       "cudascope probe: udp://127.0.0.1:1234?timeout=1s: timeout must be a whole number");
}

TEST(CommandLine, InputBytesArePassedThroughUnchanged) {
    // A Latin-1 file name (not UTF-8) reaches the error message byte for byte.
    QTemporaryDir dir;
    QProcess p;
    p.start("/bin/sh", {"-c", "exec \"$0\" export \"$(printf '/nonexistent/caf\\351.mp4')\" --out \"$1\"", CS_TEST_CUDASCOPE,
                        dir.path()});
    ASSERT_TRUE(p.waitForFinished(60000));
    EXPECT_EQ(p.exitCode(), 1);
    const QByteArray err = p.readAllStandardError();
    EXPECT_TRUE(err.startsWith("cudascope export: /nonexistent/caf\xe9.mp4: ")) << err.toStdString();
}

TEST(CommandLine, UsageErrorsOfProbeAndBench) {
    expectUsageError(cudascope({"probe", "a.mp4", "b.mp4"}), "cudascope probe: one INPUT only: unexpected argument 'b.mp4'");
    expectUsageError(cudascope({"probe", "--bogus", "a.mp4"}), "cudascope probe: unknown option --bogus");
    expectUsageError(cudascope({"bench", "--frames", "5x"}), "cudascope bench: --frames must be a positive whole number, not '5x'");
    expectUsageError(cudascope({"bench", "--threads", "-1"}), "cudascope bench: --threads must be a whole number from 0 to 1024, not '-1'");
    expectUsageError(cudascope({"bench", "--engine", "cpu", "--engine", "cuda"}), "cudascope bench: --engine is given more than once");
}

TEST(CommandLine, WindowWithoutDisplayIsOneLineAndExitOne) {
    const auto r = cudascopeWithEnvironment({"pattern:bars"}, kNoDisplay);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_TRUE(startsWith(r.err, "cudascope: ")) << r.err;
    EXPECT_NE(r.err.find("cudascope export"), std::string::npos) << r.err;
}

TEST(CommandLine, WindowWithAnUnreachableDisplayIsOneLineAndExitOne) {
    const QString display = deadDisplay();
    const auto r = cudascopeWithEnvironment({"pattern:bars"}, kNoDisplay, {{"DISPLAY", display}});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cudascope export"), std::string::npos) << r.err;
#if CS_TEST_HAVE_GUI
    EXPECT_TRUE(startsWith(r.err, "cudascope: DISPLAY=" + display.toStdString() + ": cannot open the display")) << r.err;
#endif
}

TEST(CommandLine, WindowRefusesExportOptions) {
    // No display either: were --out taken, the window would fail with exit 1, not hang.
    const auto r = cudascopeWithEnvironment({"pattern:bars", "--out", "x"}, kNoDisplay);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(startsWith(r.err, "cudascope: unknown option --out (the window takes only INPUT, --compare and --wall; --out is an option of "
                                  "`cudascope export`)\nusage: "))
        << r.err;
    // Several inputs are a wall, which needs a display as the window does.
    const auto wall = cudascopeWithEnvironment({"a.mp4", "b.mp4"}, kNoDisplay);
    EXPECT_EQ(wall.exitCode, 1) << wall.err;
    EXPECT_TRUE(startsWith(wall.err, "cudascope: no display")) << wall.err;
    expectUsageError(cudascopeWithEnvironment({"--wall", "a.wall", "b.mp4"}, kNoDisplay),
                     "cudascope: --wall FILE takes no INPUT: unexpected argument 'b.mp4'");
    expectUsageError(cudascopeWithEnvironment({"--wall="}, kNoDisplay), "cudascope: --wall needs a file");
    // A wall file that cannot be read: one line naming it, exit 1 (before the display is looked for).
    const auto missing = cudascopeWithEnvironment({"--wall", "/nonexistent/studio.wall"}, kNoDisplay);
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_EQ(missing.err, "cudascope: /nonexistent/studio.wall: No such file or directory\n");
}

TEST(CommandLine, WindowCompareTakesOneInput) {
    // `cudascope A --compare B`: B is read as the option's value (then the missing display
    // is the only complaint); without a value, twice, or empty it is a usage error.
    const auto ok = cudascopeWithEnvironment({"pattern:bars", "--compare", "pattern:ramp"}, kNoDisplay);
    EXPECT_EQ(ok.exitCode, 1) << ok.err;
    EXPECT_TRUE(startsWith(ok.err, "cudascope: no display")) << ok.err;
    expectUsageError(cudascopeWithEnvironment({"pattern:bars", "--compare"}, kNoDisplay), "cudascope: --compare needs a value");
    expectUsageError(cudascopeWithEnvironment({"pattern:bars", "--compare", "a.mp4", "--compare=b.mp4"}, kNoDisplay),
                     "cudascope: --compare is given more than once");
    expectUsageError(cudascopeWithEnvironment({"pattern:bars", "--compare="}, kNoDisplay),
                     "cudascope: --compare needs an input (a file, pattern:..., a URL or a camera)");
    expectUsageError(cudascopeWithEnvironment({"a.mp4", "b.mp4", "--compare", "c.mp4"}, kNoDisplay),
                     "cudascope: --compare compares one INPUT with B; a wall (several INPUTs or --wall) has no B");
}
