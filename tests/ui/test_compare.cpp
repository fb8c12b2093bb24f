// GUI tests (QTest) of the compare mode (ui/compare/Compare.h) under a real X display with OpenGL 3.3
// (Xvfb and Mesa in CI): the viewer's wipe, split and side by side show A's and B's pixels
// where render/CompareLayout.h puts them (read back from the viewer's framebuffer against
// the CPU engine's pictures), a snapshot stays as it was while A plays on and costs no engine
// run, B follows A's position and holds its last frame when shorter, B's traces show in the
// scope panels, the shortcuts switch the modes, the picker reads A and B, and bad B inputs
// give a message. With CS_COMPARE_SHOTS=DIR it saves screenshots of each mode there.
// Exits 77 (skipped) without a display or OpenGL 3.3.
#include <QDockWidget>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "GuiTestSupport.h"
#include "core/Engine.h"
#include "ui/compare/Compare.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "playback/PixelProbe.h"
#include "ui/main/ScopeView.h"
#include "cpu/CpuEngine.h"

using cs::CompareMode;
using cs::CompareScopes;
using cs::gl::Plane;

using cs::test::freeUdpPort;

namespace {

constexpr int kWaitMs = 20000;

cs::RgbaImage pictureOf(const cs::FrameView& frame, const cs::ScopeSpec& base) {
    cs::ScopeSpec spec = base;
    spec.picture = true;
    spec.preview = cs::PreviewFilter::None;
    cs::ScopeResults r;
    if (!cs::makeCpuEngine(1)->process(frame, spec, r)) return {};
    return r.picture;
}

bool samePixel(const QImage& shown, int vx, int vy, const cs::RgbaImage& picture, int fx, int fy) {
    if (vx < 0 || vy < 0 || vx >= shown.width() || vy >= shown.height()) return false;
    if (fx < 0 || fy < 0 || fx >= picture.width || fy >= picture.height) return false;
    return std::memcmp(shown.constScanLine(vy) + size_t(vx) * 4, picture.at(fx, fy), 3) == 0;
}

// The frame pixel under view pixel (vx, vy) of a picture drawn at r (nearest, as the shaders draw).
int frameCoord(double v, double origin, double extent, int frameExtent) {
    return int(std::floor((v + 0.5 - origin) * frameExtent / extent));
}

int light(const QImage& img, int x, int y) {
    const uchar* p = img.constScanLine(y) + size_t(x) * 4;
    return p[0] + p[1] + p[2];
}

// Pixels of the trace colour (magenta-pink: much red and blue, little green).
int tintedPixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            if (qRed(c) > qGreen(c) + 60 && qBlue(c) > qGreen(c) + 40) ++n;
        }
    return n;
}

}  // namespace

class CompareTest : public QObject {
    Q_OBJECT

private:
    cs::MainWindow* window_ = nullptr;
    QTemporaryDir files_;
    QString shots_;

    cs::Player& player() { return window_->player(); }
    cs::CompareController& compare() { return window_->compare(); }
    cs::PictureView* viewer() { return window_->viewer(); }
    void settle(int ms = 300) { cs::test::waitUntil([] { return false; }, ms); }

    bool openAndWait(const QString& input) {
        const int64_t before = player().presentedFrames();
        const std::string previous = player().input();
        window_->openInput(input);
        return cs::test::waitUntil(
            [&] {
                return player().input() == input.toStdString() && player().hasFrame() && player().presentedFrames() > 0 &&
                       (previous != input.toStdString() || player().presentedFrames() > before);
            },
            kWaitMs);
    }
    // Opens B and waits until B's picture is in the viewer's second set of textures.
    bool openBAndWait(const QString& input) {
        const int64_t before = compare().framesProcessedB();
        compare().openB(input);
        return cs::test::waitUntil(
            [&] {
                return compare().playerB() && compare().playerB()->input() == input.toStdString() && compare().hasB() &&
                       compare().framesProcessedB() > before && viewer()->texturesB().filled(Plane::Picture);
            },
            kWaitMs);
    }
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
    void shot(const QString& name) {
        if (shots_.isEmpty()) return;
        settle(200);
        window_->grab().save(QDir(shots_).filePath(name));
    }
    // A and B as two stills of one size, paused, 1:1.
    void barsAgainstZoneplate() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars:320x180")));
        player().pause();
        QVERIFY(openBAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        settle();
    }

private slots:
    void initTestCase() {
        QVERIFY(files_.isValid());
        shots_ = qEnvironmentVariable("CS_COMPARE_SHOTS");
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

    void aModeWithoutBSaysWhatToDo() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars:320x180")));
        compare().setMode(CompareMode::Wipe);
        QCOMPARE(compare().mode(), CompareMode::Off);
        QVERIFY2(window_->messageText().contains(QStringLiteral("Compare:")), qPrintable(window_->messageText()));
    }

    void badBInputGivesAMessage() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars:320x180")));
        const QString missing = files_.filePath(QStringLiteral("missing.mp4"));
        compare().openB(missing);
        QTRY_VERIFY_WITH_TIMEOUT(window_->messageText().contains(QStringLiteral("Compare: B:")) &&
                                     window_->messageText().contains(QStringLiteral("missing.mp4")),
                                 kWaitMs);
        QFile junk(files_.filePath(QStringLiteral("junk.mp4")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        compare().openB(junk.fileName());
        QTRY_VERIFY_WITH_TIMEOUT(window_->messageText().contains(QStringLiteral("junk.mp4")), kWaitMs);
        compare().openB(QStringLiteral("pattern:nonsense"));
        QTRY_VERIFY_WITH_TIMEOUT(window_->messageText().contains(QStringLiteral("nonsense")), kWaitMs);
        QVERIFY(!compare().hasB());
        QCOMPARE(compare().mode(), CompareMode::Off);
        // A is untouched and still shown.
        QVERIFY(player().hasFrame());
        QCOMPARE(player().input(), std::string("pattern:bars:320x180"));
    }

    void wipeAtHalfShowsAOnTheLeftAndBOnTheRight() {
        barsAgainstZoneplate();
        compare().setMode(CompareMode::Wipe);
        compare().setWipe(0.5);
        viewer()->zoomTo(1.0);
        settle();
        const cs::RgbaImage a = pictureOf(player().currentFrame().view, window_->engineHost().spec());
        const cs::RgbaImage b = pictureOf(*compare().frameB(), window_->engineHost().spec());
        QVERIFY(!a.empty() && !b.empty());
        QVERIFY(a.pixels != b.pixels);
        const QImage shown = viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::CompareGeometry g = viewer()->compareGeometry();
        const cs::RectF r = viewer()->layout().rect();
        QCOMPARE(g.mode, CompareMode::Wipe);
        QCOMPARE(g.divider, r.x + 160);   // the middle of the 320-pixel picture at 100%
        int wrong = 0, left = 0, right = 0;
        for (int y = 0; y < 180; ++y)
            for (int x = 0; x < 320; ++x) {
                const int vx = int(r.x) + x, vy = int(r.y) + y;
                if (vx == int(g.divider) || vx == int(g.divider) + 1) continue;   // the divider line and its shadow
                const bool isA = vx < g.divider;
                (isA ? left : right)++;
                if (!samePixel(shown, vx, vy, isA ? a : b, x, y)) ++wrong;
            }
        QCOMPARE(wrong, 0);
        QCOMPARE(left, 160 * 180);
        QCOMPARE(right, 158 * 180);
        // "A" and "B" in the view's top corners: white glyph pixels on a dark box.
        auto whiteIn = [&](int x0) {
            int n = 0;
            for (int y = 8; y < 32; ++y)
                for (int x = x0; x < x0 + 20; ++x)
                    if (light(shown, x, y) > 700) ++n;
            return n;
        };
        QVERIFY(whiteIn(8) > 10);
        QVERIFY(whiteIn(shown.width() - 28) > 10);
        QCOMPARE(whiteIn(shown.width() / 2 - 60), 0);
        shot(QStringLiteral("compare-wipe.png"));
    }

    void theWipeFollowsTheDividerDraggedAndTheShortcutsSwitchModes() {
        barsAgainstZoneplate();
        compare().setMode(CompareMode::Off);
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_));
        QTest::keyClick(window_, Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(compare().mode(), CompareMode::Wipe);
        QCOMPARE(viewer()->compareMode(), CompareMode::Wipe);
        QTest::keyClick(window_, Qt::Key_W, Qt::ControlModifier);   // again: off
        QCOMPARE(compare().mode(), CompareMode::Off);
        QTest::keyClick(window_, Qt::Key_W, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(compare().mode(), CompareMode::Split);
        QTest::keyClick(window_, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(compare().mode(), CompareMode::SideBySide);
        QTest::keyClick(window_, Qt::Key_3, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(compare().scopes(), CompareScopes::Both);
        QTest::keyClick(window_, Qt::Key_2, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(compare().scopes(), CompareScopes::B);
        QTest::keyClick(window_, Qt::Key_1, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(compare().scopes(), CompareScopes::A);
        QTest::keyClick(window_, Qt::Key_G, Qt::ControlModifier | Qt::AltModifier);   // grab a snapshot as B
        QVERIFY(compare().bIsSnapshot());

        // Dragging the divider moves the wipe.
        QTest::keyClick(window_, Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(compare().mode(), CompareMode::Wipe);
        compare().setWipe(0.5);
        viewer()->zoomTo(1.0);
        settle();
        const double dpr = viewer()->devicePixelRatioF();
        const cs::RectF r = viewer()->layout().rect();
        const QPoint from(int((r.x + 160) / dpr), int((r.y + 90) / dpr));
        const QPoint to(int((r.x + 80) / dpr), from.y());
        QTest::mousePress(viewer(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), viewer()->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewer(), &move);
        QTest::mouseRelease(viewer(), Qt::LeftButton, {}, to);
        QVERIFY2(std::abs(viewer()->wipe() - 0.25) < 0.02, qPrintable(QString::number(viewer()->wipe())));
        QCOMPARE(viewer()->compareGeometry().divider, std::round(r.x + 80));
        QVERIFY(!viewer()->pinned());   // the drag pinned nothing
    }

    void splitShowsTheSamePartOfAAndB() {
        barsAgainstZoneplate();
        compare().setMode(CompareMode::Split);
        viewer()->zoomTo(1.0);
        settle();
        const cs::RgbaImage a = pictureOf(player().currentFrame().view, window_->engineHost().spec());
        const cs::RgbaImage b = pictureOf(*compare().frameB(), window_->engineHost().spec());
        const QImage shown = viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::CompareGeometry g = viewer()->compareGeometry();
        const int half = int(g.divider);
        QCOMPARE(half, shown.width() / 2);
        // View column x (left half) and x + half (right half) show the same frame column, of A and of B.
        int compared = 0, wrong = 0;
        for (int vy = 0; vy < shown.height(); ++vy)
            for (int vx = 0; vx < half - 1; ++vx) {
                const int fx = int(std::floor(vx - g.a.picture.x)), fy = int(std::floor(vy - g.a.picture.y));
                if (fx < 0 || fy < 0 || fx >= 320 || fy >= 180) continue;
                QCOMPARE(int(std::floor(vx + half - g.b.picture.x)), fx);
                ++compared;
                if (!samePixel(shown, vx, vy, a, fx, fy) || !samePixel(shown, vx + half, vy, b, fx, fy)) ++wrong;
            }
        QCOMPARE(wrong, 0);
        QVERIFY(compared >= 100 * 180);
        // The middle of the picture lies at the middle of each half.
        QVERIFY(std::abs(g.a.picture.x + 160 - half / 2.0) <= 1.0);
        shot(QStringLiteral("compare-split.png"));
    }

    void sideBySideShowsBothWholePictures() {
        barsAgainstZoneplate();
        compare().setMode(CompareMode::SideBySide);
        viewer()->zoomToFit();
        settle();
        const cs::RgbaImage a = pictureOf(player().currentFrame().view, window_->engineHost().spec());
        const cs::RgbaImage b = pictureOf(*compare().frameB(), window_->engineHost().spec());
        const QImage shown = viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::CompareGeometry g = viewer()->compareGeometry();
        const double half = g.divider;
        // Each whole picture inside its half, fitted (touching the half's sides or the view's top and bottom).
        QVERIFY(g.a.picture.x >= 0 && g.a.picture.x + g.a.picture.w <= half + 0.5);
        QVERIFY(g.b.picture.x >= half - 0.5 && g.b.picture.x + g.b.picture.w <= shown.width() + 0.5);
        QVERIFY(std::abs(g.a.picture.w - half) <= 1.0 || std::abs(g.a.picture.h - shown.height()) <= 1.0);
        QVERIFY(std::abs(g.a.picture.w / g.a.picture.h - 320.0 / 180.0) < 0.01);
        QCOMPARE(g.b.picture.w, g.a.picture.w);
        // Pixels well inside each picture are that picture's (the frame pixel under the view pixel's centre).
        int checked = 0, wrong = 0;
        for (const auto& [pane, picture] : {std::pair{g.a.picture, &a}, std::pair{g.b.picture, &b}})
            for (int i = 1; i < 8; ++i)
                for (int j = 1; j < 8; ++j) {
                    const int vx = int(pane.x + pane.w * i / 8), vy = int(pane.y + pane.h * j / 8);
                    const int fx = frameCoord(vx, pane.x, pane.w, 320), fy = frameCoord(vy, pane.y, pane.h, 180);
                    ++checked;
                    // Nearest sampling on the GPU may round a boundary pixel either way: a neighbour is accepted.
                    if (!samePixel(shown, vx, vy, *picture, fx, fy) && !samePixel(shown, vx, vy, *picture, fx - 1, fy) &&
                        !samePixel(shown, vx, vy, *picture, fx + 1, fy))
                        ++wrong;
                }
        QCOMPARE(checked, 2 * 49);
        QVERIFY2(wrong <= 2, qPrintable(QString::number(wrong)));
        shot(QStringLiteral("compare-side-by-side.png"));
    }

    void theScopesShowBOrBothOverlaid() {
        // A: the zone plate (luma only), B: the bars (their chroma shows in B's vectorscope trace).
        QVERIFY(openAndWait(QStringLiteral("pattern:zoneplate:320x180")));
        player().pause();
        QVERIFY(openBAndWait(QStringLiteral("pattern:bars:320x180")));
        settle();
        compare().setMode(CompareMode::Wipe);
        compare().setScopes(CompareScopes::A);
        settle();
        cs::ScopeView* waveform = window_->scopeView(Plane::Waveform);
        cs::ScopeView* vectorscope = window_->scopeView(Plane::Vectorscope);
        // A's own scopes have next to none of B's colour (the vectorscope's magenta target box may have a few).
        const int tintedWaveformA = tintedPixels(waveform->grabFramebuffer());
        const int tintedVectorscopeA = tintedPixels(vectorscope->grabFramebuffer());
        QCOMPARE(tintedWaveformA, 0);
        QVERIFY2(tintedVectorscopeA < 20, qPrintable(QString::number(tintedVectorscopeA)));
        QCOMPARE(compare().engineB().panelVisible(Plane::Waveform), false);   // B's engine counts nothing for "scopes of A"

        compare().setScopes(CompareScopes::B);
        QTRY_VERIFY_WITH_TIMEOUT(compare().engineB().panelVisible(Plane::Waveform) && compare().engineB().hasResults(), kWaitMs);
        settle();
        // The waveform panel shows B's scope image (drawn for the panel's size, shown 1:1).
        const cs::RgbaImage& bImage = compare().engineB().shownImage(Plane::Waveform);
        QImage grabbed = waveform->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        QCOMPARE(grabbed.width(), bImage.width);
        QCOMPARE(grabbed.height(), bImage.height);
        int differ = 0;
        for (int y = 0; y < bImage.height; ++y)
            if (std::memcmp(grabbed.constScanLine(y), bImage.pixels.data() + size_t(y) * size_t(bImage.width) * 4, size_t(bImage.width) * 4) != 0)
                ++differ;
        QCOMPARE(differ, 0);
        QVERIFY(compare().engineB().results().waveform != window_->engineHost().results().waveform);

        compare().setScopes(CompareScopes::Both);
        settle();
        const QImage both = waveform->grabFramebuffer();
        const int tintedWaveform = tintedPixels(both), tintedVectorscope = tintedPixels(vectorscope->grabFramebuffer());
        QVERIFY2(tintedWaveform > 500, qPrintable(QString::number(tintedWaveform)));
        // The bars' chroma: a few dots per bar at 1x.
        QVERIFY2(tintedVectorscope > tintedVectorscopeA + 10, qPrintable(QString::number(tintedVectorscope)));
        // A's own trace stays in its colour: the zone plate's green waveform trace is there too.
        int green = 0;
        for (int y = 0; y < both.height(); ++y)
            for (int x = 0; x < both.width(); ++x) {
                const QRgb c = both.pixel(x, y);
                if (qGreen(c) > qRed(c) + 40 && qGreen(c) > qBlue(c) + 40) ++green;
            }
        QVERIFY2(green > 200, qPrintable(QString::number(green)));
        shot(QStringLiteral("compare-scopes-overlaid.png"));
        compare().setScopes(CompareScopes::A);
    }

    void thePickerReadsAAndB() {
        barsAgainstZoneplate();
        compare().setMode(CompareMode::Wipe);
        settle();
        viewer()->setPinned(cs::PixelPos{40, 30});
        const QString text = window_->pickerText();
        const cs::ColorInfo color = window_->engineHost().results().color;
        const auto a = cs::readPixel(player().currentFrame().view, color, 40, 30);
        const auto b = cs::readPixel(*compare().frameB(), compare().engineB().results().color, 40, 30);
        QVERIFY(a && b);
        QVERIFY2(text.contains(QStringLiteral("A ") + QString::fromStdString(cs::describe(*a))), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("B ") + QString::fromStdString(cs::describe(*b))), qPrintable(text));
        viewer()->setPinned(std::nullopt);
    }

    void aSnapshotStaysWhileAPlaysOn() {
        const QString clip = makeClip(QStringLiteral("counter.mp4"),
                                      QStringLiteral("-f lavfi -i testsrc2=size=320x180:rate=25:duration=4 -pix_fmt yuv420p -g 10"));
        QVERIFY(!clip.isEmpty());
        QVERIFY(openAndWait(clip));
        player().pause();
        settle();
        compare().snapshot();
        QVERIFY(compare().bIsSnapshot());
        QCOMPARE(compare().mode(), CompareMode::Wipe);   // grabbing turns the wipe on
        compare().setWipe(0.0);   // B over the whole picture
        viewer()->zoomTo(1.0);
        settle();
        const cs::RgbaImage frozen = pictureOf(*compare().frameB(), window_->engineHost().spec());
        const double frozenPts = compare().frameB()->pts;
        const int64_t runs = compare().framesProcessedB();
        player().setLoop(true);
        player().play();
        const int64_t start = player().presentedFrames();
        QVERIFY(cs::test::waitUntil([&] { return player().presentedFrames() >= start + 10; }, kWaitMs));
        player().pause();
        settle();
        QVERIFY(player().currentPts() != frozenPts);
        QCOMPARE(compare().frameB()->pts, frozenPts);
        QCOMPARE(compare().framesProcessedB(), runs);   // a still B costs nothing while nothing changes
        const QImage shown = viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::RectF r = viewer()->layout().rect();
        int wrong = 0;
        for (int y = 0; y < 180; ++y)
            for (int x = 2; x < 320; ++x)
                if (!samePixel(shown, int(r.x) + x, int(r.y) + y, frozen, x, y)) ++wrong;
        QCOMPARE(wrong, 0);
        player().setLoop(false);
    }

    void aFileBFollowsAAndHoldsItsLastFrame() {
        const QString a = makeClip(QStringLiteral("a.mp4"),
                                   QStringLiteral("-f lavfi -i testsrc2=size=320x180:rate=25:duration=1.2 -pix_fmt yuv420p -g 8"));
        const QString b = makeClip(QStringLiteral("b.mp4"),
                                   QStringLiteral("-f lavfi -i testsrc=size=320x180:rate=25:duration=0.4 -pix_fmt yuv420p -g 4"));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QVERIFY(openAndWait(a));
        player().pause();
        // The first frame shown again (the seek landed) before stepping from it.
        const int64_t shownBefore = player().presentedFrames();
        player().goToStart();
        QTRY_VERIFY_WITH_TIMEOUT(player().presentedFrames() > shownBefore && player().currentPts() < 0.01, kWaitMs);
        QVERIFY(openBAndWait(b));
        compare().setMode(CompareMode::Wipe);
        cs::Player& pb = *compare().playerB();
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(pb.currentPts() - player().currentPts()) < 0.01, kWaitMs);
        // Step A through; B is on A's frame while it has one, then on its last (0.36 s).
        for (int i = 0; i < 15; ++i) {
            const double before = player().currentPts();
            player().stepForward();
            QTRY_VERIFY_WITH_TIMEOUT(player().currentPts() > before, kWaitMs);
            const double t = player().currentPts();
            const double want = std::min(t, 0.36);
            QTRY_VERIFY2_WITH_TIMEOUT(std::abs(pb.currentPts() - want) < 0.01,
                                      qPrintable(QStringLiteral("A at %1, B at %2").arg(t).arg(pb.currentPts())), kWaitMs);
        }
        // A jump back: B goes there too.
        player().seekTo(0.2);
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(player().currentPts() - 0.2) < 0.01, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(pb.currentPts() - 0.2) < 0.01, kWaitMs);
        // Playing, B keeps up (it holds its last frame once A is past its end).
        player().goToStart();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentPts() < 0.01, kWaitMs);
        player().play();
        QTRY_VERIFY_WITH_TIMEOUT(player().currentPts() >= 0.2, kWaitMs);
        player().pause();
        settle();
        QVERIFY2(std::abs(pb.currentPts() - std::min(player().currentPts(), 0.36)) < 0.01,
                 qPrintable(QStringLiteral("A at %1, B at %2").arg(player().currentPts()).arg(pb.currentPts())));
        compare().closeB();
        QVERIFY(!compare().hasB());
        QCOMPARE(compare().mode(), CompareMode::Off);
    }

    void aLiveBPlaysLiveWhileAIsPaused() {
        QVERIFY(openAndWait(QStringLiteral("pattern:bars:320x180")));
        player().pause();
        const int port = freeUdpPort();
        QVERIFY(port > 0);
        const QString url = QStringLiteral("udp://127.0.0.1:%1").arg(port);
        compare().openB(url);
        QProcess sender;
        sender.start(QStringLiteral(CS_TEST_FFMPEG),
                     {QStringLiteral("-nostdin"), QStringLiteral("-hide_banner"), QStringLiteral("-loglevel"), QStringLiteral("error"),
                      QStringLiteral("-re"), QStringLiteral("-f"), QStringLiteral("lavfi"), QStringLiteral("-i"),
                      QStringLiteral("testsrc2=size=320x180:rate=25"), QStringLiteral("-c:v"), QStringLiteral("mpeg2video"),
                      QStringLiteral("-g"), QStringLiteral("5"), QStringLiteral("-f"), QStringLiteral("mpegts"),
                      url + QStringLiteral("?pkt_size=1316")});
        QVERIFY(sender.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(compare().playerB() && compare().playerB()->info().live && compare().hasB(), kWaitMs);
        QCOMPARE(compare().mode(), CompareMode::Wipe);   // opening B turns the wipe on
        const int64_t framesA = player().presentedFrames();
        const int64_t runs = compare().framesProcessedB();
        QTRY_VERIFY_WITH_TIMEOUT(compare().framesProcessedB() >= runs + 10, kWaitMs);
        QVERIFY(compare().playerB()->isPlaying());
        QCOMPARE(player().presentedFrames(), framesA);   // A stayed paused
        sender.kill();
        sender.waitForFinished();
        compare().closeB();
    }
};

CS_GUI_TEST_MAIN(CompareTest)

#include "test_compare.moc"
