// Graticule geometry against hand-computed values: IRE and code-value lines at the right
// codes for each depth and range, colour-bar targets where the BT.601/709 equations put
// them (and where the fixed-point converter puts real bars), the skin-tone line's angle,
// zoom, and the plot layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

#include "scope/BitmapFont.h"
#include "scope/Graticule.h"

namespace cs {
namespace {

// The y of every horizontal line spanning the plot, with its emphasis.
std::vector<std::pair<double, Emphasis>> levelLines(const Graticule& g) {
    std::vector<std::pair<double, Emphasis>> out;
    for (const GraticuleLine& l : g.lines)
        if (l.y0 == l.y1 && l.x0 == 0.0 && l.x1 == 1.0) out.emplace_back(l.y0, l.emphasis);
    return out;
}

bool hasLevel(const Graticule& g, double y, Emphasis e) {
    for (const auto& [ly, le] : levelLines(g))
        if (std::abs(ly - y) < 1e-12 && le == e) return true;
    return false;
}

const GraticuleLabel* findLabel(const Graticule& g, const std::string& text) {
    for (const GraticuleLabel& l : g.labels)
        if (l.text == text) return &l;
    return nullptr;
}

TEST(WaveformGraticule, IreLinesAtTheLimitedRangeCodes) {
    const Graticule g8 = waveformGraticule(8, Range::Limited, WaveformScale::Ire);
    EXPECT_TRUE(hasLevel(g8, 235.0 / 255.0, Emphasis::Limit));   // 100 IRE
    EXPECT_TRUE(hasLevel(g8, 16.0 / 255.0, Emphasis::Limit));    // 0 IRE
    EXPECT_TRUE(hasLevel(g8, 125.5 / 255.0, Emphasis::Major));   // 50 IRE = 16 + 109.5
    EXPECT_TRUE(hasLevel(g8, 37.9 / 255.0, Emphasis::Minor));    // 10 IRE = 16 + 21.9
    const Graticule g10 = waveformGraticule(10, Range::Limited, WaveformScale::Ire);
    EXPECT_TRUE(hasLevel(g10, 940.0 / 1023.0, Emphasis::Limit));
    EXPECT_TRUE(hasLevel(g10, 64.0 / 1023.0, Emphasis::Limit));
    // 11 scale lines (0..100 by 10) plus the frame top and bottom (codes 0 and 2^d - 1).
    EXPECT_EQ(levelLines(g8).size(), 13u);
    EXPECT_TRUE(hasLevel(g8, 0.0, Emphasis::Minor));
    EXPECT_TRUE(hasLevel(g8, 1.0, Emphasis::Minor));
    // Labels 0, 20, ... 100, right-aligned at the plot's left edge, on their lines.
    for (int ire = 0; ire <= 100; ire += 20) {
        const GraticuleLabel* l = findLabel(g8, std::to_string(ire));
        ASSERT_NE(l, nullptr) << ire;
        EXPECT_DOUBLE_EQ(l->x, 0.0);
        EXPECT_NEAR(l->y, (16.0 + 2.19 * ire) / 255.0, 1e-12);
        EXPECT_EQ(l->hAlign, HAlign::Right);
    }
    EXPECT_EQ(findLabel(g8, "10"), nullptr);
    EXPECT_EQ(g8.labels.size(), 6u);
}

TEST(WaveformGraticule, IreFullRangeSpansAllCodes) {
    const Graticule g = waveformGraticule(10, Range::Full, WaveformScale::Ire);
    EXPECT_TRUE(hasLevel(g, 0.0, Emphasis::Limit));
    EXPECT_TRUE(hasLevel(g, 1.0, Emphasis::Limit));
    EXPECT_TRUE(hasLevel(g, 0.5, Emphasis::Major));
    // The frame does not repeat the 0 and 100 IRE lines.
    EXPECT_EQ(levelLines(g).size(), 11u);
}

TEST(WaveformGraticule, CodeValueLines) {
    struct Case { int depth; Range range; std::vector<int> codes; };
    const Case cases[] = {
        {8, Range::Limited, {0, 16, 64, 128, 192, 235, 255}},
        {10, Range::Limited, {0, 64, 256, 512, 768, 940, 1023}},
        {8, Range::Full, {0, 64, 128, 192, 255}},
        {10, Range::Full, {0, 256, 512, 768, 1023}},
    };
    for (const Case& c : cases) {
        const Graticule g = waveformGraticule(c.depth, c.range, WaveformScale::CodeValue);
        const double top = double((1 << c.depth) - 1);
        std::set<std::string> labels;
        for (const GraticuleLabel& l : g.labels) labels.insert(l.text);
        EXPECT_EQ(labels.size(), c.codes.size());
        for (int code : c.codes) {
            const GraticuleLabel* l = findLabel(g, std::to_string(code));
            ASSERT_NE(l, nullptr) << code;
            EXPECT_DOUBLE_EQ(l->y, code / top);
            bool line = false;
            for (const auto& [y, e] : levelLines(g)) line = line || std::abs(y - code / top) < 1e-12;
            EXPECT_TRUE(line) << c.depth << "-bit code " << code;
        }
    }
    const Graticule g = waveformGraticule(8, Range::Limited, WaveformScale::CodeValue);
    EXPECT_TRUE(hasLevel(g, 16.0 / 255.0, Emphasis::Limit));
    EXPECT_TRUE(hasLevel(g, 235.0 / 255.0, Emphasis::Limit));
}

// The R'G'B' panels of a limited-range source in code values: the luma waveform's labels,
// with R'G'B' 0..top (the panel's y 0..1) standing for 16..235, so 75% white (R' = 191.25)
// reads 180 as Y' does; and at the parade's layout each label sits on the luma plot's row
// for the same code.
TEST(WaveformGraticule, RgbPanelsOfALimitedSourceUseTheLumaCodes) {
    for (int depth : {8, 10}) {
        const int s = depth - 8;
        const Graticule g = rgbLimitedCodeGraticule(depth);
        const Graticule luma = waveformGraticule(depth, Range::Limited, WaveformScale::CodeValue);
        ASSERT_EQ(g.labels.size(), luma.labels.size());
        const GraticuleLabel* black = findLabel(g, std::to_string(16 << s));
        const GraticuleLabel* white = findLabel(g, std::to_string(235 << s));
        ASSERT_NE(black, nullptr);
        ASSERT_NE(white, nullptr);
        EXPECT_NEAR(black->y, 0.0, 1e-12);
        EXPECT_NEAR(white->y, 1.0, 1e-12);
        EXPECT_TRUE(hasLevel(g, 0.0, Emphasis::Limit));
        EXPECT_TRUE(hasLevel(g, 1.0, Emphasis::Limit));
        // 75% white: R'G'B' 0.75 of the panel is the limited code 16 + 0.75 * 219 = 180.25.
        const GraticuleLabel* mid = findLabel(g, std::to_string(128 << s));
        ASSERT_NE(mid, nullptr);
        EXPECT_NEAR(mid->y, (double(128 << s) - double(16 << s)) / double(219 << s), 1e-12);
        // Code 0 and the top code lie in the panel's room below and above.
        EXPECT_LT(findLabel(g, "0")->y, 0.0);
        EXPECT_GT(findLabel(g, std::to_string((1 << depth) - 1))->y, 1.0);
        // The parade's panel with headroom puts each label within a pixel of the luma's at 8
        // bits; deeper sources keep the 8-bit room (ScopeStyle.h's panelHeadroom: 16/255 and
        // 20/255 of the plot), 64/1023 and 83/1023 would need, so up to 0.3% of the height more.
        const double slack = depth == 8 ? 0.0 : 0.003;
        for (int height : {200, 477, 1000}) {
            const PlotRect plot = waveformPlotRect(800, height);
            const PlotRect panel = paradePanelRect(plot, 0, graticuleTextScale(800, height), true);
            for (const GraticuleLabel& l : luma.labels) {
                const GraticuleLabel* p = findLabel(g, l.text);
                ASSERT_NE(p, nullptr);
                EXPECT_NEAR(panel.toPixelY(p->y), plot.toPixelY(l.y), 1.0 + slack * height) << depth << "-bit " << l.text << " at " << height;
            }
        }
    }
}

TEST(VectorscopeTargets, SeventyFivePercentRedByHand) {
    // BT.709: Y' = 0.2126 * 0.75 = 0.15945; Cb = -Y' / 1.8556 = -0.085929;
    // Cr = (0.75 - Y') / 1.5748 = 0.375. 8-bit limited: 128 + 224 C -> Cb 108.75, Cr 212.0.
    const ChromaCodes red709 = chromaCodes(Matrix::Bt709, Range::Limited, 8, 0.75, 0, 0);
    EXPECT_NEAR(red709.cb, 108.752, 0.002);
    EXPECT_NEAR(red709.cr, 212.0, 1e-9);
    // BT.601: Y' = 0.299 * 0.75 = 0.22425; Cb = -0.22425 / 1.772 * 224 -> 99.65.
    const ChromaCodes red601 = chromaCodes(Matrix::Bt601, Range::Limited, 8, 0.75, 0, 0);
    EXPECT_NEAR(red601.cb, 99.652, 0.002);
    EXPECT_NEAR(red601.cr, 212.0, 1e-9);
    // 10-bit: 512 + 896 C.
    const ChromaCodes red10 = chromaCodes(Matrix::Bt709, Range::Limited, 10, 0.75, 0, 0);
    EXPECT_NEAR(red10.cb, 512.0 - 896.0 * 0.0859290, 0.01);
    EXPECT_NEAR(red10.cr, 848.0, 1e-9);
    // Full range 8-bit: 128 + 255 C.
    const ChromaCodes redFull = chromaCodes(Matrix::Bt709, Range::Full, 8, 1.0, 0, 0);
    EXPECT_NEAR(redFull.cr, 128.0 + 127.5, 1e-9);
    // Grey has no chroma: the centre.
    const ChromaCodes grey = chromaCodes(Matrix::Bt2020Ncl, Range::Limited, 10, 0.4, 0.4, 0.4);
    EXPECT_NEAR(grey.cb, 512.0, 1e-9);
    EXPECT_NEAR(grey.cr, 512.0, 1e-9);
}

TEST(VectorscopeTargets, AgreeWithTheFixedPointConverterWithinOneCode) {
    // Independent path: the integer R'G'B' -> Y'CbCr every engine uses.
    const int bars[6][3] = {{1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}, {1, 1, 0}};
    for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl})
        for (Range range : {Range::Limited, Range::Full})
            for (int depth : {8, 10})
                for (const auto& b : bars)
                    for (int level : {191, 255}) {   // 75% (191.25) and 100% of 8-bit R'G'B'
                        const Yuv fixed = rgbToYuv(makeRgbToYuv(m, range, depth), b[0] * level, b[1] * level, b[2] * level);
                        const double a = level / 255.0;
                        const ChromaCodes c = chromaCodes(m, range, depth, b[0] * a, b[1] * a, b[2] * a);
                        EXPECT_NEAR(fixed.cb, c.cb, 1.0);
                        EXPECT_NEAR(fixed.cr, c.cr, 1.0);
                    }
}

TEST(VectorscopeGraticule, TargetsAreBoxesAtTheComputedPoints) {
    const Graticule g = vectorscopeGraticule(Matrix::Bt709, Range::Limited, 8, 1, true, true);
    EXPECT_EQ(g.boxes.size(), 12u);   // 6 colours at 100% and at 75%
    // The 75% red box: Cb 108.75 -> x = 0.5 + (108.75 - 128) / 256; Cr 212 -> y = 0.5 + 84 / 256.
    const double x = 0.5 + (108.752 - 128.0) / 256.0, y = 0.5 + 84.0 / 256.0;
    bool found = false;
    for (const GraticuleBox& b : g.boxes)
        found = found || (std::abs(b.cx - x) < 1e-4 && std::abs(b.cy - y) < 1e-9 && b.emphasis == Emphasis::Target);
    EXPECT_TRUE(found);
    // Each colour labelled once.
    for (const char* name : {"R", "MG", "B", "CY", "G", "YL"}) EXPECT_NE(findLabel(g, name), nullptr) << name;
    // The outer circle touches the plot's edges.
    ASSERT_EQ(g.circles.size(), 1u);
    EXPECT_DOUBLE_EQ(g.circles[0].cx, 0.5);
    EXPECT_DOUBLE_EQ(g.circles[0].cy, 0.5);
    EXPECT_DOUBLE_EQ(g.circles[0].radius, 0.5);
    // Without 75% targets only the 100% boxes remain.
    EXPECT_EQ(vectorscopeGraticule(Matrix::Bt709, Range::Limited, 8, 1, false, true).boxes.size(), 6u);
}

const GraticuleLine* skinLine(const Graticule& g) {
    for (const GraticuleLine& l : g.lines)
        if (l.emphasis == Emphasis::Skin) return &l;
    return nullptr;
}

TEST(VectorscopeGraticule, SkinToneLine) {
    const Graticule g = vectorscopeGraticule(Matrix::Bt709, Range::Limited, 10, 1, true, true);
    const GraticuleLine* l = skinLine(g);
    ASSERT_NE(l, nullptr);
    EXPECT_DOUBLE_EQ(l->x0, 0.5);
    EXPECT_DOUBLE_EQ(l->y0, 0.5);
    const double angle = std::atan2(l->y1 - 0.5, l->x1 - 0.5) * 180.0 / std::numbers::pi;
    EXPECT_NEAR(angle, 123.0, 1e-9);   // upper left: Cb below, Cr above the centre
    EXPECT_NEAR(std::hypot(l->x1 - 0.5, l->y1 - 0.5), 0.5, 1e-12);
    EXPECT_LT(l->x1, 0.5);
    EXPECT_GT(l->y1, 0.5);
    EXPECT_EQ(skinLine(vectorscopeGraticule(Matrix::Bt709, Range::Limited, 10, 1, true, false)), nullptr);
}

TEST(VectorscopeGraticule, ZoomScalesAroundTheCentreAndCrops) {
    EXPECT_DOUBLE_EQ(vectorscopePoint(128, 128, 8, 1).x, 0.5);
    EXPECT_DOUBLE_EQ(vectorscopePoint(512, 512, 10, 2).y, 0.5);
    const PlotPoint p1 = vectorscopePoint(100, 150, 8, 1), p2 = vectorscopePoint(100, 150, 8, 2);
    EXPECT_DOUBLE_EQ(p2.x - 0.5, 2.0 * (p1.x - 0.5));
    EXPECT_DOUBLE_EQ(p2.y - 0.5, 2.0 * (p1.y - 0.5));
    const Graticule g1 = vectorscopeGraticule(Matrix::Bt709, Range::Limited, 8, 1, true, true);
    const Graticule g2 = vectorscopeGraticule(Matrix::Bt709, Range::Limited, 8, 2, true, true);
    // Every bar target of BT.709 lies beyond radius 0.25 at zoom 1, so at 2x all are cropped.
    for (const GraticuleBox& b : g1.boxes) EXPECT_GT(std::hypot(b.cx - 0.5, b.cy - 0.5), 0.25);
    // At 2x every colour is marked on the plot's edge instead: a small box 0.45 from the
    // centre (the larger of |dx|, |dy|) in its target's direction, and its name.
    ASSERT_EQ(g2.boxes.size(), 6u);
    for (const GraticuleBox& b : g2.boxes) {
        EXPECT_NEAR(std::max(std::abs(b.cx - 0.5), std::abs(b.cy - 0.5)), 0.45, 1e-12);
        EXPECT_EQ(b.emphasis, Emphasis::Target);
    }
    for (const char* name : {"R", "MG", "B", "CY", "G", "YL"}) EXPECT_NE(findLabel(g2, name), nullptr) << name;
    // Red's marker points the way of its 75% target: Cr up, Cb left of the centre.
    const ChromaCodes red = chromaCodes(Matrix::Bt709, Range::Limited, 8, 0.75, 0, 0);
    const PlotPoint pr = vectorscopePoint(red.cb, red.cr, 8, 2);
    const double angle = std::atan2(pr.y - 0.5, pr.x - 0.5);
    const bool found = std::any_of(g2.boxes.begin(), g2.boxes.end(), [&](const GraticuleBox& b) {
        return std::abs(std::atan2(b.cy - 0.5, b.cx - 0.5) - angle) < 1e-9;
    });
    EXPECT_TRUE(found);
    EXPECT_NE(findLabel(g2, "2x"), nullptr);
    EXPECT_EQ(findLabel(g1, "2x"), nullptr);
    // The skin line still runs from the centre to the edge.
    ASSERT_NE(skinLine(g2), nullptr);
    EXPECT_NEAR(std::hypot(skinLine(g2)->x1 - 0.5, skinLine(g2)->y1 - 0.5), 0.5, 1e-12);
}

TEST(HistogramGraticule, LegalLimitsQuartersAndScaleLabel) {
    const Graticule g = histogramGraticule(8, Range::Limited, HistogramScale::Log);
    auto hasVertical = [&](double x, Emphasis e) {
        return std::any_of(g.lines.begin(), g.lines.end(), [&](const GraticuleLine& l) {
            return l.x0 == l.x1 && std::abs(l.x0 - x) < 1e-12 && l.y0 == 0.0 && l.y1 == 1.0 && l.emphasis == e;
        });
    };
    EXPECT_TRUE(hasVertical(16.0 / 255.0, Emphasis::Limit));
    EXPECT_TRUE(hasVertical(235.0 / 255.0, Emphasis::Limit));
    EXPECT_TRUE(hasVertical(128.0 / 255.0, Emphasis::Major));
    EXPECT_TRUE(hasVertical(64.0 / 255.0, Emphasis::Minor));
    EXPECT_NE(findLabel(g, "LOG"), nullptr);
    EXPECT_NE(findLabel(g, "235"), nullptr);
    EXPECT_EQ(findLabel(g, "235")->vAlign, VAlign::Top);   // below the plot
    const Graticule lin = histogramGraticule(10, Range::Full, HistogramScale::Linear);
    EXPECT_NE(findLabel(lin, "LIN"), nullptr);
    EXPECT_EQ(findLabel(lin, "940"), nullptr);   // full range: no legal-limit lines
    EXPECT_NE(findLabel(lin, "1023"), nullptr);
    EXPECT_NE(findLabel(lin, "512"), nullptr);
}

TEST(Graticule, ColoursAreTranslucentAndDistinct) {
    std::set<uint32_t> colours;
    for (Emphasis e : {Emphasis::Minor, Emphasis::Major, Emphasis::Limit, Emphasis::Target, Emphasis::Skin}) {
        const uint32_t c = graticuleRgba(e);
        EXPECT_LT(c >> 24, 255u);
        EXPECT_GT(c >> 24, 0u);
        colours.insert(c);
        EXPECT_GE(graticuleLabelRgba(e) >> 24, c >> 24);
    }
    EXPECT_EQ(colours.size(), 5u);
}

TEST(GraticuleLayout, PlotRectsFitAndMapPixelCentres) {
    for (int w : {1, 7, 64, 320, 1024, 3840})
        for (int h : {1, 5, 48, 270, 540, 2160}) {
            for (const PlotRect r : {waveformPlotRect(w, h), histogramPlotRect(w, h)}) {
                EXPECT_GE(r.left, 0);
                EXPECT_GE(r.top, 0);
                EXPECT_GT(r.width, 0) << w << "x" << h;
                EXPECT_GT(r.height, 0) << w << "x" << h;
                EXPECT_LE(r.left + r.width, w);
                EXPECT_LE(r.top + r.height, h);
            }
        }
    const PlotRect r{10, 20, 101, 51};
    EXPECT_DOUBLE_EQ(r.toPixelX(0.0), 10.0);
    EXPECT_DOUBLE_EQ(r.toPixelX(1.0), 110.0);
    EXPECT_DOUBLE_EQ(r.toPixelY(0.0), 70.0);   // y up: 0 is the bottom row
    EXPECT_DOUBLE_EQ(r.toPixelY(1.0), 20.0);
    for (int size : {1, 2, 63, 64, 540, 541, 1080}) {
        const PlotRect v = vectorscopePlotRect(size);
        EXPECT_EQ(v.width, v.height);
        EXPECT_EQ(v.width % 2, 1) << size;
        EXPECT_EQ(v.left, (size - v.width) / 2);
        EXPECT_LE(v.left + v.width, size);
        const double centre = v.toPixelX(0.5);
        EXPECT_DOUBLE_EQ(centre, std::round(centre));   // the centre is a whole pixel
    }
    const PlotRect plot = waveformPlotRect(1024, 540);
    const int scale = graticuleTextScale(1024, 540);
    for (int p = 0; p < 3; ++p) {
        const PlotRect panel = paradePanelRect(plot, p, scale);
        EXPECT_GT(panel.width, plot.width / 4);
        EXPECT_LE(panel.left + panel.width, plot.left + plot.width);
        if (p > 0) {
            const PlotRect previous = paradePanelRect(plot, p - 1, scale);
            EXPECT_GT(panel.left, previous.left + previous.width);
        }
    }
    // The R'G'B' parade keeps head- and footroom (0% and 100% off the plot's edges, where the
    // luma waveform puts 0 and 100 IRE of a limited-range stream); its channel names sit in
    // the room above the panel, outside the trace.
    const Graticule ire = waveformGraticule(8, Range::Full, WaveformScale::Ire);
    const Graticule luma = waveformGraticule(8, Range::Limited, WaveformScale::Ire);
    for (int p = 0; p < 3; ++p) {
        const PlotRect flat = paradePanelRect(plot, p, scale, false), room = paradePanelRect(plot, p, scale, true);
        EXPECT_EQ(flat.top, plot.top);
        EXPECT_EQ(flat.height, plot.height);
        EXPECT_EQ(room.left, flat.left);
        EXPECT_EQ(room.width, flat.width);
        for (int level : {0, 100}) {
            auto at = [&](const Graticule& g, const PlotRect& rect, double& y) {
                for (const GraticuleLabel& l : g.labels)
                    if (l.text == std::to_string(level)) y = rect.toPixelY(l.y);
            };
            double rgbRow = -1, lumaRow = -1;
            at(ire, room, rgbRow);
            at(luma, plot, lumaRow);
            EXPECT_GT(rgbRow, plot.top + 10) << level;
            EXPECT_LT(rgbRow, plot.top + plot.height - 11) << level;
            EXPECT_NEAR(rgbRow, lumaRow, 1.0) << level;   // in line with the luma waveform's
        }
        const int nameTop = paradeNameTop(plot, room, scale);
        EXPECT_GE(nameTop, plot.top);
        EXPECT_LE(nameTop + font::kGlyphHeight * scale, room.top);
    }
    EXPECT_GE(graticuleTextScale(1024, 540), 1);
    EXPECT_EQ(graticuleTextScale(100, 100), 1);
    EXPECT_GT(graticuleTextScale(3840, 2160), graticuleTextScale(640, 360));
}

}  // namespace
}  // namespace cs
