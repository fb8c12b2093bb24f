// Scope images from counts: traces land on the pixels the graticule geometry says
// (a single level on its row, a single Cb/Cr on its pixel), no counts are lost when the
// source is wider or deeper than the image, histogram scales differ as computed by
// hand, empty counts leave only the graticule; plus the bitmap font and line drawing.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <set>
#include <string_view>

#include "scope/BitmapFont.h"
#include "core/Frame.h"
#include "scope/ScopeRender.h"
#include "tests/core/CoreTestUtil.h"

namespace cs {
namespace {

using testing::heightForPlotRows;
using testing::makeResults;

struct Px { int x, y; };
std::vector<Px> differing(const RgbaImage& a, const RgbaImage& b) {
    std::vector<Px> out;
    if (a.width != b.width || a.height != b.height) return out;
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x)
            if (!std::equal(a.at(x, y), a.at(x, y) + 4, b.at(x, y))) out.push_back({x, y});
    return out;
}

bool isLit(const RgbaImage& traced, const RgbaImage& blank, int x, int y) {
    return !std::equal(traced.at(x, y), traced.at(x, y) + 4, blank.at(x, y));
}

// Renders `r` and the same results with zeroed counts; their difference is the trace.
template <typename RenderFn>
std::pair<RgbaImage, RgbaImage> renderWithBlank(RenderFn fn, const ScopeResults& r, const ScopeSpec& spec,
                                                std::vector<uint32_t> ScopeResults::*counts) {
    RgbaImage traced, blank;
    fn(r, spec, traced);
    ScopeResults empty = r;
    std::fill((empty.*counts).begin(), (empty.*counts).end(), 0u);
    fn(empty, spec, blank);
    return {traced, blank};
}

TEST(RenderWaveform, OneLevelLightsExactlyItsRow) {
    // A frame whose every pixel is code 180 (8-bit), drawn on a plot of 256 rows: one
    // row per code, so the trace is the single row of code 180 and nothing else.
    ScopeResults r = makeResults(64, 32, 8);
    r.waveform.assign(256 * 64, 0);
    for (int x = 0; x < 64; ++x) r.waveform[180 * 64 + size_t(x)] = 32;
    ScopeSpec spec;
    spec.scopeWidth = 400;
    spec.scopeHeight = heightForPlotRows(400, 256);
    ASSERT_GT(spec.scopeHeight, 0);
    const auto [traced, blank] = renderWithBlank(renderWaveform, r, spec, &ScopeResults::waveform);
    ASSERT_EQ(traced.width, 400);
    ASSERT_EQ(traced.height, spec.scopeHeight);
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const int row = plot.top + 255 - 180;
    EXPECT_EQ(row, int(std::lround(plot.toPixelY(180.0 / 255.0))));   // where the graticule puts code 180
    const std::vector<Px> lit = differing(traced, blank);
    EXPECT_EQ(lit.size(), size_t(plot.width));
    for (const Px& p : lit) {
        EXPECT_EQ(p.y, row);
        EXPECT_GE(p.x, plot.left);
        EXPECT_LT(p.x, plot.left + plot.width);
    }
    // Greenish white: green the strongest channel, and bright (a flat field is dense).
    const uint8_t* p = traced.at(plot.left + plot.width / 2, row);
    EXPECT_GE(p[1], p[0]);
    EXPECT_GE(p[1], p[2]);
    EXPECT_GT(p[1], 200);
}

TEST(RenderWaveform, TallPlotRepeatsTheLevelOnItsNearestRowsOnly) {
    ScopeResults r = makeResults(50, 20, 8);
    r.waveform.assign(256 * 50, 0);
    for (int x = 0; x < 50; ++x) r.waveform[180 * 50 + size_t(x)] = 20;
    ScopeSpec spec;
    spec.scopeWidth = 300;
    spec.scopeHeight = 700;
    const auto [traced, blank] = renderWithBlank(renderWaveform, r, spec, &ScopeResults::waveform);
    const PlotRect plot = waveformPlotRect(300, 700);
    std::set<int> rows;
    for (const Px& p : differing(traced, blank)) rows.insert(p.y);
    ASSERT_FALSE(rows.empty());
    EXPECT_LE(rows.size(), 3u);
    EXPECT_EQ(*rows.rbegin() - *rows.begin() + 1, int(rows.size()));   // contiguous
    EXPECT_TRUE(rows.count(int(std::lround(plot.toPixelY(180.0 / 255.0)))));
    const int bottom = plot.top + plot.height - 1;
    for (int y : rows) {
        const double level = double(bottom - y) * 255.0 / double(plot.height - 1);
        EXPECT_LT(std::abs(level - 180.0), 1.0) << y;
        for (int x = plot.left; x < plot.left + plot.width; ++x) EXPECT_TRUE(isLit(traced, blank, x, y));
    }
}

TEST(RenderWaveform, NoCountIsLostWhenTheSourceIsWiderAndDeeper) {
    // 10-bit, 3000 columns into a 400-pixel-wide image: single counts scattered at random
    // must each light the pixel under them.
    const int w = 3000;
    ScopeResults r = makeResults(w, 10, 10);
    r.waveform.assign(size_t(1024) * w, 0);
    std::mt19937 rng(7);
    std::vector<std::pair<int, int>> points;
    for (int i = 0; i < 60; ++i) {
        const int level = int(rng() % 1024), x = int(rng() % uint32_t(w));
        r.waveform[size_t(level) * w + size_t(x)] = 1;
        points.emplace_back(level, x);
    }
    ScopeSpec spec;
    spec.scopeWidth = 400;
    spec.scopeHeight = 300;
    const auto [traced, blank] = renderWithBlank(renderWaveform, r, spec, &ScopeResults::waveform);
    const PlotRect plot = waveformPlotRect(400, 300);
    for (const auto& [level, x] : points) {
        const int y = int(std::lround(plot.toPixelY(level / 1023.0)));
        const int d = plot.left + int(int64_t(x) * plot.width / w);
        EXPECT_TRUE(isLit(traced, blank, d, y) || isLit(traced, blank, d - 1, y) || isLit(traced, blank, d + 1, y))
            << "level " << level << " column " << x;
        // A lone count is still clearly visible.
        int brightest = 0;
        for (int dd = d - 1; dd <= d + 1; ++dd) brightest = std::max<int>(brightest, traced.at(dd, y)[1]);
        EXPECT_GT(brightest, 40);
    }
    EXPECT_LE(differing(traced, blank).size(), points.size() * 2);
}

TEST(RenderWaveform, DenserIsBrighterAndGainBrightens) {
    ScopeResults r = makeResults(100, 400, 8);
    r.waveform.assign(256 * 100, 0);
    for (int x = 0; x < 100; ++x) {
        r.waveform[50 * 100 + size_t(x)] = 1;     // sparse
        r.waveform[200 * 100 + size_t(x)] = 100;  // dense
    }
    ScopeSpec spec;
    spec.scopeWidth = 120;
    spec.scopeHeight = heightForPlotRows(120, 256);
    RgbaImage img, brighter;
    renderWaveform(r, spec, img);
    spec.waveformGain = 4.0f;
    renderWaveform(r, spec, brighter);
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const int x = plot.left + plot.width / 2, sparseRow = plot.top + 255 - 50, denseRow = plot.top + 255 - 200;
    EXPECT_GT(img.at(x, sparseRow)[1], 30);
    EXPECT_GT(img.at(x, denseRow)[1], img.at(x, sparseRow)[1]);
    EXPECT_GT(brighter.at(x, sparseRow)[1], img.at(x, sparseRow)[1]);
}

TEST(RenderWaveform, EmptyCountsGiveTheGraticuleAlone) {
    ScopeResults none = makeResults(64, 32, 10);   // no count vectors at all
    ScopeResults zeros = none;
    zeros.waveform.assign(size_t(1024) * 64, 0);
    ScopeSpec spec;
    spec.scopeWidth = 500;
    spec.scopeHeight = 260;
    RgbaImage a, b;
    renderWaveform(none, spec, a);
    renderWaveform(zeros, spec, b);
    ASSERT_EQ(a.width, 500);
    EXPECT_EQ(a.pixels, b.pixels);
    // The graticule is there: the 100 IRE line (code 940) is drawn in its amber.
    const PlotRect plot = waveformPlotRect(500, 260);
    const uint8_t* line = a.at(plot.left + plot.width / 2, int(std::lround(plot.toPixelY(940.0 / 1023.0))));
    EXPECT_GT(line[0], 100);
    EXPECT_GT(line[0], line[2]);
    // Everything opaque, background black.
    for (size_t i = 3; i < a.pixels.size(); i += 4) ASSERT_EQ(a.pixels[i], 255);
    const uint8_t* background = a.at(plot.left + plot.width / 2, plot.top + plot.height / 2 + 3);
    EXPECT_EQ(background[0] + background[1] + background[2], 0);
    // Results whose shape does not add up (levels vs depth) are treated as empty too.
    ScopeResults bad = zeros;
    bad.levels = 256;
    std::fill(bad.waveform.begin(), bad.waveform.end(), 5u);
    RgbaImage c;
    renderWaveform(bad, spec, c);
    EXPECT_EQ(c.pixels, a.pixels);
}

TEST(RenderParade, EachComponentInItsOwnPanelAndColour) {
    ScopeResults r = makeResults(40, 10, 8);
    r.parade.assign(3 * 256 * 40, 0);
    const int levels[3] = {200, 100, 50};
    for (int c = 0; c < 3; ++c)
        for (int x = 0; x < 40; ++x) r.parade[(size_t(c) * 256 + size_t(levels[c])) * 40 + size_t(x)] = 10;
    ScopeSpec spec;
    spec.scopeWidth = 900;
    spec.scopeHeight = heightForPlotRows(900, 256);
    const PlotRect plot = waveformPlotRect(spec.scopeWidth, spec.scopeHeight);
    const int scale = graticuleTextScale(spec.scopeWidth, spec.scopeHeight);
    for (ParadeMode mode : {ParadeMode::Rgb, ParadeMode::Ycbcr}) {
        r.paradeMode = mode;
        const auto [traced, blank] = renderWithBlank(renderParade, r, spec, &ScopeResults::parade);
        // R'G'B' panels keep the waveform's head- and footroom: code 0 and 255 are off the plot's
        // bottom and top rows.
        const bool rgb = mode == ParadeMode::Rgb;
        std::vector<int> rows;
        for (int c = 0; c < 3; ++c) {
            const PlotRect panel = paradePanelRect(plot, c, scale, rgb);
            if (rgb) {
                EXPECT_EQ(panel.top, plot.top + int(std::lround((plot.height - 1) * 20.0 / 255.0)));
                EXPECT_EQ(panel.top + panel.height, plot.top + plot.height - int(std::lround((plot.height - 1) * 16.0 / 255.0)));
            }
            const int row = int(std::lround(panel.toPixelY(levels[c] / 255.0)));
            if (!rgb) {
                EXPECT_EQ(row, plot.top + 255 - levels[c]);
            }
            rows.push_back(row);
            for (int x = panel.left; x < panel.left + panel.width; ++x) ASSERT_TRUE(isLit(traced, blank, x, row));
            const uint8_t* p = traced.at(panel.left + panel.width / 2, row);
            if (mode == ParadeMode::Rgb) {
                EXPECT_GT(p[c], p[(c + 1) % 3]) << "panel " << c;
                EXPECT_GT(p[c], p[(c + 2) % 3]) << "panel " << c;
            } else if (c == 0) {
                EXPECT_LT(std::abs(int(p[0]) - int(p[2])), 40);   // Y: white
            } else {
                EXPECT_GT(p[c == 1 ? 2 : 0], p[1]);               // Cb blue, Cr red
            }
        }
        // Nothing lit outside the three rows.
        for (const Px& px : differing(traced, blank))
            EXPECT_TRUE(std::find(rows.begin(), rows.end(), px.y) != rows.end()) << px.y;
    }
}

TEST(RenderVectorscope, OneChromaValueIsADotWhereTheGraticuleSaysAndZoomMovesIt) {
    ScopeResults r = makeResults(16, 8, 8);
    r.vectorscope.assign(256 * 256, 0);
    const int cb = 90, cr = 170;
    r.vectorscope[size_t(cr) * 256 + size_t(cb)] = 16 * 8;
    ScopeSpec spec;
    spec.vectorscopeSize = 300;
    for (int zoom : {1, 2}) {
        spec.vectorscopeZoom = zoom;
        const auto [traced, blank] = renderWithBlank(renderVectorscope, r, spec, &ScopeResults::vectorscope);
        ASSERT_EQ(traced.width, 300);
        ASSERT_EQ(traced.height, 300);
        const PlotRect plot = vectorscopePlotRect(300);
        const PlotPoint p = vectorscopePoint(cb, cr, 8, zoom);
        const int ex = int(std::lround(plot.toPixelX(p.x))), ey = int(std::lround(plot.toPixelY(p.y)));
        EXPECT_TRUE(isLit(traced, blank, ex, ey)) << "zoom " << zoom;
        // The code's pixels (up to 2x2 at 1x, 3x3 at 2x) splatted by a disc of radius 1 (a
        // 3x3 square at this size: ScopeStyle.h), so the dot's every neighbour is lit.
        ASSERT_EQ(vectorscopeSplatRadius(plot.width), 1);
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) EXPECT_TRUE(isLit(traced, blank, ex + dx, ey + dy)) << dx << "," << dy;
        const std::vector<Px> lit = differing(traced, blank);
        EXPECT_LE(lit.size(), size_t(zoom == 1 ? 16 : 25));
        for (const Px& q : lit) {
            EXPECT_LE(std::abs(q.x - ex), zoom + 1) << "zoom " << zoom;
            EXPECT_LE(std::abs(q.y - ey), zoom + 1) << "zoom " << zoom;
        }
        // Cb below and Cr above the centre: up and to the left, coloured red/orange.
        const uint8_t* c = traced.at(ex, ey);
        EXPECT_LT(ex, plot.left + plot.width / 2);
        EXPECT_LT(ey, plot.top + plot.height / 2);
        EXPECT_GT(c[0], c[2]);
    }
    // A neutral picture is a dot on the centre pixel.
    ScopeResults grey = makeResults(4, 4, 10);
    grey.vectorscope.assign(size_t(1024) * 1024, 0);
    grey.vectorscope[size_t(512) * 1024 + 512] = 16;
    spec.vectorscopeZoom = 1;
    const auto [traced, blank] = renderWithBlank(renderVectorscope, grey, spec, &ScopeResults::vectorscope);
    const PlotRect plot = vectorscopePlotRect(300);
    const int centre = plot.left + plot.width / 2;
    EXPECT_TRUE(isLit(traced, blank, centre, plot.top + plot.height / 2));
    for (const Px& q : differing(traced, blank)) {
        EXPECT_LE(std::abs(q.x - centre), 2);
        EXPECT_LE(std::abs(q.y - centre), 2);
    }
}

TEST(RenderHistogram, LogAndLinearHeightsAsComputed) {
    ScopeResults r = makeResults(100, 10, 8);
    r.histY.assign(256, 0);
    r.histY[50] = 1000;
    r.histY[200] = 10;
    ScopeSpec spec;
    spec.scopeWidth = 600;
    spec.scopeHeight = 300;
    const PlotRect plot = histogramPlotRect(600, 300);
    const int x200 = int(std::lround(plot.toPixelX(200.0 / 255.0))), x50 = int(std::lround(plot.toPixelX(50.0 / 255.0)));
    auto barRows = [&](HistogramScale scale, int x) {
        spec.histogramScale = scale;
        const auto [traced, blank] = renderWithBlank(renderHistogram, r, spec, &ScopeResults::histY);
        int rows = 0, lowest = -1;
        for (int y = 0; y < traced.height; ++y)
            if (isLit(traced, blank, x, y)) {
                ++rows;
                lowest = y;
            }
        if (rows > 0) {
            EXPECT_EQ(lowest, plot.top + plot.height - 1);   // bars grow from the bottom row
        }
        return rows;
    };
    const int linear = barRows(HistogramScale::Linear, x200), log = barRows(HistogramScale::Log, x200);
    EXPECT_EQ(linear, int(std::lround(10.0 / 1000.0 * (plot.height - 1))) + 1);
    EXPECT_EQ(log, int(std::lround(std::log1p(10.0) / std::log1p(1000.0) * (plot.height - 1))) + 1);
    EXPECT_GT(log, 3 * linear);
    EXPECT_EQ(barRows(HistogramScale::Linear, x50), plot.height);   // the tallest fills the plot
    EXPECT_EQ(barRows(HistogramScale::Log, x50), plot.height);
    // A column with no counts stays untouched.
    EXPECT_EQ(barRows(HistogramScale::Log, int(std::lround(plot.toPixelX(120.0 / 255.0)))), 0);
}

TEST(RenderHistogram, RgbOverlaysAreTranslucentColours) {
    ScopeResults r = makeResults(10, 10, 8);
    r.histY.assign(256, 0);
    r.histR.assign(256, 0);
    r.histG.assign(256, 0);
    r.histB.assign(256, 0);
    // Bars three bins wide, so the sampled column is inside a bar, not on its outline.
    for (int c = 29; c <= 31; ++c) r.histR[size_t(c)] = 100;
    for (int c = 199; c <= 201; ++c) r.histY[size_t(c)] = r.histR[size_t(c)] = 100;
    ScopeSpec spec;
    spec.scopeWidth = 520;
    spec.scopeHeight = 260;
    RgbaImage img;
    renderHistogram(r, spec, img);
    const PlotRect plot = histogramPlotRect(520, 260);
    const int y = plot.top + plot.height / 3;   // inside the bars, off the quarter guides
    const uint8_t* red = img.at(int(std::lround(plot.toPixelX(30.0 / 255.0))), y);
    EXPECT_GT(red[0], 60);
    EXPECT_LT(red[1], 30);
    const uint8_t* both = img.at(int(std::lround(plot.toPixelX(200.0 / 255.0))), y);
    EXPECT_GT(both[0], red[0]);       // red over the luma fill is lighter
    EXPECT_GT(both[1], 60);           // the luma fill shows through
}

TEST(Render, ImageSizesComeFromTheSpecAndBadSizesAreSafe) {
    ScopeResults r = makeResults(8, 8, 8);
    r.waveform.assign(256 * 8, 1);
    r.vectorscope.assign(256 * 256, 1);
    r.histY.assign(256, 3);
    r.parade.assign(3 * 256 * 8, 2);
    ScopeSpec spec;
    spec.scopeWidth = 333;
    spec.scopeHeight = 222;
    spec.vectorscopeSize = 111;
    RgbaImage img;
    renderHistogram(r, spec, img);
    EXPECT_EQ(img.width, 333);
    EXPECT_EQ(img.height, 222);
    renderParade(r, spec, img);
    EXPECT_EQ(img.width, 333);
    renderVectorscope(r, spec, img);
    EXPECT_EQ(img.width, 111);
    EXPECT_EQ(img.height, 111);
    for (int w : {-5, 0, 1, 2, 3, 17})
        for (int h : {-1, 0, 1, 2, 9}) {
            spec.scopeWidth = w;
            spec.scopeHeight = h;
            spec.vectorscopeSize = w;
            renderWaveform(r, spec, img);
            EXPECT_EQ(img.empty(), w <= 0 || h <= 0);
            renderParade(r, spec, img);
            renderHistogram(r, spec, img);
            renderVectorscope(r, spec, img);
            EXPECT_EQ(img.empty(), w <= 0);
        }
    spec.scopeWidth = 100000;   // absurd: bounded like frames
    spec.scopeHeight = 3;
    renderWaveform(r, spec, img);
    EXPECT_EQ(img.width, kMaxDimension);
    spec.waveformGain = std::nanf("");
    spec.scopeWidth = 50;
    spec.scopeHeight = 40;
    renderWaveform(r, spec, img);
    EXPECT_EQ(img.width, 50);
}

// ---- Font and primitives -------------------------------------------------------------------

TEST(BitmapFont, GlyphsAreDistinctAndInked) {
    std::set<font::Glyph> seen;
    for (int c = 32; c <= 126; ++c) {
        const font::Glyph& g = font::glyph(char(c));
        int ink = 0;
        for (uint8_t row : g) {
            EXPECT_EQ(row & ~0x1fu, 0u);
            ink += std::popcount(unsigned(row));
        }
        if (c == ' ') {
            EXPECT_EQ(ink, 0);
        } else {
            EXPECT_GT(ink, 0) << char(c);
        }
        seen.insert(g);
    }
    EXPECT_EQ(seen.size(), 95u);
    EXPECT_EQ(font::glyph('\x01'), font::glyph('?'));
    EXPECT_EQ(font::glyph(char(200)), font::glyph('?'));
    // '1' by hand: ..#.. / .##.. / ..#.. x4 / .###.
    const font::Glyph one{0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110};
    EXPECT_EQ(font::glyph('1'), one);
    EXPECT_EQ(font::textWidth("abc"), 17);
    EXPECT_EQ(font::textWidth("abc", 2), 34);
    EXPECT_EQ(font::textWidth(""), 0);
    EXPECT_EQ(font::textHeight("x"), 7);
    EXPECT_EQ(font::textHeight("x\ny", 1), 16);
    EXPECT_EQ(font::textWidth("ab\nwxyz"), 23);
}

TEST(DrawText, PixelsAreTheGlyphScaled) {
    for (int scale : {1, 2, 3}) {
        RgbaImage img;
        img.resize(20, 30);
        drawText(img, 2, 3, "T", 0xff0000ffu, scale);   // opaque red
        const font::Glyph& g = font::glyph('T');
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) {
                const int gx = (x - 2) / scale, gy = (y - 3) / scale;
                const bool inside = x >= 2 && y >= 3 && gx < font::kGlyphWidth && gy < font::kGlyphHeight;
                const bool ink = inside && (g[size_t(gy)] >> (font::kGlyphWidth - 1 - gx)) & 1u;
                EXPECT_EQ(img.at(x, y)[0], ink ? 255 : 0) << x << "," << y << " scale " << scale;
                EXPECT_EQ(img.at(x, y)[1], 0);
            }
    }
    RgbaImage img;
    img.resize(8, 8);
    drawText(img, -3, -3, "W@\xff", 0xffffffffu, 1);   // clipped and non-ASCII: no crash
    drawText(img, 0, 0, nullptr, 0xffffffffu, 1);
    RgbaImage none;
    drawText(none, 0, 0, "x", 0xffffffffu, 1);
    SUCCEED();
}

TEST(DrawLine, AxisAlignedOnWholePixelsIsOnePixelWide) {
    RgbaImage img;
    img.resize(12, 8);
    drawLine(img, 2.0, 5.0, 9.0, 5.0, 0xff00ff00u);   // opaque green
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 12; ++x) EXPECT_EQ(img.at(x, y)[1], (y == 5 && x >= 2 && x <= 9) ? 255 : 0) << x << "," << y;
    RgbaImage v;
    v.resize(6, 10);
    drawLine(v, 3.0, 9.0, 3.0, 1.0, 0xffffffffu);
    for (int y = 0; y < 10; ++y) EXPECT_EQ(v.at(3, y)[0], (y >= 1 && y <= 9) ? 255 : 0);
    EXPECT_EQ(v.at(2, 5)[0], 0);
    // Half-pixel offset: the coverage is shared by the two rows.
    RgbaImage h;
    h.resize(6, 6);
    drawLine(h, 0.0, 2.5, 5.0, 2.5, 0xffffffffu);
    EXPECT_NEAR(h.at(3, 2)[0], 128, 1);
    EXPECT_NEAR(h.at(3, 3)[0], 128, 1);
    // Translucent: blends over what is there.
    RgbaImage t;
    t.resize(4, 4);
    drawLine(t, 0.0, 1.0, 3.0, 1.0, 0x800000ffu);   // red at alpha 128
    EXPECT_NEAR(t.at(1, 1)[0], 128, 1);
    // Diagonal: every column lit near the line.
    RgbaImage d;
    d.resize(10, 10);
    drawLine(d, 0.0, 0.0, 9.0, 9.0, 0xffffffffu);
    for (int x = 0; x < 10; ++x) EXPECT_EQ(d.at(x, x)[0], 255);
    // Nonsense coordinates: clipped or ignored, never a crash or an endless loop.
    drawLine(d, -1e300, 4.0, 1e300, 4.0, 0xffffffffu);
    drawLine(d, std::nan(""), 0.0, 3.0, 3.0, 0xffffffffu);
    drawLine(d, 1e18, 1e18, -1e18, -3e18, 0xffffffffu);
    drawLine(d, 4.0, 4.0, 4.0, 4.0, 0xffffffffu);
    SUCCEED();
}

}  // namespace
}  // namespace cs
