// GUI tests (QTest) of the window as a whole: Reset Layout gives the first launch's layout, the
// window fits a 1280 x 720 screen with every legend and readout on (no text widens it), a
// geometry saved wider than the screen comes back inside it, a click on the seek bar jumps
// there, full screen (F11: the window; a double-click: the picture alone; Esc leaves).
// View > Guides drawn over the picture, reverse play's direction, the status bar's R'G'B',
// legal and colour gamut readouts and an assumed matrix, Help > User Guide, a source paused
// before its first frame, layout presets (View > Layouts: saved, switched by Ctrl+N, renamed,
// deleted, a bad one refused; Scopes only, Picture only), several pins with their readouts,
// a region (Ctrl+drag) and a line (Alt+click) measured alone, a pin on it marked on the
// scopes, Esc measuring the frame again.
// Set CS_WINDOW_SCREENSHOTS=DIR to
// keep screenshots. Exits 77 (skipped) without a display or OpenGL 3.3.
#include <QComboBox>
#include <QDialog>
#include <QScreen>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSlider>
#include <QTextBrowser>
#include <QStatusBar>
#include <QToolBar>
#include <QtTest>

#include "GuiTestSupport.h"
#include "ui/compare/Compare.h"
#include "analysis/ActivePicture.h"
#include "ui/main/MainWindow.h"
#include "ui/MessageBar.h"
#include "ui/main/PictureView.h"
#include "ui/main/ScopeView.h"
#include "render/PictureGuides.h"
#include "ui/main/TransportBar.h"
#include "ui/Settings.h"

using cs::gl::Plane;

namespace {

constexpr int kWaitMs = 20000;

void settle(int ms = 200) { cs::test::waitUntil([] { return false; }, ms); }

// CS_WINDOW_SCREENSHOTS=DIR keeps screenshots of the states tested.
void shoot(QWidget& w, const char* name) {
    const QByteArray dir = qgetenv("CS_WINDOW_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(QString::fromLocal8Bit(dir));
    w.grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name));
}

void choose(QComboBox* c, int data) {
    c->setCurrentIndex(c->findData(data));
    emit c->activated(c->currentIndex());
}

}  // namespace

class TestGuiWindow : public QObject {
    Q_OBJECT

    cs::MainWindow* window_ = nullptr;
    cs::Player& player() { return window_->player(); }
    QSlider* seekBar() { return window_->findChild<cs::TransportBar*>()->findChild<QSlider*>(); }
    QAction* action(const char* name) { return window_->findChild<QAction*>(QString::fromLatin1(name)); }

private slots:
    void initTestCase() {
        // A first launch (the settings are a fresh folder's).
        window_ = new cs::MainWindow("cpu");
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_));   // the shortcuts go to the active window
        window_->openInput(QStringLiteral("pattern:bars:320x180"));
        QVERIFY(cs::test::waitUntil([&] { return player().hasFrame(); }, kWaitMs));
        player().pause();
    }

    void cleanupTestCase() {
        delete window_;
        window_ = nullptr;
    }

    void resetLayoutGivesTheFirstLaunchsLayout() {
        settle();
        const QSize window = window_->size();
        QDockWidget* vectorscope = window_->dock(Plane::Vectorscope);
        const QSize first = vectorscope->size(), waveform = window_->dock(Plane::Waveform)->size();
        QVERIFY(first.width() > 200 && first.height() > 200);
        // Another layout: a smaller window, the vectorscope floated, the waveform closed.
        window_->resize(window.width() - 300, window.height() - 200);
        vectorscope->setFloating(true);
        window_->dock(Plane::Waveform)->hide();
        settle();
        window_->resetLayout();
        settle();
        QCOMPARE(window_->size(), window);
        QVERIFY(!vectorscope->isFloating());
        QVERIFY(window_->dock(Plane::Waveform)->isVisible());
        QVERIFY2(std::abs(vectorscope->width() - first.width()) <= 4 && std::abs(vectorscope->height() - first.height()) <= 4,
                 qPrintable(QStringLiteral("vectorscope %1x%2, first launch %3x%4").arg(vectorscope->width()).arg(vectorscope->height())
                                .arg(first.width()).arg(first.height())));
        const QSize w = window_->dock(Plane::Waveform)->size();
        QVERIFY(std::abs(w.width() - waveform.width()) <= 4 && std::abs(w.height() - waveform.height()) <= 4);
    }

    void noTextWidensTheWindowBeyondA1280Screen() {
        window_->resize(1280, 690);   // a 1280 x 720 screen less the title bar
        settle();
        QCOMPARE(window_->width(), 1280);
        // Every legend and long readout on: HDR false colour's legend in the preview panel, a
        // B to compare with (the picker reads A and B), the pinned picker, the gamut readout.
        auto* transfer = window_->findChild<QComboBox*>(QStringLiteral("transferCombo"));
        QVERIFY(transfer);
        transfer->setCurrentIndex(transfer->findText(QStringLiteral("PQ")));
        emit transfer->activated(transfer->currentIndex());
        auto* filter = window_->findChild<QComboBox*>(QStringLiteral("previewFilter"));
        choose(filter, int(cs::PreviewFilter::FalseColour));
        window_->dock(Plane::Cie)->raise();
        window_->compare().snapshot();
        window_->viewer()->setPinned(cs::PixelPos{10, 10});
        QVERIFY(cs::test::waitUntil([&] { return window_->engineHost().hasResults() &&
                                                 window_->engineHost().results().color.transfer == cs::Transfer::Pq; }, kWaitMs));
        auto* legend = window_->findChild<QLabel*>(QStringLiteral("falseColourLegend"));
        QTRY_VERIFY_WITH_TIMEOUT(legend->isVisible() && legend->text().endsWith(QStringLiteral(" nits")), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(window_->pickerText().contains(QStringLiteral(" | ")), kWaitMs);
        settle(300);
        shoot(*window_, "every-legend-1280.png");
        QVERIFY2(window_->width() <= 1280, qPrintable(QStringLiteral("window %1 px wide").arg(window_->width())));
        QVERIFY2(window_->minimumSizeHint().width() <= 1280 && window_->minimumSizeHint().height() <= 690,
                 qPrintable(QStringLiteral("minimum %1x%2").arg(window_->minimumSizeHint().width()).arg(window_->minimumSizeHint().height())));
        // Nothing was pushed out of sight: the status bar's fields and the panels are inside the window.
        QVERIFY(window_->statusBar()->width() <= window_->width());
        for (Plane p : {Plane::Waveform, Plane::Parade, Plane::Histogram, Plane::Preview}) {
            const QRect r = window_->dock(p)->geometry();
            QVERIFY2(r.right() < window_->width(), qPrintable(window_->dock(p)->objectName()));
        }
        window_->compare().closeB();
        choose(filter, int(cs::PreviewFilter::FocusPeaking));
        transfer->setCurrentIndex(0);
        emit transfer->activated(0);
        window_->dock(Plane::Vectorscope)->raise();
    }

    void aSavedTooWideGeometryIsBroughtOntoTheScreen() {
        const QRect screen = window_->screen()->availableGeometry();
        {
            cs::MainWindow wide("cpu");
            wide.setGeometry(screen.x() + 200, screen.y() + 100, screen.width() + 900, screen.height() + 400);
            cs::settings::saveWindow(wide.saveGeometry(), wide.saveState(), true);
        }
        cs::MainWindow restored("cpu");
        QVERIFY2(restored.width() <= screen.width() && restored.height() <= screen.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(restored.width()).arg(restored.height()).arg(screen.width()).arg(screen.height())));
        QVERIFY(screen.contains(restored.geometry()));
        cs::settings::saveWindow({}, {}, true);
    }

    void aClickOnTheSeekBarJumpsThere() {
        QSlider* seek = seekBar();
        QVERIFY(seek && seek->isEnabled());
        QCOMPARE(seek->maximum(), 249);   // the pattern's 250 frames
        player().goToStart();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(0), kWaitMs);
        // A click three quarters along the groove (not on the handle) lands there, not a page on.
        QStyleOptionSlider option;
        option.initFrom(seek);
        option.orientation = Qt::Horizontal;
        option.minimum = seek->minimum();
        option.maximum = seek->maximum();
        const QRect groove = seek->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, seek);
        const int x = groove.left() + groove.width() * 3 / 4;
        QTest::mouseClick(seek, Qt::LeftButton, {}, QPoint(x, seek->height() / 2));
        option.sliderPosition = seek->sliderPosition();
        const QRect handle = seek->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, seek);
        const int expected = QStyle::sliderValueFromPosition(seek->minimum(), seek->maximum(), x - groove.left() - handle.width() / 2,
                                                             groove.width() - handle.width());
        QTRY_VERIFY2_WITH_TIMEOUT(std::abs(player().currentFrameNumber() - expected) <= 4,
                                  qPrintable(QStringLiteral("frame %1, clicked at %2").arg(player().currentFrameNumber()).arg(expected)), kWaitMs);
        QVERIFY2(player().currentFrameNumber() > 150, qPrintable(QString::number(player().currentFrameNumber())));
        QVERIFY(!player().isPlaying());
    }

    void reversePlayShowsItsDirection() {
        auto* reverse = window_->findChild<QLabel*>(QStringLiteral("reverseSpeed"));
        QVERIFY(reverse && !reverse->isVisible());
        QVERIFY(player().currentFrameNumber() > 10);   // room to play back
        QTest::keyClick(window_, Qt::Key_J);
        QVERIFY(player().isPlayingReverse());
        QVERIFY(reverse->isVisible());
        QCOMPARE(reverse->text(), QStringLiteral("\u25C0 1x"));
        QTest::keyClick(window_, Qt::Key_J);
        QCOMPARE(reverse->text(), QStringLiteral("\u25C0 1.5x"));
        if (qEnvironmentVariableIsSet("CS_WINDOW_SCREENSHOTS")) {
            settle(100);   // laid out with the label shown
            shoot(*window_->findChild<cs::TransportBar*>(), "reverse.png");
        }
        QTest::keyClick(window_, Qt::Key_K);
        QVERIFY(!player().isPlayingReverse());
        QVERIFY(!reverse->isVisible());
    }

    // The R'G'B' gamut (EBU R 103) and the legal range are read out beside the colour gamut,
    // named apart; a matrix the stream does not tag is marked assumed, a tagged one is not.
    void theSignalsRangesAndAnAssumedMatrixAreReadOut() {
        auto* signal = window_->statusBar()->findChild<QLabel*>(QStringLiteral("signalReadout"));
        QVERIFY(signal);
        QTRY_VERIFY_WITH_TIMEOUT(signal->isVisible(), kWaitMs);
        const cs::FrameStats& st = window_->engineHost().results().stats;
        QCOMPARE(signal->text(), QStringLiteral("R'G'B' out of range %1%  out of legal %2%").arg(st.outOfGamut * 100.0, 0, 'f', 1)
                                     .arg(st.outOfLegal * 100.0, 0, 'f', 1));
        // The bars' PLUGE steps below black (-2%) are out of legal; their colours are inside R'G'B'.
        QVERIFY(st.outOfLegal > 0.0);
        QCOMPARE(st.outOfGamut, 0.0);
        auto formatText = [&] {
            QStringList texts;
            for (QLabel* l : window_->statusBar()->findChildren<QLabel*>()) texts << l->text();
            return texts.join(QStringLiteral(" | "));
        };
        QVERIFY2(formatText().contains(QStringLiteral("bt709 limited")), qPrintable(formatText()));   // the pattern is tagged
        // An untagged HD clip: BT.709 by its size, and said to be assumed.
        QTemporaryDir dir;
        const QString clip = dir.filePath(QStringLiteral("untagged.mkv"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:d=0.2",
                                     "-pix_fmt", "yuv420p", "-c:v", "ffv1", "-field_order", "tt", clip}));
        window_->openInput(clip);
        QVERIFY(cs::test::waitUntil([&] { return player().input() == clip.toStdString() && player().hasFrame(); }, kWaitMs));
        player().pause();
        QTRY_VERIFY2_WITH_TIMEOUT(formatText().contains(QStringLiteral("bt709 (assumed) limited")), qPrintable(formatText()), kWaitMs);
        // Stored as interlaced, top field first: the field order is shown beside the size.
        QVERIFY2(formatText().contains(QStringLiteral("1280x720 interlaced TFF")), qPrintable(formatText()));
        window_->openInput(QStringLiteral("pattern:bars:320x180"));
        // Its own frames presented, playing (hasFrame() still holds the clip's until then), so
        // the later tests step a pattern that has been playing.
        QVERIFY(cs::test::waitUntil([&] { return player().input() == "pattern:bars:320x180" && player().presentedFrames() > 0; }, kWaitMs));
        player().play();
        QVERIFY(cs::test::waitUntil([&] { return player().presentedFrames() > 2; }, kWaitMs));
        player().pause();
    }

    // View > Guides: the action safe rectangle, a 4:3 guide and the centre cross drawn over the
    // picture where render/PictureGuides.h puts them (read back from the viewer's framebuffer),
    // nothing else changed.
    void guidesAreDrawnOverThePicture() {
        window_->viewer()->setPinned(std::nullopt);
        window_->viewer()->zoomToFit();
        settle();
        const QImage before = window_->viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        for (const char* name : {"guideActionSafe", "guideAspect4x3", "guideCentre"}) {
            QVERIFY2(action(name), name);
            action(name)->trigger();
        }
        QVERIFY(window_->viewer()->guides().actionSafe && window_->viewer()->guides().centreCross);
        const QImage after = window_->viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        const cs::RectF r = window_->viewer()->pictureRect();
        QVERIFY(r.w > 300 && std::abs(r.w / r.h - 16.0 / 9.0) < 0.02);
        const cs::GuideSegments g = cs::guideSegments(r, window_->viewer()->guides(), 20.0);
        auto at = [](const QImage& img, float x, float y) { return img.pixel(int(x), int(y)); };
        // The action safe rectangle's top edge, a third of the way along: white.
        const float safeY = g.safe[1], safeX = float(r.x + r.w / 3);
        const QRgb top = at(after, safeX, safeY);
        QVERIFY2(qRed(top) >= 225 && qGreen(top) >= 225 && qBlue(top) >= 225, qPrintable(QString::number(top, 16)));
        QVERIFY(at(before, safeX, safeY) != top);
        // The 4:3 guide's left line, half way down: amber.
        const QRgb line = at(after, g.aspect[0], float(r.y + r.h / 2));
        QVERIFY2(qRed(line) >= 240 && qGreen(line) > 150 && qGreen(line) < 220 && qBlue(line) < 40, qPrintable(QString::number(line, 16)));
        // The centre cross: white at the picture's centre, an arm's length away too.
        const QRgb centre = at(after, g.cross[4], g.cross[1]);
        QVERIFY2(qRed(centre) >= 250 && qGreen(centre) >= 250 && qBlue(centre) >= 250, qPrintable(QString::number(centre, 16)));
        // Away from the guides (and their shadows) the picture is as it was.
        int changed = 0;
        for (int y = int(safeY) + 3; y < int(safeY) + 13; ++y)
            for (int x = int(r.x + r.w * 0.55); x < int(r.x + r.w * 0.6); ++x)
                if (before.pixel(x, y) != after.pixel(x, y)) ++changed;
        QCOMPARE(changed, 0);
        for (const char* name : {"guideActionSafe", "guideAspect4x3", "guideCentre"}) action(name)->trigger();
        QVERIFY(!window_->viewer()->guides().any());

        // The active picture (cropdetect's rule on the frame shown): outlined in green along its top edge.
        QVERIFY(action("guideActivePicture"));
        action("guideActivePicture")->trigger();
        const std::optional<cs::CropArea> expected = cs::activePictureOf(player().currentFrame().view);
        QVERIFY(expected);
        const std::optional<cs::FrameRegion> shown = window_->viewer()->activeArea();
        QVERIFY(shown);
        QCOMPARE((std::array{shown->x, shown->y, shown->width, shown->height}), (std::array{expected->x, expected->y, expected->w, expected->h}));
        const QImage boxed = window_->viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        const int fh = player().currentFrame().view.height;
        const QRgb edge = at(boxed, float(r.x + r.w / 2), float(r.y + shown->y * r.h / fh));
        QVERIFY2(qGreen(edge) >= 200 && qRed(edge) < 120 && qBlue(edge) < 140, qPrintable(QString::number(edge, 16)));
        action("guideActivePicture")->trigger();
        QVERIFY(!window_->viewer()->guides().any());
    }

    void f11AndEscFillAndLeaveTheScreen() {
        QVERIFY(!window_->isFullScreen());
        QTest::keyClick(window_, Qt::Key_F11);
        QVERIFY(window_->isFullScreen());
        QVERIFY(action("fullScreen")->isChecked());
        QVERIFY(window_->dock(Plane::Waveform)->isVisible());   // the whole window, panels and all
        QTest::keyClick(window_, Qt::Key_Escape);
        QVERIFY(!window_->isFullScreen());
        QVERIFY(!action("fullScreen")->isChecked());
    }

    void aDoubleClickShowsThePictureAloneFullScreen() {
        QTest::mouseDClick(window_->viewer(), Qt::LeftButton, {}, window_->viewer()->rect().center());
        QVERIFY(window_->isFullScreenPicture());
        QVERIFY(window_->isFullScreen());
        settle();
        for (Plane p : {Plane::Waveform, Plane::Parade, Plane::Vectorscope, Plane::Histogram, Plane::Preview})
            QVERIFY2(!window_->dock(p)->isVisible(), qPrintable(window_->dock(p)->objectName()));
        QVERIFY(!window_->statusBar()->isVisible());
        QVERIFY(!window_->menuBar()->isVisible());
        QVERIFY(!window_->findChild<cs::TransportBar*>()->isVisible());
        // The picture fills the window (the screen, where a window manager does full screen).
        QTRY_COMPARE_WITH_TIMEOUT(window_->viewer()->size(), window_->size(), kWaitMs);
        // The menus' shortcuts still work without the menu bar.
        QVERIFY(!player().isPlaying());
        // Shortcuts reach the active window only: going full screen maps the window again.
        QVERIFY(QTest::qWaitForWindowActive(window_));
        const int64_t at = player().currentFrameNumber();
        QTest::keyClick(window_, Qt::Key_Right);
        QTRY_VERIFY2_WITH_TIMEOUT(player().currentFrameNumber() != at || player().isOpening(),
                                  qPrintable(QStringLiteral("frame %1 (from %2), at end %3, step fill %4, presented %5")
                                                 .arg(player().currentFrameNumber()).arg(at).arg(player().atEnd())
                                                 .arg(player().stepFillPending()).arg(player().presentedFrames())),
                                  kWaitMs);
        // Esc: back to the window as it was.
        QTest::keyClick(window_, Qt::Key_Escape);
        QVERIFY(!window_->isFullScreenPicture());
        QVERIFY(!window_->isFullScreen());
        settle();
        QVERIFY(window_->dock(Plane::Waveform)->isVisible());
        QVERIFY(window_->statusBar()->isVisible());
        QVERIFY(window_->menuBar()->isVisible());
        // From the window's full screen, the picture alone and back keeps the window full screen.
        QTest::keyClick(window_, Qt::Key_F11);
        QTest::mouseDClick(window_->viewer(), Qt::LeftButton, {}, window_->viewer()->rect().center());
        QVERIFY(window_->isFullScreenPicture());
        QTest::mouseDClick(window_->viewer(), Qt::LeftButton, {}, window_->viewer()->rect().center());
        QVERIFY(!window_->isFullScreenPicture());
        QVERIFY(window_->isFullScreen());
        QTest::keyClick(window_, Qt::Key_Escape);
        QVERIFY(!window_->isFullScreen());
    }

    // Help > User Guide (F1): a dialog titled with the guide's heading, the guide read from the
    // binary's resources with its pictures found beside it, fitting the screen.
    void helpOpensTheUserGuide() {
        QAction* guide = action("userGuide");
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        auto* dialog = window_->findChild<QDialog*>(QStringLiteral("userGuide"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QCOMPARE(dialog->windowTitle(), QStringLiteral("cudascope User Guide"));
        auto* text = dialog->findChild<QTextBrowser*>(QStringLiteral("userGuideText"));
        QVERIFY(text);
        QVERIFY(text->toPlainText().contains(QStringLiteral("Keyboard shortcuts")));
        QVERIFY(text->toPlainText().contains(QStringLiteral("The wall")));
        // Every picture the guide names is found (relative to the guide) and is a real image.
        const QString markdown = text->toMarkdown();
        int pictures = 0;
        for (const QString& name : {QStringLiteral("guide/window.png"), QStringLiteral("guide/scopes.png"), QStringLiteral("guide/wall.png")}) {
            QVERIFY2(markdown.contains(name), qPrintable(name));
            const QVariant v = text->loadResource(QTextDocument::ImageResource, QUrl(name));
            QImage img;
            if (v.canConvert<QImage>()) img = v.value<QImage>();
            if (img.isNull()) img = QImage::fromData(v.toByteArray());
            QVERIFY2(!img.isNull() && img.width() >= 600, qPrintable(name));
            ++pictures;
        }
        QCOMPARE(pictures, 3);
        const QSize screen = dialog->screen()->availableSize();   // fits the screen, 1280 x 720 included
        QVERIFY(dialog->width() <= screen.width() && dialog->height() <= screen.height());
        shoot(*dialog, "user-guide.png");
        dialog->close();
        QTRY_VERIFY_WITH_TIMEOUT(!window_->findChild<QDialog*>(QStringLiteral("userGuide")), kWaitMs);   // deleted when closed
    }

    void aSourcePausedBeforeItsFirstFrameShowsIt() {
        // A source plays as it opens; paused (or stepped) before its first frame has arrived,
        // it still shows that frame, never the picture of the source before it, and steps go
        // on from there. The clip before waits on a later frame.
        window_->openInput(QStringLiteral("pattern:zoneplate:320x180"));
        QVERIFY(cs::test::waitUntil([&] { return player().input() == "pattern:zoneplate:320x180" && player().presentedFrames() > 0; }, kWaitMs));
        player().pause();
        player().seekTo(2.0);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(50), kWaitMs);
        for (const bool byStep : {false, true}) {
            // Paused or stepped as it opens, in the same event loop turn as the window's play on
            // open (its slot runs first): the first frame may have been shown by then (counted from
            // the open), no later one.
            bool firstShown = false, handled = false;
            connect(
                &player(), &cs::Player::opened, this,
                [&, byStep] {
                    firstShown = player().presentedFrames() > 0;
                    if (byStep) player().stepForward();   // the step shows the first frame, or the next after it
                    else player().pause();
                    handled = true;
                },
                Qt::SingleShotConnection);
            window_->openInput(byStep ? QStringLiteral("pattern:ramp:320x180") : QStringLiteral("pattern:bars:320x180"));
            QVERIFY(cs::test::waitUntil([&] { return handled; }, kWaitMs));
            QVERIFY(!player().isPlaying());
            for (int64_t k = byStep && firstShown ? 1 : 0; k <= 3; ++k) {
                if (k > (byStep ? int64_t(firstShown) : 0)) player().stepForward();
                QTRY_VERIFY2_WITH_TIMEOUT(player().currentFrameNumber() == k && player().presentedFrames() > 0,
                                          qPrintable(QStringLiteral("frame %1 expected: frame %2, presented %3, queued %4")
                                                         .arg(k).arg(player().currentFrameNumber())
                                                         .arg(player().presentedFrames()).arg(player().itemsQueued())),
                                          kWaitMs);
            }
        }
        // The same for a seek while playing: paused before the frame sought is shown, it is shown.
        player().play();
        QVERIFY(cs::test::waitUntil([&] { return player().presentedFrames() > 6; }, kWaitMs));
        player().seekTo(1.0);
        player().pause();
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), int64_t(25), kWaitMs);
    }

    void layoutPresetsSaveAndSwitch() {
        window_->openInput(QStringLiteral("pattern:bars:320x180"));
        QVERIFY(cs::test::waitUntil([&] { return player().input() == "pattern:bars:320x180" && player().hasFrame(); }, kWaitMs));
        player().pause();
        window_->resetLayout();
        settle();
        const QStringList builtIn{QStringLiteral("Default"), QStringLiteral("Scopes only"), QStringLiteral("Picture only")};
        QCOMPARE(window_->layoutNames(), builtIn);
        // A grading layout: the histogram closed, the waveform in code values at gain 4.
        window_->dock(Plane::Histogram)->hide();
        auto* scale = window_->findChild<QComboBox*>(QStringLiteral("waveformScale"));
        choose(scale, int(cs::WaveformScale::CodeValue));
        window_->engineHost().spec().waveformGain = 4.0f;
        QVERIFY(window_->saveLayoutAs(QStringLiteral("Grading")));
        QCOMPARE(window_->layoutNames(), builtIn + QStringList{QStringLiteral("Grading")});
        // A name taken (case aside) or empty is refused with the reason, shown in the window.
        const cs::Status taken = window_->saveLayoutAs(QStringLiteral("grading"));
        QVERIFY(!taken);
        QVERIFY2(QString::fromStdString(taken.message()).contains(QStringLiteral("exists")), taken.message().c_str());
        QVERIFY(window_->messageText().contains(QStringLiteral("exists")));
        QVERIFY(!window_->saveLayoutAs(QStringLiteral("  ")));

        // Default (Ctrl+1): every panel, the scale as it was left (a layout switch keeps it).
        QTest::keyClick(window_, Qt::Key_1, Qt::ControlModifier);
        settle();
        QVERIFY(window_->dock(Plane::Histogram)->isVisible());
        QVERIFY(window_->pictureShown());
        choose(window_->findChild<QComboBox*>(QStringLiteral("waveformScale")), int(cs::WaveformScale::Ire));
        window_->engineHost().spec().waveformGain = 1.0f;
        // Grading is the fourth: Ctrl+4 brings back its panels and the scopes' settings, the controls in step.
        QTest::keyClick(window_, Qt::Key_4, Qt::ControlModifier);
        settle();
        QVERIFY(!window_->dock(Plane::Histogram)->isVisible());
        QVERIFY(window_->dock(Plane::Waveform)->isVisible());
        QCOMPARE(window_->engineHost().spec().waveformScale, cs::WaveformScale::CodeValue);
        QCOMPARE(window_->engineHost().spec().waveformGain, 4.0f);
        for (auto* c : window_->findChildren<QComboBox*>(QStringLiteral("waveformScale")))
            QCOMPARE(c->currentData().toInt(), int(cs::WaveformScale::CodeValue));
        // Remembered between runs: in the settings, as the next window reads them.
        const auto saved = cs::settings::layoutPresets();
        QCOMPARE(int(saved.size()), 1);
        QCOMPARE(saved[0].choices.spec.waveformGain, 4.0f);

        // Scopes only (Ctrl+2): no picture, the panels fill the window.
        QTest::keyClick(window_, Qt::Key_2, Qt::ControlModifier);
        settle(400);
        QVERIFY(!window_->pictureShown());
        QVERIFY(!window_->viewer()->isVisible());
        for (Plane p : {Plane::Waveform, Plane::Parade, Plane::Vectorscope, Plane::Histogram, Plane::Preview})
            QVERIFY2(window_->dock(p)->isVisible(), qPrintable(window_->dock(p)->objectName()));
        // The scopes still follow the frame shown.
        const int64_t before = window_->framesProcessed();
        player().stepForward();
        QTRY_VERIFY_WITH_TIMEOUT(window_->framesProcessed() > before, kWaitMs);
        shoot(*window_, "layout-scopes-only.png");
        // Closed so, the next launch opens so (a second screen's scopes stay scopes).
        {
            cs::MainWindow closed("cpu");
            QVERIFY(closed.applyLayout(QStringLiteral("Scopes only")));
            closed.close();
            cs::MainWindow next("cpu");
            QVERIFY(!next.pictureShown());
            QVERIFY(next.applyLayout(QStringLiteral("Default")));
            next.close();
        }
        // The picture alone full screen shows it, and leaving hides it again; Reset Layout brings it back.
        window_->setFullScreenPicture(true);
        QVERIFY(window_->pictureShown());
        window_->setFullScreenPicture(false);
        QVERIFY(!window_->pictureShown());
        window_->resetLayout();
        QVERIFY(window_->pictureShown());
        // Picture only (Ctrl+3): the picture and transport, no panels.
        QTest::keyClick(window_, Qt::Key_3, Qt::ControlModifier);
        settle(400);
        QVERIFY(window_->pictureShown() && window_->viewer()->isVisible());
        for (Plane p : {Plane::Waveform, Plane::Parade, Plane::Vectorscope, Plane::Histogram, Plane::Preview})
            QVERIFY(!window_->dock(p)->isVisible());
        shoot(*window_, "layout-picture-only.png");

        // Renamed and deleted; built-in ones are not.
        QVERIFY(window_->renameLayout(QStringLiteral("Grading"), QStringLiteral("Review")));
        QCOMPARE(window_->layoutNames().last(), QStringLiteral("Review"));
        QVERIFY(!window_->renameLayout(QStringLiteral("Review"), QStringLiteral("Default")));
        QVERIFY(!window_->deleteLayout(QStringLiteral("Scopes only")));
        // A preset whose dock state this build cannot restore: a message, the window as it was.
        auto presets = cs::settings::layoutPresets();
        cs::settings::LayoutPreset bad = presets[0];
        bad.name = QStringLiteral("Old build");
        bad.state = QByteArray("not a QMainWindow state");
        presets.push_back(bad);
        cs::settings::setLayoutPresets(presets);
        const cs::Status refused = window_->applyLayout(QStringLiteral("Old build"));
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.message()).contains(QStringLiteral("Old build")), refused.message().c_str());
        QVERIFY(window_->messageText().contains(QStringLiteral("cannot be restored")));
        QVERIFY(!QApplication::activeModalWidget());   // the message bar only: nothing waits on a click
        QVERIFY(window_->pictureShown());
        QVERIFY(!window_->dock(Plane::Waveform)->isVisible());   // still Picture only's
        QCOMPARE(window_->engineHost().spec().waveformScale, cs::WaveformScale::CodeValue);
        QVERIFY(window_->deleteLayout(QStringLiteral("Review")));
        QVERIFY(window_->deleteLayout(QStringLiteral("Old build")));
        QCOMPARE(window_->layoutNames(), builtIn);
        QVERIFY(window_->applyLayout(QStringLiteral("Default")));
        choose(window_->findChild<QComboBox*>(QStringLiteral("waveformScale")), int(cs::WaveformScale::Ire));
        window_->engineHost().spec().waveformGain = 1.0f;
        window_->findChild<cs::MessageBar*>()->hide();   // the window as the next case expects it
        settle();
    }

    void severalPinsWithTheirReadouts() {
        cs::PictureView* viewer = window_->viewer();
        viewer->setPinned(std::nullopt);
        QVERIFY(!window_->pinsDock()->isVisible());
        window_->findChild<cs::MessageBar*>()->hide();   // the layouts' errors: a warning shows
        const cs::RectF r = viewer->pictureRect();
        const double dpr = viewer->devicePixelRatioF();
        // Bars: 75% white after the left grey panel (an eighth: 180 in limited codes), then yellow, cyan, ...
        auto at = [&](double fx) { return QPoint(int((r.x + fx * r.w) / dpr), int((r.y + 0.25 * r.h) / dpr)); };
        const QPoint spots[] = {at(0.18), at(0.29), at(0.39), at(0.5), at(0.6)};
        QTest::mouseClick(viewer, Qt::LeftButton, {}, spots[0]);
        QCOMPARE(int(viewer->pins().size()), 1);
        for (int i = 1; i < 4; ++i) QTest::mouseClick(viewer, Qt::LeftButton, Qt::ShiftModifier, spots[i]);
        QCOMPARE(int(viewer->pins().size()), 4);
        QTRY_VERIFY_WITH_TIMEOUT(window_->pinsDock()->isVisible(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(window_->pinsText().count(QLatin1Char('\n')), 11, kWaitMs);   // three rows a pin
        const QStringList lines = window_->pinsText().split(QLatin1Char('\n'));
        for (int i = 0; i < 4; ++i)
            QVERIFY2(lines[3 * i].startsWith(QString::number(i + 1) + QStringLiteral("  x ")), qPrintable(lines[3 * i]));
        // The readout says what the parade shows: 75% white is 180 on R', G' and B'; 75% yellow's B' is black's 16.
        QVERIFY2(lines[1].contains(QStringLiteral("Y'CbCr 180 128 128")), qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(QStringLiteral("R'G'B' (16-235) 180 180 180")), qPrintable(lines[2]));
        QVERIFY2(lines[5].contains(QStringLiteral("R'G'B' (16-235) 180 180  16")), qPrintable(lines[5]));
        QVERIFY2(window_->pickerText().contains(QStringLiteral("R'G'B' (16-235) 180 180 180")), qPrintable(window_->pickerText()));
        // A fifth is refused with a message; a plain click pins one in place of all.
        QTest::mouseClick(viewer, Qt::LeftButton, Qt::ShiftModifier, spots[4]);
        QCOMPARE(int(viewer->pins().size()), 4);
        QVERIFY2(window_->messageText().contains(QStringLiteral("Clear Pins")), qPrintable(window_->messageText()));
        settle(300);
        shoot(*window_, "four-pins.png");
        QTest::mouseClick(viewer, Qt::LeftButton, {}, spots[4]);
        QCOMPARE(int(viewer->pins().size()), 1);
        QTRY_COMPARE_WITH_TIMEOUT(window_->pinsText().count(QLatin1Char('\n')), 2, kWaitMs);
        action("clearPins")->trigger();
        QVERIFY(viewer->pins().empty());
        QVERIFY(window_->pinsText().startsWith(QStringLiteral("No pixels pinned")));
        window_->pinsDock()->hide();
        window_->findChild<cs::MessageBar*>()->hide();
    }

    // Ctrl+drag measures a region: every scope counts its pixels alone (the histogram sums to
    // its size, snapped to 4:2:2's even columns), the status bar reads it out; Alt+click measures
    // a line (the waveform's columns hold one pixel each); Esc measures the whole frame again.
    void aDragMeasuresARegionAndEscClearsIt() {
        cs::PictureView* viewer = window_->viewer();
        const cs::EngineHost& host = window_->engineHost();
        auto histogramSum = [&] {
            uint64_t n = 0;
            for (uint32_t v : host.results().histY) n += v;
            return n;
        };
        const cs::RectF r = viewer->pictureRect();
        const double dpr = viewer->devicePixelRatioF();
        auto at = [&](double fx, double fy) { return QPoint(int((r.x + fx * r.w) / dpr), int((r.y + fy * r.h) / dpr)); };
        QTest::mousePress(viewer, Qt::LeftButton, Qt::ControlModifier, at(0.13, 0.21));
        QTest::mouseMove(viewer, at(0.3, 0.4));
        QTest::mouseRelease(viewer, Qt::LeftButton, Qt::ControlModifier, at(0.47, 0.62));
        QVERIFY(window_->region().has_value());
        const cs::FrameRegion region = *window_->region();
        QVERIFY(viewer->region() == window_->region());
        QVERIFY(region.x % 2 == 0 && region.width % 2 == 0);   // the bars are 4:2:2: even columns
        QVERIFY2(region.width > 320 / 4 && region.width < 320 / 2, qPrintable(QString::number(region.width)));
        QTRY_COMPARE_WITH_TIMEOUT(host.results().width, region.width, kWaitMs);
        QCOMPARE(host.results().height, region.height);
        QCOMPARE(histogramSum(), uint64_t(region.width) * uint64_t(region.height));
        auto* readout = window_->statusBar()->findChild<QLabel*>(QStringLiteral("regionReadout"));
        QVERIFY(readout && readout->isVisible());
        QCOMPARE(readout->text(), QStringLiteral("region %1x%2 at (%3,%4)").arg(region.width).arg(region.height).arg(region.x).arg(region.y));
        settle(300);
        shoot(*window_, "region.png");

        QTest::mouseClick(viewer, Qt::LeftButton, Qt::AltModifier, at(0.5, 0.3));
        QVERIFY(window_->region().has_value());
        QCOMPARE(window_->region()->height, 1);
        QCOMPARE(window_->region()->width, 320);
        QTRY_COMPARE_WITH_TIMEOUT(host.results().height, 1, kWaitMs);
        QCOMPARE(histogramSum(), uint64_t(320));
        const std::vector<uint32_t>& waveform = host.results().waveform;
        const int levels = host.results().levels;
        QCOMPARE(int(waveform.size()), levels * 320);
        for (int x : {0, 100, 319}) {
            uint32_t column = 0;
            for (int v = 0; v < levels; ++v) column += waveform[size_t(v) * 320 + size_t(x)];
            QCOMPARE(column, 1u);
        }
        QCOMPARE(readout->text(), QStringLiteral("line %1").arg(window_->region()->y));
        // A pixel pinned on the line is marked on the waveform, each parade panel and the
        // vectorscope; one off the line is not (the scopes do not measure it).
        viewer->setPinned(cs::PixelPos{160, window_->region()->y});
        QCOMPARE(int(window_->scopeView(Plane::Waveform)->markers().size()), 1);
        QCOMPARE(int(window_->scopeView(Plane::Parade)->markers().size()), 3);
        QCOMPARE(int(window_->scopeView(Plane::Vectorscope)->markers().size()), 1);
        settle(300);
        shoot(*window_, "line.png");
        viewer->setPinned(cs::PixelPos{160, (window_->region()->y + 90) % 180});
        QVERIFY(window_->scopeView(Plane::Waveform)->markers().empty());
        QVERIFY(window_->scopeView(Plane::Vectorscope)->markers().empty());
        viewer->setPinned(std::nullopt);

        QTest::keyClick(window_, Qt::Key_Escape);
        QVERIFY(!window_->region().has_value());
        QVERIFY(!viewer->region().has_value());
        QTRY_COMPARE_WITH_TIMEOUT(host.results().height, 180, kWaitMs);
        QCOMPARE(histogramSum(), uint64_t(320 * 180));
        QVERIFY(!readout->isVisible());
    }

    // View > Fields: an interlaced clip whose even lines (the top field) are Y' 200 and odd
    // lines (the bottom field) Y' 50, stored bottom field first. Each field alone is measured
    // (half the height, one luma code) and shown at the frame's shape; the status bar names
    // it; the pins follow their pixels; Alt+Right walks the fields in the stream's order into
    // the next frame.
    void fieldsAreShownAndMeasuredOneAtATime() {
        QTemporaryDir dir;
        const QString clip = dir.filePath(QStringLiteral("fields.mkv"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                     "color=c=gray:size=320x180:rate=25:d=0.2,format=yuv420p,geq=lum='if(mod(Y,2),50,200)':cb=128:cr=128",
                                     "-c:v", "ffv1", "-field_order", "bb", clip}));
        window_->openInput(clip);
        QVERIFY(cs::test::waitUntil([&] { return player().input() == clip.toStdString() && player().hasFrame(); }, kWaitMs));
        player().pause();
        cs::EngineHost& host = window_->engineHost();
        cs::PictureView* viewer = window_->viewer();
        QTRY_COMPARE_WITH_TIMEOUT(host.results().height, 180, kWaitMs);
        const cs::RectF frameRect = viewer->pictureRect();
        viewer->setPinned(cs::PixelPos{10, 21});
        auto onlyCode = [&](int code) {
            const std::vector<uint32_t>& h = host.results().histY;
            return int(h.size()) > code && h[size_t(code)] == uint32_t(320 * 90);
        };
        auto sizeText = [&] {
            QStringList texts;
            for (QLabel* l : window_->statusBar()->findChildren<QLabel*>()) texts << l->text();
            return texts.join(QStringLiteral(" | "));
        };
        QVERIFY(action("fieldTop"));
        action("fieldTop")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(host.results().height, 90, kWaitMs);
        QVERIFY(onlyCode(200));
        QCOMPARE(viewer->rowScale(), 2);
        QVERIFY(std::abs(viewer->pictureRect().h - frameRect.h) <= 1.0);   // the frame's shape
        QCOMPARE(viewer->pins().front().y, 10);                              // frame row 21 is field row 10
        QVERIFY2(sizeText().contains(QStringLiteral("top field (2nd)")), qPrintable(sizeText()));
        settle(300);
        shoot(*window_, "field-top.png");
        action("fieldBottom")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(onlyCode(50), kWaitMs);
        QVERIFY2(sizeText().contains(QStringLiteral("bottom field (1st)")), qPrintable(sizeText()));
        // Bottom first: Alt+Right from the bottom field shows the top field of the same frame,
        // then the next frame's bottom field.
        const int64_t frame = player().currentFrameNumber();
        QTest::keyClick(window_, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(window_->shownField(), std::optional<cs::Field>(cs::Field::Top));
        QTRY_VERIFY_WITH_TIMEOUT(onlyCode(200), kWaitMs);
        QCOMPARE(player().currentFrameNumber(), frame);
        QTest::keyClick(window_, Qt::Key_Right, Qt::AltModifier);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), frame + 1, kWaitMs);
        QCOMPARE(window_->shownField(), std::optional<cs::Field>(cs::Field::Bottom));
        QTRY_VERIFY_WITH_TIMEOUT(onlyCode(50), kWaitMs);
        QTest::keyClick(window_, Qt::Key_Left, Qt::AltModifier);
        QTRY_COMPARE_WITH_TIMEOUT(player().currentFrameNumber(), frame, kWaitMs);
        QCOMPARE(window_->shownField(), std::optional<cs::Field>(cs::Field::Top));
        // The whole frame again: both codes, the pin back on its frame row.
        action("fieldWholeFrame")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(host.results().height, 180, kWaitMs);
        QCOMPARE(viewer->rowScale(), 1);
        QCOMPARE(viewer->pins().front().y, 20);   // field row 10 of the top field
        viewer->setPinned(std::nullopt);
        window_->openInput(QStringLiteral("pattern:bars:320x180"));
        QVERIFY(cs::test::waitUntil([&] { return player().input() == "pattern:bars:320x180" && player().hasFrame(); }, kWaitMs));
    }
};

CS_GUI_TEST_MAIN(TestGuiWindow)
#include "test_gui_window.moc"
