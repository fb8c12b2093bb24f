// GUI tests (QTest) of the main window under a real X display with OpenGL 3.3 (Xvfb and
// Mesa in CI): the window opens on the test pattern, playback advances, a step moves
// exactly one frame (and back), the waveform panel shows the bars at their code values
// (read back from the panel's framebuffer), "Save scopes" writes core's images, the pixel
// picker reads the hovered pixel, panels survive floating, a broken file shows an
// error while the app keeps playing, and while playing the scopes (computed ahead of
// presentation off the GUI thread) belong to the frame shown, with the settings of now. Exits 77 (skipped) without a display or OpenGL 3.3.
#include <QCryptographicHash>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDir>
#include <QLabel>
#include <QToolButton>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QUrl>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "GuiTestSupport.h"
#include "core/Engine.h"
#include "scope/Graticule.h"
#include "scope/ScopeRender.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "LiveFlightChecks.h"
#include "playback/PixelProbe.h"
#include "ui/main/ScopeExport.h"
#include "ui/main/ScopeView.h"
#include "ui/Settings.h"
#include "ui/main/SourceDialog.h"
#include "ui/main/TransportBar.h"
#include "cpu/CpuEngine.h"

using cs::gl::Plane;

namespace {

constexpr int kWaitMs = 20000;

using cs::test::freeUdpPort;

// The current frame's luma samples (the picture may be drawn from its planes on the GPU,
// so the frame itself tells frames apart).
QByteArray pictureHash(const cs::Player& player) {
    const cs::FrameView& f = player.currentFrame().view;
    QCryptographicHash hash(QCryptographicHash::Sha1);
    const int rowBytes = f.width * cs::formatInfo(f.format).bytesPerSample;
    for (int y = 0; y < f.height; ++y)
        hash.addData(QByteArrayView(reinterpret_cast<const char*>(f.data[0] + std::ptrdiff_t(y) * f.pitch[0]), rowBytes));
    return hash.result();
}

// Frame pixels shown 1:1 in the viewer's framebuffer that differ from `expected` (the
// frame's size): every frame pixel inside the view is compared.
int differingShownPixels(cs::PictureView* viewer, const cs::RgbaImage& expected, int& compared) {
    const QImage shown = viewer->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
    const cs::RectF r = viewer->layout().rect();
    int differing = 0;
    compared = 0;
    for (int y = 0; y < expected.height; ++y) {
        const int vy = int(r.y) + y;
        if (vy < 0 || vy >= shown.height()) continue;
        for (int x = 0; x < expected.width; ++x) {
            const int vx = int(r.x) + x;
            if (vx < 0 || vx >= shown.width()) continue;
            ++compared;
            if (std::memcmp(shown.constScanLine(vy) + size_t(vx) * 4, expected.at(x, y), 3) != 0) ++differing;
        }
    }
    return differing;
}

// Luminous sum of a pixel, for finding a trace's brightest row.
int light(const QImage& img, int x, int y) {
    const QRgb c = img.pixel(x, y);
    return qRed(c) + qGreen(c) + qBlue(c);
}

// What the window should show for its current frame: the CPU engine run afresh on the frame
// with the host's settings (an independent engine; images at the panels' sizes).
struct ShownCheck {
    int frames = 0, mismatches = 0, prepared = 0, distinctHistograms = 0;
    std::vector<uint32_t> lastHist;
    QStringList failures;

    void check(cs::MainWindow& window) {
        cs::Player& player = window.player();
        cs::EngineHost& host = window.engineHost();
        const cs::FrameView& frame = player.currentFrame().view;
        ScopeSpecForCheck spec(host);
        cs::ScopeResults expected;
        if (!cs::makeCpuEngine(1)->process(frame, spec.counts, expected)) {
            failures << QStringLiteral("reference engine failed");
            return;
        }
        ++frames;
        if (host.usedPrepared()) ++prepared;
        if (expected.histY != lastHist) ++distinctHistograms;
        lastHist = expected.histY;
        const cs::ScopeResults& r = host.results();
        QStringList wrong;
        if (host.resultsPts() != frame.pts) wrong << QStringLiteral("pts %1 for frame %2").arg(host.resultsPts()).arg(frame.pts);
        if (r.histY != expected.histY) wrong << QStringLiteral("histogram");
        if (r.waveform != expected.waveform) wrong << QStringLiteral("waveform");
        if (r.parade != expected.parade || r.paradeMode != expected.paradeMode) wrong << QStringLiteral("parade");
        if (r.vectorscope != expected.vectorscope) wrong << QStringLiteral("vectorscope");
        cs::RgbaImage waveform, parade;
        cs::renderWaveform(expected, spec.sized(window, Plane::Waveform), waveform);
        cs::renderParade(expected, spec.sized(window, Plane::Parade), parade);
        if (host.shownImage(Plane::Waveform).pixels != waveform.pixels) wrong << QStringLiteral("waveform image");
        if (host.shownImage(Plane::Parade).pixels != parade.pixels) wrong << QStringLiteral("parade image");
        if (!wrong.isEmpty()) {
            ++mismatches;
            failures << QStringLiteral("frame %1 (%2): %3").arg(frame.pts).arg(host.usedPrepared() ? "prepared" : "computed", wrong.join(QStringLiteral(", ")));
        }
    }

    struct ScopeSpecForCheck {
        cs::ScopeSpec counts;
        explicit ScopeSpecForCheck(cs::EngineHost& host) : counts(host.spec()) {
            // Counts only: the picture is drawn from the planes and the images for each panel.
            counts.displayImages = false;
            counts.picture = false;
            counts.preview = cs::PreviewFilter::None;
        }
        cs::ScopeSpec sized(cs::MainWindow& window, Plane p) const {
            cs::ScopeSpec s = counts;
            s.scopeWidth = std::clamp(window.scopeView(p)->pixelWidth(), 64, 4096);
            s.scopeHeight = std::clamp(window.scopeView(p)->pixelHeight(), 64, 4096);
            return s;
        }
    };
};

}  // namespace

class GuiTest : public QObject {
    Q_OBJECT

private:
    cs::MainWindow* window_ = nullptr;
    QTemporaryDir files_;

    cs::Player& player() { return window_->player(); }
    // Every frame the reader handed the player since the source opened is accounted for:
    // delivered = shown + dropped (late, replaced) + skipped (seeks, steps) + waiting.
    void expectEveryFrameAccountedFor() {
        const cs::Player::FrameCounts c = player().frameCounts();
        const QString what = QStringLiteral("delivered %1, shown %2, late %3, replaced %4, skipped %5, waiting %6")
                                 .arg(c.delivered).arg(c.shown).arg(c.late).arg(c.replaced).arg(c.skipped).arg(c.waiting);
        QVERIFY2(c.delivered > 0 && c.shown > 0, qPrintable(what));
        QVERIFY2(c.delivered == c.shown + c.dropped() + c.skipped + c.waiting, qPrintable(what));
    }
    bool waitFrames(int64_t count) {
        const int64_t target = player().presentedFrames() + count;
        return cs::test::waitUntil([&] { return player().presentedFrames() >= target; }, kWaitMs);
    }
    // Opens an input and waits until its first frame is shown.
    bool openAndWait(const QString& input) {
        const int64_t before = player().presentedFrames();
        const std::string previous = player().input();
        window_->openInput(input);
        return cs::test::waitUntil(
            [&] { return player().input() == input.toStdString() && player().hasFrame() && (player().presentedFrames() > 0) &&
                         (previous != input.toStdString() || player().presentedFrames() > before); },
            kWaitMs);
    }
    // Lets resizes, debounced re-processing and repaints settle.
    void settle(int ms = 300) { cs::test::waitUntil([] { return false; }, ms); }
    QString makeClip(const QString& name, const QString& args) {
        const QString path = files_.filePath(name);
        QProcess ffmpeg;
        QStringList a = {QStringLiteral("-hide_banner"), QStringLiteral("-loglevel"), QStringLiteral("error"), QStringLiteral("-y")};
        a += args.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        a << path;
        ffmpeg.start(QStringLiteral(CS_TEST_FFMPEG), a);
        if (!ffmpeg.waitForFinished(60000) || ffmpeg.exitCode() != 0) {
            qWarning() << "ffmpeg failed:" << ffmpeg.readAllStandardError();
            return {};
        }
        return path;
    }

private slots:
    void initTestCase() {
        QVERIFY(files_.isValid());
        window_ = new cs::MainWindow("cpu");
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        window_->resetLayout();
    }

    void cleanupTestCase() {
        delete window_;
        window_ = nullptr;
    }

    void theTransportWaitsForASource() {
        // Before any source: no timecode (not "live frame 0"), nothing to play or step.
        auto* transport = window_->findChild<cs::TransportBar*>(QStringLiteral("transport"));
        QVERIFY(transport);
        auto* timecode = transport->findChild<QLabel*>(QStringLiteral("timecode"));
        QVERIFY(timecode);
        QVERIFY2(!timecode->text().contains(QStringLiteral("live")) && !timecode->text().contains(QLatin1Char('0')),
                 qPrintable(timecode->text()));
        for (const char* name : {"play", "stepForward", "stepBack", "start", "end"}) {
            auto* b = transport->findChild<QToolButton*>(QLatin1String(name));
            QVERIFY2(b && !b->isEnabled(), name);
        }
        QTest::keyClick(window_, Qt::Key_Space);
        QVERIFY(!player().isPlaying());
        // A source opened: the transport works and the timecode shows its time.
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        for (const char* name : {"play", "stepForward"})
            QVERIFY2(transport->findChild<QToolButton*>(QLatin1String(name))->isEnabled(), name);
        QTRY_VERIFY_WITH_TIMEOUT(timecode->text().startsWith(QStringLiteral("00:00:")), kWaitMs);
    }

    void theSpeedStartsAt1x() {
        // A speed left in the settings (as earlier versions wrote it) is not taken up, and a
        // window closed at 2x does not remember it.
        QSettings().setValue(QStringLiteral("playback/speed"), 4.0);
        {
            cs::MainWindow second("cpu");
            QCOMPARE(second.player().speed(), 1.0);
            second.player().setSpeed(2.0);
            QCloseEvent close;
            QApplication::sendEvent(&second, &close);   // saves the settings, as quitting does
        }
        QSettings().remove(QStringLiteral("playback/speed"));
        cs::MainWindow third("cpu");
        QCOMPARE(third.player().speed(), 1.0);
        QVERIFY(!QSettings().contains(QStringLiteral("playback/speed")));
    }

    void theOpenDialogStartsInAFolderThatExists() {
        // ~/Videos only where it exists, else the home folder; a remembered folder that is gone
        // is passed over. (A missing folder would be taken by the dialog as a file name.)
        QTemporaryDir home;
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toLocal8Bit());
        QSettings().remove(QStringLiteral("recent/folder"));
        const QString noVideos = cs::settings::openFolder();
        QDir(home.path()).mkdir(QStringLiteral("Videos"));
        const QString videos = cs::settings::openFolder();
        cs::settings::setOpenFolder(home.filePath(QStringLiteral("gone")));
        const QString gone = cs::settings::openFolder();
        QDir(home.path()).mkdir(QStringLiteral("clips"));
        cs::settings::setOpenFolder(home.filePath(QStringLiteral("clips")));
        const QString last = cs::settings::openFolder();
        qputenv("HOME", oldHome);
        QSettings().remove(QStringLiteral("recent/folder"));
        QCOMPARE(QDir(noVideos).canonicalPath(), QDir(home.path()).canonicalPath());
        QCOMPARE(QDir(videos).canonicalPath(), QDir(home.filePath(QStringLiteral("Videos"))).canonicalPath());
        QCOMPARE(QDir(gone).canonicalPath(), QDir(home.filePath(QStringLiteral("Videos"))).canonicalPath());
        QCOMPARE(QDir(last).canonicalPath(), QDir(home.filePath(QStringLiteral("clips"))).canonicalPath());
    }

    void opensOnTheTestPattern() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        QCOMPARE(player().info().width, 1920);
        QCOMPARE(player().info().height, 1080);
        QVERIFY2(window_->messageText().isEmpty(), qPrintable(window_->messageText()));
        QVERIFY(window_->viewer()->glReady());
        for (Plane p : {Plane::Histogram, Plane::Waveform, Plane::Parade, Plane::Vectorscope, Plane::Preview}) {
            QVERIFY(window_->dock(p)->isVisible());
            QVERIFY2(window_->scopeView(p)->glReady(), qPrintable(window_->scopeView(p)->glError()));
        }
        QTRY_VERIFY_WITH_TIMEOUT(window_->viewer()->textures().filled(Plane::Picture), kWaitMs);
        QVERIFY(window_->viewer()->textures().filled(Plane::Waveform));
        QCOMPARE(window_->viewer()->textures().imageWidth(Plane::Picture), 1920);
        // The viewer shows the picture: the framebuffer is not black in the middle.
        const QImage shown = window_->viewer()->grabFramebuffer();
        QVERIFY(light(shown, shown.width() / 2, shown.height() / 3) > 100);
    }

    void playbackAdvances() {
        player().play();
        QVERIFY(player().isPlaying());
        const int64_t start = player().currentFrameNumber();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentFrameNumber() >= start + 5, kWaitMs);
        QVERIFY(player().presentedFps() > 0.0);
    }

    void aStillSourceIsNotProcessedAgainWhilePlaying() {
        // The bars are one shared picture: playing them runs the engine once, not per frame.
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        player().play();
        const int64_t start = player().currentFrameNumber();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentFrameNumber() >= start + 3, kWaitMs);
        const int64_t processed = window_->framesProcessed(), at = player().currentFrameNumber();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentFrameNumber() >= at + 10, kWaitMs);
        QCOMPARE(window_->framesProcessed(), processed);
        QCOMPARE(player().framesPreparedAhead(), size_t(0));
        // A moving source is processed frame by frame.
        QVERIFY(openAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        player().play();
        // Every frame presented is a new picture: each is processed (late frames that a
        // loaded machine drops are neither presented nor processed).
        const int64_t moving = window_->framesProcessed(), shown = player().presentedFrames();
        QTRY_VERIFY_WITH_TIMEOUT(player().presentedFrames() >= shown + 5, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(window_->framesProcessed() >= moving + 5, kWaitMs);
        player().pause();
    }

    void aStepMovesExactlyOneFrame() {
        // The zone plate changes every frame, so the picture tells frames apart.
        QVERIFY(openAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        player().pause();
        player().seekTo(1.0);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(25), kWaitMs);
        const QByteArray at25 = pictureHash(player());

        player().stepForward();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(26), kWaitMs);
        settle(100);
        QCOMPARE(player().currentFrameNumber(), int64_t(26));   // one step, one frame
        QVERIFY(pictureHash(player()) != at25);

        player().stepBack();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(25), kWaitMs);
        settle(100);
        QCOMPARE(player().currentFrameNumber(), int64_t(25));
        QCOMPARE(pictureHash(player()), at25);   // the very same frame again

        player().stepBack();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(24), kWaitMs);
        QVERIFY(!player().isPlaying());

        player().goToEnd();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(249), kWaitMs);
        player().goToStart();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(0), kWaitMs);
        player().stepBack();   // nothing before the first frame
        settle(100);
        QCOMPARE(player().currentFrameNumber(), int64_t(0));
    }

    void whilePlayingTheScopesBelongToTheFrameShown() {
        // The zone plate moves every frame: its histogram tells frames apart.
        QVERIFY(openAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        player().pause();
        settle();
        // The queued frames are prepared ahead with the settings of the paused frame.
        QTRY_VERIFY_WITH_TIMEOUT(player().framesPreparedAhead() >= 2, kWaitMs);
        ShownCheck shown;
        QObject checking;   // ends the checks with this scope, also when a QVERIFY returns early
        auto c = connect(&player(), &cs::Player::frameChanged, &checking, [&] { shown.check(*window_); });
        const int64_t usedBefore = window_->engineHost().preparedFramesUsed();
        player().play();
        QVERIFY(waitFrames(15));
        player().pause();
        disconnect(c);
        QVERIFY2(shown.failures.isEmpty(), qPrintable(shown.failures.join(QLatin1Char('\n'))));
        QVERIFY(shown.frames >= 15);
        QVERIFY(shown.distinctHistograms >= 10);   // the frames differ, so a frame's scopes on another would show
        // The first frame after play was prepared ahead, so the comparison covered that path.
        QVERIFY(shown.prepared >= 1);
        QVERIFY(window_->engineHost().preparedFramesUsed() > usedBefore);

        // Paused, a step shows the next frame with its own scopes.
        shown = {};
        c = connect(&player(), &cs::Player::frameChanged, &checking, [&] { shown.check(*window_); });
        const double before = player().currentPts();
        player().stepForward();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentPts() > before, kWaitMs);
        disconnect(c);
        QCOMPARE(shown.frames, 1);
        QVERIFY2(shown.failures.isEmpty(), qPrintable(shown.failures.join(QLatin1Char('\n'))));
    }

    void aSettingChangedWhilePlayingShowsOnTheNextFrame() {
        QVERIFY(openAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        player().pause();
        settle();
        cs::EngineHost& host = window_->engineHost();
        host.spec().paradeMode = cs::ParadeMode::Rgb;
        host.spec().waveformGain = 1.0f;
        player().stepForward();
        QTRY_VERIFY_WITH_TIMEOUT(player().framesPreparedAhead() >= 3, kWaitMs);   // prepared with these settings
        player().play();
        QVERIFY(waitFrames(3));
        // Between two frames (as a control would): the next frame shown must have them.
        host.spec().paradeMode = cs::ParadeMode::Ycbcr;
        host.spec().waveformGain = 2.5f;
        ShownCheck shown;
        QObject checking;   // ends the checks with this scope, also when a QVERIFY returns early
        auto c = connect(&player(), &cs::Player::frameChanged, &checking, [&] { shown.check(*window_); });
        QVERIFY(waitFrames(1));
        QCOMPARE(host.results().paradeMode, cs::ParadeMode::Ycbcr);
        // The frames after it were queued with the old settings: prepared again, they are
        // used again (the reference check covers each one).
        QTRY_VERIFY_WITH_TIMEOUT(host.usedPrepared() && shown.frames >= 2, kWaitMs);
        player().pause();
        disconnect(c);
        QVERIFY2(shown.failures.isEmpty(), qPrintable(shown.failures.join(QLatin1Char('\n'))));
        QVERIFY(shown.prepared >= 1);
        host.spec().paradeMode = cs::ParadeMode::Rgb;
        host.spec().waveformGain = 1.0f;
    }

    void aLoopGoesOnFromTheStartWithoutAStall() {
        // Ten frames at 25 fps: the loop wraps every 0.4 s.
        const QString clip = makeClip(QStringLiteral("ten.mp4"), QStringLiteral(
            "-f lavfi -i testsrc2=size=160x96:rate=25 -frames:v 10 -pix_fmt yuv420p -c:v libx264 -g 5"));
        QVERIFY(!clip.isEmpty());
        QVERIFY(openAndWait(clip));
        player().pause();
        player().setLoop(true);
        struct Shown { double pts; size_t queued; };
        std::vector<Shown> shown;
        int wraps = 0;
        QObject recording;   // ends the recording with this scope, also when a QTRY_ returns early
        auto c = connect(&player(), &cs::Player::frameChanged, &recording, [&] {
            if (!shown.empty() && player().currentPts() < shown.back().pts) ++wraps;
            shown.push_back({player().currentPts(), player().itemsQueued()});
        });
        player().play();
        QTRY_VERIFY_WITH_TIMEOUT(wraps >= 3, kWaitMs);
        player().pause();
        player().setLoop(false);
        disconnect(c);
        // Timestamps rise within a pass and go back only from a pass's end (a slow machine may
        // drop frames on either side of a wrap, as anywhere else). When a pass's last frame
        // (0.36 s) is shown, the next pass's start is decoded and queued already behind the
        // wrap item (before, the reader stopped at the end and the player sought and waited
        // for the decoder), at least once.
        int startQueued = 0;
        for (size_t i = 1; i < shown.size(); ++i) {
            if (shown[i].pts > shown[i - 1].pts) continue;
            QVERIFY2(shown[i - 1].pts >= 0.28, qPrintable(QStringLiteral("%1 before the wrap").arg(shown[i - 1].pts)));
            if (std::abs(shown[i - 1].pts - 0.36) < 1e-6 && shown[i - 1].queued >= 2) ++startQueued;
        }
        QVERIFY(startQueued >= 1);
        expectEveryFrameAccountedFor();   // across the start, three loop points and a pause
    }

    void theViewerShowsThePicturesCodeValues() {
        // Shown 1:1, every pixel of the picture (drawn from the frame's planes by the shader)
        // and of the focus-peaking preview in the viewer equals the CPU engine's image: 8-bit
        // 4:2:0 (the zone plate, edges everywhere) and 10-bit 4:2:2 (the bars).
        for (const QString& input : {QStringLiteral("pattern:zoneplate:320x180"), QStringLiteral("pattern:bars:10bit:480x270")}) {
            QVERIFY(openAndWait(input));
            player().pause();
            settle();
            cs::PictureView* viewer = window_->viewer();
            viewer->zoomTo(1.0);
            settle();
            QVERIFY(viewer->textures().shaded(Plane::Picture) != nullptr);
            cs::ScopeSpec spec = window_->engineHost().spec();
            spec.preview = cs::PreviewFilter::FocusPeaking;
            cs::ScopeResults expected;
            QVERIFY(cs::makeCpuEngine(1)->process(player().currentFrame().view, spec, expected).ok());
            int compared = 0;
            QCOMPARE(differingShownPixels(viewer, expected.picture, compared), 0);
            QVERIFY2(compared == expected.picture.width * expected.picture.height, qPrintable(input));

            auto* inViewer = window_->findChild<QCheckBox*>(QStringLiteral("previewInViewer"));
            QVERIFY(inViewer);
            inViewer->setChecked(true);
            settle();
            QVERIFY(viewer->textures().shaded(Plane::Preview) != nullptr);
            QVERIFY(expected.preview.pixels != expected.picture.pixels);   // the preview paints peaks
            QCOMPARE(differingShownPixels(viewer, expected.preview, compared), 0);
            inViewer->setChecked(false);
            viewer->zoomToFit();
        }
    }

    void keysDriveTheTransport() {
        QVERIFY(openAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_));
        player().pause();
        // Away from the start first: Home must then land on frame 0 before Right steps (a step
        // pressed while the seek is still pending is taken by the seek's own frame).
        player().seekTo(0.4);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(10), kWaitMs);
        QTest::keyClick(window_, Qt::Key_Home);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(0), kWaitMs);
        QTest::keyClick(window_, Qt::Key_Right);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(1), kWaitMs);
        QTest::keyClick(window_, Qt::Key_Right);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(2), kWaitMs);
        QTest::keyClick(window_, Qt::Key_Left);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(1), kWaitMs);
        QTest::keyClick(window_, Qt::Key_J);   // reverse play: back to the first frame, where it stops
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(0), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!player().isPlayingReverse(), kWaitMs);
        QTest::keyClick(window_, Qt::Key_End);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(249), kWaitMs);
        QTest::keyClick(window_, Qt::Key_Space);
        QVERIFY(player().isPlaying());   // at the end, play starts again from the start
        QTest::keyClick(window_, Qt::Key_K);
        QVERIFY(!player().isPlaying());
        QTest::keyClick(window_, Qt::Key_L);
        QVERIFY(player().isPlaying());
        QCOMPARE(player().speed(), 1.0);
        QTest::keyClick(window_, Qt::Key_L);   // again: faster
        QCOMPARE(player().speed(), 1.5);
        QTRY_VERIFY_WITH_TIMEOUT(player().currentFrameNumber() >= 12, kWaitMs);   // room to go back
        QTest::keyClick(window_, Qt::Key_J);   // playing forward: reverse at 1x
        QVERIFY(player().isPlayingReverse());
        QVERIFY(!player().isPlaying());
        QCOMPARE(player().reverseSpeed(), 1.0);
        const int64_t reversing = player().currentFrameNumber();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentFrameNumber() <= reversing - 3, kWaitMs);   // it goes back
        QTest::keyClick(window_, Qt::Key_J);   // again: faster
        QCOMPARE(player().reverseSpeed(), 1.5);
        QTest::keyClick(window_, Qt::Key_K);
        QVERIFY(!player().isPlayingReverse());
        QTest::keyClick(window_, Qt::Key_J);
        QVERIFY(player().isPlayingReverse());
        QTest::keyClick(window_, Qt::Key_L);   // reverse: forward at 1x
        QVERIFY(player().isPlaying() && !player().isPlayingReverse());
        QCOMPARE(player().speed(), 1.0);
        QTest::keyClick(window_, Qt::Key_Space);
        QVERIFY(!player().isPlaying());
    }

    void stepsBackThroughALongGopAreQueuedAndCached() {
        // One keyframe for 100 frames: each back step decodes from it. Five Lefts pressed at once
        // move five frames; the frames decoded on the way serve the next steps at once.
        const QString clip = makeClip(QStringLiteral("longgop.mp4"),
                                      QStringLiteral("-f lavfi -i testsrc2=size=320x180:rate=25:duration=4 -c:v libx264 "
                                                     "-g 250 -keyint_min 250 -sc_threshold 0 -bf 2 -pix_fmt yuv420p"));
        QVERIFY(!clip.isEmpty());
        QVERIFY(openAndWait(clip));
        player().pause();
        player().seekTo(60 / 25.0);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(60), kWaitMs);
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_));
        for (int i = 0; i < 5; ++i) QTest::keyClick(window_, Qt::Key_Left);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(55), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!player().stepFillPending(), kWaitMs);
        settle(100);
        QCOMPARE(player().currentFrameNumber(), int64_t(55));
        QVERIFY(player().stepCacheFrames() >= 4);
        // From the cache: at once (no event loop turn), back and forward.
        player().stepBack();
        QCOMPARE(player().currentFrameNumber(), int64_t(54));
        const QByteArray at54 = pictureHash(player());
        player().stepBack();
        QCOMPARE(player().currentFrameNumber(), int64_t(53));
        player().stepForward();
        QCOMPARE(player().currentFrameNumber(), int64_t(54));
        QCOMPARE(pictureHash(player()), at54);
        player().stepForward();
        QCOMPARE(player().currentFrameNumber(), int64_t(55));
        // Past the cache's end the reader goes on from where it is: frame 56 follows.
        player().stepForward();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(56), kWaitMs);
        // The cached frame 54 is the frame a seek decodes.
        player().seekTo(54 / 25.0);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(54), kWaitMs);
        QCOMPARE(pictureHash(player()), at54);
        expectEveryFrameAccountedFor();   // steps back read through from a keyframe: skipped
        QVERIFY(player().frameCounts().skipped > 0);
    }

    void aDroppedFileOpens() {
        const QString clip = makeClip(QStringLiteral("dropped.mkv"),
                                      QStringLiteral("-f lavfi -i testsrc2=size=160x120:rate=25:duration=1 -c:v ffv1 -pix_fmt yuv420p"));
        QVERIFY(!clip.isEmpty());
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(clip)});
        const QPointF at(window_->width() / 2.0, window_->height() / 3.0);
        QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window_, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window_, &drop);
        QTRY_VERIFY_WITH_TIMEOUT(player().input() == clip.toStdString() && player().hasFrame(), kWaitMs);
        QCOMPARE(player().info().width, 160);
        // Remembered among the recent files.
        QTRY_VERIFY(QSettings().value(QStringLiteral("recent/files")).toStringList().value(0) == QFileInfo(clip).absoluteFilePath());
    }

    void waveformShowsTheBarsAtTheirLevels() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        player().pause();
        cs::EngineHost& engine = window_->engineHost();
        engine.spec().waveformScale = cs::WaveformScale::Ire;
        engine.spec().waveformGain = 1.0f;
        cs::ScopeView* view = window_->scopeView(Plane::Waveform);
        player().stepForward();
        // The engine draws the waveform for the panel's size: shown 1:1.
        QTRY_VERIFY_WITH_TIMEOUT(window_->viewer()->textures().texture(Plane::Waveform).width() == view->pixelWidth() &&
                                     window_->viewer()->textures().texture(Plane::Waveform).height() == view->pixelHeight(),
                                 kWaitMs);
        settle();
        const QImage img = view->grabFramebuffer();
        QCOMPARE(img.width(), view->pixelWidth());
        const cs::PlotRect plot = cs::waveformPlotRect(img.width(), img.height());
        QVERIFY(plot.height > 256);   // a row per 8-bit code

        // RP 219 at 1920 wide: 240 px grey side panel, then seven 206 px bars whose columns
        // hold the bar's level over 7/12 of the height: the brightest row of the trace there.
        struct Bar { int x0, x1, code; };
        const Bar bars[] = {{0, 240, 104},       {240, 446, 180},   {446, 652, 168},   {652, 858, 145},
                            {858, 1064, 133},    {1064, 1270, 63},  {1270, 1476, 51},  {1476, 1682, 28}};
        for (const Bar& b : bars) {
            // Display columns well inside the bar (the trace resamples 1920 columns to the plot's width).
            const int c0 = plot.left + (b.x0 + 30) * plot.width / 1920, c1 = plot.left + (b.x1 - 30) * plot.width / 1920;
            QVERIFY(c1 > c0);
            int hits = 0;
            for (int x = c0; x <= c1; ++x) {
                int bestRow = -1, best = -1;
                for (int y = plot.top; y < plot.top + plot.height; ++y)
                    if (light(img, x, y) > best) {
                        best = light(img, x, y);
                        bestRow = y;
                    }
                const double expected = plot.toPixelY(b.code / 255.0);
                if (std::abs(bestRow - expected) <= 1.0 && best > 500) ++hits;
            }
            QVERIFY2(hits >= (c1 - c0 + 1) * 9 / 10,
                     qPrintable(QStringLiteral("code %1: %2 of %3 columns peak at row %4")
                                    .arg(b.code).arg(hits).arg(c1 - c0 + 1).arg(plot.toPixelY(b.code / 255.0))));
        }
        // And nothing in the bars' columns at a level no bar has (code 90, between 63 and 104
        // where only the thin ramp passes): dim compared with a bar's row.
        const int x = plot.left + 1000 * plot.width / 1920;
        QVERIFY(light(img, x, int(std::lround(plot.toPixelY(133 / 255.0)))) > 2 * light(img, x, int(std::lround(plot.toPixelY(90 / 255.0)))));
    }

    void thePixelPickerReadsTheHoveredPixel() {
        QVERIFY(player().hasFrame());
        cs::PictureView* viewer = window_->viewer();
        // The middle of the 75% white bar (x 240..446, top 7/12 of the picture): Y'CbCr 180 128 128.
        // Its widget position is taken from the viewer's layout at each try, and hovered again
        // until the readout shows it: on a loaded machine the docks may still be settling, and a
        // position taken before the layout's last change lands elsewhere.
        const double dpr = viewer->devicePixelRatioF();
        QPoint at;
        auto hoverWhiteBar = [&] {
            double vx = 0, vy = 0;
            viewer->layout().toView(343, 300, vx, vy);
            at = QPoint(int(vx / dpr), int(vy / dpr));
            QTest::mouseMove(viewer, at);
            return window_->pickerText().contains(QStringLiteral("Y'CbCr 180 128 128"));
        };
        QTRY_VERIFY2_WITH_TIMEOUT(hoverWhiteBar(), qPrintable(window_->pickerText()), kWaitMs);
        // The frame pixel under that widget position (a fitted picture is smaller than the frame).
        const auto under = viewer->layout().frameAt(at.x() * dpr, at.y() * dpr);
        QVERIFY(under && std::abs(under->x - 343) <= 2 && std::abs(under->y - 300) <= 2);
        QVERIFY2(window_->pickerText().contains(QStringLiteral("R'G'B' (16-235) 180 180 180")), qPrintable(window_->pickerText()));
        QVERIFY2(window_->pickerText().contains(QStringLiteral("x %1  y %2").arg(under->x).arg(under->y)), qPrintable(window_->pickerText()));
        // Click pins it: the readout stays after the pointer leaves.
        QTest::mouseClick(viewer, Qt::LeftButton, {}, at);
        QVERIFY(viewer->pinned().has_value());
        QCOMPARE(viewer->pinned()->x, under->x);
        QTest::mouseMove(window_->scopeView(Plane::Waveform), QPoint(10, 10));
        QTRY_VERIFY_WITH_TIMEOUT(window_->pickerText().startsWith(QStringLiteral("pinned")), 5000);
        QVERIFY(window_->pickerText().contains(QStringLiteral("Y'CbCr 180 128 128")));
    }

    void saveScopesWritesCoreImages() {
        QVERIFY(player().hasFrame());
        player().pause();
        const QString folder = files_.filePath(QStringLiteral("export"));
        auto written = window_->saveScopesTo(folder, 640, 360);
        QVERIFY2(written.ok(), written.message().c_str());
        // Named by source and frame: pattern:bars -> pattern-bars-NNNNNN-waveform.png.
        const QString stem = cs::exportStem(QString::fromStdString(player().input()));
        QVERIFY2(stem.startsWith(QStringLiteral("pattern-")), qPrintable(stem));
        const QString prefix = stem + QStringLiteral("-%1-").arg(player().currentFrameNumber(), 6, 10, QLatin1Char('0'));
        for (const char* name : {"picture.png", "histogram.png", "waveform.png", "parade.png", "vectorscope.png", "cie.png", "scopes.png"})
            QVERIFY2(QFile::exists(folder + QLatin1Char('/') + prefix + QLatin1String(name)), name);
        // The waveform file is core's renderer's image at the size chosen, pixel for pixel.
        QImage saved(folder + QLatin1Char('/') + prefix + QStringLiteral("waveform.png"));
        QCOMPARE(saved.size(), QSize(640, 360));
        auto cpu = cs::makeCpuEngine(1);
        cs::ScopeSpec spec = window_->engineHost().spec();
        spec.scopeWidth = 640;
        spec.scopeHeight = 360;
        spec.vectorscopeSize = 360;
        cs::ScopeResults r;
        QVERIFY(cpu->process(player().currentFrame().view, spec, r).ok());
        cs::RgbaImage expected;
        cs::renderWaveform(r, spec, expected);
        saved = saved.convertToFormat(QImage::Format_RGBA8888);
        int differing = 0;
        for (int y = 0; y < 360; ++y)
            if (std::memcmp(saved.constScanLine(y), expected.at(0, y), 640 * 4) != 0) ++differing;
        QCOMPARE(differing, 0);
        QCOMPARE(QImage(folder + QLatin1Char('/') + prefix + QStringLiteral("vectorscope.png")).size(), QSize(360, 360));
        QCOMPARE(QImage(folder + QLatin1Char('/') + prefix + QStringLiteral("cie.png")).size(), QSize(360, 360));   // the CIE diagram too
        // The composite holds the panels as shown: wider than one panel, not empty.
        const QImage composite(folder + QLatin1Char('/') + prefix + QStringLiteral("scopes.png"));
        QVERIFY(composite.width() > window_->scopeView(Plane::Waveform)->width());
        // The picture is in it where the viewer is (the bars, not the background): the
        // composite's origin is the docked panels' top left.
        QRect docked;
        for (Plane p : {Plane::Waveform, Plane::Parade, Plane::Vectorscope, Plane::Histogram, Plane::Preview})
            if (window_->dock(p)->isVisible() && !window_->dock(p)->isFloating()) docked = docked.united(window_->dock(p)->geometry());
        const QRect viewer(window_->viewer()->mapTo(window_, QPoint(0, 0)), window_->viewer()->size());
        QVERIFY(docked.contains(viewer.center()));
        const qreal dpr = composite.devicePixelRatio();
        const QPoint mid = (viewer.center() - docked.topLeft()) * dpr;
        QVERIFY2(light(composite, mid.x(), mid.y()) > 100 && light(composite, mid.x(), int(mid.y() * 0.6)) > 100,
                 "the composite shows the picture between the panels");

        // Saved again: a second numbered set; the first is left as it was.
        const QDateTime first = QFileInfo(folder + QLatin1Char('/') + prefix + QStringLiteral("waveform.png")).lastModified();
        auto again = window_->saveScopesTo(folder, 640, 360);
        QVERIFY2(again.ok(), again.message().c_str());
        const QString prefix2 = prefix.chopped(1) + QStringLiteral("-2-");
        QVERIFY2(again->contains(folder + QLatin1Char('/') + prefix2 + QStringLiteral("waveform.png")), qPrintable(again->join(QLatin1Char(' '))));
        for (const QString& f : *again) QVERIFY2(!f.contains(QLatin1Char('/') + prefix + QLatin1String("w")) && f.contains(prefix2), qPrintable(f));
        QCOMPARE(QFileInfo(folder + QLatin1Char('/') + prefix + QStringLiteral("waveform.png")).lastModified(), first);
        QCOMPARE(cs::exportStem(QStringLiteral("/media/shoot/A001 C002.mov")), QStringLiteral("A001-C002"));
        QCOMPARE(cs::exportStem(QStringLiteral("rtsp://cam/live")), QStringLiteral("rtsp-cam-live"));
    }

    void aFloatingPanelKeepsDrawing() {
        QDockWidget* dock = window_->dock(Plane::Vectorscope);
        dock->setFloating(true);
        QTRY_VERIFY_WITH_TIMEOUT(window_->scopeView(Plane::Vectorscope)->glReady(), kWaitMs);
        player().stepForward();
        settle(500);
        const QImage img = window_->scopeView(Plane::Vectorscope)->grabFramebuffer();
        int lit = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2) lit += light(img, x, y) > 60;
        QVERIFY2(lit > 100, "the floating vectorscope draws its graticule and trace");
        dock->setFloating(false);
        QTRY_VERIFY_WITH_TIMEOUT(window_->scopeView(Plane::Vectorscope)->glReady(), kWaitMs);
    }

    void aFloatedPanelComesBackShownAndOnScreen() {
        // A layout saved with the vectorscope floated, partly off the screen: a new window
        // restores it floating, shown, and inside the screen's available area.
        QDockWidget* dock = window_->dock(Plane::Vectorscope);
        dock->setFloating(true);
        dock->show();
        QTRY_VERIFY_WITH_TIMEOUT(dock->isVisible(), kWaitMs);
        const QRect area = window_->screen()->availableGeometry();
        dock->setGeometry(area.right() - 50, area.bottom() - 40, 400, 300);
        QTRY_VERIFY_WITH_TIMEOUT(dock->geometry().left() > area.right() - 100, kWaitMs);
        cs::settings::saveWindow(window_->saveGeometry(), window_->saveState(1), true);
        dock->setFloating(false);
        QTRY_VERIFY_WITH_TIMEOUT(window_->scopeView(Plane::Vectorscope)->glReady(), kWaitMs);

        auto* second = new cs::MainWindow("cpu");
        second->show();
        QVERIFY(QTest::qWaitForWindowExposed(second));
        QDockWidget* restored = second->dock(Plane::Vectorscope);
        QVERIFY(restored->isFloating());
        QTRY_VERIFY_WITH_TIMEOUT(restored->isVisible(), kWaitMs);
        QTRY_VERIFY2_WITH_TIMEOUT(area.contains(restored->frameGeometry()) || area.contains(restored->geometry()),
                                  qPrintable(QStringLiteral("%1,%2 %3x%4").arg(restored->x()).arg(restored->y())
                                                 .arg(restored->width()).arg(restored->height())), kWaitMs);
        delete second;
        cs::settings::saveWindow(window_->saveGeometry(), window_->saveState(1), true);
        window_->activateWindow();
    }

    void aBrokenFileShowsAnErrorAndTheAppKeepsPlaying() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        player().play();
        // Not a video: random bytes with a video name.
        const QString broken = files_.filePath(QStringLiteral("broken.mp4"));
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray junk(64 * 1024, '\0');
            for (int i = 0; i < junk.size(); ++i) junk[i] = char((i * 7919 + 13) % 251);
            f.write(junk);
        }
        window_->openInput(broken);
        QTRY_VERIFY_WITH_TIMEOUT(window_->messageText().contains(QStringLiteral("broken.mp4")), kWaitMs);
        // The bars play on.
        QCOMPARE(QString::fromStdString(player().input()), QStringLiteral("pattern:bars"));
        QVERIFY(waitFrames(3));

        // A camera that is not there: an error in the window too.
        window_->openInput(QString::fromStdString(cs::v4l2Input("/dev/video-cudascope-absent")));
        QTRY_VERIFY_WITH_TIMEOUT(window_->messageText().contains(QStringLiteral("video-cudascope-absent")), kWaitMs);

        // The next source opens and plays; the message goes.
        const QString clip = makeClip(QStringLiteral("next.mkv"),
                                      QStringLiteral("-f lavfi -i testsrc2=size=320x240:rate=25:duration=2 -c:v ffv1 -pix_fmt yuv420p"));
        QVERIFY(!clip.isEmpty());
        QVERIFY(openAndWait(clip));
        player().play();
        QVERIFY(waitFrames(5));
        QVERIFY(window_->messageText().isEmpty());

        // A file damaged in the middle plays as far as it can; nothing takes the app down.
        const QString damaged = makeClip(QStringLiteral("damaged.ts"),
                                         QStringLiteral("-f lavfi -i testsrc2=size=320x240:rate=25:duration=3 -c:v mpeg2video -g 10"));
        QVERIFY(!damaged.isEmpty());
        {
            QFile f(damaged);
            QVERIFY(f.open(QIODevice::ReadWrite));
            const qint64 size = f.size();
            f.seek(size / 3);
            QByteArray junk(int(size / 4), '\0');
            for (int i = 0; i < junk.size(); ++i) junk[i] = char((i * 31 + 7) % 256);
            f.write(junk);
        }
        player().setLoop(false);
        QVERIFY(openAndWait(damaged));
        player().play();
        QTRY_VERIFY_WITH_TIMEOUT(!player().isPlaying(), kWaitMs);   // reached the end (or a clean error)
        QVERIFY(player().presentedFrames() > 0);
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        player().play();
        QVERIFY(waitFrames(3));
    }

    void aNetworkStreamPlaysLiveAndReconnects() {
        // An MPEG-TS sender on loopback UDP, started after the window listens.
        const int port = freeUdpPort();
        QVERIFY(port > 0);
        const QString url = QStringLiteral("udp://127.0.0.1:%1").arg(port);
        QProcess sender;
        const QStringList senderArgs = {QStringLiteral("-nostdin"), QStringLiteral("-hide_banner"), QStringLiteral("-loglevel"),
                                        QStringLiteral("error"), QStringLiteral("-re"), QStringLiteral("-f"), QStringLiteral("lavfi"),
                                        QStringLiteral("-i"), QStringLiteral("testsrc2=size=320x240:rate=25"), QStringLiteral("-c:v"),
                                        QStringLiteral("mpeg2video"), QStringLiteral("-g"), QStringLiteral("5"), QStringLiteral("-f"),
                                        QStringLiteral("mpegts"), url + QStringLiteral("?pkt_size=1316")};
        QTemporaryDir cache;   // the recorder's spill folder under a plain file (LiveFlightChecks.h)
        const QString notAFolder = cs::test::plainFileIn(cache);
        cs::MainWindow::setFlightFolder(notAFolder);
        window_->openInput(url);
        sender.start(QStringLiteral(CS_TEST_FFMPEG), senderArgs);
        QVERIFY(sender.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(player().input() == url.toStdString() && player().hasFrame(), kWaitMs);
        QVERIFY(player().info().live);
        QVERIFY(!player().canSeek());
        QCOMPARE(player().info().width, 320);
        player().play();
        QVERIFY(waitFrames(10));
        cs::test::checkLiveFlight(*window_, notAFolder, cache.path());
        if (QTest::currentTestFailed()) return;

        // The sender goes away: the window says so and keeps waiting; it returns: so do frames.
        sender.kill();
        sender.waitForFinished();
        QTRY_VERIFY_WITH_TIMEOUT(QString::fromStdString(player().liveStatusText()).startsWith(QStringLiteral("reconnecting")), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(window_->messageText().contains(url), kWaitMs);
        sender.start(QStringLiteral(CS_TEST_FFMPEG), senderArgs);
        QVERIFY(sender.waitForStarted());
        QVERIFY(waitFrames(10));
        QCOMPARE(QString::fromStdString(player().liveStatusText()), QStringLiteral("playing"));
        expectEveryFrameAccountedFor();   // live: shown, replaced in the mailbox or waiting, across the outage
        sender.kill();
        sender.waitForFinished();
        QVERIFY(openAndWait(QStringLiteral("pattern:bars")));
        QVERIFY(!window_->flightRecorder() && !window_->timeline()->live());   // none for a pattern
    }

    void sourceDialogBuildsInputs() {
        QCOMPARE(cs::SourceDialog::patternInput(QStringLiteral("bars"), true, QStringLiteral("3840x2160")),
                 QStringLiteral("pattern:bars:10bit:3840x2160"));
        QCOMPARE(cs::SourceDialog::patternInput(QStringLiteral("ramp"), false, QStringLiteral("1920x1080")),
                 QStringLiteral("pattern:ramp"));
        cs::SourceDialog dialog({QStringLiteral("/tmp/a.mp4")}, {QStringLiteral("rtsp://example/stream")}, window_);
        dialog.setPage(cs::SourceDialog::Page::Network);
        QCOMPARE(dialog.input(), QString());   // no URL chosen yet
        dialog.setPage(cs::SourceDialog::Page::Pattern);
        QCOMPARE(dialog.input(), QStringLiteral("pattern:bars"));
        dialog.setPage(cs::SourceDialog::Page::Camera);
        QVERIFY2(dialog.input().startsWith(QStringLiteral("v4l2:/dev/video")), qPrintable(dialog.input()));
        dialog.setPage(cs::SourceDialog::Page::File);
        QCOMPARE(dialog.input(), QString());
    }
};

CS_GUI_TEST_MAIN(GuiTest)

#include "test_gui.moc"
