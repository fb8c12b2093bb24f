// GUI tests (QTest, under Xvfb) of HDR in the window: a 10-bit PQ clip made here with the
// ffmpeg CLI opens with its transfer in the status bar and its light levels; the waveform
// panel shows the trace on the nits graticule (each level's line at the code core's ST 2084
// scale puts it); the toolbar's transfer override switches to HLG, to SDR (the IRE scale,
// no light levels) and back to Auto. With CS_TEST_SCREENSHOT_DIR set, the waveform panel is
// saved there as hdr-waveform-pq.png for looking at. The override is remembered in the settings.
// View > Tone Map HDR to SDR: on a PQ and an HLG ramp (Y' from sub-black to super-white, six
// chroma bands) every pixel the viewer's shader shows 1:1 is core's toneMapPixel of the
// frame's own samples within one code; off, the plain picture; the scopes, the light levels
// and the picker read the same either way; disabled for an SDR source; remembered by a new
// window. The preview shows the picture tone mapped as the viewer does (an RGBA preview as
// toneMapCode8 of its codes; focus peaking from the planes over the mapped picture). Exits 77
// without a display or GL 3.3.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "GuiTestSupport.h"
#include "core/Gamut.h"
#include "scope/Graticule.h"
#include "scope/HdrGraticule.h"
#include "core/ToneMap.h"
#include "playback/EngineHost.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "ui/main/Player.h"
#include "ui/main/ScopeView.h"
#include "ui/Settings.h"
#include "ui/main/StatusBar.h"

using cs::gl::Plane;

namespace {

constexpr int kWaitMs = 20000;
constexpr int kW = 640, kH = 360;
// Left half: a grey at 100 cd/m2 (code 509); right half: 1000 cd/m2 (code 723).
constexpr int kLowCode = 509, kHighCode = 723;

// The ramp clips: 10-bit 4:2:0, Y' across, chroma by bands of rows.
constexpr int kRampW = 320, kRampH = 180;
int rampLuma(int x) { return 4 + x * (1019 - 4) / (kRampW - 1); }
const int kBandChroma[6][2] = {{512, 512}, {800, 512}, {512, 800}, {300, 300}, {400, 820}, {850, 450}};

int light(const QImage& img, int x, int y) {
    const QRgb c = img.pixel(x, y);
    return qRed(c) + qGreen(c) + qBlue(c);
}

}  // namespace

class HdrGuiTest : public QObject {
    Q_OBJECT

private:
    cs::MainWindow* window_ = nullptr;
    QTemporaryDir files_;
    QString clip_, pqRamp_, hlgRamp_, rgbRamp_;

    QAction* toneMapAction() { return window_->findChild<QAction*>(QStringLiteral("toneMap")); }
    bool open(const QString& input) {
        window_->openInput(input);
        // The new source's own first frame (the input is adopted before it is presented).
        if (!cs::test::waitUntil([&] { return player().input() == input.toStdString() && player().hasFrame() &&
                                              player().presentedFrames() > 0; }, kWaitMs))
            return false;
        player().pause();
        return true;
    }
    static void settle() { cs::test::waitUntil([] { return false; }, 400); }
    // The largest difference (code values, any channel) between the viewer's pixels shown 1:1
    // and core's picture of the frame's own samples: tone mapped (toneMapPixel) or plain
    // (yuvToRgb to 8 bits). `compared` counts the frame pixels checked.
    int worstShownDifference(bool toneMapped, int& compared) {
        cs::PictureView* viewer = window_->viewer();
        const QImage shown = viewer->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::RectF r = viewer->layout().rect();
        const cs::FrameView& f = player().currentFrame().view;
        const cs::ColorInfo color = engine().results().color;
        const cs::YuvToRgb native = cs::makeYuvToRgb(color.matrix, color.range, 10, 10);
        const cs::YuvToRgb plain = cs::makeYuvToRgb(color.matrix, color.range, 10, 8);
        const cs::ToneMap tm = cs::makeToneMap(color.transfer, cs::effectivePrimaries(color, f.height));
        auto sample = [&](int plane, int x, int y) {
            return int(reinterpret_cast<const uint16_t*>(f.data[size_t(plane)] + std::ptrdiff_t(y) * f.pitch[size_t(plane)])[x]);
        };
        int worst = 0;
        compared = 0;
        for (int y = 0; y < f.height; ++y)
            for (int x = 0; x < f.width; ++x) {
                const int vx = int(r.x) + x, vy = int(r.y) + y;
                if (vx < 0 || vy < 0 || vx >= shown.width() || vy >= shown.height()) continue;
                const int Y = sample(0, x, y), cb = sample(1, x / 2, y / 2), cr = sample(2, x / 2, y / 2);
                const cs::Rgb e = toneMapped ? cs::toneMapPixel(tm, native, Y, cb, cr) : cs::yuvToRgb(plain, Y, cb, cr);
                const uchar* p = shown.constScanLine(vy) + size_t(vx) * 4;
                worst = std::max({worst, std::abs(p[0] - e.r), std::abs(p[1] - e.g), std::abs(p[2] - e.b)});
                ++compared;
            }
        return worst;
    }

    cs::Player& player() { return window_->player(); }
    cs::EngineHost& engine() { return window_->engineHost(); }
    QComboBox* transferCombo() { return window_->findChild<QComboBox*>(QStringLiteral("transferCombo")); }
    QString statusText() {
        QStringList texts;
        for (QLabel* l : window_->statusBar()->findChildren<QLabel*>()) texts << l->text();
        return texts.join(QStringLiteral(" | "));
    }
    void choose(const QString& item) {
        QComboBox* c = transferCombo();
        const int i = c->findText(item);
        QVERIFY2(i >= 0, qPrintable(item));
        c->setCurrentIndex(i);
        emit c->activated(i);
    }
    bool resultsWith(cs::Transfer t) {
        return cs::test::waitUntil([&] { return engine().hasResults() && engine().results().color.transfer == t; }, kWaitMs);
    }
    // The waveform panel as shown, once its image is drawn for the panel's size.
    QImage waveform() {
        cs::ScopeView* view = window_->scopeView(Plane::Waveform);
        cs::test::waitUntil([] { return false; }, 400);   // debounced re-processing and repaint settle
        return view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    }
    // The brightest row of the trace in the plot's column x.
    static int peakRow(const QImage& img, const cs::PlotRect& plot, int x) {
        int best = -1, row = -1;
        for (int y = plot.top; y < plot.top + plot.height; ++y)
            if (light(img, x, y) > best) { best = light(img, x, y); row = y; }
        return row;
    }
    // Light of a graticule row at the middle of the gap between the two halves' traces.
    static int rowLight(const QImage& img, const cs::PlotRect& plot, double code) {
        const int y = int(std::lround(plot.toPixelY(code / 1023.0)));
        int most = 0;
        for (int dy = -1; dy <= 1; ++dy) most = std::max(most, light(img, plot.left + plot.width / 4, y + dy));
        return most;
    }

private slots:
    void initTestCase() {
        QVERIFY(files_.isValid());
        // The clip: 10-bit 4:2:0, BT.2020 NCL limited, PQ; FFV1 keeps the code values.
        std::string raw;
        auto put = [&](int v) { raw.push_back(char(v & 0xff)); raw.push_back(char(v >> 8)); };
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) put(x < kW / 2 ? kLowCode : kHighCode);
        for (int i = 0; i < 2 * (kW / 2) * (kH / 2); ++i) put(512);
        const QString rawPath = files_.filePath(QStringLiteral("pq.yuv"));
        std::ofstream(rawPath.toStdString(), std::ios::binary).write(raw.data(), std::streamsize(raw.size()));
        clip_ = files_.filePath(QStringLiteral("pq.mkv"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s",
                      QStringLiteral("%1x%2").arg(kW).arg(kH), "-r", "25", "-stream_loop", "9", "-i", rawPath, "-color_range",
                      "tv", "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-c:v", "ffv1",
                      clip_}));

        std::string ramp;
        auto put16 = [&](int v) { ramp.push_back(char(v & 0xff)); ramp.push_back(char(v >> 8)); };
        for (int y = 0; y < kRampH; ++y)
            for (int x = 0; x < kRampW; ++x) put16(rampLuma(x));
        for (int c = 0; c < 2; ++c)
            for (int y = 0; y < kRampH / 2; ++y)
                for (int x = 0; x < kRampW / 2; ++x) put16(kBandChroma[y * 6 / (kRampH / 2)][c]);
        const QString rampRaw = files_.filePath(QStringLiteral("ramp.yuv"));
        std::ofstream(rampRaw.toStdString(), std::ios::binary).write(ramp.data(), std::streamsize(ramp.size()));
        for (const char* trc : {"smpte2084", "arib-std-b67"}) {
            const QString out = files_.filePath(QStringLiteral("ramp-%1.mkv").arg(QLatin1String(trc)));
            QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s",
                     QStringLiteral("%1x%2").arg(kRampW).arg(kRampH), "-r", "25", "-i", rampRaw, "-color_range", "tv",
                     "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", trc, "-c:v", "ffv1", out}));
            (std::string(trc) == "smpte2084" ? pqRamp_ : hlgRamp_) = out;
        }
        // The same ramp as 10-bit planar R'G'B' (swscale's conversion), tagged PQ: not drawn from
        // its planes, so the viewer maps the engine's 8-bit RGBA picture.
        rgbRamp_ = files_.filePath(QStringLiteral("ramp-rgb.mkv"));
        QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s",
                   QStringLiteral("%1x%2").arg(kRampW).arg(kRampH), "-r", "25", "-i", rampRaw, "-vf", "format=gbrp10le",
                   "-colorspace", "rgb", "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-c:v", "ffv1", rgbRamp_}));

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

    void theStreamsTransferIsShownWithItsLightLevels() {
        QVERIFY(transferCombo());
        QCOMPARE(transferCombo()->currentText(), QStringLiteral("Auto"));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        const cs::HdrStats& hdr = engine().results().hdr;
        QVERIFY(hdr.measured);
        // Code 723 -> R'G'B' code round(659 * 1023 / 876) = 770: E' 0.7527, 1008 cd/m2 (ST 2084).
        QVERIFY2(std::abs(hdr.maxNits - cs::pqToNits(770.0 / 1023.0)) < 1e-9, qPrintable(QString::number(hdr.maxNits)));
        QVERIFY(std::abs(hdr.above[0] - 0.5) < 1e-9);   // the right half is above 203 cd/m2
        QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("PQ  max 1008 avg")), kWaitMs);
    }

    void theWaveformIsOnTheNitsScale() {
        QVERIFY(resultsWith(cs::Transfer::Pq));
        engine().spec().waveformScale = cs::WaveformScale::Ire;
        const QImage img = waveform();
        const char* dir = std::getenv("CS_TEST_SCREENSHOT_DIR");
        if (dir && *dir) img.save(QString::fromLocal8Bit(dir) + QStringLiteral("/hdr-waveform-pq.png"));
        const cs::PlotRect plot = cs::waveformPlotRect(img.width(), img.height());
        QVERIFY(plot.height > 200);
        // The traces sit at their codes: the 100 cd/m2 grey on the 100 line, the bright half
        // a code above the 1000 line (723 vs 722.6).
        const int left = plot.left + plot.width / 4, right = plot.left + 3 * plot.width / 4;
        QVERIFY(std::abs(peakRow(img, plot, left) - plot.toPixelY(kLowCode / 1023.0)) <= 1.0);
        QVERIFY(std::abs(peakRow(img, plot, right) - plot.toPixelY(kHighCode / 1023.0)) <= 1.0);
        const double line100 = cs::hdrNitsToCode(cs::Transfer::Pq, 100, 10, cs::Range::Limited);
        QVERIFY(std::abs(peakRow(img, plot, left) - plot.toPixelY(line100 / 1023.0)) <= 1.0);
        // The 203 cd/m2 line (bright amber) is drawn; the SDR 60 IRE line, 7 px away, is not.
        const double line203 = cs::hdrNitsToCode(cs::Transfer::Pq, 203, 10, cs::Range::Limited);
        const double ire60 = cs::ireToCode(60, 10, cs::Range::Limited);
        QVERIFY2(rowLight(img, plot, line203) > 2 * rowLight(img, plot, ire60) + 30,
                 qPrintable(QStringLiteral("%1 vs %2").arg(rowLight(img, plot, line203)).arg(rowLight(img, plot, ire60))));
    }

    void theFalseColourLegendFollowsTheTransfer() {
        QVERIFY(resultsWith(cs::Transfer::Pq));
        auto* legend = window_->findChild<QLabel*>(QStringLiteral("falseColourLegend"));
        QVERIFY(legend);
        QTRY_VERIFY_WITH_TIMEOUT(legend->text().endsWith(QStringLiteral(" nits")), kWaitMs);
        QVERIFY(legend->text().contains(QStringLiteral("203")));
        QVERIFY(legend->toolTip().contains(QStringLiteral("above reference white")));
    }

    void theTransferOverrideSwitchesScalesAndLevels() {
        choose(QStringLiteral("HLG"));
        QVERIFY(resultsWith(cs::Transfer::Hlg));
        QVERIFY(engine().results().hdr.measured);
        QCOMPARE(engine().results().hdr.transfer, cs::Transfer::Hlg);
        QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("HLG  max")), kWaitMs);

        choose(QStringLiteral("SDR BT.709"));
        QVERIFY(resultsWith(cs::Transfer::Bt709));
        QVERIFY(!engine().results().hdr.measured);
        QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("limited  SDR")), kWaitMs);
        QVERIFY(!statusText().contains(QStringLiteral("nits")));
        QTRY_VERIFY_WITH_TIMEOUT(window_->findChild<QLabel*>(QStringLiteral("falseColourLegend"))->text().endsWith(QStringLiteral(" IRE")),
                                 kWaitMs);
        // The IRE scale again: its 60 IRE line lit, the 203 cd/m2 row dark.
        const QImage img = waveform();
        const cs::PlotRect plot = cs::waveformPlotRect(img.width(), img.height());
        const double line203 = cs::hdrNitsToCode(cs::Transfer::Pq, 203, 10, cs::Range::Limited);
        QVERIFY(rowLight(img, plot, cs::ireToCode(60, 10, cs::Range::Limited)) > rowLight(img, plot, line203) + 30);

        choose(QStringLiteral("Auto"));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        QVERIFY(!engine().spec().colorOverride.transfer);
    }

    void theTransferOverrideIsRemembered() {
        cs::settings::Choices saved;
        saved.spec.colorOverride.transfer = cs::Transfer::Hlg;
        cs::settings::save(saved);
        cs::settings::Choices loaded;
        cs::settings::load(loaded);
        QCOMPARE(loaded.spec.colorOverride.transfer, std::optional<cs::Transfer>(cs::Transfer::Hlg));
        saved.spec.colorOverride.transfer.reset();   // Auto
        cs::settings::save(saved);
        loaded.spec.colorOverride.transfer = cs::Transfer::Pq;
        cs::settings::load(loaded);
        QVERIFY(!loaded.spec.colorOverride.transfer);
    }

    void theViewerTonemapsPqAndHlgAsCoreDoes() {
        for (const QString& clip : {pqRamp_, hlgRamp_}) {
            const cs::Transfer t = clip == pqRamp_ ? cs::Transfer::Pq : cs::Transfer::Hlg;
            QVERIFY(open(clip));
            QVERIFY(resultsWith(t));
            QVERIFY(toneMapAction());
            QVERIFY(toneMapAction()->isChecked());   // on by default
            QTRY_VERIFY_WITH_TIMEOUT(toneMapAction()->isEnabled(), kWaitMs);
            window_->viewer()->zoomTo(1.0);
            settle();
            QVERIFY(engine().toneMapped());
            int compared = 0;
            const int worst = worstShownDifference(true, compared);
            QVERIFY2(worst <= 1, qPrintable(QStringLiteral("%1: %2 codes").arg(clip).arg(worst)));
            QCOMPARE(compared, kRampW * kRampH);
            QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("\u2192 SDR")), kWaitMs);
        }
    }

    void anRgbPictureIsTonemappedFromItsCodes() {
        QVERIFY(open(rgbRamp_));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        window_->viewer()->zoomTo(1.0);
        settle();
        QVERIFY(!engine().showsPlanes());
        QVERIFY(engine().toneMapped());
        const cs::RgbaImage& picture = engine().results().picture;
        QCOMPARE(picture.width, kRampW);
        const cs::ToneMap tm = cs::makeToneMap(cs::Transfer::Pq, cs::Primaries::Bt2020);
        const QImage shown = window_->viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::RectF r = window_->viewer()->layout().rect();
        int worst = 0, compared = 0, distinct = 0;
        for (int y = 0; y < picture.height; ++y)
            for (int x = 0; x < picture.width; ++x) {
                const int vx = int(r.x) + x, vy = int(r.y) + y;
                if (vx < 0 || vy < 0 || vx >= shown.width() || vy >= shown.height()) continue;
                const uint8_t* in = picture.at(x, y);
                const cs::Rgb e = cs::toneMapCode8(tm, in[0], in[1], in[2]);
                const uchar* p = shown.constScanLine(vy) + size_t(vx) * 4;
                worst = std::max({worst, std::abs(p[0] - e.r), std::abs(p[1] - e.g), std::abs(p[2] - e.b)});
                if (e.r != in[0] || e.g != in[1] || e.b != in[2]) ++distinct;
                ++compared;
            }
        QCOMPARE(compared, kRampW * kRampH);
        QVERIFY(distinct > compared / 2);   // the mapping changes most pixels
        QVERIFY2(worst <= 1, qPrintable(QStringLiteral("%1 codes").arg(worst)));
    }

    // The preview, shown 1:1 in the viewer, goes through the same transform as the picture:
    // an RGBA preview (a filter of the RGB clip's picture) is toneMapCode8 of its codes, and
    // focus peaking drawn from the planes maps them as the picture does (the paint over it).
    void thePreviewIsTonemappedAsTheViewer() {
        QVERIFY(open(pqRamp_));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        auto* filter = window_->findChild<QComboBox*>(QStringLiteral("previewFilter"));
        auto* inViewer = window_->findChild<QCheckBox*>(QStringLiteral("previewInViewer"));
        QVERIFY(filter && inViewer);
        auto pick = [&](cs::PreviewFilter f) {
            const int i = filter->findData(int(f));
            QVERIFY(i >= 0);
            filter->setCurrentIndex(i);
            emit filter->activated(i);
        };
        // The 10-bit planes with focus peaking from the shader: where nothing is painted, the
        // pixels are the tone-mapped picture's.
        pick(cs::PreviewFilter::FocusPeaking);
        if (!inViewer->isChecked()) inViewer->click();
        window_->viewer()->zoomTo(1.0);
        settle();
        QVERIFY(engine().showsPlanes());
        QVERIFY(window_->viewer()->showsPreview());
        int mapped = 0, compared = 0;
        const QImage shown = window_->viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::RectF pr = window_->viewer()->layout().rect();
        {   // share of pixels within a code of toneMapPixel (peaking paints band edges only)
            const cs::FrameView& f = player().currentFrame().view;
            const cs::ColorInfo color = engine().results().color;
            const cs::YuvToRgb native = cs::makeYuvToRgb(color.matrix, color.range, 10, 10);
            const cs::ToneMap pq = cs::makeToneMap(color.transfer, cs::effectivePrimaries(color, f.height));
            auto sample = [&](int plane, int x, int y) {
                return int(reinterpret_cast<const uint16_t*>(f.data[size_t(plane)] + std::ptrdiff_t(y) * f.pitch[size_t(plane)])[x]);
            };
            for (int y = 0; y < f.height; ++y)
                for (int x = 0; x < f.width; ++x) {
                    const cs::Rgb e = cs::toneMapPixel(pq, native, sample(0, x, y), sample(1, x / 2, y / 2), sample(2, x / 2, y / 2));
                    const uchar* p = shown.constScanLine(int(pr.y) + y) + size_t(int(pr.x) + x) * 4;
                    if (std::max({std::abs(p[0] - e.r), std::abs(p[1] - e.g), std::abs(p[2] - e.b)}) <= 1) ++mapped;
                    ++compared;
                }
        }
        QCOMPARE(compared, kRampW * kRampH);
        QVERIFY2(mapped > compared * 9 / 10, qPrintable(QStringLiteral("%1 of %2 mapped").arg(mapped).arg(compared)));
        // An RGBA preview: the R'G'B' clip's picture through a median.
        QVERIFY(open(rgbRamp_));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        pick(cs::PreviewFilter::Median3);
        QVERIFY(window_->viewer()->showsPreview());
        window_->viewer()->zoomTo(1.0);
        QVERIFY(cs::test::waitUntil([&] { return engine().results().preview.width == kRampW; }, kWaitMs));
        settle();
        const cs::RgbaImage& preview = engine().results().preview;
        const cs::ToneMap tm = cs::makeToneMap(cs::Transfer::Pq, cs::Primaries::Bt2020);
        const QImage rgbShown = window_->viewer()->grabFramebuffer().convertToFormat(QImage::Format_RGBA8888);
        const cs::RectF r = window_->viewer()->layout().rect();
        int worst = 0, rgbCompared = 0, distinct = 0;
        for (int y = 0; y < preview.height; ++y)
            for (int x = 0; x < preview.width; ++x) {
                const int vx = int(r.x) + x, vy = int(r.y) + y;
                if (vx < 0 || vy < 0 || vx >= rgbShown.width() || vy >= rgbShown.height()) continue;
                const uint8_t* in = preview.at(x, y);
                const cs::Rgb e = cs::toneMapCode8(tm, in[0], in[1], in[2]);
                const uchar* p = rgbShown.constScanLine(vy) + size_t(vx) * 4;
                worst = std::max({worst, std::abs(p[0] - e.r), std::abs(p[1] - e.g), std::abs(p[2] - e.b)});
                if (e.r != in[0] || e.g != in[1] || e.b != in[2]) ++distinct;
                ++rgbCompared;
            }
        QCOMPARE(rgbCompared, kRampW * kRampH);
        QVERIFY(distinct > rgbCompared / 2);
        QVERIFY2(worst <= 1, qPrintable(QStringLiteral("RGBA preview: %1 codes").arg(worst)));

        pick(cs::PreviewFilter::FocusPeaking);
        inViewer->click();
        QVERIFY(!window_->viewer()->showsPreview());
    }

    void toneMappingLeavesScopesAndPickerAlone() {
        QVERIFY(open(pqRamp_));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        window_->viewer()->zoomTo(1.0);
        window_->viewer()->setPinned(cs::PixelPos{300, 10});   // a bright grey
        settle();
        QVERIFY(engine().toneMapped());
        auto* status = qobject_cast<cs::StatusBar*>(window_->statusBar());
        QVERIFY(status);
        QTRY_VERIFY2_WITH_TIMEOUT(status->pickerText().contains(QStringLiteral("958")),   // Y' 4 + 300 * 1015 / 319
                                  qPrintable(status->pickerText()), kWaitMs);
        const QString picker = status->pickerText();
        window_->viewer()->setPinned(std::nullopt);   // its marker is drawn over the picture
        const std::vector<uint32_t> maxCodes = engine().results().hdr.maxCodes;
        const cs::ScopeResults before = engine().results();
        QVERIFY(!before.waveform.empty());

        toneMapAction()->setChecked(false);
        QVERIFY(cs::test::waitUntil([&] { return !engine().toneMapped(); }, kWaitMs));
        settle();
        int compared = 0;
        QCOMPARE(worstShownDifference(false, compared), 0);   // the plain picture, exactly
        QCOMPARE(compared, kRampW * kRampH);
        QTRY_VERIFY_WITH_TIMEOUT(!statusText().contains(QStringLiteral("\u2192 SDR")), kWaitMs);
        window_->viewer()->setPinned(cs::PixelPos{300, 10});
        QTRY_VERIFY_WITH_TIMEOUT(!status->pickerText().isEmpty(), kWaitMs);
        QCOMPARE(status->pickerText(), picker);
        QVERIFY(engine().results().hdr.maxCodes == maxCodes);
        // The counts the scopes are drawn from (their images also depend on the panels' sizes).
        QVERIFY(engine().results().waveform == before.waveform);
        QVERIFY(engine().results().parade == before.parade);
        QVERIFY(engine().results().vectorscope == before.vectorscope);
        QVERIFY(engine().results().histY == before.histY);
        toneMapAction()->setChecked(true);
        QVERIFY(cs::test::waitUntil([&] { return engine().toneMapped(); }, kWaitMs));
        window_->viewer()->setPinned(std::nullopt);
    }

    void anSdrSourceDisablesToneMapping() {
        QVERIFY(open(QStringLiteral("pattern:bars:10bit:480x270")));
        QVERIFY(resultsWith(cs::Transfer::Bt709));
        QTRY_VERIFY_WITH_TIMEOUT(!toneMapAction()->isEnabled(), kWaitMs);
        QVERIFY(toneMapAction()->isChecked());   // the choice stays for the next HDR source
        QVERIFY(!engine().toneMapped());
        QTRY_VERIFY_WITH_TIMEOUT(!statusText().contains(QStringLiteral("\u2192")), kWaitMs);
        // The override makes the same frames PQ: mapped again.
        choose(QStringLiteral("PQ"));
        QVERIFY(resultsWith(cs::Transfer::Pq));
        QTRY_VERIFY_WITH_TIMEOUT(toneMapAction()->isEnabled(), kWaitMs);
        QVERIFY(cs::test::waitUntil([&] { return engine().toneMapped(); }, kWaitMs));
        choose(QStringLiteral("Auto"));
        QVERIFY(resultsWith(cs::Transfer::Bt709));
    }

    void theToneMapChoiceIsRememberedByANewWindow() {
        toneMapAction()->setChecked(false);
        window_->close();   // saves the settings
        auto* second = new cs::MainWindow("cpu");
        QAction* a = second->findChild<QAction*>(QStringLiteral("toneMap"));
        QVERIFY(a);
        QVERIFY(!a->isChecked());
        QVERIFY(!second->engineHost().toneMapHdr);
        a->setChecked(true);
        second->close();
        delete second;
        cs::settings::Choices loaded;
        loaded.toneMapHdr = false;
        cs::settings::load(loaded);
        QVERIFY(loaded.toneMapHdr);
    }
};

CS_GUI_TEST_MAIN(HdrGuiTest)

#include "test_gui_hdr.moc"
