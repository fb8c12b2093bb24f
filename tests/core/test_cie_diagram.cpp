// core/CieDiagram's header: the form chosen for each image size fits inside the image, and
// the pixels drawn in the header's rows are that text, whole, with nothing else over it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/BitmapFont.h"
#include "core/CieDiagram.h"

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

}  // namespace
}  // namespace cs
