// Unit tests of the GUI's logic that needs no display: timecode, picture placement and
// the picker's mapping, the pixel picker's code values (R'G'B' as the parade reads it), the
// layout presets' settings, the source thread's ordering,
// seeking and preparing ahead, and the GL graticule overlay against core's CPU-rendered
// graticule.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "scope/ReferenceLines.h"
#include "scope/ScopeRender.h"
#include "render/GraticuleOverlay.h"
#include "render/Layout.h"
#include "render/YcbcrPicture.h"
#include "playback/EngineHost.h"
#include "playback/PixelProbe.h"
#include "playback/SourceReader.h"
#include "playback/Timecode.h"
#include "ui/Settings.h"

#include <QSettings>
#include <unistd.h>
#include <cstdio>
#include <string>

namespace cs {
namespace {

TEST(Timecode, FormatsHoursMinutesSecondsFrames) {
    EXPECT_EQ(timecode(0.0, 25.0), "00:00:00:00");
    EXPECT_EQ(timecode(3661.0 + 5.0 / 25.0, 25.0), "01:01:01:05");
    EXPECT_EQ(timecode(9.96, 25.0), "00:00:09:24");
    // 29.97 counts frames 0..29 per "second" (non-drop-frame).
    EXPECT_EQ(timecode(30.0 / 29.97, 29.97), "00:00:01:00");
    EXPECT_EQ(timecode(-1.0, 25.0), "00:00:00:00");
    EXPECT_EQ(frameNumberAt(0.04, 25.0), 1);
    EXPECT_EQ(frameNumberAt(0.0399, 25.0), 1);   // timestamps off by rounding still name the frame
    EXPECT_EQ(frameNumberAt(10.0, 0.0), 250);    // unknown rate: 25
}

TEST(Timecode, SeekTargetCountsFromTheShownFrame) {
    const auto tc = [](const char* text, TimecodeRate rate) {
        return FrameTimecode{*parseTimecode(text, rate), TimecodeSource::MovTmcd, false};
    };
    const TimecodeRate r25{25, 1}, r2997{30000, 1001};
    // The frame shown is 10:00:04:02 at 4.08 s.
    const FrameTimecode shown = tc("10:00:04:02", r25);
    EXPECT_NEAR(*timecodeSeekTarget("10:00:00:10", shown, 4.08, 25.0, 40.0), 0.4, 1e-9);
    EXPECT_NEAR(*timecodeSeekTarget("10:00:39:24", shown, 4.08, 25.0, 40.0), 39.96, 1e-9);
    auto before = timecodeSeekTarget("09:59:59:24", shown, 4.08, 25.0, 40.0);
    ASSERT_FALSE(before.ok());
    EXPECT_EQ(before.message(), "09:59:59:24: is before the start (10:00:00:00)");
    auto after = timecodeSeekTarget("10:00:40:00", shown, 4.08, 25.0, 40.0);
    ASSERT_FALSE(after.ok());
    EXPECT_EQ(after.message(), "10:00:40:00: is after the end (10:00:39:24)");
    auto bad = timecodeSeekTarget("10:00:99:00", shown, 4.08, 25.0, 40.0);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.message().rfind("10:00:99:00: ", 0), 0u) << bad.message();
    auto drop = timecodeSeekTarget("10:00:04;00", shown, 4.08, 25.0, 40.0);
    ASSERT_FALSE(drop.ok());
    EXPECT_EQ(drop.message().rfind("10:00:04;00: ", 0), 0u) << drop.message();
    // Drop-frame: 01:01:00;02 is 1800 frames after 01:00:00;00.
    const FrameTimecode df = tc("01:00:00;00", r2997);
    EXPECT_NEAR(*timecodeSeekTarget("01:01:00;02", df, 0.0, 30000.0 / 1001, 120.0), 1800 * 1001.0 / 30000, 1e-9);
    auto colon = timecodeSeekTarget("01:01:00:02", df, 0.0, 30000.0 / 1001, 120.0);
    ASSERT_FALSE(colon.ok());
    EXPECT_NE(colon.message().find("drop-frame"), std::string::npos) << colon.message();
    // Across midnight: the nearer way round.
    EXPECT_NEAR(*timecodeSeekTarget("00:00:00:05", tc("23:59:59:20", r25), 1.0, 25.0, 10.0), 1.4, 1e-9);
}

TEST(Layout, FitRectKeepsAspectAndCentres) {
    const RectF same = fitRect(640, 360, 640, 360);
    EXPECT_EQ(same.x, 0);
    EXPECT_EQ(same.y, 0);
    EXPECT_EQ(same.w, 640);
    EXPECT_EQ(same.h, 360);
    const RectF r = fitRect(1920, 1080, 1000, 1000);
    EXPECT_EQ(r.w, 1000);
    EXPECT_EQ(r.h, 563);   // 562.5 rounded
    EXPECT_EQ(r.x, 0);
    EXPECT_EQ(r.y, 218);   // (1000 - 563) / 2 floored
    EXPECT_TRUE(fitRect(0, 10, 10, 10).empty());
}

TEST(Layout, PickerMapsViewToFramePixels) {
    PictureLayout l;
    l.setFrameSize(1920, 1080);
    l.setViewSize(960, 540);   // fitted at exactly 1/2
    EXPECT_DOUBLE_EQ(l.scale(), 0.5);
    auto p = l.frameAt(0.0, 0.0);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->x, 0);
    EXPECT_EQ(p->y, 0);
    p = l.frameAt(959.9, 539.9);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->x, 1919);
    EXPECT_EQ(p->y, 1079);
    p = l.frameAt(480.25, 270.75);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->x, 960);
    EXPECT_EQ(p->y, 541);
    EXPECT_FALSE(l.frameAt(-1.0, 10.0));
    EXPECT_FALSE(l.frameAt(960.0, 10.0));

    // Letterboxed: a 4:3 frame in a 16:9 view has bars left and right.
    l.setFrameSize(720, 540);
    EXPECT_FALSE(l.frameAt(10.0, 270.0));
    p = l.frameAt(480.0, 270.0);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->x, 360);
    EXPECT_EQ(p->y, 270);
}

TEST(Layout, ZoomKeepsThePointUnderTheCursor) {
    PictureLayout l;
    l.setFrameSize(1920, 1080);
    l.setViewSize(960, 540);
    const auto before = l.frameAt(300.0, 200.0);
    ASSERT_TRUE(before);
    l.zoomAt(4.0, 300.0, 200.0);   // 0.5 -> 2.0 view pixels per frame pixel
    EXPECT_DOUBLE_EQ(l.scale(), 2.0);
    const auto after = l.frameAt(300.0, 200.0);
    ASSERT_TRUE(after);
    EXPECT_NEAR(after->x, before->x, 1);
    EXPECT_NEAR(after->y, before->y, 1);
    // Each frame pixel now covers 2x2 view pixels: the next view pixel pair is the next frame pixel.
    double vx = 0, vy = 0;
    l.toView(after->x + 1, after->y, vx, vy);
    const auto next = l.frameAt(vx, vy);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->x, after->x + 1);
    l.setZoom(0);
    EXPECT_DOUBLE_EQ(l.scale(), 0.5);
}

// A field (1920x540) shown at its frame's shape: rows twice as tall as columns are wide, so
// it fills the view a 1920x1080 frame fills; each field row covers two view rows at 100%.
TEST(Layout, RowScaleShowsAFieldAtItsFramesShape) {
    PictureLayout l;
    l.setFrameSize(1920, 540);
    l.setRowScale(2);
    l.setViewSize(960, 540);
    EXPECT_DOUBLE_EQ(l.scale(), 0.5);
    const RectF r = l.rect();
    EXPECT_EQ(r.w, 960);
    EXPECT_EQ(r.h, 540);
    auto p = l.frameAt(959.9, 539.9);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->x, 1919);
    EXPECT_EQ(p->y, 539);
    p = l.frameAt(100.0, 271.0);   // view row 271 of 540: field row 271
    ASSERT_TRUE(p);
    EXPECT_EQ(p->y, 271);
    l.setZoom(1.0);
    EXPECT_EQ(l.rect().h, 1080);
    double vx = 0, vy0 = 0, vy1 = 0;
    l.toView(0, 10, vx, vy0);
    l.toView(0, 11, vx, vy1);
    EXPECT_DOUBLE_EQ(vy1 - vy0, 2.0);
    l.setRowScale(1);
    EXPECT_EQ(l.rect().h, 540);
}

TEST(PixelProbe, ReadsNativeCodeValuesAndConvertsLikeTheEngines) {
    ColorInfo bt709;
    bt709.matrix = Matrix::Bt709;
    bt709.range = Range::Limited;
    Frame f(PixelFormat::Yuv420p, 4, 4, bt709);
    f.fill(16, 128, 128);
    f.setPixel(0, 0, 180, 90, 200);   // chroma covers (0..1, 0..1)
    f.setPixel(2, 2, 180, 128, 128);
    auto p = readPixel(f.view(), bt709, 1, 1);   // shares the chroma sample of (0, 0)
    ASSERT_TRUE(p);
    EXPECT_EQ(p->cb, 90);
    EXPECT_EQ(p->cr, 200);
    EXPECT_EQ(p->luma, 16);   // luma is per pixel: (1, 1) kept the fill
    p = readPixel(f.view(), bt709, 2, 2);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->luma, 180);
    // Grey: R' = G' = B' = (180 - 16) * 255 / 219 = 190.96 -> 191.
    EXPECT_EQ(p->r, 191);
    EXPECT_EQ(p->g, 191);
    EXPECT_EQ(p->b, 191);
    EXPECT_EQ(p->bitDepth, 8);
    EXPECT_FALSE(readPixel(f.view(), bt709, 4, 0));
    EXPECT_FALSE(readPixel(f.view(), bt709, 0, -1));

    // 10-bit: limited-range white and black land on 1023 and 0 at native depth.
    Frame ten(PixelFormat::Yuv422p10, 4, 2, bt709);
    ten.fill(64, 512, 512);
    ten.setPixel(2, 1, 940, 512, 512);
    p = readPixel(ten.view(), bt709, 2, 1);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->bitDepth, 10);
    EXPECT_EQ(p->luma, 940);
    EXPECT_EQ(p->r, 1023);
    p = readPixel(ten.view(), bt709, 0, 0);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->g, 0);

    // Device frames are not read here (the engine host downloads that one pixel).
    FrameView device = f.view();
    device.onDevice = true;
    EXPECT_FALSE(readPixel(device, bt709, 0, 0));
}

TEST(PixelProbe, RgbSourcesDeriveYCbCrThroughTheMatrix) {
    ColorInfo c;
    c.matrix = Matrix::Bt709;
    c.range = Range::Limited;
    Frame f(PixelFormat::Rgb24, 2, 1, c);
    f.setPixel(1, 0, 255, 0, 0);
    const auto p = readPixel(f.view(), c, 1, 0);
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->rgbSource);
    EXPECT_EQ(p->r, 255);
    EXPECT_EQ(p->g, 0);
    // BT.709 red: Y' = 16 + 219 * 0.2126 = 62.6; Cb = 128 - 112 * 0.2126 / 0.9278 = 102.3; Cr = 240.
    EXPECT_EQ(p->luma, 63);
    EXPECT_EQ(p->cb, 102);
    EXPECT_EQ(p->cr, 240);
    // Tagged limited, the parade reads its R'G'B' in limited codes: 255 at white's 235, 0 at 16.
    EXPECT_NE(describe(*p).find("R'G'B' (16-235) 235  16  16"), std::string::npos) << describe(*p);
    PixelReading full = *p;
    full.range = Range::Full;
    EXPECT_NE(describe(full).find("R'G'B' (0-255) 255   0   0"), std::string::npos) << describe(full);
}

// The readout's R'G'B' is what the R'G'B' parade shows in code values: for a limited-range
// source the luma waveform's codes (75% white: 180 on R', G', B' as on Y').
TEST(PixelProbe, ReadsRgbInTheParadesCodes) {
    EXPECT_EQ(paradeCode(191, 8, Range::Limited), 180);
    EXPECT_EQ(paradeCode(0, 8, Range::Limited), 16);
    EXPECT_EQ(paradeCode(255, 8, Range::Limited), 235);
    EXPECT_EQ(paradeCode(-10, 8, Range::Limited), 7);    // below black: 16 - 8.6
    EXPECT_EQ(paradeCode(767, 10, Range::Limited), 721);  // 10-bit 75% white
    EXPECT_EQ(paradeCode(1023, 10, Range::Limited), 940);
    EXPECT_EQ(paradeCode(191, 8, Range::Full), 191);
    ColorInfo bt709;
    bt709.matrix = Matrix::Bt709;
    bt709.range = Range::Limited;
    Frame f(PixelFormat::Yuv420p, 2, 2, bt709);
    f.fill(180, 128, 128);   // 75% white
    auto p = readPixel(f.view(), bt709, 0, 0);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->r, 191);   // full range at the depth, as the engines count it
    EXPECT_NE(describe(*p).find("Y'CbCr 180 128 128   R'G'B' (16-235) 180 180 180"), std::string::npos) << describe(*p);
    Frame ten(PixelFormat::Yuv422p10, 2, 2, bt709);
    ten.fill(721, 512, 512);
    p = readPixel(ten.view(), bt709, 0, 0);
    ASSERT_TRUE(p);
    EXPECT_NE(describe(*p).find("R'G'B' (64-940)  721  721  721"), std::string::npos) << describe(*p);
    ColorInfo fullRange = bt709;
    fullRange.range = Range::Full;
    Frame pc(PixelFormat::Yuv420p, 2, 2, fullRange);
    pc.fill(191, 128, 128);
    p = readPixel(pc.view(), fullRange, 0, 0);
    ASSERT_TRUE(p);
    EXPECT_NE(describe(*p).find("R'G'B' (0-255) 191 191 191"), std::string::npos) << describe(*p);
}

// Layout presets in a settings file: written and read back in order, with the scope fields
// through the window's own keys (clamped as they are), a damaged entry left out.
TEST(LayoutPresets, RoundTripThroughASettingsFile) {
    const std::string path = ::testing::TempDir() + "cs_layouts_" + std::to_string(::getpid()) + ".ini";
    std::remove(path.c_str());
    {
        QSettings s(QString::fromStdString(path), QSettings::IniFormat);
        settings::LayoutPreset grading;
        grading.name = QStringLiteral("Grading");
        grading.state = QByteArray("\x00\x01state", 8);
        grading.choices.spec.waveformScale = WaveformScale::CodeValue;
        grading.choices.spec.waveformGain = 4.0f;
        grading.choices.spec.paradeMode = ParadeMode::Ycbcr;
        grading.choices.histogramChannels = HistogramChannels::Luma;
        grading.choices.preview = PreviewFilter::Zebra;
        settings::LayoutPreset second;
        second.name = QStringLiteral("Second screen");
        second.picture = false;
        settings::setLayoutPresets(s, {grading, second});
        // Nothing of the window's own (playback, decoding, the colour override) goes into a preset.
        EXPECT_FALSE(s.contains(QStringLiteral("layouts/1/playback/loop")));
        EXPECT_FALSE(s.contains(QStringLiteral("layouts/1/colour/matrix")));
        EXPECT_TRUE(s.contains(QStringLiteral("layouts/1/scopes/waveformScale")));
    }
    {
        QSettings s(QString::fromStdString(path), QSettings::IniFormat);
        const auto presets = settings::layoutPresets(s);
        ASSERT_EQ(presets.size(), 2u);
        EXPECT_EQ(presets[0].name, QStringLiteral("Grading"));
        EXPECT_EQ(presets[0].state, QByteArray("\x00\x01state", 8));
        EXPECT_TRUE(presets[0].picture);
        EXPECT_EQ(presets[0].choices.spec.waveformScale, WaveformScale::CodeValue);
        EXPECT_EQ(presets[0].choices.spec.waveformGain, 4.0f);
        EXPECT_EQ(presets[0].choices.spec.paradeMode, ParadeMode::Ycbcr);
        EXPECT_EQ(presets[0].choices.histogramChannels, HistogramChannels::Luma);
        EXPECT_EQ(presets[0].choices.preview, PreviewFilter::Zebra);
        EXPECT_EQ(presets[1].name, QStringLiteral("Second screen"));
        EXPECT_FALSE(presets[1].picture);
        // Damaged by hand: a gain out of range, a nameless entry, a name twice.
        s.setValue(QStringLiteral("layouts/1/scopes/waveformGain"), 1000.0);
        s.setValue(QStringLiteral("layouts/size"), 4);
        s.setValue(QStringLiteral("layouts/3/name"), QString());
        s.setValue(QStringLiteral("layouts/4/name"), QStringLiteral("grading"));
        const auto damaged = settings::layoutPresets(s);
        ASSERT_EQ(damaged.size(), 2u);
        EXPECT_EQ(damaged[0].choices.spec.waveformGain, 16.0f);
    }
    std::remove(path.c_str());
}

TEST(LayoutPresets, NamesAreCheckedWithAReason) {
    const QStringList taken{QStringLiteral("Default"), QStringLiteral("Grading")};
    EXPECT_TRUE(settings::checkLayoutName(QStringLiteral("Review"), taken).isEmpty());
    EXPECT_TRUE(settings::checkLayoutName(QStringLiteral("  Review "), taken).isEmpty());
    EXPECT_TRUE(settings::checkLayoutName(QStringLiteral(" "), taken).contains(QStringLiteral("needs a name")));
    EXPECT_TRUE(settings::checkLayoutName(QStringLiteral("grading"), taken).contains(QStringLiteral("exists")));
    EXPECT_TRUE(settings::checkLayoutName(QString(60, QLatin1Char('x')), taken).contains(QStringLiteral("longer than 40")));
    // A preset carries the scope fields, not the colour override.
    settings::Choices from, to;
    from.spec.vectorscopeZoom = 2;
    from.spec.colorOverride.matrix = Matrix::Bt601;
    to.spec.colorOverride.range = Range::Full;
    from.previewInViewer = true;
    settings::applyScopeChoices(from, to);
    EXPECT_EQ(to.spec.vectorscopeZoom, 2);
    EXPECT_FALSE(to.spec.colorOverride.matrix.has_value());
    EXPECT_EQ(to.spec.colorOverride.range, Range::Full);
    EXPECT_TRUE(to.previewInViewer);
}

// The CUDA path draws the graticule as an overlay over trace-only images; core draws it
// into the CPU images. Over an empty trace (black), the two must be the same pixels.
class OverlayAgreement : public ::testing::TestWithParam<gl::Plane> {};

TEST_P(OverlayAgreement, MatchesCoreRendererOverBlack) {
    const gl::Plane plane = GetParam();
    for (int depth : {8, 10})
    for (WaveformMode mode : {WaveformMode::Luma, WaveformMode::RgbOverlay, WaveformMode::Yrgb}) {
        if (mode != WaveformMode::Luma && plane != gl::Plane::Waveform) continue;
        ScopeResults r;   // no counts: core draws only the graticule over black
        r.width = 64;
        r.height = 32;
        r.bitDepth = depth;
        r.levels = 1 << depth;
        r.color.matrix = Matrix::Bt709;
        r.color.range = Range::Limited;
        r.paradeMode = depth == 8 ? ParadeMode::Rgb : ParadeMode::Ycbcr;
        ScopeSpec spec;
        spec.scopeWidth = 700;
        spec.scopeHeight = 380;
        spec.vectorscopeSize = 500;
        spec.waveformScale = depth == 8 ? WaveformScale::Ire : WaveformScale::CodeValue;
        spec.vectorscopeZoom = depth == 8 ? 1 : 2;
        spec.waveformMode = mode;
        spec.referenceLines = *parseReferenceLines("5%,95%,64:10");
        if (mode != WaveformMode::Luma) r.paradeMode = ParadeMode::Rgb;
        RgbaImage cpu;
        switch (plane) {
            case gl::Plane::Histogram: renderHistogram(r, spec, cpu); break;
            case gl::Plane::Waveform: renderWaveform(r, spec, cpu); break;
            case gl::Plane::Parade: renderParade(r, spec, cpu); break;
            default: renderVectorscope(r, spec, cpu); break;
        }
        RgbaImage overlay;
        renderGraticuleOverlay(plane, r, spec, cpu.width, cpu.height, overlay);
        ASSERT_EQ(overlay.width, cpu.width);
        ASSERT_EQ(overlay.height, cpu.height);
        // Premultiplied overlay over black is its own colour.
        int differing = 0, lit = 0;
        for (int y = 0; y < cpu.height; ++y)
            for (int x = 0; x < cpu.width; ++x) {
                const uint8_t* a = cpu.at(x, y);
                const uint8_t* b = overlay.at(x, y);
                if (a[0] || a[1] || a[2]) ++lit;
                if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) ++differing;
            }
        EXPECT_GT(lit, 500) << "the graticule draws something";
        EXPECT_EQ(differing, 0) << "depth " << depth << " mode " << int(mode);
    }
}

// The CUDA engine's waveform texture in each mode fills the panels core draws: RGB overlay
// one panel with headroom, YRGB four quarters whose R'G'B' ones use their top rows.
TEST(TracePlacement, WaveformModesFillCorePanels) {
    const PlotRect plot = waveformPlotRect(700, 380);
    const int s = graticuleTextScale(700, 380);
    int tw = 0, th = 0;
    traceTextureSize(gl::Plane::Waveform, 700, 380, tw, th, ParadeMode::Rgb, WaveformMode::RgbOverlay);
    const PlotRect overlay = waveformPanelRect(plot, 0, 1, s, true);
    EXPECT_EQ(tw, overlay.width);
    EXPECT_EQ(th, overlay.height);
    EXPECT_LT(th, plot.height);
    traceTextureSize(gl::Plane::Waveform, 700, 380, tw, th, ParadeMode::Rgb, WaveformMode::Yrgb);
    const ScopePlacement p = tracePlacement(gl::Plane::Waveform, 700, 380, ParadeMode::Rgb, WaveformMode::Yrgb);
    ASSERT_EQ(p.pieces.size(), 4u);
    EXPECT_EQ(th, plot.height);
    for (int c = 0; c < 4; ++c) {
        const PlotRect panel = waveformPanelRect(plot, c, 4, s, c > 0);
        EXPECT_EQ(tw, 4 * panel.width);
        EXPECT_EQ(p.pieces[size_t(c)].dst.x, panel.left);
        EXPECT_EQ(p.pieces[size_t(c)].dst.y, panel.top);
        EXPECT_EQ(p.pieces[size_t(c)].dst.h, panel.height);
        // Texel rows in the piece = the panel's rows: one texel per pixel.
        EXPECT_NEAR(p.pieces[size_t(c)].uv.h * th, panel.height, 1e-9);
        EXPECT_NEAR(p.pieces[size_t(c)].uv.w * tw, panel.width, 1e-9);
    }
}

INSTANTIATE_TEST_SUITE_P(Scopes, OverlayAgreement,
                         ::testing::Values(gl::Plane::Histogram, gl::Plane::Waveform, gl::Plane::Parade,
                                           gl::Plane::Vectorscope));

TEST(OverlayAgreement, OtherPlanesHaveNoOverlay) {
    RgbaImage overlay;
    renderGraticuleOverlay(gl::Plane::Picture, ScopeResults{}, ScopeSpec{}, 100, 100, overlay);
    EXPECT_TRUE(overlay.empty());
}

// Events posted from another thread (the reader's wake callback, the preparer's calls), and
// waiting for them. The wait's bound is generous: reaching it only fails the test.
class Events {
public:
    static constexpr std::chrono::seconds kBound{20};

    void post() {
        {
            std::lock_guard lock(mutex_);
            ++count_;
        }
        changed_.notify_all();
    }
    std::function<void()> poster() {
        return [this] { post(); };
    }
    uint64_t count() const {
        std::lock_guard lock(mutex_);
        return count_;
    }
    // Waits until more than `seen` events were posted; false at the bound.
    bool waitPast(uint64_t seen) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, kBound, [&] { return count_ > seen; });
    }
    // Waits until `n` events in all were posted; false at the bound.
    bool waitFor(uint64_t n) { return n == 0 || waitPast(n - 1); }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    uint64_t count_ = 0;
};

// The next item of the reader's queue. `wakes` is the reader's wake callback's: the reader
// calls it when an item lands in an empty queue, so an empty pop is followed by a wake.
SourceReader::Item next(SourceReader& reader, Events& wakes) {
    for (;;) {
        const uint64_t seen = wakes.count();
        if (auto item = reader.pop()) return std::move(*item);
        if (!wakes.waitPast(seen)) {
            ADD_FAILURE() << "no item from the reader";
            return {};
        }
    }
}

TEST(YcbcrTextures, PlanarYcbcrWithWholeChromaSamplesIsDrawnFromItsPlanes) {
    auto shown = [](PixelFormat f, int w, int h) { return gl::YcbcrTextures::supports(Frame(f, w, h).view()); };
    EXPECT_TRUE(shown(PixelFormat::Yuv420p, 1920, 1080));
    EXPECT_TRUE(shown(PixelFormat::Yuv422p10, 480, 270));   // 4:2:2: only the width must be even
    EXPECT_TRUE(shown(PixelFormat::Yuv444p, 321, 181));     // no subsampling: any size
    EXPECT_FALSE(shown(PixelFormat::Yuv420p, 321, 180));    // a chroma sample would cover half a pixel
    EXPECT_FALSE(shown(PixelFormat::Yuv420p, 320, 181));
    EXPECT_FALSE(shown(PixelFormat::Nv12, 320, 180));       // the CPU picture for other layouts
    EXPECT_FALSE(shown(PixelFormat::Rgb24, 320, 180));
    EXPECT_FALSE(shown(PixelFormat::Gray8, 320, 180));
    const Frame frame(PixelFormat::Yuv420p, 320, 180);
    FrameView device = frame.view();
    device.onDevice = true;
    EXPECT_FALSE(gl::YcbcrTextures::supports(device));
}

TEST(SourceReader, ReadsInOrderAndSeeksToTheFrameAtOrAfter) {
    Events wakes;
    constexpr size_t kCapacity = 3;
    SourceReader reader("pattern:ramp:64x32", {}, kCapacity, wakes.poster());
    uint64_t lastSerial = 0;
    for (int i = 0; i < 4; ++i) {
        const auto item = next(reader, wakes);
        ASSERT_EQ(item.status, ReadStatus::Frame) << item.message;
        EXPECT_NEAR(item.frame.view.pts, i / 25.0, 1e-9);
        EXPECT_EQ(item.serial, lastSerial + 1);   // serials count the items queued
        lastSerial = item.serial;
    }
    EXPECT_EQ(reader.state(), SourceReader::State::Open);
    EXPECT_EQ(reader.info().width, 64);
    EXPECT_LE(reader.queued(), kCapacity);

    reader.seek(0.2);
    auto item = next(reader, wakes);
    ASSERT_EQ(item.status, ReadStatus::Frame);
    EXPECT_NEAR(item.frame.view.pts, 0.2, 1e-9);
    // The queue is bounded: before the seek flushed it the reader had queued at most
    // kCapacity items beyond those taken (a read in flight at the seek is dropped unqueued).
    EXPECT_LE(item.serial, lastSerial + kCapacity + 1);
    // One step back from 0.2 seeks to 0.2 - 1.5 frames and lands on the previous frame.
    reader.seek(0.2 - 1.5 / 25.0);
    item = next(reader, wakes);
    ASSERT_EQ(item.status, ReadStatus::Frame);
    EXPECT_NEAR(item.frame.view.pts, 0.16, 1e-9);

    reader.seek(9.99);   // the last frame (249 / 25 = 9.96) is before: the end follows
    item = next(reader, wakes);
    EXPECT_EQ(item.status, ReadStatus::EndOfStream);
}

// A preparation is used only with the settings it was made with: every field counts.
TEST(EngineHost, SettingsDifferWhenAnyFieldDiffers) {
    const ScopeSettings base;
    EXPECT_TRUE(base == ScopeSettings{});
    std::vector<std::function<void(ScopeSettings&)>> changes = {
        [](ScopeSettings& s) { s.spec.histogram = !s.spec.histogram; },
        [](ScopeSettings& s) { s.spec.waveform = !s.spec.waveform; },
        [](ScopeSettings& s) { s.spec.parade = !s.spec.parade; },
        [](ScopeSettings& s) { s.spec.paradeMode = ParadeMode::Ycbcr; },
        [](ScopeSettings& s) { s.spec.vectorscope = !s.spec.vectorscope; },
        [](ScopeSettings& s) { s.spec.stats = !s.spec.stats; },
        [](ScopeSettings& s) { s.spec.displayImages = !s.spec.displayImages; },
        [](ScopeSettings& s) { s.spec.picture = !s.spec.picture; },
        [](ScopeSettings& s) { s.spec.preview = PreviewFilter::Zebra; },
        [](ScopeSettings& s) { s.spec.filter.blurRadius += 1; },
        [](ScopeSettings& s) { s.spec.filter.gaussianSigma += 1.0f; },
        [](ScopeSettings& s) { s.spec.filter.peakingThreshold += 0.01f; },
        [](ScopeSettings& s) { s.spec.filter.peakingColour ^= 1u; },
        [](ScopeSettings& s) { s.spec.filter.peakingWidth = 3; },
        [](ScopeSettings& s) { s.spec.filter.zebraIre -= 1.0f; },
        [](ScopeSettings& s) { s.spec.filter.zebraLowIre = 50.0f; },
        [](ScopeSettings& s) { s.spec.histogramScale = HistogramScale::Log; },
        [](ScopeSettings& s) { s.spec.waveformScale = WaveformScale::CodeValue; },
        [](ScopeSettings& s) { s.spec.vectorscopeZoom = 2; },
        [](ScopeSettings& s) { s.spec.vectorscopeTargets75 = !s.spec.vectorscopeTargets75; },
        [](ScopeSettings& s) { s.spec.skinToneLine = !s.spec.skinToneLine; },
        [](ScopeSettings& s) { s.spec.histogramGain = 2.0f; },
        [](ScopeSettings& s) { s.spec.waveformGain = 2.0f; },
        [](ScopeSettings& s) { s.spec.vectorscopeGain = 2.0f; },
        [](ScopeSettings& s) { s.spec.scopeWidth += 1; },
        [](ScopeSettings& s) { s.spec.scopeHeight += 1; },
        [](ScopeSettings& s) { s.spec.vectorscopeSize += 1; },
        [](ScopeSettings& s) { s.spec.colorOverride.matrix = Matrix::Bt601; },
        [](ScopeSettings& s) { s.spec.colorOverride.range = Range::Full; },
        [](ScopeSettings& s) { s.spec.colorOverride.transfer = Transfer::Pq; },
        [](ScopeSettings& s) { s.spec.hdr = !s.spec.hdr; },
        [](ScopeSettings& s) { s.panels[size_t(gl::Plane::Parade)][0] = 300; },
        [](ScopeSettings& s) { s.histogramChannels = HistogramChannels::Luma; },
        [](ScopeSettings& s) { s.planesShown = !s.planesShown; },
    };
    for (size_t i = 0; i < changes.size(); ++i) {
        ScopeSettings changed = base;
        changes[i](changed);
        EXPECT_FALSE(base == changed) << "change " << i;
    }
}

// A preparation that also says which generation of the settings it was made with.
struct TaggedPreparation : PreparedScopes {
    int generation = 0;
};

int generationOf(const std::shared_ptr<PreparedScopes>& p) {
    return std::static_pointer_cast<const TaggedPreparation>(p)->generation;
}

TEST(SourceReader, PreparesTheQueuedFramesInOrderAndAgainOnRequest) {
    Events wakes, calls;
    std::mutex mutex;
    int generation = 1;              // guarded by mutex
    std::vector<double> preparedPts;   // guarded by mutex: the frames prepared, in order
    // The "preparation" records the frame it was made for and the generation of the settings.
    // The preparer thread works on the queued items one after the other, each attached to its
    // item before the next call, so the n-th call is the serial n preparation until a seek.
    SourceReader reader("pattern:zoneplate:64x32", {}, 3, wakes.poster(), [&](const VideoFrame& f) {
        auto p = std::make_shared<TaggedPreparation>();
        p->pts = f.view.pts;
        p->firstSample = f.view.data[0];
        {
            std::lock_guard lock(mutex);
            p->generation = generation;
            preparedPts.push_back(f.view.pts);
        }
        calls.post();
        return std::shared_ptr<PreparedScopes>(std::move(p));
    });
    // Three calls (serials 1 to 3), the third attached once awaitPrepared(3) returns.
    ASSERT_TRUE(calls.waitFor(3));
    EXPECT_FALSE(reader.awaitPrepared(3));   // still queued: attached to its item, not handed out here
    EXPECT_EQ(reader.preparedQueued(), 3u);
    // Bounded by the queue (3 items, none taken): nothing beyond it is prepared.
    EXPECT_EQ(calls.count(), 3u);
    {
        std::lock_guard lock(mutex);
        generation = 2;
    }
    reader.prepareAgain();
    ASSERT_TRUE(calls.waitFor(6));
    EXPECT_FALSE(reader.awaitPrepared(3));
    EXPECT_EQ(reader.preparedQueued(), 3u);
    for (int i = 0; i < 3; ++i) {
        auto item = next(reader, wakes);
        ASSERT_EQ(item.status, ReadStatus::Frame);
        ASSERT_TRUE(item.prepared);
        EXPECT_EQ(item.prepared->pts, item.frame.view.pts);   // each item carries its own frame's preparation
        EXPECT_EQ(item.prepared->firstSample, item.frame.view.data[0]);
        EXPECT_EQ(generationOf(item.prepared), 2);            // made again after prepareAgain
        EXPECT_NEAR(item.frame.view.pts, i / 25.0, 1e-9);
        EXPECT_FALSE(reader.awaitPrepared(item.serial));      // nothing in flight for it: no wait, nothing
    }
    // After a seek only the frames from the target on are prepared: the first item after it
    // carries its own frame's preparation (or gets it from awaitPrepared when the preparer was
    // still on it as the item was taken, as the Player does).
    reader.seek(2.0);
    const auto preparedTarget = [&] {
        std::lock_guard lock(mutex);
        return std::find(preparedPts.begin(), preparedPts.end(), 2.0) != preparedPts.end();
    };
    for (;;) {
        const uint64_t seen = calls.count();
        if (preparedTarget()) break;
        ASSERT_TRUE(calls.waitPast(seen)) << "the frame at 2.0 s was never prepared";
    }
    auto item = next(reader, wakes);
    ASSERT_EQ(item.status, ReadStatus::Frame);
    EXPECT_NEAR(item.frame.view.pts, 2.0, 1e-9);
    std::shared_ptr<PreparedScopes> prepared = item.prepared ? item.prepared : reader.awaitPrepared(item.serial);
    ASSERT_TRUE(prepared);
    EXPECT_NEAR(prepared->pts, 2.0, 1e-9);
    EXPECT_EQ(prepared->firstSample, item.frame.view.data[0]);
}

TEST(SourceReader, LoopingReadsOnFromTheStartBehindAWrapItem) {
    Events wakes;
    SourceReader reader("pattern:ramp:64x32", {}, 4, wakes.poster());
    reader.setLoop(true);
    reader.seek(9.9);   // frames 248 and 249 (9.92, 9.96) are the last
    auto item = next(reader, wakes);
    ASSERT_EQ(item.status, ReadStatus::Frame);
    EXPECT_NEAR(item.frame.view.pts, 9.92, 1e-9);
    item = next(reader, wakes);
    EXPECT_NEAR(item.frame.view.pts, 9.96, 1e-9);
    // The end is a wrap, and the next pass's frames follow it without a seek (a plain end
    // would leave the reader waiting for one, and next() would fail).
    item = next(reader, wakes);
    EXPECT_EQ(item.status, ReadStatus::EndOfStream);
    EXPECT_TRUE(item.wrap);
    for (int i = 0; i < 3; ++i) {
        item = next(reader, wakes);
        ASSERT_EQ(item.status, ReadStatus::Frame);
        EXPECT_NEAR(item.frame.view.pts, i / 25.0, 1e-9);
    }
    // Without looping the end is an end again, and the reader waits there for a seek: the
    // item after the next seek is the very next one queued.
    reader.setLoop(false);
    reader.seek(9.95);
    item = next(reader, wakes);
    EXPECT_NEAR(item.frame.view.pts, 9.96, 1e-9);
    item = next(reader, wakes);
    EXPECT_EQ(item.status, ReadStatus::EndOfStream);
    EXPECT_FALSE(item.wrap);
    const uint64_t endSerial = item.serial;
    EXPECT_EQ(reader.queued(), 0u);
    reader.seek(0.0);
    item = next(reader, wakes);
    ASSERT_EQ(item.status, ReadStatus::Frame);
    EXPECT_NEAR(item.frame.view.pts, 0.0, 1e-9);
    EXPECT_EQ(item.serial, endSerial + 1) << "the reader read on past the end";
}

TEST(SourceReader, AFailedOpenSaysWhy) {
    Events wakes;
    SourceReader reader("/nonexistent/cudascope-missing.mp4", {}, 3, wakes.poster());
    ASSERT_TRUE(wakes.waitFor(1)) << "the open never finished";   // the reader wakes the GUI when it has
    ASSERT_EQ(reader.state(), SourceReader::State::Failed);
    EXPECT_NE(reader.openError().find("cudascope-missing.mp4"), std::string::npos) << reader.openError();
    EXPECT_FALSE(reader.pop());
}

}  // namespace
}  // namespace cs
