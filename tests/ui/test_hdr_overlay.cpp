// The GL views' graticule overlay (render/GraticuleOverlay) draws the HDR scales exactly as
// core's renderer does, for PQ and HLG, at 8 and 10 bits, both ranges (the CUDA engine's
// traces in the window rely on the overlay; the CPU engine's images on core's renderer).
#include <gtest/gtest.h>

#include "scope/ScopeRender.h"
#include "render/GraticuleOverlay.h"

using namespace cs;

namespace {

TEST(HdrOverlay, MatchesCoreRendererOverBlack) {
    for (Transfer t : {Transfer::Pq, Transfer::Hlg})
        for (int depth : {8, 10})
            for (Range range : {Range::Limited, Range::Full})
                for (gl::Plane plane : {gl::Plane::Histogram, gl::Plane::Waveform, gl::Plane::Parade}) {
                    SCOPED_TRACE(std::string(transferName(t)) + " depth " + std::to_string(depth) + " " +
                                 std::string(rangeName(range)) + " plane " + std::to_string(int(plane)));
                    ScopeResults r;   // no counts: core draws only the graticule over black
                    r.width = 64;
                    r.height = 32;
                    r.bitDepth = depth;
                    r.levels = 1 << depth;
                    r.color = ColorInfo{Matrix::Bt2020Ncl, range, t, true, true};
                    r.paradeMode = ParadeMode::Rgb;
                    ScopeSpec spec;
                    spec.scopeWidth = 700;
                    spec.scopeHeight = 380;
                    RgbaImage cpu;
                    if (plane == gl::Plane::Histogram) renderHistogram(r, spec, cpu);
                    else if (plane == gl::Plane::Waveform) renderWaveform(r, spec, cpu);
                    else renderParade(r, spec, cpu);
                    RgbaImage overlay;
                    renderGraticuleOverlay(plane, r, spec, cpu.width, cpu.height, overlay);
                    ASSERT_EQ(overlay.width, cpu.width);
                    ASSERT_EQ(overlay.height, cpu.height);
                    int differing = 0, lit = 0;
                    for (int y = 0; y < cpu.height; ++y)
                        for (int x = 0; x < cpu.width; ++x) {
                            const uint8_t* a = cpu.at(x, y);
                            const uint8_t* b = overlay.at(x, y);
                            if (a[0] || a[1] || a[2]) ++lit;
                            if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) ++differing;
                        }
                    EXPECT_GT(lit, 500);
                    EXPECT_EQ(differing, 0);
                    // And it is not the SDR scale: the two images differ.
                    ScopeResults sdr = r;
                    sdr.color.transfer = Transfer::Bt709;
                    RgbaImage sdrImage;
                    if (plane == gl::Plane::Histogram) renderHistogram(sdr, spec, sdrImage);
                    else if (plane == gl::Plane::Waveform) renderWaveform(sdr, spec, sdrImage);
                    else renderParade(sdr, spec, sdrImage);
                    EXPECT_NE(sdrImage.pixels, cpu.pixels);
                }
}

}  // namespace
