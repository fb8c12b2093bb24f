// Scope zoom (core/ScopeZoom.h, scope/LevelZoom.h): the whole scale maps codes to rows as the
// unzoomed rule, bit for bit; a zoomed waveform puts known codes on the expected rows (16 at
// the bottom and 235 at the top of a 16-235 zoom, a flat 110 in the middle of 100-120), its
// labels are the expected values in code values, IRE and nits; the vectorscope zooms beyond
// 2x; wheel-style zooming keeps the anchor and stays inside the scale; markers follow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "CoreTestUtil.h"
#include "core/ScopeZoom.h"
#include "scope/HdrGraticule.h"
#include "scope/LevelZoom.h"
#include "scope/ScopeMarkers.h"
#include "scope/ScopeRender.h"

namespace cs {
namespace {

ScopeResults flatResults(int width, int height, int depth, int code, Range range = Range::Limited) {
    ScopeResults r = cs::testing::makeResults(width, height, depth);
    r.color.range = range;
    r.waveform.assign(size_t(r.levels) * size_t(width), 0);
    for (int x = 0; x < width; ++x) r.waveform[size_t(code) * size_t(width) + size_t(x)] = uint32_t(height);
    return r;
}

// The rows of the waveform's plot lit by the trace (the image against the one of no counts).
std::set<int> litRows(const ScopeResults& r, const ScopeSpec& spec) {
    RgbaImage traced, blank;
    renderWaveform(r, spec, traced);
    ScopeResults none = r;
    std::fill(none.waveform.begin(), none.waveform.end(), 0u);
    renderWaveform(none, spec, blank);
    std::set<int> rows;
    for (int y = 0; y < traced.height; ++y)
        for (int x = 0; x < traced.width; ++x)
            if (!std::equal(traced.at(x, y), traced.at(x, y) + 4, blank.at(x, y))) rows.insert(y);
    return rows;
}

LevelRange codes8(double lo, double hi) { return LevelRange{lo / 255.0, hi / 255.0}; }

std::vector<std::string> labelTexts(const Graticule& g, double x = 0.0) {
    std::vector<std::string> out;
    for (const GraticuleLabel& l : g.labels)
        if (l.x == x && l.hAlign == HAlign::Right) out.push_back(l.text);
    return out;
}

const GraticuleLabel* label(const Graticule& g, const std::string& text) {
    for (const GraticuleLabel& l : g.labels)
        if (l.text == text) return &l;
    return nullptr;
}

TEST(ScopeZoom, WholeScaleIsTheUnzoomedRuleBitForBit) {
    for (int codes : {256, 1024})
        for (int display : {2, 100, 301, 540})
            for (int c = 0; c < codes; c += 7) {
                const LevelAxis axis(LevelRange{}, codes, display);
                const double k = double(display - 1) / double(codes - 1), last = double(display - 1);
                EXPECT_EQ(axis.row(c), last - c * k);
                EXPECT_EQ(axis.code(double(c % display)), (last - double(c % display)) / k);
            }
    // Anything not a sane range is the whole scale.
    for (LevelRange bad : {LevelRange{0.5, 0.4}, LevelRange{-0.1, 0.5}, LevelRange{0.2, 1.5}, LevelRange{0.5, 0.5001},
                           LevelRange{std::nan(""), 0.5}})
        EXPECT_TRUE(isWholeScale(bad)) << bad.lo << " " << bad.hi;
    EXPECT_FALSE(isWholeScale(codes8(16, 235)));
    EXPECT_EQ(vectorscopeZoomFactor(0), 1);
    EXPECT_EQ(vectorscopeZoomFactor(4), 4);
    EXPECT_EQ(vectorscopeZoomFactor(99), kMaxVectorscopeZoom);
}

TEST(ScopeZoom, SixteenToTwoThirtyFiveFillsThePlot) {
    // 8-bit limited, zoom 16-235: a field of 16 lights the bottom row, one of 235 the top row.
    ScopeSpec spec;
    spec.scopeWidth = 400;
    spec.scopeHeight = 300;
    spec.waveformRange = codes8(16, 235);
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const std::set<int> black = litRows(flatResults(40, 20, 8, 16), spec);
    const std::set<int> white = litRows(flatResults(40, 20, 8, 235), spec);
    ASSERT_FALSE(black.empty());
    ASSERT_FALSE(white.empty());
    EXPECT_EQ(*black.rbegin(), plot.top + plot.height - 1);
    EXPECT_EQ(*white.begin(), plot.top);
    // 219 codes over 299 rows: each code is one or two rows.
    EXPECT_LE(black.size(), 2u);
    EXPECT_LE(white.size(), 2u);
    // Codes beyond the range fall off the plot: nothing is drawn for 10 or 240.
    EXPECT_TRUE(litRows(flatResults(40, 20, 8, 10), spec).empty());
    EXPECT_TRUE(litRows(flatResults(40, 20, 8, 240), spec).empty());
    // The code-value scale's labels: the limits at the plot's edges, steps of 50 between.
    spec.waveformScale = WaveformScale::CodeValue;
    const Graticule g = levelGraticule(8, Range::Limited, Range::Limited, spec, spec.waveformRange, Transfer::Bt709);
    EXPECT_EQ(labelTexts(g), (std::vector<std::string>{"16", "128", "235", "50", "100", "150", "200"}));
    ASSERT_TRUE(label(g, "16"));
    EXPECT_NEAR(label(g, "16")->y, 0.0, 1e-12);
    EXPECT_NEAR(label(g, "235")->y, 1.0, 1e-12);
    EXPECT_NEAR(label(g, "128")->y, (128.0 - 16.0) / 219.0, 1e-12);
    EXPECT_EQ(label(g, "16")->emphasis, Emphasis::Limit);
    EXPECT_EQ(label(g, "128")->emphasis, Emphasis::Major);
    EXPECT_EQ(label(g, "50")->emphasis, Emphasis::Minor);
    EXPECT_EQ(levelRangeText(levelUnits(8, Range::Limited, Range::Limited, WaveformScale::CodeValue, Transfer::Bt709, false),
                             spec.waveformRange),
              "16-235");
}

TEST(ScopeZoom, NarrowRangeIsARebinningWithTheFieldInTheMiddle) {
    // Zoom 100-120: a flat 110 is the middle of the plot, a band of the rows nearest to code 110
    // (21 codes over the rows: each code about 1/20 of the plot), not a magnified bitmap of
    // the unzoomed row.
    ScopeSpec spec;
    spec.scopeWidth = 400;
    spec.scopeHeight = 300;
    spec.waveformRange = codes8(100, 120);
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const std::set<int> rows = litRows(flatResults(40, 20, 8, 110), spec);
    ASSERT_FALSE(rows.empty());
    const int middle = plot.top + (plot.height - 1) / 2;
    EXPECT_TRUE(rows.count(middle));
    EXPECT_EQ(*rows.rbegin() - *rows.begin() + 1, int(rows.size()));   // contiguous
    const double rowsPerCode = double(plot.height - 1) / 20.0;
    EXPECT_NEAR(double(rows.size()), rowsPerCode, 1.0);
    // Every lit row's nearest code is 110.
    const LevelAxis axis(spec.waveformRange, 256, plot.height);
    for (int y : rows) EXPECT_EQ(std::lround(axis.code(double(y - plot.top))), 110) << y;
    // The next code is the band above.
    const std::set<int> next = litRows(flatResults(40, 20, 8, 111), spec);
    ASSERT_FALSE(next.empty());
    EXPECT_EQ(*next.rbegin() + 1, *rows.begin());
    // IRE labels for 40-60 IRE: every 5 IRE, 50 the major line.
    spec.waveformRange = LevelRange{ireToCode(40, 8, Range::Limited) / 255.0, ireToCode(60, 8, Range::Limited) / 255.0};
    const Graticule g = levelGraticule(8, Range::Limited, Range::Limited, spec, spec.waveformRange, Transfer::Bt709);
    std::vector<std::string> texts = labelTexts(g);
    std::sort(texts.begin(), texts.end());
    EXPECT_EQ(texts, (std::vector<std::string>{"40", "45", "50", "55", "60"}));
    EXPECT_EQ(label(g, "50")->emphasis, Emphasis::Major);
    EXPECT_NEAR(label(g, "50")->y, 0.5, 1e-9);
    EXPECT_EQ(levelZoomText(spec, false, ParadeMode::Rgb, 8, Range::Limited, Transfer::Bt709), "40-60 IRE");
}

TEST(ScopeZoom, NitsScaleZoomedAndReferenceLinesFollow) {
    // PQ, 10-bit limited, zoomed to 100-1000 cd/m2: 100, 203 (not 200), 500, 1K.
    const double lo = hdrNitsToCode(Transfer::Pq, 100.0, 10, Range::Limited) / 1023.0;
    const double hi = hdrNitsToCode(Transfer::Pq, 1000.0, 10, Range::Limited) / 1023.0;
    ScopeSpec spec;
    spec.referenceLines.levels[0] = ReferenceLevel{60.0f, ReferenceLevel::Unit::Percent};
    spec.referenceLines.count = 1;
    const Graticule g = levelGraticule(10, Range::Limited, Range::Limited, spec, LevelRange{lo, hi}, Transfer::Pq);
    EXPECT_EQ(labelTexts(g), (std::vector<std::string>{"100", "203", "500", "1K"}));
    EXPECT_NEAR(label(g, "100")->y, 0.0, 1e-9);
    EXPECT_NEAR(label(g, "1K")->y, 1.0, 1e-9);
    EXPECT_EQ(label(g, "203")->emphasis, Emphasis::Limit);
    EXPECT_TRUE(label(g, "PQ NITS"));
    // The 60% reference line (code 590 at 10 bits) is inside 100-1000 nits: mapped into the range.
    const GraticuleLabel* ref = label(g, "60%");
    ASSERT_TRUE(ref);
    EXPECT_NEAR(ref->y, (ireToCode(60, 10, Range::Limited) / 1023.0 - lo) / (hi - lo), 1e-9);
    EXPECT_EQ(levelRangeText(levelUnits(10, Range::Limited, Range::Limited, WaveformScale::Ire, Transfer::Pq, false), LevelRange{lo, hi}),
              "100-1K nits");
    // Nothing lies outside the panel.
    for (const GraticuleLine& l : g.lines) {
        EXPECT_GE(l.y0, 0.0);
        EXPECT_LE(l.y0, 1.0);
    }
}

TEST(ScopeZoom, WheelZoomKeepsTheAnchorAndPanStaysInside) {
    const LevelRange whole;
    const LevelRange in = zoomLevelRange(whole, 0.25, 0.5);
    EXPECT_NEAR(in.hi - in.lo, 0.5, 1e-12);
    EXPECT_NEAR((0.25 - in.lo) / (in.hi - in.lo), 0.25, 1e-12);   // the anchor keeps its place
    const LevelRange edge = zoomLevelRange(whole, 0.0, 0.5);
    EXPECT_EQ(edge.lo, 0.0);
    EXPECT_TRUE(isWholeScale(zoomLevelRange(in, 0.5, 4.0)));        // zoomed out past the scale
    const LevelRange tiny = zoomLevelRange(whole, 0.5, 1e-6);
    EXPECT_NEAR(tiny.hi - tiny.lo, kMinLevelSpan, 1e-12);
    EXPECT_FALSE(isWholeScale(tiny));
    const LevelRange moved = panLevelRange(in, 10.0);
    EXPECT_EQ(moved.hi, 1.0);
    EXPECT_NEAR(moved.hi - moved.lo, 0.5, 1e-12);
    EXPECT_EQ(panLevelRange(in, -10.0).lo, 0.0);
}

TEST(ScopeZoom, VectorscopeBeyondTwoTimesAndMarkersFollow) {
    // A chroma dot at 4x and 8x lies where vectorscopePoint puts it, scaled around the centre.
    ScopeResults r = flatResults(16, 8, 8, 100);
    r.vectorscope.assign(256 * 256, 0);
    const int cb = 120, cr = 140;
    r.vectorscope[size_t(cr) * 256 + size_t(cb)] = 16 * 8;
    ScopeSpec spec;
    spec.vectorscopeSize = 301;
    const PlotRect plot = vectorscopePlotRect(301);
    for (int zoom : {4, 8}) {
        spec.vectorscopeZoom = zoom;
        RgbaImage traced, blank;
        renderVectorscope(r, spec, traced);
        ScopeResults none = r;
        std::fill(none.vectorscope.begin(), none.vectorscope.end(), 0u);
        renderVectorscope(none, spec, blank);
        const PlotPoint p = vectorscopePoint(cb, cr, 8, zoom);
        EXPECT_NEAR(p.x - 0.5, zoom * (cb - 128.0) / 256.0, 1e-12);
        const int ex = int(std::lround(plot.toPixelX(p.x))), ey = int(std::lround(plot.toPixelY(p.y)));
        EXPECT_FALSE(std::equal(traced.at(ex, ey), traced.at(ex, ey) + 4, blank.at(ex, ey))) << zoom;
        const Graticule g = vectorscopeGraticule(Matrix::Bt709, Range::Limited, 8, zoom, true, true);
        EXPECT_TRUE(label(g, std::to_string(zoom) + "x")) << zoom;
        const std::optional<ScopeMarker> m = vectorscopeMarker(r, spec, 301, MarkedPixel{0, 100, cb, cr, 0, 0, 0});
        ASSERT_TRUE(m);
        EXPECT_NEAR(m->x, plot.toPixelX(p.x), 1e-9);
    }
    // The waveform's marker moves with the zoom, and is gone beyond it.
    ScopeSpec w;
    w.waveformRange = codes8(100, 120);
    const PlotRect wp = waveformPlotRect(w.scopeWidth, w.scopeHeight);
    const std::vector<ScopeMarker> at = waveformMarkers(r, w, w.scopeWidth, w.scopeHeight, MarkedPixel{3, 110, 128, 128, 0, 0, 0});
    ASSERT_EQ(at.size(), 1u);
    EXPECT_NEAR(at[0].y, wp.toPixelY(0.5), 1e-6);
    EXPECT_TRUE(waveformMarkers(r, w, w.scopeWidth, w.scopeHeight, MarkedPixel{3, 200, 128, 128, 0, 0, 0}).empty());
}

}  // namespace
}  // namespace cs
