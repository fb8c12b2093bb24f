// scope/CieDiagram's header: the form chosen for each image size fits inside the image, and
// the pixels drawn in the header's rows are that text, whole, with nothing else over it. The
// counts' dots, and the layers kept between drawings following every change.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "scope/BitmapFont.h"
#include "scope/CieDiagram.h"

namespace cs {
namespace {

constexpr int kMinSize = 64;   // the smallest scope the window and export draw

GamutResults measured(Primaries source, Primaries target, double share, CieMode mode = CieMode::Xy) {
    GamutResults g;
    g.measured = true;
    g.source = source;
    g.target = target;
    g.mode = mode;
    g.outsideShare = share;
    return g;
}

int scaleFor(int size) { return size >= 900 ? 2 : 1; }   // the diagram's text scale

TEST(CieHeader, FullFormWhereItFits) {
    const GamutResults g = measured(Primaries::Bt2020, Primaries::Bt709, 0.1234);
    EXPECT_EQ(cieHeader(g, CieMode::Xy, 540, 1), "CIE 1931 xy  BT.2020 source  outside BT.709: 12.34%");
    EXPECT_EQ(cieHeader(g, CieMode::Uv, 540, 1), "CIE 1976 u'v'  BT.2020 source  outside BT.709: 12.34%");
    EXPECT_EQ(cieHeader(GamutResults{}, CieMode::Xy, 540, 1), "CIE 1931 xy");
}

TEST(CieHeader, ShortFormsAtSmallSizes) {
    const GamutResults g = measured(Primaries::Bt2020, Primaries::Bt709, 0.1234);
    // A dock about 250 pixels tall: a diagram of about 220.
    EXPECT_EQ(cieHeader(g, CieMode::Xy, 220, 1), "BT.2020  outside BT.709: 12.34%");
    EXPECT_EQ(cieHeader(g, CieMode::Xy, 128, 1), "out BT.709 12.34%");
    EXPECT_EQ(cieHeader(g, CieMode::Xy, kMinSize, 1), "12.34%");
    EXPECT_EQ(cieHeader(GamutResults{}, CieMode::Xy, kMinSize, 1), "xy");
    EXPECT_EQ(cieHeader(GamutResults{}, CieMode::Uv, kMinSize, 1), "u'v'");
}

TEST(CieHeader, FitsTheImageAtEverySize) {
    // The longest labels and share there are.
    const GamutResults worst = measured(Primaries::Bt2020, Primaries::Bt2020, 1.0);
    for (CieMode mode : {CieMode::Xy, CieMode::Uv})
        for (int size = kMinSize; size <= 2000; ++size)
            for (const GamutResults& g : {worst, GamutResults{}}) {
                const std::string h = cieHeader(g, mode, size, scaleFor(size));
                ASSERT_LE(4 + font::textWidth(h, scaleFor(size)), size - 4) << size << ": " << h;
            }
}

// The header's ink in a drawn diagram: inside the image's margins, the chosen text's box, and
// with a clear gap under it (nothing of the plot or the axis names over it).
void expectHeaderDrawnWhole(const GamutResults& g, int size) {
    SCOPED_TRACE("size " + std::to_string(size));
    ScopeResults r;
    r.width = 64;
    r.height = 64;
    r.gamut = g;   // no counts: the diagram alone
    ScopeSpec spec;
    spec.cieSize = size;
    spec.cieMode = g.mode;
    RgbaImage img;
    renderCieDiagram(r, spec, img);
    ASSERT_EQ(img.width, size);
    const int scale = scaleFor(size);
    const std::string header = cieHeader(g, g.mode, size, scale);
    const int textW = font::textWidth(header, scale), textH = font::textHeight(header, scale);
    const uint8_t* background = img.at(0, 0);
    auto ink = [&](int x, int y) {
        const uint8_t* p = img.at(x, y);
        return p[0] != background[0] || p[1] != background[1] || p[2] != background[2];
    };
    int minX = size, maxX = -1, minY = size, maxY = -1;
    for (int y = 0; y < 3 + textH + 2 * scale; ++y)
        for (int x = 0; x < size; ++x)
            if (ink(x, y)) {
                minX = std::min(minX, x);
                maxX = std::max(maxX, x);
                minY = std::min(minY, y);
                maxY = std::max(maxY, y);
            }
    ASSERT_GE(maxX, 0) << "no header drawn";
    EXPECT_GE(minX, 4);
    EXPECT_LT(maxX, 4 + textW);
    EXPECT_LT(maxX, size - 4);   // not cut at the image's edge
    EXPECT_GE(minY, 3);
    EXPECT_LT(maxY, 3 + textH);  // the rows under it clear
}

TEST(CieHeader, DrawnInsideTheImage) {
    for (int size : {kMinSize, 100, 128, 220, 300, 540, 900})
        for (CieMode mode : {CieMode::Xy, CieMode::Uv}) {
            expectHeaderDrawnWhole(measured(Primaries::Bt2020, Primaries::Bt709, 0.1234, mode), size);
            expectHeaderDrawnWhole(measured(Primaries::P3D65, Primaries::Bt2020, 1.0, mode), size);
            GamutResults none;
            none.mode = mode;
            expectHeaderDrawnWhole(none, size);
        }
}

// Counts of a 1000 x 1000 frame in the given bins ([v][u], count), the rest empty.
ScopeResults withCounts(std::initializer_list<std::pair<std::pair<int, int>, uint32_t>> bins) {
    ScopeResults r;
    r.width = r.height = 1000;
    r.gamut = measured(Primaries::Bt2020, Primaries::Bt709, 0.25);
    r.gamut.counts.assign(size_t(kCieBins) * kCieBins, 0);
    for (const auto& [at, n] : bins) r.gamut.counts[size_t(at.first) * kCieBins + size_t(at.second)] = n;
    return r;
}

struct DifferenceBounds { int minX = 1 << 30, maxX = -1, minY = 1 << 30, maxY = -1; };

// Where two drawings of one size differ.
DifferenceBounds differenceBounds(const RgbaImage& a, const RgbaImage& b) {
    DifferenceBounds box;
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x)
            if (!std::equal(a.at(x, y), a.at(x, y) + 4, b.at(x, y))) {
                box.minX = std::min(box.minX, x);
                box.maxX = std::max(box.maxX, x);
                box.minY = std::min(box.minY, y);
                box.maxY = std::max(box.maxY, y);
            }
    return box;
}

// One non-empty bin is a 5 x 5 dot of one colour over the diagram; a second bin in the next
// plot column with more pixels (brighter) overlaps it, and its dot, drawn later, is on top.
TEST(CieDiagram, EachBinIsADotAndTheLaterDotIsOnTop) {
    ScopeSpec spec;
    spec.cieSize = 300;
    RgbaImage empty, one, two;
    ScopeResults none = withCounts({});
    renderCieDiagram(none, spec, empty);
    // v bin 200, u bins 200 and 202 (of 512): inside the plot, away from its edges.
    renderCieDiagram(withCounts({{{200, 200}, 1}}), spec, one);
    const DifferenceBounds d = differenceBounds(empty, one);
    ASSERT_GE(d.maxX, 0) << "no dot drawn";
    EXPECT_EQ(d.maxX - d.minX, 4);
    EXPECT_EQ(d.maxY - d.minY, 4);
    const uint8_t* dim = one.at(d.minX, d.minY);
    for (int y = d.minY; y <= d.maxY; ++y)
        for (int x = d.minX; x <= d.maxX; ++x) EXPECT_TRUE(std::equal(dim, dim + 4, one.at(x, y))) << x << "," << y;

    // The neighbour's dot alone, to know where it lies.
    RgbaImage right;
    renderCieDiagram(withCounts({{{200, 202}, 100000}}), spec, right);
    const DifferenceBounds r = differenceBounds(empty, right);
    ASSERT_GT(r.minX, d.minX);
    ASSERT_LT(r.minX, d.maxX);   // the dots overlap
    renderCieDiagram(withCounts({{{200, 200}, 1}, {{200, 202}, 100000}}), spec, two);
    const uint8_t* bright = right.at(r.minX, r.minY);
    EXPECT_FALSE(std::equal(dim, dim + 3, bright));
    for (int y = d.minY; y <= d.maxY; ++y)
        for (int x = d.minX; x <= r.maxX; ++x)
            EXPECT_TRUE(std::equal(x >= r.minX ? bright : dim, (x >= r.minX ? bright : dim) + 4, two.at(x, y))) << x << "," << y;
}

// Drawings in a row on one thread (the graticule, the plot's colours and its bins kept between
// them) are the drawings a fresh thread makes of the same input: every change of size, mode,
// target, source and counts is followed, and no dot of an earlier frame is left.
TEST(CieDiagram, KeptLayersFollowEveryChange) {
    struct Step { int size; CieMode mode; Primaries target, source; bool counts; };
    const std::vector<Step> steps{
        {300, CieMode::Xy, Primaries::Bt709, Primaries::Bt2020, true},
        {300, CieMode::Xy, Primaries::Bt709, Primaries::Bt2020, false},
        {300, CieMode::Xy, Primaries::P3D65, Primaries::Bt2020, true},
        {300, CieMode::Xy, Primaries::P3D65, Primaries::Bt709, true},
        {300, CieMode::Uv, Primaries::P3D65, Primaries::Bt709, true},
        {900, CieMode::Uv, Primaries::P3D65, Primaries::Bt709, true},
        {900, CieMode::Xy, Primaries::Bt2020, Primaries::P3D65, true},
        {64, CieMode::Xy, Primaries::Bt2020, Primaries::P3D65, true},
        {300, CieMode::Xy, Primaries::Bt709, Primaries::Bt2020, true},
    };
    auto input = [](const Step& s, int frame) {
        ScopeResults r = withCounts({});
        r.gamut = measured(s.source, s.target, 0.5, s.mode);
        if (s.counts) {
            r.gamut.counts.assign(size_t(kCieBins) * kCieBins, 0);
            for (int i = 0; i < 2000; ++i)   // a different scatter each frame
                r.gamut.counts[(size_t(i) * 7919 + size_t(frame) * 104729) % r.gamut.counts.size()] = uint32_t(1 + i * (frame + 1));
        }
        return r;
    };
    RgbaImage kept;
    for (size_t i = 0; i < steps.size(); ++i) {
        SCOPED_TRACE("step " + std::to_string(i));
        ScopeSpec spec;
        spec.cieSize = steps[i].size;
        const ScopeResults r = input(steps[i], int(i));
        renderCieDiagram(r, spec, kept);
        RgbaImage fresh;
        std::thread([&] { renderCieDiagram(r, spec, fresh); }).join();
        ASSERT_EQ(kept.width, steps[i].size);
        EXPECT_EQ(kept.width, fresh.width);
        EXPECT_EQ(kept.height, fresh.height);
        EXPECT_TRUE(kept.pixels == fresh.pixels);
    }
}

}  // namespace
}  // namespace cs
