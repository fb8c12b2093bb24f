// Waveform modes (RGB overlay, YRGB), trace colours, reference lines and the vectorscope's
// dots: known levels on known rows, known colours, the text users type for reference lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "scope/Graticule.h"
#include "core/HdrFalseColour.h"
#include "scope/HdrGraticule.h"
#include "core/PeakingColour.h"
#include "scope/PreviewLegend.h"
#include "scope/ReferenceLines.h"
#include "scope/ScopeRender.h"
#include "core/ScopeStyle.h"
#include "tests/core/CoreTestUtil.h"

namespace cs {
namespace {

using testing::heightForPlotRows;
using testing::makeResults;
using testing::Rgb8;

// The row a code of `codes` levels lands on in a panel (code 0 at the bottom).
int rowOf(const PlotRect& p, double code, int codes) { return int(std::lround(p.toPixelY(code / double(codes - 1)))); }

Rgb8 px(const RgbaImage& img, int x, int y) {
    const uint8_t* p = img.at(x, y);
    return {p[0], p[1], p[2]};
}

// 40 columns: luma at 120, R' at 200, G' at 100, B' at 50 (8-bit), each 10 pixels a column.
ScopeResults lumaAndRgb() {
    ScopeResults r = makeResults(40, 10, 8);
    r.waveform.assign(256 * 40, 0);
    r.parade.assign(3 * 256 * 40, 0);
    r.paradeMode = ParadeMode::Rgb;
    const int levels[3] = {200, 100, 50};
    for (int x = 0; x < 40; ++x) {
        r.waveform[120 * 40 + size_t(x)] = 10;
        for (int c = 0; c < 3; ++c) r.parade[(size_t(c) * 256 + size_t(levels[c])) * 40 + size_t(x)] = 10;
    }
    return r;
}

TEST(ReferenceLinesText, ParsesLevelsAndRoundTrips) {
    auto a = parseReferenceLines("5%,95%,16:8,940:10,502,2.5%");
    ASSERT_TRUE(a) << a.status().message();
    ASSERT_EQ(a->count, 6);
    EXPECT_EQ(a->levels[0].unit, ReferenceLevel::Unit::Percent);
    EXPECT_FLOAT_EQ(a->levels[1].value, 95.0f);
    EXPECT_EQ(a->levels[2].unit, ReferenceLevel::Unit::Code8);
    EXPECT_EQ(a->levels[3].unit, ReferenceLevel::Unit::Code10);
    EXPECT_EQ(a->levels[4].unit, ReferenceLevel::Unit::Code);
    EXPECT_FLOAT_EQ(a->levels[5].value, 2.5f);
    EXPECT_EQ(referenceLinesText(*a), "5%,95%,16:8,940:10,502,2.5%");
    auto none = parseReferenceLines("none");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->count, 0);
    EXPECT_EQ(referenceLinesText(*none), "none");
}

TEST(ReferenceLinesText, RefusesBadText) {
    for (const char* bad : {"", ",", "5%,", "-5%", "5 %", "110%", "256:8", "1024:10", "70000", "1e3", "5%,5%", "abc",
                            "1.2.3", ".5%", "5.%", "2.125%", "1,2,3,4,5,6,7,8,9", "16:9"}) {
        const auto r = parseReferenceLines(bad);
        EXPECT_FALSE(r) << bad;
        if (!r) {
            EXPECT_NE(r.status().message().find("not '"), std::string::npos) << r.status().message();
        }
    }
}

TEST(ReferenceLinesPlace, LevelsAtTheirCodesOnEveryScale) {
    auto lines = parseReferenceLines("5%,95%,16:8,235:8,64:10,940:10");
    ASSERT_TRUE(lines);
    // 8-bit limited: 5% = 16 + 0.05 * 219 = 26.95; 16:8 = 16; 64:10 = 16; 940:10 = 235.
    Graticule g;
    addReferenceLines(g, *lines, 8, Range::Limited, Range::Limited);
    ASSERT_EQ(g.lines.size(), 6u);
    const double expected8[6] = {26.95, 224.05, 16, 235, 16, 235};
    for (int i = 0; i < 6; ++i) {
        EXPECT_NEAR(g.lines[size_t(i)].y0 * 255.0, expected8[i], 1e-9) << i;
        EXPECT_EQ(g.lines[size_t(i)].emphasis, Emphasis::Reference);
    }
    EXPECT_EQ(g.labels[0].text, "5%");
    EXPECT_EQ(g.labels[2].text, "16");
    // 10-bit: 16:8 is 64, 235:8 is 940.
    Graticule g10;
    addReferenceLines(g10, *lines, 10, Range::Limited, Range::Limited);
    EXPECT_NEAR(g10.lines[2].y0 * 1023.0, 64.0, 1e-9);
    EXPECT_NEAR(g10.lines[3].y0 * 1023.0, 940.0, 1e-9);
    EXPECT_EQ(g10.labels[3].text, "940");
    // On an R'G'B' (full-range) panel the same levels sit at 0% and 100% of its scale.
    Graticule rgb;
    addReferenceLines(rgb, *lines, 8, Range::Limited, Range::Full);
    EXPECT_NEAR(rgb.lines[2].y0, 0.0, 1e-12);
    EXPECT_NEAR(rgb.lines[3].y0, 1.0, 1e-12);
    EXPECT_NEAR(rgb.lines[0].y0, 0.05, 1e-12);
}

TEST(ReferenceLinesPlace, DrawnOnTheRowOfTheirCode) {
    ScopeResults r = makeResults(40, 10, 8);
    r.waveform.assign(256 * 40, 0);
    ScopeSpec spec;
    spec.scopeWidth = 600;
    spec.scopeHeight = heightForPlotRows(600, 256);
    spec.waveformScale = WaveformScale::CodeValue;
    RgbaImage plain, withLines;
    renderWaveform(r, spec, plain);
    spec.referenceLines = *parseReferenceLines("100:8");
    renderWaveform(r, spec, withLines);
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const int row = rowOf(plot, 100, 256);
    const int x = plot.left + plot.width / 3;
    EXPECT_EQ(px(plain, x, row).b, 0);
    const Rgb8 c = px(withLines, x, row);
    EXPECT_GT(c.b, 100);                  // cyan
    EXPECT_GT(c.g, c.r);
    EXPECT_EQ(px(withLines, x, row - 2).b, px(plain, x, row - 2).b);   // one row only
}

// A PQ source's waveform keeps its nits scale with the reference lines over it, in every mode
// (R'G'B' panels at full range), and the R'G'B' parade likewise.
TEST(ReferenceLinesPlace, OverTheNitsScaleOfPqSources) {
    ScopeResults r = makeResults(40, 10, 10);
    r.color.transfer = Transfer::Pq;
    ScopeSpec spec;
    spec.scopeWidth = 600;
    spec.scopeHeight = 300;
    spec.referenceLines = *parseReferenceLines("5%,940:10");
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const int textScale = graticuleTextScale(spec.scopeWidth, spec.scopeHeight);
    auto expected = [&](const PlotRect& panel, Range scaleRange, bool labels, RgbaImage& img, LabelLayout& placed) {
        Graticule g = hdrWaveformGraticule(10, scaleRange, Transfer::Pq);
        addReferenceLines(g, spec.referenceLines, 10, r.color.range, scaleRange);
        drawGraticule(img, panel, g, textScale, labels, placed);
    };
    RgbaImage got, want;
    want.resize(spec.scopeWidth, spec.scopeHeight);
    got.resize(spec.scopeWidth, spec.scopeHeight);
    LabelLayout placed;
    expected(plot, r.color.range, true, want, placed);
    drawLevelGraticules(got, r, spec, false);
    EXPECT_EQ(got.pixels, want.pixels) << "luma";
    // RGB overlay: one panel with headroom, the nits scale at full range (the name drawn after).
    spec.waveformMode = WaveformMode::RgbOverlay;
    got = RgbaImage{};
    got.resize(spec.scopeWidth, spec.scopeHeight);
    drawLevelGraticules(got, r, spec, false);
    RgbaImage sdr;
    sdr.resize(spec.scopeWidth, spec.scopeHeight);
    ScopeResults sdrResults = r;
    sdrResults.color.transfer = Transfer::Bt709;
    drawLevelGraticules(sdr, sdrResults, spec, false);
    EXPECT_NE(got.pixels, sdr.pixels) << "rgb overlay";
    const PlotRect panel = waveformPanelRect(plot, 0, 1, textScale, true);
    RgbaImage lineOnly;
    lineOnly.resize(spec.scopeWidth, spec.scopeHeight);
    LabelLayout none;
    expected(panel, Range::Full, false, lineOnly, none);
    // Every line pixel of the expected scale (no labels) is drawn in the mode's image too.
    int lit = 0, matched = 0;
    for (int y = panel.top; y < panel.top + panel.height; ++y)
        for (int x = panel.left + panel.width / 2; x < panel.left + panel.width * 3 / 4; ++x)
            if (lineOnly.at(x, y)[3] != 0) {
                ++lit;
                matched += got.at(x, y)[3] != 0;
            }
    EXPECT_GT(lit, 0);
    EXPECT_EQ(matched, lit);
}

TEST(WaveformModes, RgbOverlayDrawsEachChannelOnItsRowInItsColour) {
    const ScopeResults r = lumaAndRgb();
    ScopeSpec spec;
    spec.scopeWidth = 600;
    spec.scopeHeight = 400;
    spec.waveformMode = WaveformMode::RgbOverlay;
    RgbaImage img;
    renderWaveform(r, spec, img);
    const PlotRect panel = waveformPanelRect(waveformPlotRect(600, 400), 0, 1, graticuleTextScale(600, 400), true);
    const int x = panel.left + panel.width / 2 + 3;
    const Rgb8 red = px(img, x, rowOf(panel, 200, 256)), green = px(img, x, rowOf(panel, 100, 256)),
               blue = px(img, x, rowOf(panel, 50, 256));
    EXPECT_GT(red.r, red.g + 50);
    EXPECT_GT(green.g, green.r + 50);
    EXPECT_GT(blue.b, blue.g);
    EXPECT_GT(blue.b, blue.r + 50);
    // Not the luma level: nothing at code 120 but graticule.
    const Rgb8 luma = px(img, x, rowOf(panel, 120, 256));
    EXPECT_LT(std::max({luma.r, luma.g, luma.b}), 60);
    // Channels that coincide add up: R' and G' both at 200 read yellow.
    ScopeResults both = r;
    for (int x0 = 0; x0 < 40; ++x0) {
        both.parade[(size_t(1) * 256 + 100) * 40 + size_t(x0)] = 0;
        both.parade[(size_t(1) * 256 + 200) * 40 + size_t(x0)] = 10;
    }
    renderWaveform(both, spec, img);
    const Rgb8 yellow = px(img, x, rowOf(panel, 200, 256));
    EXPECT_GT(yellow.r, 200);
    EXPECT_GT(yellow.g, 200);
    EXPECT_LT(yellow.b, yellow.g - 50);
}

TEST(WaveformModes, YrgbDrawsFourPanels) {
    const ScopeResults r = lumaAndRgb();
    ScopeSpec spec;
    spec.scopeWidth = 900;
    spec.scopeHeight = 400;
    spec.waveformMode = WaveformMode::Yrgb;
    RgbaImage img;
    renderWaveform(r, spec, img);
    const PlotRect plot = waveformPlotRect(900, 400);
    const int s = graticuleTextScale(900, 400);
    const int levels[4] = {120, 200, 100, 50};
    for (int c = 0; c < 4; ++c) {
        const PlotRect panel = waveformPanelRect(plot, c, 4, s, c > 0);
        ASSERT_GT(panel.width, 100);
        const int x = panel.left + panel.width / 2 + 3;
        const Rgb8 p = px(img, x, rowOf(panel, levels[c], 256));
        if (c == 0) {
            EXPECT_GT(p.r, 150) << "Y is white";
            EXPECT_LT(std::abs(p.r - p.b), 30);
        } else {
            const int v[3] = {p.r, p.g, p.b};
            EXPECT_GT(v[c - 1], v[c % 3]) << "panel " << c;
            EXPECT_GT(v[c - 1], v[(c + 1) % 3]) << "panel " << c;
        }
    }
    // The panels sit side by side without overlap, the R'G'B' ones with the parade's headroom.
    EXPECT_LT(waveformPanelRect(plot, 0, 4, s, false).left + waveformPanelRect(plot, 0, 4, s, false).width,
              waveformPanelRect(plot, 1, 4, s, true).left);
    EXPECT_GT(waveformPanelRect(plot, 1, 4, s, true).top, plot.top);
}

TEST(WaveformModes, EnginesCountTheRgbParadeForThem) {
    ScopeSpec spec;
    spec.parade = false;
    spec.paradeMode = ParadeMode::Ycbcr;
    EXPECT_FALSE(countsDiffer(spec));
    spec.waveformMode = WaveformMode::Yrgb;
    EXPECT_TRUE(countsDiffer(spec));
    const ScopeSpec counted = countedSpec(spec);
    EXPECT_TRUE(counted.parade);
    EXPECT_EQ(counted.paradeMode, ParadeMode::Rgb);
    EXPECT_FALSE(countsDiffer(counted));
}

TEST(TraceColours, GreenWhiteAndPerChannel) {
    ScopeResults r = lumaAndRgb();
    ScopeSpec spec;
    spec.scopeWidth = 900;
    spec.scopeHeight = 400;
    const PlotRect plot = waveformPlotRect(900, 400);
    const PlotRect red = paradePanelRect(plot, 0, graticuleTextScale(900, 400), true);
    const int x = red.left + red.width / 2 + 3, y = rowOf(red, 200, 256);
    RgbaImage img;
    spec.traceColour = TraceColour::Channel;
    renderParade(r, spec, img);
    EXPECT_GT(px(img, x, y).r, px(img, x, y).g + 50);
    spec.traceColour = TraceColour::Green;
    renderParade(r, spec, img);
    EXPECT_GT(px(img, x, y).g, px(img, x, y).r + 30);
    spec.traceColour = TraceColour::White;
    renderParade(r, spec, img);
    EXPECT_EQ(px(img, x, y).r, px(img, x, y).g);
    EXPECT_EQ(px(img, x, y).g, px(img, x, y).b);
    EXPECT_EQ(traceShade(traceHue(TraceColour::White, TraceChannel::Red), 1.0f), 0xfff5f5f5u);   // 0.9 washed by 0.6 towards white
    EXPECT_EQ(traceShade(traceHue(TraceColour::Channel, TraceChannel::Red), 0.0f), 0xff000000u);
    EXPECT_EQ(traceAdd(0xff8000ffu, 0xff80ff01u), 0xffffffffu);
}

TEST(VectorscopeDots, BarsAreDiscsAtTheirTargetsAt1x) {
    // 75% bars, BT.709 limited 8-bit: each bar's Cb/Cr at its target, equal counts.
    ScopeResults r = makeResults(60, 10, 8);
    r.vectorscope.assign(256 * 256, 0);
    struct Bar { double r, g, b; };
    const Bar bars[6] = {{0.75, 0, 0}, {0.75, 0, 0.75}, {0, 0, 0.75}, {0, 0.75, 0.75}, {0, 0.75, 0}, {0.75, 0.75, 0}};
    for (const Bar& bar : bars) {
        const ChromaCodes c = chromaCodes(Matrix::Bt709, Range::Limited, 8, bar.r, bar.g, bar.b);
        r.vectorscope[size_t(std::lround(c.cr)) * 256 + size_t(std::lround(c.cb))] += 100;
    }
    ScopeSpec spec;
    spec.vectorscopeSize = 540;
    RgbaImage img;
    renderVectorscope(r, spec, img);
    const PlotRect plot = vectorscopePlotRect(540);
    ASSERT_EQ(vectorscopeSplatRadius(plot.width), 2);
    for (const Bar& bar : bars) {
        const ChromaCodes c = chromaCodes(Matrix::Bt709, Range::Limited, 8, bar.r, bar.g, bar.b);
        const PlotPoint p = vectorscopePoint(double(std::lround(c.cb)), double(std::lround(c.cr)), 8, 1);
        const int x = int(std::lround(plot.toPixelX(p.x))), y = int(std::lround(plot.toPixelY(p.y)));
        // A disc of radius 2 around the code's pixel, in the bar's own hue.
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                if (!inSplat(dx, dy, 2)) continue;
                const Rgb8 q = px(img, x + dx, y + dy);
                EXPECT_GT(std::max({q.r, q.g, q.b}), 120) << dx << "," << dy;
            }
        const Rgb8 q = px(img, x, y);
        const int v[3] = {q.r, q.g, q.b};
        const double want[3] = {bar.r, bar.g, bar.b};
        for (int ch = 0; ch < 3; ++ch)
            if (want[ch] > 0.5) { EXPECT_GE(v[ch], *std::max_element(v, v + 3) - 1) << "channel " << ch; }
    }
}

TEST(VectorscopeDots, DeepSourcesAreLiftedByTheirLevelCount) {
    EXPECT_EQ(vectorscopeDepthGain(256), 1.0);
    EXPECT_EQ(vectorscopeDepthGain(1024), 4.0);
    // The same picture (one chroma value, all pixels) at 8 and 10 bits: the 10-bit dot is at
    // least as bright.
    ScopeResults r8 = makeResults(8, 8, 8), r10 = makeResults(8, 8, 10);
    r8.vectorscope.assign(256 * 256, 0);
    r10.vectorscope.assign(size_t(1024) * 1024, 0);
    r8.vectorscope[size_t(150) * 256 + 100] = 64;
    r10.vectorscope[size_t(600) * 1024 + 400] = 64;
    ScopeSpec spec;
    spec.vectorscopeSize = 540;
    RgbaImage a, b;
    renderVectorscope(r8, spec, a);
    renderVectorscope(r10, spec, b);
    const PlotRect plot = vectorscopePlotRect(540);
    const PlotPoint p8 = vectorscopePoint(100, 150, 8, 1), p10 = vectorscopePoint(400, 600, 10, 1);
    const Rgb8 c8 = px(a, int(std::lround(plot.toPixelX(p8.x))), int(std::lround(plot.toPixelY(p8.y))));
    const Rgb8 c10 = px(b, int(std::lround(plot.toPixelX(p10.x))), int(std::lround(plot.toPixelY(p10.y))));
    EXPECT_GE(std::max({c10.r, c10.g, c10.b}), std::max({c8.r, c8.g, c8.b}));
}

TEST(VectorscopeColours, GreenAndWhiteModes) {
    ScopeResults r = makeResults(8, 8, 8);
    r.vectorscope.assign(256 * 256, 0);
    r.vectorscope[size_t(200) * 256 + 90] = 64;   // red-ish
    ScopeSpec spec;
    spec.vectorscopeSize = 300;
    const PlotRect plot = vectorscopePlotRect(300);
    const PlotPoint p = vectorscopePoint(90, 200, 8, 1);
    const int x = int(std::lround(plot.toPixelX(p.x))), y = int(std::lround(plot.toPixelY(p.y)));
    RgbaImage img;
    renderVectorscope(r, spec, img);
    EXPECT_GT(px(img, x, y).r, px(img, x, y).g);
    spec.traceColour = TraceColour::Green;
    renderVectorscope(r, spec, img);
    EXPECT_GT(px(img, x, y).g, px(img, x, y).r);
    spec.traceColour = TraceColour::White;
    renderVectorscope(r, spec, img);
    EXPECT_EQ(px(img, x, y).r, px(img, x, y).b);
}

// PQ and HLG frames' false colour is by light: the legend lists core/HdrFalseColour.h's bands.
TEST(PreviewLegend, HdrFalseColourListsTheNitsBands) {
    for (Transfer t : {Transfer::Pq, Transfer::Hlg}) {
        const auto bands = hdrFalseColourBands(t);
        const auto entries = previewLegendEntries(PreviewFilter::FalseColour, FilterParams{}, t);
        ASSERT_EQ(entries.size(), bands.size());
        EXPECT_EQ(entries.front().label, "<0.1");
        EXPECT_EQ(entries[1].label, "0.1-1");
        EXPECT_EQ(entries.back().label, t == Transfer::Pq ? ">10K nits" : ">1K nits");
        for (size_t i = 0; i < bands.size(); ++i) {
            if (bands[i].rgba != 0) {
                EXPECT_EQ(entries[i].rgba, bands[i].rgba) << i;
            }
        }
    }
    // SDR keeps the IRE bands.
    EXPECT_EQ(previewLegendEntries(PreviewFilter::FalseColour, FilterParams{}, Transfer::Bt709).back().label, ">100 IRE");
}

TEST(PreviewLegend, FalseColourListsEveryBandInItsColour) {
    const auto entries = previewLegendEntries(PreviewFilter::FalseColour, FilterParams{});
    ASSERT_EQ(entries.size(), 10u);
    EXPECT_EQ(entries.front().label, "<0");
    EXPECT_EQ(entries[8].label, "95-100");
    EXPECT_EQ(entries.back().label, ">100 IRE");
    EXPECT_EQ(entries[4].rgba & 0xffffffu, 40u | (190u << 8) | (60u << 16));   // middle grey's green
    // Drawn at the bottom-left: the middle-grey swatch's green appears there, the top stays.
    RgbaImage img;
    img.resize(1280, 720);
    for (size_t i = 0; i < img.pixels.size(); i += 4) img.pixels[i + 3] = 255;
    const RgbaImage before = img;
    drawPreviewLegend(img, PreviewFilter::FalseColour, FilterParams{});
    int green = 0;
    for (int y = 600; y < 720; ++y)
        for (int x = 0; x < 1280; ++x) green += img.at(x, y)[0] == 40 && img.at(x, y)[1] == 190 && img.at(x, y)[2] == 60;
    EXPECT_GE(green, 16 * 16);   // one swatch of 8 x 2 text pixels square
    EXPECT_TRUE(std::equal(img.pixels.begin(), img.pixels.begin() + 1280 * 4 * 500, before.pixels.begin()));
    // No legend for other previews.
    RgbaImage other = before;
    drawPreviewLegend(other, PreviewFilter::Edges, FilterParams{});
    EXPECT_EQ(other.pixels, before.pixels);
}

TEST(PreviewLegend, ZebraNamesItsLevels) {
    FilterParams p;
    p.zebraIre = 90.0f;
    auto e = previewLegendEntries(PreviewFilter::Zebra, p);
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].label, "zebra >=90 IRE");
    p.zebraLowIre = 70.0f;
    e = previewLegendEntries(PreviewFilter::Zebra, p);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[1].label, "70-90 IRE");
    // Into a transparent overlay: premultiplied, so the untouched pixels stay transparent.
    RgbaImage overlay;
    overlay.resize(320, 180);
    drawPreviewLegend(overlay, PreviewFilter::Zebra, p);
    int opaque = 0;
    for (size_t i = 3; i < overlay.pixels.size(); i += 4) opaque += overlay.pixels[i] != 0;
    EXPECT_GT(opaque, 100);
    EXPECT_EQ(overlay.at(300, 10)[3], 0);
    for (size_t i = 0; i < overlay.pixels.size(); i += 4)
        for (int c = 0; c < 3; ++c) ASSERT_LE(overlay.pixels[i + size_t(c)], overlay.pixels[i + 3]);
}

TEST(PeakingColourText, NamesAndHex) {
    EXPECT_EQ(*parsePeakingColour("red"), 0xff2020ffu);
    EXPECT_EQ(*parsePeakingColour("00ff80"), 0xff80ff00u);
    EXPECT_EQ(*parsePeakingColour("00FF80"), 0xff80ff00u);
    EXPECT_EQ(peakingColourText(0xff20ff20u), "green");
    EXPECT_EQ(peakingColourText(0xff80ff00u), "00ff80");
    for (const char* bad : {"", "Red", "#00ff80", "00ff8", "00ff800", "gg0000", " red"}) EXPECT_FALSE(parsePeakingColour(bad)) << bad;
}

}  // namespace
}  // namespace cs
