// The HDR scales (scope/HdrGraticule.h): each nits line at the code of its ST 2084 / HLG
// signal at the depth and range, the labels, the stops, and the SDR scales kept elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "scope/HdrGraticule.h"

using namespace cs;

namespace {

const GraticuleLabel* findLabel(const Graticule& g, const std::string& text) {
    auto it = std::find_if(g.labels.begin(), g.labels.end(), [&](const GraticuleLabel& l) { return l.text == text; });
    return it == g.labels.end() ? nullptr : &*it;
}

TEST(HdrGraticule, PqWaveformLevels) {
    // 10-bit limited: E' = 0.5081 (100 cd/m2) at 64 + 876 E' = 509.1, 0.7518 (1000) at 722.6,
    // 1 (10000) at 940.
    const Graticule g = waveformGraticuleFor(10, Range::Limited, WaveformScale::Ire, Transfer::Pq);
    const struct { const char* label; double code; } expected[] = {
        {"100", 64 + 876 * 0.50808}, {"1K", 64 + 876 * 0.75183}, {"10K", 940.0}, {"203", 64 + 876 * 0.58069}};
    for (const auto& e : expected) {
        const GraticuleLabel* l = findLabel(g, e.label);
        ASSERT_NE(l, nullptr) << e.label;
        EXPECT_NEAR(l->y * 1023.0, e.code, 0.05) << e.label;
        EXPECT_TRUE(std::any_of(g.lines.begin(), g.lines.end(), [&](const GraticuleLine& ln) {
            return ln.y0 == l->y && ln.y1 == l->y && ln.x0 == 0.0 && ln.x1 == 1.0;
        })) << e.label;
    }
    for (const char* text : {"0.1", "1", "10", "4K", "PQ NITS"}) EXPECT_NE(findLabel(g, text), nullptr) << text;
    // Full range 8-bit: 10000 cd/m2 at the top code, 100 at 255 * 0.5081.
    const Graticule full = hdrWaveformGraticule(8, Range::Full, Transfer::Pq);
    EXPECT_NEAR(findLabel(full, "10K")->y, 1.0, 1e-12);
    EXPECT_NEAR(findLabel(full, "100")->y, 0.50808, 1e-4);
    EXPECT_NEAR(hdrNitsToCode(Transfer::Pq, 1000, 10, Range::Full), 1023 * 0.75183, 0.05);
}

TEST(HdrGraticule, HlgWaveformLevels) {
    // 203 cd/m2 on the 1000 cd/m2 display is the 75% signal: code 64 + 0.75 * 876 = 721
    // (10-bit limited); its scene light is (203/1000)^(1/1.2) = 26%.
    const Graticule g = waveformGraticuleFor(10, Range::Limited, WaveformScale::Ire, Transfer::Hlg);
    const GraticuleLabel* white = findLabel(g, "203");
    ASSERT_NE(white, nullptr);
    EXPECT_NEAR(white->y * 1023.0, 721.0, 0.3);
    const GraticuleLabel* scene = findLabel(g, "26%");
    ASSERT_NE(scene, nullptr);
    EXPECT_EQ(scene->y, white->y);
    EXPECT_EQ(scene->x, 1.0);
    EXPECT_NEAR(findLabel(g, "1K")->y * 1023.0, 940.0, 1e-3);
    EXPECT_NE(findLabel(g, "100%"), nullptr);
    EXPECT_EQ(findLabel(g, "0.1"), nullptr);   // below the HLG display's useful range
}

TEST(HdrGraticule, HistogramNitsAndStops) {
    const Graticule g = histogramGraticuleFor(10, Range::Limited, HistogramScale::Linear, Transfer::Pq);
    EXPECT_NEAR(findLabel(g, "1K")->x * 1023.0, 64 + 876 * 0.75183, 0.05);
    for (const char* stops : {"-1.0", "0", "+2.3", "+5.6"}) EXPECT_NE(findLabel(g, stops), nullptr) << stops;
    EXPECT_EQ(findLabel(g, "235"), nullptr);   // not the SDR code scale
}

TEST(HdrGraticule, SdrScalesWhereNitsDoNotApply) {
    auto same = [](const Graticule& a, const Graticule& b) {
        if (a.lines.size() != b.lines.size() || a.labels.size() != b.labels.size()) return false;
        for (size_t i = 0; i < a.labels.size(); ++i)
            if (a.labels[i].text != b.labels[i].text || a.labels[i].y != b.labels[i].y) return false;
        return true;
    };
    const Graticule ire = waveformGraticule(10, Range::Limited, WaveformScale::Ire);
    EXPECT_TRUE(same(waveformGraticuleFor(10, Range::Limited, WaveformScale::Ire, Transfer::Bt709), ire));
    EXPECT_TRUE(same(waveformGraticuleFor(10, Range::Limited, WaveformScale::Ire, Transfer::Pq, true), ire));   // Y'CbCr parade
    EXPECT_TRUE(same(waveformGraticuleFor(10, Range::Limited, WaveformScale::CodeValue, Transfer::Pq),
                     waveformGraticule(10, Range::Limited, WaveformScale::CodeValue)));
    EXPECT_TRUE(same(histogramGraticuleFor(8, Range::Full, HistogramScale::Log, Transfer::Unspecified),
                     histogramGraticule(8, Range::Full, HistogramScale::Log)));
}

}  // namespace
