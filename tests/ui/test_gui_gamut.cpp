// GUI tests (QTest, under Xvfb) of the gamut tools in the window, on a 10-bit BT.2020 clip
// made here with the ffmpeg CLI: its left half BT.2020's green primary (far outside
// BT.709), its right half grey. The CIE panel (a tab beside the vectorscope) shows core's
// diagram of the frame's counts, the green in the bin of BT.2020's green corner; its
// controls switch the diagram (xy, u'v') and the target; the status bar reads the share
// outside the target (50% outside BT.709, none outside BT.2020); the chromaticity counts
// are asked for only while the panel shows or the gamut check is on; the choices are
// remembered. View > Gamut Check paints the pixels outside the target magenta over the picture
// in the viewer (the green half, not the grey) and off restores it. With
// CS_TEST_SCREENSHOT_DIR set, the window with the CIE panel open is saved there as
// gamut-window.png, and with the gamut check on as gamut-check.png, for looking at. Exits 77
// without a display or GL 3.3.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QScreen>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numeric>
#include <cstdio>
#include <fstream>

#include "GuiTestSupport.h"
#include "scope/CieDiagram.h"
#include "core/Gamut.h"
#include "playback/EngineHost.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "ui/main/Player.h"
#include "ui/main/ScopeView.h"
#include "ui/Settings.h"

using cs::gl::Plane;

namespace {

constexpr int kWaitMs = 20000;
constexpr int kW = 640, kH = 360;
// BT.2020 NCL, limited 10-bit: R'G'B' (0, 1, 0) is Y' 64 + 876 x 0.6780 = 658,
// Cb 512 - 896 x 0.6780 / 1.8814 = 189, Cr 512 - 896 x 0.6780 / 1.4746 = 100.
constexpr int kGreenY = 658, kGreenCb = 189, kGreenCr = 100, kGreyY = 502;

}  // namespace

class GamutGuiTest : public QObject {
    Q_OBJECT

private:
    cs::MainWindow* window_ = nullptr;
    QTemporaryDir files_;
    QString clip_;

    cs::Player& player() { return window_->player(); }
    cs::EngineHost& engine() { return window_->engineHost(); }
    QComboBox* combo(const char* name) { return window_->findChild<QComboBox*>(QString::fromLatin1(name)); }
    QLabel* readout() { return window_->statusBar()->findChild<QLabel*>(QStringLiteral("gamutReadout")); }
    void choose(QComboBox* c, const QString& item) {
        QVERIFY(c);
        const int i = c->findText(item);
        QVERIFY2(i >= 0, qPrintable(item));
        c->setCurrentIndex(i);
        emit c->activated(i);
    }
    void showCie(bool on) {
        QDockWidget* d = window_->dock(Plane::Cie);
        if (on) {
            d->show();
            d->raise();
        } else {
            d->hide();
        }
    }
    bool gamutWith(cs::Primaries target, cs::CieMode mode) {
        return cs::test::waitUntil(
            [&] {
                const cs::GamutResults& g = engine().results().gamut;
                return engine().hasResults() && g.measured && g.target == target && g.mode == mode;
            },
            kWaitMs);
    }
    // The counts in the 5 x 5 bins around a chromaticity's bin.
    uint64_t countsNear(cs::Chromaticity c, cs::CieMode mode) {
        const cs::GamutResults& g = engine().results().gamut;
        const cs::CieAxes axes = cs::cieAxes(mode);
        const cs::Chromaticity p = mode == cs::CieMode::Uv ? cs::xyToUv(c) : c;
        const int u = int(p.x * cs::kCieBins / axes.uExtent), v = int(p.y * cs::kCieBins / axes.vExtent);
        uint64_t sum = 0;
        for (int dv = -2; dv <= 2; ++dv)
            for (int du = -2; du <= 2; ++du) sum += g.counts[size_t(v + dv) * cs::kCieBins + size_t(u + du)];
        return sum;
    }

private slots:
    void initTestCase() {
        QVERIFY(files_.isValid());
        // 10-bit 4:2:0, BT.2020 primaries and matrix, limited, BT.709 transfer; FFV1 keeps the codes.
        std::string raw;
        auto put = [&](int v) { raw.push_back(char(v & 0xff)); raw.push_back(char(v >> 8)); };
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) put(x < kW / 2 ? kGreenY : kGreyY);
        for (int plane : {kGreenCb, kGreenCr})
            for (int y = 0; y < kH / 2; ++y)
                for (int x = 0; x < kW / 2; ++x) put(x < kW / 4 ? plane : 512);
        const QString rawPath = files_.filePath(QStringLiteral("wide.yuv"));
        std::ofstream(rawPath.toStdString(), std::ios::binary).write(raw.data(), std::streamsize(raw.size()));
        clip_ = files_.filePath(QStringLiteral("wide.mkv"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s",
                      QStringLiteral("%1x%2").arg(kW).arg(kH), "-r", "25", "-stream_loop", "4", "-i", rawPath, "-color_range",
                      "tv", "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "bt709", "-c:v", "ffv1",
                      clip_}));

        window_ = new cs::MainWindow("cpu");
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        window_->resetLayout();
        window_->openInput(clip_);
        QVERIFY(cs::test::waitUntil([&] { return player().input() == clip_.toStdString() && player().hasFrame(); }, kWaitMs));
        player().pause();
    }

    void cleanupTestCase() {
        delete window_;
        window_ = nullptr;
    }

    void theCountsAreAskedForOnlyWhenShown() {
        // The default layout keeps the CIE panel behind the vectorscope's tab: nothing counted.
        QVERIFY(window_->dock(Plane::Cie));
        QVERIFY(cs::test::waitUntil([&] { return engine().hasResults() && !engine().spec().cie; }, kWaitMs));
        QVERIFY(!engine().results().gamut.measured);
        QVERIFY(readout()->text().isEmpty());
        showCie(true);
        QVERIFY(cs::test::waitUntil([&] { return engine().spec().cie && engine().results().gamut.measured; }, kWaitMs));
        QVERIFY(engine().spec().cieCounts);
        showCie(false);
        QVERIFY(cs::test::waitUntil([&] { return !engine().spec().cie && !engine().results().gamut.measured; }, kWaitMs));
        // The gamut check alone asks for them too.
        auto* check = window_->findChild<QAction*>(QStringLiteral("gamutCheck"));
        QVERIFY(check);
        check->setChecked(true);
        QVERIFY(cs::test::waitUntil([&] { return engine().spec().cie && engine().results().gamut.measured; }, kWaitMs));
        QVERIFY(!engine().spec().cieCounts);   // the share outside alone: no counts or diagram wanted
        QTRY_VERIFY_WITH_TIMEOUT(readout()->text() == QStringLiteral("outside BT.709 (colour gamut) 50.0%"), kWaitMs);
        check->setChecked(false);
        QVERIFY(cs::test::waitUntil([&] { return !engine().spec().cie; }, kWaitMs));
    }

    void thePanelShowsTheDiagramOfTheFrame() {
        showCie(true);
        QVERIFY(gamutWith(cs::Primaries::Bt709, cs::CieMode::Xy));
        const cs::GamutResults& g = engine().results().gamut;
        QCOMPARE(g.source, cs::Primaries::Bt2020);
        const uint64_t pixels = uint64_t(kW) * kH;
        // Half the pixels at BT.2020's green primary, half at the D65 white point.
        const cs::PrimariesInfo p2020 = cs::primariesInfo(cs::Primaries::Bt2020);
        QCOMPARE(countsNear(p2020.g, cs::CieMode::Xy), pixels / 2);
        QCOMPARE(countsNear(p2020.white, cs::CieMode::Xy), pixels / 2);
        QCOMPARE(g.outside, pixels / 2);
        // The panel shows core's diagram of these counts, drawn for the panel's size.
        cs::ScopeView* view = window_->scopeView(Plane::Cie);
        const int side = std::min(view->pixelWidth(), view->pixelHeight());
        QVERIFY(side > 200);
        const cs::RgbaImage& shown = engine().shownImage(Plane::Cie);
        QCOMPARE(shown.width, side);
        QCOMPARE(shown.height, side);
        cs::ScopeSpec spec = engine().spec();
        spec.cieSize = side;
        cs::RgbaImage expected;
        cs::renderCieDiagram(engine().results(), spec, expected);
        QVERIFY(shown.pixels == expected.pixels);
        // And it reaches the screen: the grabbed panel holds the diagram's light pixels.
        cs::test::waitUntil([] { return false; }, 400);
        const QImage grabbed = view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        int lit = 0;
        for (int y = 0; y < grabbed.height(); ++y)
            for (int x = 0; x < grabbed.width(); ++x) lit += qGray(grabbed.pixel(x, y)) > 150;
        QVERIFY2(lit > 500, qPrintable(QString::number(lit)));
    }

    void theControlsChangeTheSpec() {
        showCie(true);
        choose(combo("cieMode"), QStringLiteral("CIE 1976 u'v'"));
        QVERIFY(gamutWith(cs::Primaries::Bt709, cs::CieMode::Uv));
        QCOMPARE(engine().spec().cieMode, cs::CieMode::Uv);
        const cs::PrimariesInfo p2020 = cs::primariesInfo(cs::Primaries::Bt2020);
        QCOMPARE(countsNear(p2020.g, cs::CieMode::Uv), uint64_t(kW) * kH / 2);

        choose(combo("gamutTarget"), QStringLiteral("BT.2020"));
        QVERIFY(gamutWith(cs::Primaries::Bt2020, cs::CieMode::Uv));
        QCOMPARE(engine().results().gamut.outside, uint64_t(0));
        QTRY_VERIFY_WITH_TIMEOUT(readout()->text() == QStringLiteral("outside BT.2020 (colour gamut) 0.0%"), kWaitMs);

        choose(combo("gamutTarget"), QStringLiteral("P3-D65"));
        QVERIFY(gamutWith(cs::Primaries::P3D65, cs::CieMode::Uv));
        QCOMPARE(engine().results().gamut.outside, uint64_t(kW) * kH / 2);   // BT.2020's green is outside P3 too
        QTRY_VERIFY_WITH_TIMEOUT(readout()->text() == QStringLiteral("outside P3-D65 (colour gamut) 50.0%"), kWaitMs);

        choose(combo("gamutTarget"), QStringLiteral("BT.709"));
        choose(combo("cieMode"), QStringLiteral("CIE 1931 xy"));
        QVERIFY(gamutWith(cs::Primaries::Bt709, cs::CieMode::Xy));
        QTRY_VERIFY_WITH_TIMEOUT(readout()->text() == QStringLiteral("outside BT.709 (colour gamut) 50.0%"), kWaitMs);
    }

    void theWindowWithThePanelIsSaved() {
        showCie(true);
        QVERIFY(gamutWith(cs::Primaries::Bt709, cs::CieMode::Xy));
        cs::test::waitUntil([] { return false; }, 500);
        const char* dir = std::getenv("CS_TEST_SCREENSHOT_DIR");
        const QPixmap shot = window_->screen()->grabWindow(0, window_->x(), window_->y(), window_->width(), window_->height());
        QVERIFY(!shot.isNull());
        if (dir && *dir) QVERIFY(shot.save(QString::fromLocal8Bit(dir) + QStringLiteral("/gamut-window.png")));
    }

    // View > Gamut Check paints the pixels outside the target magenta over the picture in the
    // viewer: the BT.2020 green half, never the grey half; off restores the picture; choosing
    // another preview filter ends it.
    void theCheckHighlightsTheOutsidePixelsInTheViewer() {
        showCie(false);
        auto* check = window_->findChild<QAction*>(QStringLiteral("gamutCheck"));
        QVERIFY(check);
        check->setChecked(false);
        cs::PictureView* viewer = window_->viewer();
        QVERIFY(!viewer->showsPreview());
        QVERIFY(check->toolTip().contains(QStringLiteral("magenta")));
        QComboBox* filter = combo("previewFilter");
        auto* inViewer = window_->findChild<QCheckBox*>(QStringLiteral("previewInViewer"));
        QVERIFY(filter && inViewer);
        const QString chosen = filter->currentText();
        QVERIFY(chosen != QStringLiteral("Gamut (outside target)"));
        QVERIFY(!inViewer->isChecked());
        check->setChecked(true);
        QVERIFY(viewer->showsPreview());
        // The preview's controls say what the viewer and the preview panel now show.
        QCOMPARE(filter->currentText(), QStringLiteral("Gamut (outside target)"));
        QVERIFY(inViewer->isChecked());
        QVERIFY(cs::test::waitUntil(
            [&] {
                const cs::ScopeResults& r = engine().results();
                return engine().hasResults() && engine().spec().preview == cs::PreviewFilter::Gamut && r.gamut.measured &&
                       r.gamut.target == cs::Primaries::Bt709 && r.preview.width == kW && r.preview.height == kH;
            },
            kWaitMs));
        // The engine's preview: the green half magenta, the grey half grey.
        const cs::RgbaImage& preview = engine().results().preview;
        for (int y = 0; y < kH; y += 7)
            for (int x = 0; x < kW; x += 3) {
                const uint8_t* p = preview.at(x, y);
                if (x < kW / 2) {
                    QVERIFY2(p[0] == 255 && p[1] == 0 && p[2] == 255 && p[3] == 255, qPrintable(QStringLiteral("%1,%2").arg(x).arg(y)));
                } else {
                    QVERIFY2(std::abs(p[0] - p[1]) <= 1 && std::abs(p[1] - p[2]) <= 1 && p[1] > 100 && p[1] < 150,
                             qPrintable(QStringLiteral("%1,%2").arg(x).arg(y)));
                }
            }
        QTRY_VERIFY_WITH_TIMEOUT(readout()->text() == QStringLiteral("outside BT.709 (colour gamut) 50.0%"), kWaitMs);
        // On the screen: magenta left of the picture's middle (the view centres it), none right of it.
        auto magenta = [](QRgb c) { return qRed(c) > 200 && qGreen(c) < 60 && qBlue(c) > 200; };
        auto countMagenta = [&](const QImage& g, bool left) {
            int n = 0;
            for (int y = 0; y < g.height(); ++y)
                for (int x = left ? 0 : g.width() / 2 + 2; x < (left ? g.width() / 2 - 2 : g.width()); ++x) n += magenta(g.pixel(x, y));
            return n;
        };
        QImage shown;
        QVERIFY(cs::test::waitUntil(
            [&] {
                shown = viewer->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
                return countMagenta(shown, true) > shown.width() * shown.height() / 20;
            },
            kWaitMs));
        QCOMPARE(countMagenta(shown, false), 0);
        int grey = 0;
        for (int y = 0; y < shown.height(); ++y)
            for (int x = shown.width() / 2 + 2; x < shown.width(); ++x) {
                const QRgb c = shown.pixel(x, y);
                grey += std::abs(qRed(c) - qGreen(c)) <= 2 && std::abs(qGreen(c) - qBlue(c)) <= 2 && qGreen(c) > 100 && qGreen(c) < 150;
            }
        QVERIFY2(grey > shown.width() * shown.height() / 20, qPrintable(QString::number(grey)));
        if (const char* dir = std::getenv("CS_TEST_SCREENSHOT_DIR"); dir && *dir) {
            cs::test::waitUntil([] { return false; }, 500);   // for the picture only: the window's own repaint
            const QPixmap shot = window_->screen()->grabWindow(0, window_->x(), window_->y(), window_->width(), window_->height());
            QVERIFY(shot.save(QString::fromLocal8Bit(dir) + QStringLiteral("/gamut-check.png")));
        }

        // Off: the picture again, without a magenta pixel, and the controls as they were.
        check->setChecked(false);
        QVERIFY(!viewer->showsPreview());
        QCOMPARE(filter->currentText(), chosen);
        QVERIFY(!inViewer->isChecked());
        QVERIFY(cs::test::waitUntil([&] { return engine().spec().preview != cs::PreviewFilter::Gamut; }, kWaitMs));
        QVERIFY(cs::test::waitUntil(
            [&] {
                shown = viewer->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
                return countMagenta(shown, true) == 0;
            },
            kWaitMs));

        // Another preview filter chosen while it is on ends the check and shows that filter.
        check->setChecked(true);
        QVERIFY(viewer->showsPreview());
        const int zebra = filter->findData(int(cs::PreviewFilter::Zebra));
        QVERIFY(zebra >= 0);
        filter->setCurrentIndex(zebra);
        emit filter->activated(zebra);
        QVERIFY(!check->isChecked());
        QVERIFY(!engine().gamutCheck);
        QVERIFY(!viewer->showsPreview());
        QCOMPARE(filter->currentIndex(), zebra);
        QVERIFY(cs::test::waitUntil([&] { return engine().spec().preview == cs::PreviewFilter::Zebra; }, kWaitMs));
        // So does taking the preview out of the viewer (the box, or P).
        check->setChecked(true);
        QVERIFY(inViewer->isChecked());
        inViewer->click();
        QVERIFY(!check->isChecked());
        QVERIFY(!viewer->showsPreview());
        QVERIFY(!inViewer->isChecked());
        // The filter chosen before stays chosen for the next run.
        const int before = filter->findText(chosen);
        filter->setCurrentIndex(before);
        emit filter->activated(before);
    }

    void theGamutDisplayPanelShowsAndSwitches() {
        // Hidden: not counted. Shown: the Diamond of the frame (two points a pixel), drawn by core
        // for the panel; the mode combo switches it.
        QDockWidget* d = window_->dock(Plane::GamutDisplay);
        QVERIFY(d);
        d->hide();
        QVERIFY(cs::test::waitUntil([&] { return engine().hasResults() && engine().spec().gamutDisplay == cs::GamutDisplay::None; },
                                    kWaitMs));
        d->show();
        d->raise();
        choose(combo("gamutDisplayMode"), QStringLiteral("Diamond"));
        QVERIFY(cs::test::waitUntil([&] { return engine().results().gamutDisplay.mode == cs::GamutDisplay::Diamond; }, kWaitMs));
        const std::vector<uint32_t>& counts = engine().results().gamutDisplay.counts;
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), uint64_t(0)), uint64_t(2) * kW * kH);
        const cs::RgbaImage diamond = engine().shownImage(Plane::GamutDisplay);
        QVERIFY(diamond.width > 200);
        QVERIFY(!combo("arrowheadLimit")->isEnabled());
        choose(combo("gamutDisplayMode"), QStringLiteral("Lightning"));
        QVERIFY(cs::test::waitUntil([&] { return engine().results().gamutDisplay.mode == cs::GamutDisplay::Lightning; }, kWaitMs));
        QVERIFY(engine().shownImage(Plane::GamutDisplay).pixels != diamond.pixels);
        choose(combo("gamutDisplayMode"), QStringLiteral("Arrowhead"));
        QVERIFY(combo("arrowheadLimit")->isEnabled());
        QVERIFY(cs::test::waitUntil([&] { return engine().results().gamutDisplay.mode == cs::GamutDisplay::Arrowhead; }, kWaitMs));
        if (const QString dir = qEnvironmentVariable("CS_TEST_SCREENSHOT_DIR"); !dir.isEmpty())
            window_->grab().save(dir + QStringLiteral("/gamut-display-window.png"));
        d->hide();
        QVERIFY(cs::test::waitUntil([&] { return engine().spec().gamutDisplay == cs::GamutDisplay::None; }, kWaitMs));
    }

    void theChoicesAreRemembered() {
        showCie(true);
        choose(combo("cieMode"), QStringLiteral("CIE 1976 u'v'"));
        choose(combo("gamutTarget"), QStringLiteral("P3-D65"));
        window_->findChild<QAction*>(QStringLiteral("gamutCheck"))->setChecked(true);
        window_->close();   // saves the settings
        cs::settings::Choices loaded;
        cs::settings::load(loaded);
        QCOMPARE(loaded.spec.cieMode, cs::CieMode::Uv);
        QCOMPARE(loaded.spec.gamutTarget, cs::Primaries::P3D65);
        QVERIFY(loaded.gamutCheck);
        // A new window starts with them.
        cs::MainWindow again("cpu");
        QCOMPARE(again.engineHost().spec().cieMode, cs::CieMode::Uv);
        QCOMPARE(again.engineHost().spec().gamutTarget, cs::Primaries::P3D65);
        QVERIFY(again.engineHost().gamutCheck);
        auto* target = again.findChild<QComboBox*>(QStringLiteral("gamutTarget"));
        QVERIFY(target);
        QCOMPARE(target->currentText(), QStringLiteral("P3-D65"));
        QVERIFY(again.findChild<QAction*>(QStringLiteral("gamutCheck"))->isChecked());
    }
};

CS_GUI_TEST_MAIN(GamutGuiTest)

#include "test_gui_gamut.moc"
