// The scope controls of issue 17's waveform modes, reference lines, trace colour and focus
// peaking colour and width (QTest under Xvfb): each control reaches the engine's spec and the
// panel's image (the CPU engine's images, drawn for the panel's size, equal core's rendering
// of the same counts; the peaking drawn by the GL shader equals the CPU engine's preview), a
// bad reference list is refused with a message, and every choice comes back in a new window
// (settings). Scope zoom: the wheel over the waveform zooms its scale (the panel names the
// range, the image is core's zoomed rendering), a drag pans it, a double-click and the 1:1
// button restore the whole scale; the wheel takes the vectorscope to 4x. With
// CS_SCOPE_SHOTS=DIR it also saves the waveform (RGB overlay, YRGB with reference lines, zoomed
// on the bars) and the vectorscope on the bars at 1x, 2x and 4x there.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "GuiTestSupport.h"
#include "core/Engine.h"
#include "core/ScopeZoom.h"
#include "scope/ReferenceLines.h"
#include "scope/ScopeRender.h"
#include "playback/EngineHost.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "ui/main/Player.h"
#include "ui/main/ScopeView.h"
#include "cpu/CpuEngine.h"

using cs::gl::Plane;

namespace {

constexpr int kWaitMs = 20000;

QComboBox* combo(QWidget* window, const char* name) {
    const auto all = window->findChildren<QComboBox*>(QString::fromLatin1(name));
    return all.isEmpty() ? nullptr : all.front();
}

// Picks the item with `data` as a user would (activated).
void choose(QComboBox* c, int data) {
    c->setCurrentIndex(c->findData(data));
    emit c->activated(c->currentIndex());
}

// A wheel turn of `notches` (> 0: away from the user) at the middle of `w`.
void wheel(QWidget* w, int notches) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

// Pixels of `expected` (shown 1:1 at the viewer's picture rectangle) that the viewer shows
// otherwise (R, G, B); `compared` counts the pixels inside the view.
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

}  // namespace

class ScopeControlsTest : public QObject {
    Q_OBJECT

private:
    cs::MainWindow* window_ = nullptr;

    bool settle(int ms = 400) { return cs::test::waitUntil([] { return false; }, ms); }
    bool openBars() {
        window_->openInput(QStringLiteral("pattern:bars"));
        return cs::test::waitUntil([&] { return window_->player().hasFrame() && window_->player().presentedFrames() > 0; }, kWaitMs);
    }
    // Waits until the shown waveform/vectorscope image is core's rendering, for the panel's size,
    // of a fresh CPU engine's counts of the frame shown with the window's spec.
    bool shownAsCoreDraws(Plane plane) {
        return cs::test::waitUntil(
            [&] {
                cs::EngineHost& host = window_->engineHost();
                cs::ScopeSpec spec = host.spec();
                spec.displayImages = false;
                spec.picture = false;
                spec.preview = cs::PreviewFilter::None;
                cs::ScopeResults expected;
                if (!cs::makeCpuEngine(1)->process(window_->player().currentFrame().view, spec, expected)) return false;
                cs::ScopeView* v = window_->scopeView(plane);
                cs::RgbaImage img;
                if (plane == Plane::Waveform) {
                    spec.scopeWidth = std::clamp(v->pixelWidth(), 64, 4096);
                    spec.scopeHeight = std::clamp(v->pixelHeight(), 64, 4096);
                    cs::renderWaveform(expected, spec, img);
                } else {
                    spec.vectorscopeSize = std::clamp(std::min(v->pixelWidth(), v->pixelHeight()), 64, 4096);
                    cs::renderVectorscope(expected, spec, img);
                }
                return host.shownImage(plane).pixels == img.pixels;
            },
            kWaitMs);
    }
    void shot(Plane plane, const char* name) {
        const QByteArray dir = qgetenv("CS_SCOPE_SHOTS");
        if (dir.isEmpty()) return;
        settle();
        const QImage img = window_->scopeView(plane)->grabFramebuffer();
        const QString path = QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name);
        if (!img.save(path)) std::fprintf(stderr, "could not save %s\n", qPrintable(path));
    }

private slots:
    void initTestCase() {
        window_ = new cs::MainWindow("cpu");
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        window_->resetLayout();
        window_->showAllPanels();
        QVERIFY(openBars());
        window_->player().pause();
    }
    void cleanupTestCase() {
        delete window_;
        window_ = nullptr;
    }

    void waveformModesReachTheImageAndLockTheParade() {
        QComboBox* mode = combo(window_, "waveformMode");
        QComboBox* parade = combo(window_, "paradeMode");
        QVERIFY(mode && parade);
        QCOMPARE(mode->count(), 3);
        choose(parade, int(cs::ParadeMode::Ycbcr));
        QCOMPARE(window_->engineHost().spec().paradeMode, cs::ParadeMode::Ycbcr);
        choose(mode, int(cs::WaveformMode::RgbOverlay));
        QCOMPARE(window_->engineHost().spec().waveformMode, cs::WaveformMode::RgbOverlay);
        // The overlay reads the R'G'B' parade's counts: the parade turns R'G'B' and is locked.
        QCOMPARE(window_->engineHost().spec().paradeMode, cs::ParadeMode::Rgb);
        QCOMPARE(parade->currentData().toInt(), int(cs::ParadeMode::Rgb));
        QVERIFY(!parade->isEnabled());
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
        shot(Plane::Waveform, "waveform-rgb-overlay.png");
        choose(mode, int(cs::WaveformMode::Yrgb));
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
        choose(mode, int(cs::WaveformMode::Luma));
        QVERIFY(parade->isEnabled());
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
    }

    // The pins are marked in every waveform mode (luma: one a pin; the R'G'B' overlay: R', G',
    // B' in its one panel; YRGB: one a panel), and numbered when there are several.
    void pinsAreMarkedAndNumberedInEveryWaveformMode() {
        cs::PictureView* viewer = window_->viewer();
        auto labels = [&](Plane plane) {
            std::vector<int> l;
            for (const cs::ScopeMarker& m : window_->scopeView(plane)->markers()) l.push_back(m.label);
            return l;
        };
        viewer->setPinned(cs::PixelPos{20, 20});
        QTRY_COMPARE_WITH_TIMEOUT(labels(Plane::Waveform), std::vector<int>{0}, kWaitMs);
        QVERIFY(viewer->addPin(cs::PixelPos{300, 20}));
        QTRY_COMPARE_WITH_TIMEOUT(labels(Plane::Waveform), (std::vector<int>{1, 2}), kWaitMs);
        QCOMPARE(labels(Plane::Parade), (std::vector<int>{1, 1, 1, 2, 2, 2}));
        QCOMPARE(labels(Plane::Vectorscope), (std::vector<int>{1, 2}));
        choose(combo(window_, "waveformMode"), int(cs::WaveformMode::Yrgb));
        QTRY_COMPARE_WITH_TIMEOUT(labels(Plane::Waveform), (std::vector<int>{1, 1, 1, 1, 2, 2, 2, 2}), kWaitMs);
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
        shot(Plane::Waveform, "waveform-yrgb-pins.png");
        // Each marker in its own panel, left to right: Y', R', G', B'.
        const std::vector<cs::ScopeMarker> yrgb = window_->scopeView(Plane::Waveform)->markers();
        for (size_t i = 1; i < 4; ++i) QVERIFY(yrgb[i].x > yrgb[i - 1].x);
        choose(combo(window_, "waveformMode"), int(cs::WaveformMode::RgbOverlay));
        QTRY_COMPARE_WITH_TIMEOUT(labels(Plane::Waveform), (std::vector<int>{1, 1, 1, 2, 2, 2}), kWaitMs);
        shot(Plane::Waveform, "waveform-rgb-overlay-pins.png");
        choose(combo(window_, "waveformMode"), int(cs::WaveformMode::Luma));
        viewer->setPinned(std::nullopt);
        QTRY_VERIFY_WITH_TIMEOUT(window_->scopeView(Plane::Waveform)->markers().empty(), kWaitMs);
    }

    void referenceLinesTakePresetsAndTypedListsAndRefuseBadOnes() {
        QComboBox* refs = combo(window_, "referenceLines");
        QVERIFY(refs && refs->isEditable());
        refs->setCurrentIndex(refs->findText(QStringLiteral("16:8,235:8")));
        emit refs->activated(refs->currentIndex());
        QCOMPARE(window_->engineHost().spec().referenceLines.count, 2);
        // Typed: applied when editing finishes; every panel's list follows.
        refs->lineEdit()->setText(QStringLiteral("5%,95%,502"));
        emit refs->lineEdit()->editingFinished();
        QCOMPARE(QString::fromStdString(cs::referenceLinesText(window_->engineHost().spec().referenceLines)), QStringLiteral("5%,95%,502"));
        for (QComboBox* c : window_->findChildren<QComboBox*>(QStringLiteral("referenceLines"))) QCOMPARE(c->currentText(), QStringLiteral("5%,95%,502"));
        // A bad list: a message naming it, the lines as they were.
        refs->lineEdit()->setText(QStringLiteral("5%,200%"));
        emit refs->lineEdit()->editingFinished();
        QVERIFY2(window_->messageText().contains(QStringLiteral("200%")), qPrintable(window_->messageText()));
        QCOMPARE(QString::fromStdString(cs::referenceLinesText(window_->engineHost().spec().referenceLines)), QStringLiteral("5%,95%,502"));
        QCOMPARE(refs->currentText(), QStringLiteral("5%,95%,502"));
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
        // The screenshots: YRGB and RGB overlay with 5/95% lines.
        refs->lineEdit()->setText(QStringLiteral("5%,95%"));
        emit refs->lineEdit()->editingFinished();
        choose(combo(window_, "waveformMode"), int(cs::WaveformMode::Yrgb));
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
        shot(Plane::Waveform, "waveform-yrgb-5-95.png");
        choose(combo(window_, "waveformMode"), int(cs::WaveformMode::RgbOverlay));
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
        shot(Plane::Waveform, "waveform-rgb-overlay-5-95.png");
    }

    void traceColourIsOneSettingForEveryPanel() {
        const auto combos = window_->findChildren<QComboBox*>(QStringLiteral("traceColour"));
        QVERIFY(combos.size() >= 2);
        choose(combos.front(), int(cs::TraceColour::White));
        QCOMPARE(window_->engineHost().spec().traceColour, cs::TraceColour::White);
        for (QComboBox* c : combos) QCOMPARE(c->currentData().toInt(), int(cs::TraceColour::White));
        QVERIFY(shownAsCoreDraws(Plane::Vectorscope));
        choose(combos.back(), int(cs::TraceColour::Channel));
        QVERIFY(shownAsCoreDraws(Plane::Vectorscope));
    }

    void vectorscopeBarsAt1xAnd2x() {
        QComboBox* zoom = combo(window_, "vectorscopeZoom");
        QVERIFY(zoom);
        choose(zoom, 1);
        QVERIFY(shownAsCoreDraws(Plane::Vectorscope));
        shot(Plane::Vectorscope, "vectorscope-bars-1x.png");
        choose(zoom, 2);
        QCOMPARE(window_->engineHost().spec().vectorscopeZoom, 2);
        QVERIFY(shownAsCoreDraws(Plane::Vectorscope));
        shot(Plane::Vectorscope, "vectorscope-bars-2x.png");
        choose(zoom, 1);
    }

    void wheelZoomsTheWaveformAndResetRestoresIt() {
        cs::ScopeView* v = window_->scopeView(Plane::Waveform);
        auto* label = window_->findChild<QLabel*>(QStringLiteral("waveformZoom"));
        auto* reset = window_->findChild<QToolButton*>(QStringLiteral("waveformZoomReset"));
        QVERIFY(v && label && reset);
        QVERIFY(label->text().isEmpty());
        QVERIFY(!reset->isEnabled());
        QVERIFY(cs::test::waitUntil([&] { return !v->imageSize().isEmpty(); }, kWaitMs));
        // Three notches in around the middle of the panel: 0.8^3 of the scale, the middle kept.
        wheel(v, 3);
        const cs::LevelRange r = window_->engineHost().spec().waveformRange;
        QVERIFY(std::abs((r.hi - r.lo) - 0.512) < 1e-9);
        QVERIFY(r.lo > 0.0 && r.hi < 1.0);
        QVERIFY(label->text().startsWith(QStringLiteral("zoom ")));
        QVERIFY(label->text().endsWith(QStringLiteral(" IRE")));   // the bars' scale
        QCOMPARE(label->text(), window_->levelZoomLabel(Plane::Waveform));
        QVERIFY(reset->isEnabled());
        QVERIFY(shownAsCoreDraws(Plane::Waveform));   // the zoomed image is core's, for the panel
        shot(Plane::Waveform, "waveform-bars-zoomed.png");
        // A drag down brings higher codes into view; the span stays.
        const QPoint mid(v->width() / 2, v->height() / 2);
        QTest::mousePress(v, Qt::LeftButton, {}, mid);
        QTest::mouseMove(v, mid + QPoint(0, 40));
        QTest::mouseRelease(v, Qt::LeftButton, {}, mid + QPoint(0, 40));
        const cs::LevelRange moved = window_->engineHost().spec().waveformRange;
        QVERIFY(moved.lo > r.lo);
        QVERIFY(std::abs((moved.hi - moved.lo) - (r.hi - r.lo)) < 1e-9);
        // A double-click shows the whole scale; so does the 1:1 button.
        QTest::mouseDClick(v, Qt::LeftButton, {}, mid);
        QVERIFY(cs::isWholeScale(window_->engineHost().spec().waveformRange));
        QVERIFY(label->text().isEmpty());
        QVERIFY(!reset->isEnabled());
        wheel(v, 1);
        QVERIFY(reset->isEnabled());
        reset->click();
        QVERIFY(cs::isWholeScale(window_->engineHost().spec().waveformRange));
        QVERIFY(shownAsCoreDraws(Plane::Waveform));
    }

    void wheelTakesTheVectorscopeToFourTimes() {
        cs::ScopeView* v = window_->scopeView(Plane::Vectorscope);
        QComboBox* zoom = combo(window_, "vectorscopeZoom");
        QVERIFY(v && zoom);
        QCOMPARE(window_->engineHost().spec().vectorscopeZoom, 1);
        wheel(v, 1);
        wheel(v, 1);
        QCOMPARE(window_->engineHost().spec().vectorscopeZoom, 4);
        QCOMPARE(zoom->currentData().toInt(), 4);
        QVERIFY(shownAsCoreDraws(Plane::Vectorscope));
        shot(Plane::Vectorscope, "vectorscope-bars-4x.png");
        QTest::mouseDClick(v, Qt::LeftButton, {}, QPoint(v->width() / 2, v->height() / 2));
        QCOMPARE(window_->engineHost().spec().vectorscopeZoom, 1);
        QCOMPARE(zoom->currentData().toInt(), 1);
    }

    void peakingColourIsChosenInThePreviewPanel() {
        QComboBox* colour = combo(window_, "peakingColour");
        QVERIFY(colour);
        const int green = colour->findText(QStringLiteral("green"));
        QVERIFY(green >= 0);
        colour->setCurrentIndex(green);
        emit colour->activated(green);
        QCOMPARE(window_->engineHost().spec().filter.peakingColour, 0xff20ff20u);
    }

    void peakingWidthWidensTheShadersPeaksAsTheCpuDoes() {
        // The zone plate (edges everywhere, finer outwards), 8-bit and 10-bit, shown 1:1 with
        // the preview in the viewer: at each width the shader's peaking equals the CPU
        // engine's preview.
        QComboBox* width = combo(window_, "peakingWidth");
        QVERIFY(width);
        QCOMPARE(width->count(), 3);
        cs::PictureView* viewer = window_->viewer();
        auto* inViewer = window_->findChild<QCheckBox*>(QStringLiteral("previewInViewer"));
        QVERIFY(inViewer);
        for (auto [input, w, h] : {std::tuple{"pattern:zoneplate:320x180", 320, 180}, std::tuple{"pattern:zoneplate:10bit:256x144", 256, 144}}) {
            window_->openInput(QString::fromLatin1(input));
            QVERIFY(cs::test::waitUntil([&] { return window_->player().hasFrame() && window_->player().currentFrame().view.width == w; }, kWaitMs));
            window_->player().pause();
            choose(combo(window_, "previewFilter"), int(cs::PreviewFilter::FocusPeaking));
            QVERIFY(width->isVisibleTo(width->window()));
            viewer->zoomTo(1.0);
            inViewer->setChecked(true);
            std::vector<uint8_t> previous;
            for (int px : {1, 3, 2}) {
                choose(width, px);
                QCOMPARE(window_->engineHost().spec().filter.peakingWidth, px);
                // The CPU engine's preview of the frame shown (made afresh each time: a frame
                // presented after the pause replaces it).
                cs::ScopeResults expected;
                int compared = 0, differing = -1;
                const bool same = cs::test::waitUntil(
                    [&] {
                        cs::ScopeSpec spec = window_->engineHost().spec();
                        spec.preview = cs::PreviewFilter::FocusPeaking;
                        if (!cs::makeCpuEngine(1)->process(window_->player().currentFrame().view, spec, expected)) return false;
                        return (differing = differingShownPixels(viewer, expected.preview, compared)) == 0;
                    },
                    kWaitMs);
                QVERIFY2(same, qPrintable(QStringLiteral("%1 width %2: %3 of %4 pixels differ").arg(QLatin1String(input)).arg(px).arg(differing).arg(compared)));
                QCOMPARE(compared, w * h);
                QVERIFY(expected.preview.pixels != previous);   // each width paints its own pixels
                previous = expected.preview.pixels;
            }
            inViewer->setChecked(false);
        }
        QCOMPARE(window_->player().currentFrame().view.bitDepth(), 10);
        // Another filter hides the width; peaking shows it again.
        choose(combo(window_, "previewFilter"), int(cs::PreviewFilter::Zebra));
        QVERIFY(!width->isVisibleTo(width->window()));
        choose(combo(window_, "previewFilter"), int(cs::PreviewFilter::FocusPeaking));
        QVERIFY(width->isVisibleTo(width->window()));
        viewer->zoomToFit();
    }

    void everyChoiceComesBackInANewWindow() {
        choose(combo(window_, "waveformMode"), int(cs::WaveformMode::Yrgb));
        choose(combo(window_, "traceColour"), int(cs::TraceColour::Green));
        window_->setLevelRange(Plane::Parade, cs::LevelRange{0.25, 0.5});
        window_->setVectorscopeZoom(8);
        const cs::ScopeSpec before = window_->engineHost().spec();
        window_->close();   // saves the settings
        delete window_;
        window_ = new cs::MainWindow("cpu");
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        const cs::ScopeSpec& after = window_->engineHost().spec();
        QCOMPARE(after.waveformMode, cs::WaveformMode::Yrgb);
        QCOMPARE(after.traceColour, cs::TraceColour::Green);
        QCOMPARE(after.paradeMode, cs::ParadeMode::Rgb);
        QVERIFY(after.referenceLines == before.referenceLines);
        QVERIFY(after.paradeRange == (cs::LevelRange{0.25, 0.5}));
        QVERIFY(cs::isWholeScale(after.waveformRange));
        QCOMPARE(after.vectorscopeZoom, 8);
        QCOMPARE(combo(window_, "vectorscopeZoom")->currentData().toInt(), 8);
        QVERIFY(!window_->levelZoomLabel(Plane::Parade).isEmpty());
        QCOMPARE(after.filter.peakingColour, 0xff20ff20u);
        QCOMPARE(after.filter.peakingWidth, 2);
        QCOMPARE(combo(window_, "peakingWidth")->currentData().toInt(), 2);
        QCOMPARE(combo(window_, "waveformMode")->currentData().toInt(), int(cs::WaveformMode::Yrgb));
        QCOMPARE(combo(window_, "referenceLines")->currentText(), QStringLiteral("5%,95%"));
        QCOMPARE(combo(window_, "peakingColour")->currentText(), QStringLiteral("green"));
        QVERIFY(!combo(window_, "paradeMode")->isEnabled());
    }
};

CS_GUI_TEST_MAIN(ScopeControlsTest)

#include "test_scope_controls.moc"
