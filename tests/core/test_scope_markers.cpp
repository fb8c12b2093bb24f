// The picked pixel's markers on the scopes (scope/ScopeMarkers.h) land on that pixel's trace:
// a frame of two flat halves, each half's marker within a pixel of trace drawn by
// scope/ScopeRender (which an image drawn without counts lacks), on the waveform, each parade
// panel and the vectorscope; a column outside the results has none.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu/CpuEngine.h"
#include "scope/ScopeMarkers.h"
#include "scope/ScopeRender.h"

using namespace cs;

namespace {

// Whether the images differ within a pixel of (x, y): a trace there.
bool traceNear(const RgbaImage& with, const RgbaImage& without, const ScopeMarker& m) {
    const int cx = int(std::lround(m.x)), cy = int(std::lround(m.y));
    for (int y = cy - 1; y <= cy + 1; ++y)
        for (int x = cx - 1; x <= cx + 1; ++x) {
            if (x < 0 || y < 0 || x >= with.width || y >= with.height) continue;
            for (int k = 0; k < 3; ++k)
                if (with.at(x, y)[k] != without.at(x, y)[k]) return true;
        }
    return false;
}

struct Halves {
    ScopeResults results, empty;
    MarkedPixel left, right;
};

// Left half Y' 92, right half Y' 158 (between the 10 IRE lines), chroma 160 / 110.
Halves halves(ParadeMode mode) {
    Frame frame(PixelFormat::Yuv444p, 64, 16);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 64; ++x) frame.setPixel(x, y, x < 32 ? 92 : 158, 160, 110);
    ScopeSpec spec;
    spec.displayImages = false;
    spec.paradeMode = mode;
    Halves h;
    EXPECT_TRUE(makeCpuEngine(1)->process(frame.view(), spec, h.results).ok());
    h.empty = h.results;
    std::fill(h.empty.waveform.begin(), h.empty.waveform.end(), 0u);
    std::fill(h.empty.parade.begin(), h.empty.parade.end(), 0u);
    std::fill(h.empty.vectorscope.begin(), h.empty.vectorscope.end(), 0u);
    // R'G'B' full range of a grey-free pixel: read from the parade's own counts (the component's only code).
    auto onlyCode = [&](int c, int column) {
        for (int v = 0; v < h.results.levels; ++v)
            if (h.results.parade[(size_t(c) * size_t(h.results.levels) + size_t(v)) * 64 + size_t(column)]) return v;
        return -1;
    };
    h.left = {10, 92, 160, 110, 0, 0, 0};
    h.right = {50, 158, 160, 110, 0, 0, 0};
    if (mode == ParadeMode::Rgb) {
        h.left.r = onlyCode(0, 10); h.left.g = onlyCode(1, 10); h.left.b = onlyCode(2, 10);
        h.right.r = onlyCode(0, 50); h.right.g = onlyCode(1, 50); h.right.b = onlyCode(2, 50);
    }
    return h;
}

}  // namespace

TEST(ScopeMarkers, WaveformMarkersLieOnTheirTraces) {
    const Halves h = halves(ParadeMode::Rgb);
    ScopeSpec spec;
    spec.scopeWidth = 320;
    spec.scopeHeight = 200;
    RgbaImage with, without;
    renderWaveform(h.results, spec, with);
    renderWaveform(h.empty, spec, without);
    const std::vector<ScopeMarker> left = waveformMarkers(h.results, spec, 320, 200, h.left);
    const std::vector<ScopeMarker> right = waveformMarkers(h.results, spec, 320, 200, h.right);
    ASSERT_EQ(left.size(), 1u);
    ASSERT_EQ(right.size(), 1u);
    EXPECT_TRUE(traceNear(with, without, left[0]));
    EXPECT_TRUE(traceNear(with, without, right[0]));
    EXPECT_LT(left[0].x, right[0].x);
    EXPECT_GT(left[0].y, right[0].y + 20);   // 92 below 158
    MarkedPixel outside = h.left;
    outside.column = 64;
    EXPECT_TRUE(waveformMarkers(h.results, spec, 320, 200, outside).empty());
}

// The R'G'B' overlay: R', G', B' in its one panel, each on its trace; YRGB: one a panel,
// left to right, each on its panel's trace. Without R'G'B' counts, no R'G'B' markers.
TEST(ScopeMarkers, RgbOverlayAndYrgbMarkersLieOnTheirTraces) {
    const Halves h = halves(ParadeMode::Rgb);
    for (WaveformMode mode : {WaveformMode::RgbOverlay, WaveformMode::Yrgb}) {
        ScopeSpec spec;
        spec.scopeWidth = 480;
        spec.scopeHeight = 240;
        spec.waveformMode = mode;
        RgbaImage with, without;
        renderWaveform(h.results, spec, with);
        renderWaveform(h.empty, spec, without);
        const size_t expected = mode == WaveformMode::Yrgb ? 4 : 3;
        for (const MarkedPixel& p : {h.left, h.right}) {
            const std::vector<ScopeMarker> m = waveformMarkers(h.results, spec, 480, 240, p);
            ASSERT_EQ(m.size(), expected) << int(mode);
            for (size_t i = 0; i < m.size(); ++i) EXPECT_TRUE(traceNear(with, without, m[i])) << int(mode) << " marker " << i;
            if (mode == WaveformMode::Yrgb)
                for (size_t i = 1; i < m.size(); ++i) EXPECT_LT(m[i - 1].x, m[i].x);
            else
                EXPECT_TRUE(m[0].x == m[1].x && m[1].x == m[2].x);   // one column, three codes
        }
        const Halves ycbcr = halves(ParadeMode::Ycbcr);
        EXPECT_EQ(waveformMarkers(ycbcr.results, spec, 480, 240, ycbcr.left).size(), mode == WaveformMode::Yrgb ? 1u : 0u);
    }
}

TEST(ScopeMarkers, ParadeMarkersLieOnEachPanelsTrace) {
    for (ParadeMode mode : {ParadeMode::Rgb, ParadeMode::Ycbcr}) {
        const Halves h = halves(mode);
        ScopeSpec spec;
        spec.scopeWidth = 480;
        spec.scopeHeight = 200;
        RgbaImage with, without;
        renderParade(h.results, spec, with);
        renderParade(h.empty, spec, without);
        for (const MarkedPixel& p : {h.left, h.right}) {
            const std::vector<ScopeMarker> m = paradeMarkers(h.results, 480, 200, p);
            ASSERT_EQ(m.size(), 3u);
            for (int c = 0; c < 3; ++c) EXPECT_TRUE(traceNear(with, without, m[size_t(c)])) << int(mode) << " panel " << c;
            EXPECT_LT(m[0].x, m[1].x);
            EXPECT_LT(m[1].x, m[2].x);
        }
    }
}

TEST(ScopeMarkers, VectorscopeMarkerLiesOnThePoint) {
    const Halves h = halves(ParadeMode::Rgb);
    for (int zoom : {1, 2}) {
        ScopeSpec spec;
        spec.vectorscopeSize = 257;
        spec.vectorscopeZoom = zoom;
        RgbaImage with, without;
        renderVectorscope(h.results, spec, with);
        renderVectorscope(h.empty, spec, without);
        const auto m = vectorscopeMarker(h.results, spec, 257, h.left);
        ASSERT_TRUE(m);
        EXPECT_TRUE(traceNear(with, without, *m)) << "zoom " << zoom;
        EXPECT_GT(m->x, 128.0);   // Cb 160: right of the centre
        EXPECT_GT(m->y, 128.0);   // Cr 110: below it
    }
}
