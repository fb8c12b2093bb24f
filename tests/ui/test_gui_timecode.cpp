// GUI test (QTest, under Xvfb) of source timecode in the window: a clip the ffmpeg CLI writes
// with -timecode 10:00:00:00 (a MOV tmcd track) shows 10:00:00:00 in the transport's readout
// at its first frame, "TC" beside it and in the status bar; Ctrl+G opens Go to Timecode, which
// seeks exactly to the frame typed; a bad input shows a message naming it and the dialog
// stays; a click on the readout switches to the elapsed time (View > Show Elapsed Time
// follows) and back. The Timeline panel fills from its background pass (the cudascope
// binary's qc, as the application runs itself) with the values `cudascope qc` writes for the
// same file, while playback presents every frame, or from a qc report beside the video
// without a pass (preferred to qc's QCTools document beside it, whose values equal the
// report's); Open Statistics... fills it from that QCTools document; a click on it seeks.
// With CS_TEST_SCREENSHOT_DIR set the window is saved there as timeline.png and
// timeline-qctools.png. Exits 77 without a display or GL 3.3.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <cmath>
#include <functional>

#include "GuiTestSupport.h"
#include "ui/main/GoToTimecodeDialog.h"
#include "ui/main/MainWindow.h"
#include "ui/main/Player.h"
#include "ui/timeline/QcToolsDocument.h"
#include "ui/timeline/TimelinePanel.h"

namespace {
constexpr int kWaitMs = 20000;
}

class TimecodeGuiTest : public QObject {
    Q_OBJECT

private:
    cs::MainWindow* window_ = nullptr;
    QTemporaryDir files_;
    QString clip_;

    cs::Player& player() { return window_->player(); }
    cs::timeline::TimelinePanel& timeline() { return *window_->timeline(); }
    static QJsonObject runQc(const QString& clip, const QString& out, bool qctools = false) {
        QProcess p;
        QStringList args{"qc", clip, "--out", out, "--engine", "cpu"};
        if (!qctools) args << QStringLiteral("--no-qctools");
        p.start(QStringLiteral(CS_TEST_CUDASCOPE), args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) return {};
        QFile f(out + QLatin1Char('/') + QFileInfo(clip).fileName() + QStringLiteral(".qc.json"));
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }
    // The timeline's values are qc's for every frame and series.
    void compareWithQc(const QJsonObject& report) {
        using cs::timeline::Series;
        const QJsonArray frames = report["frames"].toArray();
        const cs::timeline::TimelineData& d = timeline().data();
        QCOMPARE(d.frames(), int64_t(frames.size()));
        int compared = 0;
        for (int i = 0; i < frames.size(); ++i) {
            const QJsonObject f = frames[i].toObject(), s = f["stats"].toObject();
            const std::pair<Series, double> expected[] = {
                {Series::YMin, s["y"].toObject()["min"].toDouble()}, {Series::YAvg, s["y"].toObject()["avg"].toDouble()},
                {Series::YMax, s["y"].toObject()["max"].toDouble()}, {Series::UAvg, s["u"].toObject()["avg"].toDouble()},
                {Series::VAvg, s["v"].toObject()["avg"].toDouble()}, {Series::SatAvg, f["satavg"].toDouble()},
                {Series::Ydif, f["ydif"].toDouble()},                {Series::OutOfLegal, s["out_of_legal"].toDouble()},
                {Series::OutsideTarget, f["gamut"].toObject()["outside_share"].toDouble()}};
            for (const auto& [series, value] : expected) {
                QCOMPARE(d.value(series, i), float(value));
                ++compared;
            }
            if (f.contains("audio")) {   // the loudness band: qc's values, the floor where it has none
                const QJsonValue m = f["audio"].toObject()["momentary"], st = f["audio"].toObject()["short_term"];
                QCOMPARE(d.value(Series::Momentary, i), m.isDouble() ? std::max(float(m.toDouble()), cs::timeline::kLoudnessFloor)
                                                                     : cs::timeline::kLoudnessFloor);
                QCOMPARE(d.value(Series::ShortTerm, i), st.isDouble() ? std::max(float(st.toDouble()), cs::timeline::kLoudnessFloor)
                                                                      : cs::timeline::kLoudnessFloor);
                compared += 2;
            }
            QCOMPARE(QString::fromStdString(d.timecode(i)), f["timecode"].toString());
        }
        QCOMPARE(int(d.events().size()), int(report["events"].toArray().size()));
        QVERIFY(compared > 0);
    }
    QLabel* label(const char* name) { return window_->findChild<QLabel*>(QString::fromLatin1(name)); }
    QString readout() { return label("timecode")->text(); }
    // Runs `inDialog` on Go to Timecode once Ctrl+G has opened it (exec() runs its own loop).
    void withDialog(const std::function<void(cs::GoToTimecodeDialog*)>& inDialog) {
        bool ran = false;
        QTimer::singleShot(0, this, [&] {
            cs::test::waitUntil([] { return qobject_cast<cs::GoToTimecodeDialog*>(QApplication::activeModalWidget()); }, kWaitMs);
            auto* dialog = qobject_cast<cs::GoToTimecodeDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            ran = true;
            inDialog(dialog);
        });
        QTest::keyClick(window_, Qt::Key_G, Qt::ControlModifier);
        QVERIFY2(ran, "Ctrl+G opened no Go to Timecode dialog");
    }

private slots:
    void initTestCase() {
        QVERIFY(files_.isValid());
        cs::timeline::TimelinePass::setProgram(QStringLiteral(CS_TEST_CUDASCOPE));
        cs::timeline::TimelinePass::setCacheFolder(files_.filePath(QStringLiteral("cache")));
        clip_ = files_.filePath(QStringLiteral("tc.mov"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                     "testsrc2=size=320x180:rate=25:d=3", "-f", "lavfi", "-i", "sine=f=997:d=3:sample_rate=48000",
                                     "-timecode", "10:00:00:00", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12",
                                     "-c:a", "pcm_s16le", clip_}));
        window_ = new cs::MainWindow("cpu");
        window_->resize(1280, 720);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_));   // the window's shortcuts (Ctrl+G) need it active
        window_->timelineDock()->show();   // hidden by default; the pass runs while it shows
        window_->openInput(clip_);
        QVERIFY(cs::test::waitUntil([&] { return player().hasFrame() && player().presentedFrames() > 0; }, kWaitMs));
        player().pause();
        player().goToStart();
    }
    void cleanupTestCase() {
        delete window_;
        window_ = nullptr;
    }

    void transportShowsTheSourceTimecode() {
        QTRY_COMPARE_WITH_TIMEOUT(readout(), QStringLiteral("10:00:00:00"), kWaitMs);
        QCOMPARE(label("timecodeKind")->text(), QStringLiteral("TC"));
        QVERIFY2(label("timecode")->toolTip().contains(QStringLiteral("mov tmcd track")), qPrintable(label("timecode")->toolTip()));
        QTRY_COMPARE_WITH_TIMEOUT(label("statusTimecode")->text(), QStringLiteral("TC 10:00:00:00"), kWaitMs);
    }

    void ctrlGSeeksExactlyToTheFrame() {
        withDialog([](cs::GoToTimecodeDialog* d) {
            d->findChild<QLineEdit*>(QStringLiteral("timecodeInput"))->setText(QStringLiteral("10:00:01:07"));
            d->tryAccept();
        });
        QTRY_COMPARE_WITH_TIMEOUT(readout(), QStringLiteral("10:00:01:07"), kWaitMs);
        QCOMPARE(player().currentFrameNumber(), int64_t(32));
        QCOMPARE(QString::fromStdString(player().currentFrame().timecode.text()), QStringLiteral("10:00:01:07"));
        // The eight digits alone, and backwards.
        withDialog([](cs::GoToTimecodeDialog* d) {
            d->findChild<QLineEdit*>(QStringLiteral("timecodeInput"))->setText(QStringLiteral("10000003"));
            d->tryAccept();
        });
        QTRY_COMPARE_WITH_TIMEOUT(readout(), QStringLiteral("10:00:00:03"), kWaitMs);
        QCOMPARE(player().currentFrameNumber(), int64_t(3));
        // Save Scopes names the files by frame number and source timecode.
        auto written = window_->saveScopesTo(files_.filePath(QStringLiteral("scopes")), 320, 180);
        QVERIFY2(written.ok(), written.message().c_str());
        QVERIFY2(written->first().endsWith(QStringLiteral("/tc-000003-10_00_00_03-picture.png")), qPrintable(written->first()));
    }

    void badInputIsNamed() {
        QString shown;
        bool stayed = false;
        withDialog([&](cs::GoToTimecodeDialog* d) {
            d->findChild<QLineEdit*>(QStringLiteral("timecodeInput"))->setText(QStringLiteral("10:00:99:00"));
            d->tryAccept();
            QLabel* error = d->findChild<QLabel*>(QStringLiteral("timecodeError"));
            shown = error->isVisible() ? error->text() : QString();
            d->findChild<QLineEdit*>(QStringLiteral("timecodeInput"))->setText(QStringLiteral("11:00:00:00"));
            d->tryAccept();
            stayed = d->isVisible();
            const QString after = error->text();
            shown += QStringLiteral(" | ") + after;
            d->reject();
        });
        QVERIFY2(shown.startsWith(QStringLiteral("10:00:99:00: minutes and seconds")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("| 11:00:00:00: is after the end (10:00:02:24)")), qPrintable(shown));
        QVERIFY(stayed);
        QCOMPARE(readout(), QStringLiteral("10:00:00:03"));   // nothing moved
        // Without the dialog: the same sentence.
        const cs::Status st = window_->goToTimecode(QStringLiteral("garbage"));
        QVERIFY(!st.ok());
        QVERIFY2(QString::fromStdString(st.message()).startsWith(QStringLiteral("garbage: not a timecode")), st.message().c_str());
    }

    void clickSwitchesToElapsedTime() {
        QAction* elapsed = window_->findChild<QAction*>(QStringLiteral("showElapsed"));
        QVERIFY(elapsed);
        QVERIFY(!elapsed->isChecked());
        QTest::mouseClick(label("timecode"), Qt::LeftButton);
        QCOMPARE(readout(), QStringLiteral("00:00:00:03"));
        QCOMPARE(label("timecodeKind")->text(), QStringLiteral("elapsed"));
        QVERIFY(elapsed->isChecked());
        // Go to timecode reads what is shown: elapsed time now.
        QVERIFY(window_->goToTimecode(QStringLiteral("00:00:02:00")).ok());
        QTRY_COMPARE_WITH_TIMEOUT(readout(), QStringLiteral("00:00:02:00"), kWaitMs);
        QCOMPARE(player().currentFrameNumber(), int64_t(50));
        elapsed->setChecked(false);
        QCOMPARE(readout(), QStringLiteral("10:00:02:00"));
        QCOMPARE(label("timecodeKind")->text(), QStringLiteral("TC"));
    }

    void timelineFilledByTheBackgroundPass() {
        QVERIFY(window_->timelineDock()->isVisible());
        QVERIFY2(cs::test::waitUntil([&] { return !timeline().passRunning() && timeline().data().frames() == 75; }, 60000),
                 qPrintable(timeline().status()));
        QVERIFY2(timeline().status().contains(QStringLiteral("pass")), qPrintable(timeline().status()));
        const QJsonObject reference = runQc(clip_, files_.filePath(QStringLiteral("reference")));
        QVERIFY(!reference.isEmpty());
        compareWithQc(reference);
        // A click on the timeline seeks there.
        cs::timeline::TimelineView* view = timeline().view();
        int x = 0;
        while (x < view->width() && view->frameAtX(x) < 60) ++x;
        const int64_t target = view->frameAtX(x);
        QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(x, view->height() / 2));
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), target, kWaitMs);
        QCOMPARE(view->describeFrame(target).left(11), QString::fromStdString(player().currentFrame().timecode.text()));
        if (const QByteArray dir = qgetenv("CS_TEST_SCREENSHOT_DIR"); !dir.isEmpty())
            window_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/timeline.png"));
        // Shift+drag and a right drag select a range and zoom to it (at least the view's
        // narrowest span, some 65 frames here), seeking nowhere.
        const auto xOf = [&](int64_t frame) {
            int at = 0;
            while (at < view->width() && view->frameAtX(at) < frame) ++at;
            return at;
        };
        for (const auto& [button, modifiers] : {std::pair{Qt::LeftButton, Qt::KeyboardModifiers(Qt::ShiftModifier)},
                                                std::pair{Qt::RightButton, Qt::KeyboardModifiers()}}) {
            view->showWhole();
            const int x0 = xOf(20), x1 = xOf(40), y = view->height() / 2;
            QTest::mousePress(view, button, modifiers, QPoint(x0, y));
            QTest::mouseMove(view, QPoint((x0 + x1) / 2, y));
            QTest::mouseMove(view, QPoint(x1, y));
            QTest::mouseRelease(view, button, modifiers, QPoint(x1, y));
            QVERIFY2(view->firstVisible() <= 20 && view->lastVisible() >= 40 && view->lastVisible() - view->firstVisible() + 1 < 75,
                     qPrintable(QStringLiteral("frames %1-%2 shown").arg(view->firstVisible()).arg(view->lastVisible())));
            QCOMPARE(player().currentFrameNumber(), target);
        }
        view->showWhole();
    }

    void timelineFromAReportBesideTheVideo() {
        const QString clip = files_.filePath(QStringLiteral("beside.mov"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                     "testsrc2=size=160x90:rate=25:d=1", "-timecode", "01:00:00:00", "-c:v", "libx264",
                                     "-pix_fmt", "yuv420p", clip}));
        // NAME.qc.json and NAME.qctools.xml.gz beside the video: the report is read (it has more).
        const QJsonObject report = runQc(clip, files_.path(), true);
        QVERIFY(!report.isEmpty());
        window_->openInput(clip);
        QVERIFY(cs::test::waitUntil([&] { return timeline().data().frames() == 25; }, kWaitMs));
        QVERIFY2(timeline().status().contains(QStringLiteral("qc report beside")), qPrintable(timeline().status()));
        QVERIFY(!timeline().passRunning());
        compareWithQc(report);

        // qc's QCTools document equals its report in the series both carry.
        const QString document = clip + QStringLiteral(".qctools.xml.gz");
        auto read = cs::timeline::readQcToolsDocument(document);
        QVERIFY2(read.ok(), read.message().c_str());
        const cs::timeline::TimelineData& fromReport = timeline().data();
        QCOMPARE(read->frames(), fromReport.frames());
        using cs::timeline::Series;
        for (int64_t i = 0; i < read->frames(); ++i) {
            QVERIFY(std::abs(read->pts(i) - fromReport.pts(i)) < 1e-6);
            for (Series s : {Series::YMin, Series::YAvg, Series::YMax, Series::UAvg, Series::VAvg, Series::SatAvg, Series::Ydif}) {
                // The document writes averages as %g (six significant digits), the report in full.
                const float want = fromReport.value(s, i), got = read->value(s, i);
                QVERIFY2(std::abs(got - want) <= std::abs(want) * 1e-5f + 1e-4f,
                         qPrintable(QStringLiteral("%1 frame %2: %3, the report %4").arg(cs::timeline::seriesLabel(s)).arg(i).arg(got).arg(want)));
            }
        }
        // Open Statistics... with it: the timeline shows its values, the same frame count.
        QVERIFY(timeline().findChild<QToolButton*>(QStringLiteral("timelineOpenStatistics"))->isEnabled());
        timeline().openDocument(document);
        QVERIFY2(cs::test::waitUntil([&] { return timeline().status().contains(QStringLiteral("beside.mov.qctools.xml.gz")); }, kWaitMs),
                 qPrintable(timeline().status()));
        QVERIFY(!timeline().readingDocument());
        QCOMPARE(timeline().data().frames(), int64_t(25));
        QCOMPARE(timeline().data().value(Series::YAvg, 24), read->value(Series::YAvg, 24));
        QVERIFY(!timeline().data().has(Series::OutsideTarget));
        // The document carries no timecode: its frames are labelled from the source's (a tmcd track at 01:00:00:00).
        QCOMPARE(QString::fromStdString(timeline().data().timecode(0)), QStringLiteral("01:00:00:00"));
        QCOMPARE(QString::fromStdString(timeline().data().timecode(24)), QStringLiteral("01:00:00:24"));
        // A bad one: its reason in the status line, the values kept.
        const QString bad = files_.filePath(QStringLiteral("bad.qctools.xml.gz"));
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write("not a document");
        badFile.close();
        timeline().openDocument(bad);
        QVERIFY2(cs::test::waitUntil([&] { return timeline().status().startsWith(bad + QStringLiteral(": not a QCTools document")); }, kWaitMs),
                 qPrintable(timeline().status()));
        QCOMPARE(timeline().data().frames(), int64_t(25));
        if (const QByteArray dir = qgetenv("CS_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) {
            timeline().openDocument(document);
            QVERIFY(cs::test::waitUntil([&] { return !timeline().readingDocument(); }, kWaitMs));
            window_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/timeline-qctools.png"));
        }
    }

    // The background pass (a nice-19 child process, its frame lines read on the GUI thread,
    // the whole report on a pool thread) costs playback no frame: every frame delivered while
    // it runs is presented. At 15 fps a frame is lost only to a stall of 67 ms, which the
    // pass could cause (a whole report read on the GUI thread did) and a loaded CI machine
    // does not.
    void playbackDropsNoFrameWhileThePassRuns() {
        const QString clip = files_.filePath(QStringLiteral("played.mov"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                     "testsrc2=size=256x144:rate=15:d=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip}));
        window_->openInput(clip);   // the pass starts (the dock shows)
        // Adopted (its counts start from 0; no clip before was 256 wide) and shown.
        QVERIFY(cs::test::waitUntil([&] { return player().info().width == 256 && player().presentedFrames() > 0; }, kWaitMs));
        player().play();
        QVERIFY2(timeline().passRunning(), qPrintable(timeline().status()));
        const cs::Player::FrameCounts before = player().frameCounts();
        QVERIFY2(cs::test::waitUntil([&] { return !timeline().passRunning() || player().atEnd(); }, 60000),
                 qPrintable(timeline().status()));
        const cs::Player::FrameCounts during = player().frameCounts();
        const int64_t shown = during.shown - before.shown;
        QVERIFY2(shown >= 3, qPrintable(QStringLiteral("only %1 frames presented while the pass ran").arg(shown)));
        QCOMPARE(during.dropped() - before.dropped(), int64_t(0));
        QCOMPARE(during.delivered - before.delivered, shown + (during.skipped - before.skipped));
        QVERIFY(cs::test::waitUntil([&] { return !timeline().passRunning(); }, 60000));
        QCOMPARE(timeline().data().frames(), int64_t(60));
    }
};

CS_GUI_TEST_MAIN(TimecodeGuiTest)
#include "test_gui_timecode.moc"
