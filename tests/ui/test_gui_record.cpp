// GUI tests (QTest) of the window's recording under a real X display with OpenGL 3.3 (Xvfb
// and Mesa in CI): a second of the panels as shown records at the size asked, with the frames
// the recorder counted, BT.709 tags and wall-clock timestamps; the status bar shows the red
// indicator while it runs (a screenshot of the window is written next to the test's files,
// or into $CS_TEST_SCREENSHOT_DIR); the picture alone records at the source's size; the
// source's end and closing the window stop it with a playable file; an output that cannot be
// written is refused with a message in the window. Exits 77 (skipped) without a display or
// OpenGL 3.3.
#include <QDir>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

#include "GuiTestSupport.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"

namespace {

constexpr int kWaitMs = 30000;

struct Ran {
    int exitCode = -1;
    QByteArray bytes;   // stdout as it came
    QString out, err;
};

Ran run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    Ran r;
    if (!p.waitForFinished(120000)) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.bytes = p.readAllStandardOutput();
    r.out = QString::fromUtf8(r.bytes);
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString ffprobePath() {
    const QString p = QStringLiteral(CS_TEST_FFMPEG);
    return p.left(p.lastIndexOf(QStringLiteral("ffmpeg"))) + QStringLiteral("ffprobe");
}

// ffprobe's key=value lines for the first video stream, frames counted.
QString probe(const QString& file) {
    return run(ffprobePath(), {"-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                               "stream=codec_name,width,height,nb_read_frames,color_range,color_space,color_primaries,"
                               "color_transfer:format=duration",
                               "-of", "default=nw=1", file})
        .out;
}

double probedNumber(const QString& text, const QString& key) {
    const auto m = QRegularExpression(QStringLiteral("(^|\\n)%1=([0-9.]+)").arg(key)).match(text);
    return m.hasMatch() ? m.captured(2).toDouble() : -1.0;
}

// Decodes every frame; true when FFmpeg reports nothing at all. The frames keep their own
// (wall-clock) timestamps.
bool decodesCleanly(const QString& file, QString& errors) {
    const Ran r = run(QStringLiteral(CS_TEST_FFMPEG),
                      {"-v", "error", "-xerror", "-i", file, "-fps_mode", "passthrough", "-enc_time_base", "-1", "-f", "null", "-"});
    errors = r.err;
    return r.exitCode == 0 && r.err.isEmpty();
}

}  // namespace

class GuiRecordTest : public QObject {
    Q_OBJECT

    cs::MainWindow* window_ = nullptr;
    QTemporaryDir files_;

    cs::Player& player() { return window_->player(); }
    bool openAndWait(const QString& input) {
        window_->openInput(input);
        return cs::test::waitUntil(
            [&] { return player().input() == input.toStdString() && player().hasFrame() && player().presentedFrames() > 0; },
            kWaitMs);
    }
    // Waits until the running recording has been going `seconds` and has encoded `frames`.
    bool recordFor(double seconds, int64_t frames) {
        return cs::test::waitUntil(
            [&] {
                const cs::WindowRecorder* r = window_->recorder();
                return r && r->elapsedSeconds() >= seconds && r->stats().encoded >= frames;
            },
            kWaitMs);
    }

private slots:
    void initTestCase() {
        QVERIFY(files_.isValid());
        window_ = new cs::MainWindow("cpu");
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        window_->resetLayout();
        QVERIFY(openAndWait(QStringLiteral("pattern:bars:640x360")));
    }

    void cleanupTestCase() {
        delete window_;
        window_ = nullptr;
    }

    void recordsTheShownPanelsForASecond() {
        const QString out = files_.filePath(QStringLiteral("window.mp4"));
        cs::RecordRequest request;
        request.path = out;
        request.width = 640;
        request.height = 360;
        const cs::Status started = window_->startRecording(request);
        QVERIFY2(started.ok(), started.message().c_str());
        auto* indicator = window_->findChild<QLabel*>(QStringLiteral("recordIndicator"));
        QVERIFY(indicator);
        QVERIFY(recordFor(1.0, 5));
        // The elapsed time (a second at least: the window may be slow to refresh it under load,
        // a pattern being recorded frame by frame) and the frames recorded and dropped.
        const QRegularExpression elapsedShown(QStringLiteral("REC 00:[0-5][0-9]:[0-5][0-9]"));
        QVERIFY(cs::test::waitUntil(
            [&] {
                return indicator->isVisible() && indicator->text().contains(elapsedShown) &&
                       !indicator->text().contains(QStringLiteral("REC 00:00:00"));
            },
            kWaitMs));
        QVERIFY2(indicator->text().contains(QStringLiteral(" recorded, ")) && indicator->text().contains(QStringLiteral("dropped")),
                 qPrintable(indicator->text()));
        // The window as it looks while recording, to be looked at.
        const QString shotDir = qEnvironmentVariableIsSet("CS_TEST_SCREENSHOT_DIR") ? qEnvironmentVariable("CS_TEST_SCREENSHOT_DIR")
                                                                                  : files_.path();
        const QString shot = QDir(shotDir).filePath(QStringLiteral("recording-window.png"));
        QVERIFY(window_->grab().save(shot));
        qInfo("screenshot while recording: %s", qPrintable(shot));

        const double elapsed = window_->recorder()->elapsedSeconds();
        auto stopped = window_->stopRecording();
        QVERIFY2(stopped.ok(), stopped.message().c_str());
        QVERIFY(!window_->recorder());
        QVERIFY(!indicator->isVisible());

        const QString p = probe(out);
        QVERIFY2(p.contains(QStringLiteral("codec_name=h264\n")), qPrintable(p));
        QVERIFY2(p.contains(QStringLiteral("width=640\n")) && p.contains(QStringLiteral("height=360\n")), qPrintable(p));
        QVERIFY2(p.contains(QStringLiteral("color_range=tv\n")) && p.contains(QStringLiteral("color_space=bt709\n")) &&
                     p.contains(QStringLiteral("color_primaries=bt709\n")) && p.contains(QStringLiteral("color_transfer=bt709\n")),
                 qPrintable(p));
        // Every frame the recorder counted as encoded is in the file.
        const double frames = probedNumber(p, QStringLiteral("nb_read_frames"));
        QVERIFY2(frames >= 5 && frames == double(stopped->encoded), qPrintable(p + QStringLiteral("encoded %1").arg(stopped->encoded)));
        // A pattern is recorded frame by frame at its own rate: the file lasts its frames' time
        // (however long the recording ran on the wall clock).
        const double duration = probedNumber(p, QStringLiteral("duration"));
        const double rate = player().frameRate();
        QVERIFY2(std::abs(duration - frames / rate) <= 1.0 / rate + 0.01,
                 qPrintable(p + QStringLiteral("elapsed %1, rate %2").arg(elapsed).arg(rate)));
        QString errors;
        QVERIFY2(decodesCleanly(out, errors), qPrintable(errors));
        // The panels are in the frames: the last frame, cut into 8 x 8 cells of mean luma, has
        // dark cells (the scopes' backgrounds) and bright ones (the bars' white and yellow).
        const Ran cells = run(QStringLiteral(CS_TEST_FFMPEG), {"-v", "error", "-sseof", "-0.3", "-i", out, "-frames:v", "1", "-vf",
                                                             "scale=8:8:flags=area,format=gray", "-f", "rawvideo", "-"});
        QCOMPARE(cells.exitCode, 0);
        QCOMPARE(cells.bytes.size(), 64);
        const auto [darkest, brightest] = std::minmax_element(cells.bytes.begin(), cells.bytes.end(),
                                                              [](char a, char b) { return uchar(a) < uchar(b); });
        QVERIFY2(uchar(*darkest) < 40 && uchar(*brightest) > 100,
                 qPrintable(QStringLiteral("cells from %1 to %2").arg(uchar(*darkest)).arg(uchar(*brightest))));
    }

    void recordsThePictureAloneAtTheSourceSize() {
        const QString out = files_.filePath(QStringLiteral("picture.mkv"));
        cs::RecordRequest request;
        request.path = out;
        request.layout = cs::RecordLayout::Picture;
        request.codec = cs::VideoCodec::Hevc;
        QVERIFY(window_->startRecording(request).ok());
        QCOMPARE(window_->recorder()->width(), 640);
        QCOMPARE(window_->recorder()->height(), 360);
        QVERIFY(recordFor(0.3, 3));
        auto stopped = window_->stopRecording();
        QVERIFY2(stopped.ok(), stopped.message().c_str());
        const QString p = probe(out);
        QVERIFY2(p.contains(QStringLiteral("codec_name=hevc\n")), qPrintable(p));
        QVERIFY2(p.contains(QStringLiteral("width=640\n")) && p.contains(QStringLiteral("height=360\n")), qPrintable(p));
        QVERIFY2(probedNumber(p, QStringLiteral("nb_read_frames")) == double(stopped->encoded), qPrintable(p));
        // The first bar (x 80..147 at 640x360) is 75% white: R'G'B' 191 after the round trip,
        // within what the encoder may change.
        const Ran rgb = run(QStringLiteral(CS_TEST_FFMPEG), {"-v", "error", "-i", out, "-frames:v", "1", "-vf",
                                                           "crop=8:8:100:80,scale=1:1:flags=area,format=rgb24", "-f",
                                                           "rawvideo", "-"});
        QCOMPARE(rgb.exitCode, 0);
        const QByteArray& px = rgb.bytes;
        QVERIFY2(px.size() >= 3, qPrintable(rgb.err));
        for (int c = 0; c < 3; ++c) QVERIFY2(std::abs(uchar(px[c]) - 191) <= 4, qPrintable(QString::number(uchar(px[c]))));
    }

    void anOutputThatCannotBeWrittenIsShown() {
        for (const QString& out : {files_.filePath(QStringLiteral("missing/x.mp4")), files_.filePath(QStringLiteral("x.avi"))}) {
            cs::RecordRequest request;
            request.path = out;
            const cs::Status s = window_->startRecording(request);
            QVERIFY(!s.ok());
            QVERIFY(!window_->recorder());
            QVERIFY2(window_->messageText().contains(out), qPrintable(window_->messageText()));
        }
    }

    void theSourceEndingStopsTheRecording() {
        const QString clip = files_.filePath(QStringLiteral("short.mp4"));
        const Ran made = run(QStringLiteral(CS_TEST_FFMPEG), {"-v", "error", "-y", "-f", "lavfi", "-i",
                                                            "testsrc2=size=320x240:rate=25", "-frames:v", "50",
                                                            "-pix_fmt", "yuv420p", "-c:v", "libx264", clip});
        QCOMPARE(made.exitCode, 0);
        player().setLoop(false);
        QVERIFY(openAndWait(clip));
        const QString out = files_.filePath(QStringLiteral("ended.mp4"));
        cs::RecordRequest request;
        request.path = out;
        request.width = 320;
        request.height = 180;
        QVERIFY(window_->startRecording(request).ok());
        QVERIFY(cs::test::waitUntil([&] { return window_->recorder() == nullptr; }, kWaitMs));
        QString errors;
        QVERIFY2(decodesCleanly(out, errors), qPrintable(errors));
        QVERIFY(probedNumber(probe(out), QStringLiteral("nb_read_frames")) >= 1);
    }

    // A file is recorded whole at its rate, whatever the machine's load: every frame from the
    // one on screen to the end, constant frame rate (the frames' timestamps 1/25 s apart).
    void aFileUnderLoadRecordsEveryFrame() {
        const QString clip = files_.filePath(QStringLiteral("two-seconds.mp4"));
        const Ran made = run(QStringLiteral(CS_TEST_FFMPEG), {"-v", "error", "-y", "-f", "lavfi", "-i",
                                                            "testsrc2=size=320x240:rate=25", "-frames:v", "50",
                                                            "-pix_fmt", "yuv420p", "-c:v", "libx264", clip});
        QCOMPARE(made.exitCode, 0);
        player().setLoop(false);
        QVERIFY(openAndWait(clip));
        player().pause();
        const int64_t shown = player().presentedFrames();
        player().goToStart();   // paused: the seek's frame is presented once it is decoded
        QVERIFY(cs::test::waitUntil([&] { return player().presentedFrames() > shown && player().currentFrameNumber() == 0; }, kWaitMs));
        // Load: as many spinning threads as there are cores, for as long as the recording runs.
        std::atomic<bool> spin{true};
        std::vector<std::thread> load;
        for (unsigned i = 0; i < std::max(2u, std::thread::hardware_concurrency()); ++i)
            load.emplace_back([&spin] {
                volatile uint64_t x = 0;
                while (spin.load(std::memory_order_relaxed)) x = x + 1;
            });
        const QString out = files_.filePath(QStringLiteral("whole.mp4"));
        cs::RecordRequest request;
        request.path = out;
        request.width = 640;
        request.height = 360;
        const cs::Status started = window_->startRecording(request);
        player().play();
        const bool ended = started.ok() && cs::test::waitUntil([&] { return window_->recorder() == nullptr; }, 120000);
        spin = false;
        for (auto& t : load) t.join();
        QVERIFY2(started.ok(), started.message().c_str());
        QVERIFY(ended);
        const QString p = probe(out);
        QVERIFY2(probedNumber(p, QStringLiteral("nb_read_frames")) == 50.0, qPrintable(p));
        const Ran times = run(ffprobePath(), {"-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of",
                                              "csv=p=0", out});
        QCOMPARE(times.exitCode, 0);
        const QStringList pts = times.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(pts.size(), 50);
        for (int i = 1; i < pts.size(); ++i)
            QVERIFY2(std::abs(pts[i].toDouble() - pts[i - 1].toDouble() - 0.04) < 0.002, qPrintable(times.out));
    }

    void closingTheWindowClosesTheFile() {
        QVERIFY(openAndWait(QStringLiteral("pattern:ramp:640x360")));
        const QString out = files_.filePath(QStringLiteral("closed.mp4"));
        cs::RecordRequest request;
        request.path = out;
        request.width = 640;
        request.height = 360;
        QVERIFY(window_->startRecording(request).ok());
        QVERIFY(recordFor(0.2, 3));
        window_->close();
        QVERIFY(!window_->recorder());
        QString errors;
        QVERIFY2(decodesCleanly(out, errors), qPrintable(errors));
        QVERIFY(probedNumber(probe(out), QStringLiteral("nb_read_frames")) >= 3);
    }
};

CS_GUI_TEST_MAIN(GuiRecordTest)

#include "test_gui_record.moc"
