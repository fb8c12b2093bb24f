// The CUDA engine's scope traces (cuda/images/TraceTexels.h) put every code on the pixel where the
// graticule overlay draws that code's line (scope/Graticule.h: PlotRect over the texture,
// vectorscopePoint), checked through the texel functions themselves on counts holding a
// single code. Host only (the kernels run the same CS_HD functions); needs no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scope/Graticule.h"
#include "cuda/images/TraceTexels.h"

namespace cs {
namespace {

// Texture sizes shallower and deeper than the codes, odd and even.
const int kSizes[] = {2, 3, 100, 255, 256, 257, 300, 511, 700, 1024, 1500};

// The graticule's pixel for a code: PlotRect's pixel centre, rounded as the overlay and
// core's renderers round it.
int graticuleColumn(int size, double x) { return int(std::lround(PlotRect{0, 0, size, 1}.toPixelX(x))); }
int graticuleRow(int size, double y) { return int(std::lround(PlotRect{0, 0, 1, size}.toPixelY(y))); }

TEST(TraceMapping, WaveformCodeOnItsGraticuleRow) {
    for (int levels : {256, 1024})
        for (int texH : kSizes) {
            std::vector<uint32_t> counts(size_t(levels), 0u);   // one frame column, one row
            for (int c = 0; c < levels; ++c) {
                counts[size_t(c)] = 1;
                const int want = graticuleRow(texH, double(c) / double(levels - 1));
                std::vector<int> lit;
                for (int ty = 0; ty < texH; ++ty)
                    if (cuda::waveformTexel(cuda::LumaParadeColumns{counts.data(), nullptr, 1, levels}, WaveformMode::Luma, TraceColour::Channel,
                                            1, 1, levels, 1.0, 0, ty, 1, texH) != cuda::traceRgba(0, 0, 0))
                        lit.push_back(ty);
                const std::string where = std::to_string(levels) + " levels, " + std::to_string(texH) + " rows, code " + std::to_string(c);
                ASSERT_FALSE(lit.empty()) << where;
                EXPECT_NE(std::find(lit.begin(), lit.end(), want), lit.end()) << where << ": graticule row " << want << ", lit from row " << lit.front();
                if (texH <= levels) {
                    EXPECT_EQ(lit.size(), 1u) << where << ": a code lands on one row";
                }
                counts[size_t(c)] = 0;
            }
        }
}

TEST(TraceMapping, HistogramCodeOnItsGraticuleColumn) {
    for (int levels : {256, 1024})
        for (int texW : kSizes) {
            std::vector<uint32_t> histY(size_t(levels), 0u), histRgb(768, 0u);
            for (int c = 0; c < levels; ++c) {
                histY[size_t(c)] = 7;
                const int want = graticuleColumn(texW, double(c) / double(levels - 1));
                const std::string where = std::to_string(levels) + " levels, " + std::to_string(texW) + " columns, code " + std::to_string(c);
                int lit = 0;
                bool onGraticule = false;
                for (int tx = 0; tx < texW; ++tx)
                    if (cuda::histogramTexel(histY.data(), histRgb.data(), levels, 7, 0, false, 1.0f, tx, 0, texW, 1) != cuda::traceRgba(0, 0, 0)) {
                        ++lit;
                        onGraticule = onGraticule || tx == want;
                    }
                EXPECT_TRUE(onGraticule) << where << ": graticule column " << want;
                if (texW <= levels) {
                    EXPECT_EQ(lit, 1) << where;
                }
                histY[size_t(c)] = 0;
            }
            // R, G, B at 8 bits: code c at c / 255.
            for (int c = 0; c < 256; c += 5) {
                histRgb[size_t(c)] = 3;   // red
                const int want = graticuleColumn(texW, double(c) / 255.0);
                EXPECT_EQ(cuda::histogramTexel(histY.data(), histRgb.data(), levels, 0, 3, false, 1.0f, want, 0, texW, 1), cuda::traceRgba(255, 0, 0))
                    << texW << " columns, red code " << c;
                histRgb[size_t(c)] = 0;
            }
        }
}

TEST(TraceMapping, VectorscopeChromaOnItsGraticulePoint) {
    for (int depth : {8, 10})
        for (int zoom : {1, 2})
            for (int side : {101, 256, 257, 511, 1024}) {
                const int levels = 1 << depth;
                std::vector<uint32_t> counts(size_t(levels) * size_t(levels), 0u);
                for (int cb = 0; cb < levels; cb += 3 + depth)
                    for (int cr : {0, levels / 4 + 1, levels / 2, levels - 1}) {
                        const PlotPoint p = vectorscopePoint(cb, cr, depth, zoom);
                        const int wantX = graticuleColumn(side, p.x), wantY = graticuleRow(side, p.y);
                        if (wantX < 0 || wantX >= side || wantY < 0 || wantY >= side) continue;   // cropped by the zoom
                        counts[size_t(cr) * size_t(levels) + size_t(cb)] = 1000;
                        const cuda::VectorscopeStyle style{TraceColour::Channel, 0.2126, 0.0722, 224.0 * (levels / 256)};
                        EXPECT_NE(cuda::vectorscopeTexel(counts.data(), 64, 64, levels, zoom, 1.0, style, wantX, wantY, side, side),
                                  cuda::traceRgba(0, 0, 0))
                            << depth << "-bit, zoom " << zoom << ", " << side << " px, Cb " << cb << " Cr " << cr << " at (" << wantX << ", " << wantY
                            << ")";
                        counts[size_t(cr) * size_t(levels) + size_t(cb)] = 0;
                    }
            }
}

}  // namespace
}  // namespace cs
