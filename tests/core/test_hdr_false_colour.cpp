// HDR false colour (core/HdrFalseColour.h): luma codes of known light in their bands, for
// PQ and HLG, through the CPU engine's false colour preview; SDR planes keep the IRE bands.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/Engine.h"
#include "core/Filters.h"
#include "core/Frame.h"
#include "core/Hdr.h"
#include "core/HdrFalseColour.h"
#include "scope/HdrGraticule.h"
#include "cpu/CpuEngine.h"

using namespace cs;

namespace {

uint32_t bandColour(Transfer t, const char* name) {
    for (const HdrFalseColourBand& b : hdrFalseColourBands(t))
        if (std::string(b.name) == name) return b.rgba;
    ADD_FAILURE() << name;
    return 0;
}

uint32_t rgbaAt(const RgbaImage& img, int x) {
    const uint8_t* p = img.at(x, 0);
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

TEST(HdrFalseColour, PqCodesInTheirBands) {
    // 10-bit limited PQ luma (ST 2084): 64 black (0 cd/m2), 150 (0.31), 300 (6.7), 509 (99.9:
    // grey, shown as E' = 445/876), 560 (177), 600 (273), 723 (1004), 860 (4233), 940 (10000),
    // 1000 (super-white).
    std::vector<uint32_t> table(1024);
    hdrFalseColourTable(Transfer::Pq, 10, Range::Limited, table.data());
    EXPECT_EQ(table[64], bandColour(Transfer::Pq, "black"));
    EXPECT_EQ(table[150], bandColour(Transfer::Pq, "deep shadows"));
    EXPECT_EQ(table[300], bandColour(Transfer::Pq, "shadows"));
    const uint32_t grey = uint32_t(std::lround(445.0 / 876.0 * 255.0));
    EXPECT_EQ(table[509], grey | grey << 8 | grey << 16 | 0xff000000u);
    EXPECT_EQ(table[560], bandColour(Transfer::Pq, "to reference white"));
    EXPECT_EQ(table[600], bandColour(Transfer::Pq, "above reference white"));   // 273 cd/m2
    EXPECT_EQ(table[723], bandColour(Transfer::Pq, "above 1000 nits"));
    EXPECT_EQ(table[860], bandColour(Transfer::Pq, "above 4000 nits"));
    EXPECT_EQ(table[940], bandColour(Transfer::Pq, "peak"));
    EXPECT_EQ(table[1000], bandColour(Transfer::Pq, "peak"));
    EXPECT_EQ(table[10], bandColour(Transfer::Pq, "black"));   // sub-black
    // Every boundary at the code its light says: the first code of each band is at or above lo.
    for (const HdrFalseColourBand& b : hdrFalseColourBands(Transfer::Pq)) {
        if (b.loNits <= 0.0 || b.rgba == 0) continue;
        const int first = int(std::ceil(hdrNitsToCode(Transfer::Pq, b.loNits, 10, Range::Limited)));
        EXPECT_EQ(table[size_t(first)], b.rgba) << b.name;
        if (b.loNits < 10000.0) {
            EXPECT_NE(table[size_t(first - 1)], b.rgba) << b.name;
        }
    }
}

TEST(HdrFalseColour, HlgReferenceWhiteAndPeak) {
    std::vector<uint32_t> table(1024);
    hdrFalseColourTable(Transfer::Hlg, 10, Range::Limited, table.data());
    EXPECT_EQ(table[722], bandColour(Transfer::Hlg, "above reference white"));   // 75% + a code: just over 203 cd/m2
    EXPECT_EQ(table[700], bandColour(Transfer::Hlg, "to reference white"));
    EXPECT_EQ(table[940], bandColour(Transfer::Hlg, "peak"));                    // 1000 cd/m2
}

TEST(HdrFalseColour, EnginePreviewUsesTheTransfer) {
    Frame f(PixelFormat::Yuv420p10, 4, 2, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, Transfer::Pq, true, true});
    f.fill(723, 512, 512);
    ScopeSpec spec;
    spec.displayImages = false;
    spec.preview = PreviewFilter::FalseColour;
    ScopeResults out;
    ASSERT_TRUE(makeCpuEngine(1)->process(f.view(), spec, out).ok());
    ASSERT_EQ(out.preview.width, 4);
    EXPECT_EQ(rgbaAt(out.preview, 0), bandColour(Transfer::Pq, "above 1000 nits"));
    // As SDR, code 723 is 75 IRE: the SDR highlights band (the luma as grey).
    spec.colorOverride.transfer = Transfer::Bt709;
    ASSERT_TRUE(makeCpuEngine(1)->process(f.view(), spec, out).ok());
    const uint8_t* p = out.preview.at(0, 0);
    EXPECT_EQ(p[0], p[1]);
    EXPECT_EQ(p[1], p[2]);
}

}  // namespace
