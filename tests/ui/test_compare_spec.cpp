// Compare's B engine (ui/compare/Compare.h): its settings from A's count only what a panel shows of
// B, and its engine then measures neither chromaticities nor HDR light levels.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "core/Frame.h"
#include "ui/compare/Compare.h"
#include "playback/EngineHost.h"

namespace cs {
namespace {

// A's settings with the CIE panel, the gamut check's target and a preview filter in use.
ScopeSpec aWithEverything() {
    ScopeSpec a;
    a.cie = true;
    a.cieMode = CieMode::Uv;
    a.cieSize = 300;
    a.gamutTarget = Primaries::P3D65;
    a.hdr = true;
    a.preview = PreviewFilter::Gamut;
    a.filter.peakingThreshold = 0.3f;
    return a;
}

TEST(CompareSpecB, CountsNoChromaticitiesNoLightLevelsNoPreview) {
    const ScopeSpec b = compareSpecB(aWithEverything());
    EXPECT_FALSE(b.cie);
    EXPECT_FALSE(b.hdr);
    EXPECT_EQ(b.preview, PreviewFilter::None);
}

TEST(CompareSpecB, SettingsOnlyAShowsDoNotChangeB) {
    // Changing the CIE panel, the gamut target or the preview filter in A leaves B's settings
    // (and so B's processed inputs) as they were: B's engine does not run again for them.
    const ScopeSpec base = compareSpecB(ScopeSpec{});
    const std::vector<std::function<void(ScopeSpec&)>> aOnly = {
        [](ScopeSpec& s) { s.cie = true; },
        [](ScopeSpec& s) { s.cieMode = CieMode::Uv; },
        [](ScopeSpec& s) { s.cieSize = 212; },
        [](ScopeSpec& s) { s.cieCounts = false; },
        [](ScopeSpec& s) { s.gamutTarget = Primaries::Bt2020; },
        [](ScopeSpec& s) { s.hdr = !s.hdr; },
        [](ScopeSpec& s) { s.preview = PreviewFilter::FocusPeaking; },
        [](ScopeSpec& s) { s.filter.peakingThreshold = 0.5f; },
        [](ScopeSpec& s) { s.filter.zebraIre = 80.0f; },
    };
    for (size_t i = 0; i < aOnly.size(); ++i) {
        ScopeSpec a;
        aOnly[i](a);
        EXPECT_TRUE(compareSpecB(a) == base) << "A-only change " << i;
    }
    // What B's own scopes show follows A.
    const std::vector<std::function<void(ScopeSpec&)>> shared = {
        [](ScopeSpec& s) { s.waveformScale = WaveformScale::CodeValue; },
        [](ScopeSpec& s) { s.waveformMode = WaveformMode::Yrgb; },
        [](ScopeSpec& s) { s.vectorscopeZoom = 2; },
        [](ScopeSpec& s) { s.histogramScale = HistogramScale::Log; },
        [](ScopeSpec& s) { s.colorOverride.transfer = Transfer::Pq; },
        [](ScopeSpec& s) { s.colorOverride.matrix = Matrix::Bt601; },
    };
    for (size_t i = 0; i < shared.size(); ++i) {
        ScopeSpec a;
        shared[i](a);
        EXPECT_FALSE(compareSpecB(a) == base) << "shared change " << i;
    }
}

// A 10-bit PQ BT.2020 frame, its left half BT.2020's green primary (outside every other gamut).
Frame pqFrame() {
    ColorInfo c;
    c.matrix = Matrix::Bt2020Ncl;
    c.range = Range::Limited;
    c.transfer = Transfer::Pq;
    c.primaries = Primaries::Bt2020;
    c.matrixTagged = c.rangeTagged = true;
    Frame f(PixelFormat::Yuv420p10, 64, 32, c);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 64; ++x) {
            if (x < 32) f.setPixel(x, y, 658, 189, 100);
            else f.setPixel(x, y, 502, 512, 512);
        }
    return f;
}

TEST(CompareSpecB, BsEngineMeasuresOnlyItsPanelsScopes) {
    const Frame frame = pqFrame();
    // A with the CIE panel and the gamut check: it measures chromaticities and light levels.
    EngineHost a("cpu");
    a.spec() = aWithEverything();
    a.gamutCheck = true;
    a.setPanel(gl::Plane::Waveform, 300, 200);
    a.setPanel(gl::Plane::Cie, 300, 300);
    ASSERT_TRUE(a.process(frame.view(), nullptr));
    ASSERT_TRUE(a.results().gamut.measured);
    ASSERT_TRUE(a.results().hdr.measured);
    EXPECT_EQ(a.results().gamut.outside, uint64_t(32 * 32));

    // B as Compare runs it: A's settings through compareSpecB, B's traces in the waveform panel.
    EngineHost b("cpu");
    b.spec() = compareSpecB(a.spec());
    b.setPanel(gl::Plane::Waveform, 300, 200);
    ASSERT_TRUE(b.process(frame.view(), nullptr));
    EXPECT_FALSE(b.spec().cie);
    EXPECT_FALSE(b.results().gamut.measured);
    EXPECT_TRUE(b.results().gamut.counts.empty());
    EXPECT_FALSE(b.results().hdr.measured);
    EXPECT_TRUE(b.spec().waveform);
    EXPECT_FALSE(b.results().waveform.empty());   // what the panel shows is still counted
}

}  // namespace
}  // namespace cs
