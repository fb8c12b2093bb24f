// The CUDA engine's window traces (cuda/images/TraceTexels.h, the texel functions its kernels run)
// against the CPU engine's scope images (scope/ScopeRender): in every waveform mode, trace
// colour, parade mode and vectorscope zoom, at 8 and 10 bits, every plot pixel the
// graticule leaves untouched is the same RGBA in both. Host only: no GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "scope/Graticule.h"
#include "scope/ReferenceLines.h"
#include "scope/ScopeRender.h"
#include "cuda/images/TraceTexels.h"

namespace cs {
namespace {

// A synthetic frame's counts, counted as the engines count: luma, R'G'B' parade and a
// vectorscope with clusters and bars (lone codes) in it.
ScopeResults frameCounts(int depth, uint32_t seed) {
    ScopeResults r;
    r.width = 97;
    r.height = 41;
    r.bitDepth = depth;
    r.levels = 1 << depth;
    r.color.matrix = Matrix::Bt709;
    r.color.range = Range::Limited;
    r.paradeMode = ParadeMode::Rgb;
    const size_t L = size_t(r.levels), W = size_t(r.width);
    r.waveform.assign(L * W, 0);
    r.parade.assign(3 * L * W, 0);
    r.vectorscope.assign(L * L, 0);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 6.0 * double(r.levels) / 256.0);
    auto code = [&](double v) { return size_t(std::clamp(int(std::lround(v)), 0, r.levels - 1)); };
    for (int y = 0; y < r.height; ++y)
        for (int x = 0; x < r.width; ++x) {
            const double base = double(r.levels) * (0.1 + 0.8 * double(x) / double(r.width));
            r.waveform[code(base + noise(rng)) * W + size_t(x)]++;
            for (int c = 0; c < 3; ++c) r.parade[(size_t(c) * L + code(base * (0.6 + 0.2 * c) + noise(rng))) * W + size_t(x)]++;
            const double mid = double(r.levels) / 2.0;
            if (y < 8) {   // bars: one code each
                const ChromaCodes bar = chromaCodes(Matrix::Bt709, Range::Limited, depth, x % 2 ? 0.75 : 0.0, 0.75, x % 3 ? 0.75 : 0.0);
                r.vectorscope[code(bar.cr) * L + code(bar.cb)]++;
            } else {
                r.vectorscope[code(mid + 0.1 * mid + noise(rng)) * L + code(mid - 0.2 * mid + noise(rng))]++;
            }
        }
    return r;
}

// Compares texels [tx0, tx0 + w) x [0, h) of `texel` with the image's pixels at (left, top)
// where `overlay` (the graticule alone, transparent elsewhere) is transparent.
template <class Texel>
int compare(const RgbaImage& cpu, const RgbaImage& overlay, int left, int top, int tx0, int w, int h, Texel texel,
            const std::string& where) {
    int compared = 0, lit = 0;
    for (int ty = 0; ty < h; ++ty)
        for (int tx = tx0; tx < tx0 + w; ++tx) {
            const int x = left + tx - tx0, y = top + ty;
            if (overlay.at(x, y)[3] != 0) continue;
            uint32_t want = 0;
            std::memcpy(&want, cpu.at(x, y), 4);
            const uint32_t got = texel(tx, ty);
            ++compared;
            lit += (got & 0xffffffu) != 0;
            if (got != want) {
                ADD_FAILURE() << where << ": texel (" << tx << ", " << ty << ") " << std::hex << got << ", CPU pixel (" << std::dec << x
                              << ", " << y << ") " << std::hex << want;
                return -1;
            }
        }
    EXPECT_GT(lit, 50) << where;
    return compared;
}

TEST(TraceStyle, WaveformModesMatchTheCpuImages) {
    for (int depth : {8, 10})
        for (WaveformMode mode : {WaveformMode::Luma, WaveformMode::RgbOverlay, WaveformMode::Yrgb})
            for (TraceColour colour : {TraceColour::Channel, TraceColour::Green, TraceColour::White}) {
                const ScopeResults r = frameCounts(depth, 7u + uint32_t(depth));
                ScopeSpec spec;
                spec.scopeWidth = 700;
                spec.scopeHeight = 380;
                spec.waveformMode = mode;
                spec.traceColour = colour;
                spec.waveformGain = 1.5f;
                spec.referenceLines = *parseReferenceLines("5%,95%");
                if (colour == TraceColour::White) spec.waveformRange = LevelRange{0.2, 0.7};   // zoomed (core/ScopeZoom.h)
                RgbaImage cpu, overlay;
                renderWaveform(r, spec, cpu);
                overlay.resize(700, 380);
                drawLevelGraticules(overlay, r, spec, false);
                const PlotRect plot = waveformPlotRect(700, 380);
                const int s = graticuleTextScale(700, 380);
                const cuda::LumaParadeColumns cols{r.waveform.data(), r.parade.data(), r.width, r.levels};
                const std::string where = std::to_string(depth) + "-bit mode " + std::to_string(int(mode)) + " colour " +
                                          std::to_string(int(colour));
                const double gain = traceGain(spec.waveformGain);
                if (mode != WaveformMode::Yrgb) {
                    const PlotRect p = mode == WaveformMode::Luma ? plot : waveformPanelRect(plot, 0, 1, s, true);
                    compare(cpu, overlay, p.left, p.top, 0, p.width, p.height,
                            [&](int tx, int ty) {
                                return cuda::waveformTexel(cols, mode, colour, r.width, r.height, r.levels, gain, tx, ty, p.width, p.height,
                                                           spec.waveformRange);
                            },
                            where);
                    continue;
                }
                const int pw = waveformPanelRect(plot, 0, 4, s, false).width, texW = 4 * pw, texH = plot.height;
                for (int c = 0; c < 4; ++c) {
                    const PlotRect p = waveformPanelRect(plot, c, 4, s, c > 0);
                    ASSERT_EQ(p.width, pw);
                    compare(cpu, overlay, p.left, p.top, c * pw, pw, p.height,
                            [&](int tx, int ty) {
                                return cuda::waveformTexel(cols, mode, colour, r.width, r.height, r.levels, gain, tx, ty, texW, texH,
                                                           spec.waveformRange);
                            },
                            where + " panel " + std::to_string(c));
                }
            }
}

TEST(TraceStyle, ParadeMatchesTheCpuImage) {
    for (ParadeMode pm : {ParadeMode::Rgb, ParadeMode::Ycbcr})
        for (TraceColour colour : {TraceColour::Channel, TraceColour::Green, TraceColour::White}) {
            ScopeResults r = frameCounts(8, 3);
            r.paradeMode = pm;
            ScopeSpec spec;
            spec.scopeWidth = 700;
            spec.scopeHeight = 380;
            spec.traceColour = colour;
            if (colour == TraceColour::Green) spec.paradeRange = LevelRange{0.1, 0.45};   // zoomed
            RgbaImage cpu, overlay;
            renderParade(r, spec, cpu);
            overlay.resize(700, 380);
            drawLevelGraticules(overlay, r, spec, true);
            const PlotRect plot = waveformPlotRect(700, 380);
            const int s = graticuleTextScale(700, 380);
            const int pw = paradePanelRect(plot, 0, s, pm == ParadeMode::Rgb).width;
            for (int c = 0; c < 3; ++c) {
                const PlotRect p = paradePanelRect(plot, c, s, pm == ParadeMode::Rgb);
                compare(cpu, overlay, p.left, p.top, c * pw, pw, p.height,
                        [&](int tx, int ty) {
                            return cuda::paradeTexel(r.parade.data(), r.width, r.height, r.levels, pm == ParadeMode::Rgb, colour, 1.0, tx,
                                                     ty, 3 * pw, p.height, spec.paradeRange);
                        },
                        "parade " + std::to_string(int(pm)) + " colour " + std::to_string(int(colour)) + " panel " + std::to_string(c));
            }
        }
}

TEST(TraceStyle, VectorscopeMatchesTheCpuImage) {
    struct Case { int depth, zoom, size; TraceColour colour; };
    // Each splat radius (1, 2, 3), zooms 1 to 8, both depths, every colour rule.
    for (const Case& k : {Case{8, 1, 300, TraceColour::Channel}, Case{8, 2, 540, TraceColour::White}, Case{10, 1, 540, TraceColour::Channel},
                          Case{10, 4, 300, TraceColour::Green}, Case{8, 1, 760, TraceColour::Channel}, Case{8, 8, 300, TraceColour::Channel}}) {
                    const int depth = k.depth, zoom = k.zoom, size = k.size;
                    const TraceColour colour = k.colour;
                    const ScopeResults r = frameCounts(depth, 11);
                    ScopeSpec spec;
                    spec.vectorscopeSize = size;
                    spec.vectorscopeZoom = zoom;
                    spec.traceColour = colour;
                    RgbaImage cpu, overlay;
                    renderVectorscope(r, spec, cpu);
                    // The graticule alone, into a transparent image: every pixel it touches (the
                    // zoom label's dark shadow too, which over black leaves black) has alpha.
                    overlay.resize(size, size);
                    LabelLayout placed;
                    drawGraticule(overlay, vectorscopePlotRect(size),
                                  vectorscopeGraticule(r.color.matrix, r.color.range, depth, zoom, spec.vectorscopeTargets75, spec.skinToneLine),
                                  graticuleTextScale(size, size), true, placed);
                    const PlotRect p = vectorscopePlotRect(size);
                    const LumaWeights w = lumaWeights(r.color.matrix);
                    const cuda::VectorscopeStyle style{colour, w.kr, w.kb, 224.0 * double(1 << (depth - 8))};
                    compare(cpu, overlay, p.left, p.top, 0, p.width, p.height,
                            [&](int tx, int ty) {
                                return cuda::vectorscopeTexel(r.vectorscope.data(), r.width, r.height, r.levels, zoom, 1.0, style, tx, ty,
                                                              p.width, p.height);
                            },
                            std::to_string(depth) + "-bit zoom " + std::to_string(zoom) + " " + std::to_string(size) + " px colour " +
                                std::to_string(int(colour)));
                }
}

}  // namespace
}  // namespace cs
