// The CUDA engine against the CPU engine (the reference) on the same frames: every pixel
// format, 8 and 10 bit, limited and full range, random, solid and patterned content, every
// preview filter, sizes from 1x1 to 7680x4320, host and device frames. Counts and statistics
// must be identical, pictures and previews within one code value. Also a few known values.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "CudaTestUtil.h"
#include "EngineFixture.h"
#include "core/Filters.h"
#include "core/ReferenceLines.h"
#include "cuda/FilterKernels.h"
#include "cuda/ScopeKernels.h"

namespace cs {
namespace {

using test::cpuEngine;
using test::cudaEngine;

std::string label(const Frame& f, const std::string& what) {
    return std::string(formatInfo(f.format()).name) + " " + std::to_string(f.width()) + "x" + std::to_string(f.height()) + " " + what;
}

// The CUDA engine on `gpuView`, the CPU engine on `cpuView` (the same picture in host memory).
void compareEngines(const FrameView& gpuView, const FrameView& cpuView, const ScopeSpec& spec, const std::string& where,
                    ScopeResults* gpuOut = nullptr) {
    ScopeResults gpu, cpu;
    CudaEngine* cuda = cudaEngine();
    ASSERT_NE(cuda, nullptr);
    const Status gs = cuda->process(gpuView, spec, gpu);
    ASSERT_TRUE(gs.ok()) << where << ": " << gs.message();
    ASSERT_TRUE(cpuEngine().process(cpuView, spec, cpu).ok()) << where;
    test::expectSameResults(gpu, cpu, where);
    if (gpuOut) *gpuOut = std::move(gpu);
}
void compareEngines(const FrameView& view, const ScopeSpec& spec, const std::string& where) { compareEngines(view, view, spec, where); }

ScopeSpec everything(PreviewFilter preview = PreviewFilter::None) {
    ScopeSpec s;
    s.preview = preview;
    return s;
}

constexpr PreviewFilter kFilters[] = {PreviewFilter::None,   PreviewFilter::BoxBlur, PreviewFilter::Gaussian,
                                      PreviewFilter::Edges,  PreviewFilter::FocusPeaking, PreviewFilter::Median3,
                                      PreviewFilter::Zebra,  PreviewFilter::FalseColour};

TEST(CudaEngine, EveryFormatRandom) {
    std::mt19937 rng(1);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {2, 2}, {3, 5}, {37, 23}, {258, 131}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    int n = 0;
    for (PixelFormat f : test::allFormats())
        for (auto [w, h] : sizes) {
            Frame frame(f, w, h);
            test::fillRandom(frame, rng);
            const PreviewFilter p = kFilters[size_t(n++) % std::size(kFilters)];
            compareEngines(frame.view(), everything(p), label(frame, "random, preview " + std::string(previewName(p))));
        }
}

TEST(CudaEngine, EveryFormatSolid) {
    const int w = test::smallOnly() ? 130 : 1921, h = test::smallOnly() ? 67 : 1081;
    for (PixelFormat f : test::allFormats()) {
        const int top = levelsOf(f) - 1;
        for (auto [c0, c1, c2] : {std::tuple{top / 2, top / 3, top}, std::tuple{0, 0, 0}, std::tuple{top, top, top}}) {
            Frame frame(f, w, h);
            frame.fill(c0, c1, c2);
            compareEngines(frame.view(), everything(PreviewFilter::BoxBlur),
                           label(frame, "solid " + std::to_string(c0) + "," + std::to_string(c1) + "," + std::to_string(c2)));
        }
    }
}

// Known values, independent of the CPU engine: a solid frame lands every pixel in one bin.
TEST(CudaEngine, SolidFrameKnownCounts) {
    const int w = 1920, h = 1080;
    Frame frame(PixelFormat::Nv12, w, h);
    frame.fill(100, 90, 160);
    ScopeResults r;
    ASSERT_TRUE(cudaEngine()->process(frame.view(), everything(), r).ok());
    ASSERT_EQ(r.histY.size(), 256u);
    EXPECT_EQ(r.histY[100], uint32_t(w * h));
    EXPECT_EQ(r.vectorscope[size_t(160) * 256 + 90], uint32_t(w * h));
    for (int x : {0, 1, 957, w - 1}) EXPECT_EQ(r.waveform[size_t(100) * w + size_t(x)], uint32_t(h)) << "column " << x;
    EXPECT_EQ(r.stats.y.min, 100); EXPECT_EQ(r.stats.y.max, 100); EXPECT_DOUBLE_EQ(r.stats.y.avg, 100.0);
    EXPECT_EQ(r.stats.u.min, 90); EXPECT_DOUBLE_EQ(r.stats.v.avg, 160.0);
    EXPECT_DOUBLE_EQ(r.stats.outOfLegal, 0.0);
}

TEST(CudaEngine, PatternsFromSetPixel) {
    const int w = test::smallOnly() ? 200 : 1283, h = test::smallOnly() ? 90 : 721;
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::P010, PixelFormat::Rgb24, PixelFormat::Uyvy422, PixelFormat::Gray10,
                          PixelFormat::Yuv444p10, PixelFormat::Bgra}) {
        const int top = levelsOf(f) - 1;
        Frame ramp(f, w, h), checker(f, w, h), bars(f, w, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                ramp.setPixel(x, y, x * top / (w - 1), y * top / (h - 1), (x + y) % (top + 1));
                const bool odd = ((x ^ y) & 1) != 0;
                checker.setPixel(x, y, odd ? top : 0, odd ? 0 : top, top / 2);
                const int bar = x * 8 / w;
                bars.setPixel(x, y, (bar * 37) % (top + 1), (bar * 91) % (top + 1), (bar * 53) % (top + 1));
            }
        compareEngines(ramp.view(), everything(PreviewFilter::Edges), label(ramp, "ramp"));
        compareEngines(checker.view(), everything(PreviewFilter::Median3), label(checker, "checkerboard"));
        compareEngines(bars.view(), everything(PreviewFilter::FalseColour), label(bars, "bars"));
        std::mt19937 rng(3);
        Frame runs(f, w, h);
        test::fillRuns(runs, rng);
        compareEngines(runs.view(), everything(PreviewFilter::Zebra), label(runs, "runs"));
    }
}

TEST(CudaEngine, RangesMatricesAndOverrides) {
    std::mt19937 rng(5);
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::Nv12, PixelFormat::Rgb24, PixelFormat::Yuv422p})
        for (Range range : {Range::Limited, Range::Full})
            for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl}) {
                ColorInfo c;
                c.matrix = m; c.range = range; c.matrixTagged = c.rangeTagged = true;
                Frame frame(f, 97, 61, c);
                test::fillRandom(frame, rng);
                const std::string what = std::string(matrixName(m)) + " " + std::string(rangeName(range));
                compareEngines(frame.view(), everything(PreviewFilter::FalseColour), label(frame, what));
                ScopeSpec overridden = everything(PreviewFilter::Zebra);
                overridden.colorOverride.range = range == Range::Full ? Range::Limited : Range::Full;
                overridden.colorOverride.matrix = Matrix::Bt2020Ncl;
                compareEngines(frame.view(), overridden, label(frame, what + " overridden"));
            }
}

TEST(CudaEngine, SubsetsOfScopes) {
    std::mt19937 rng(9);
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::Yuv420p10, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10,
                          PixelFormat::Uyvy422, PixelFormat::Yuv444p, PixelFormat::Rgba, PixelFormat::Yuyv422}) {
        Frame frame(f, test::smallOnly() ? 301 : 1921, test::smallOnly() ? 77 : 1081);
        test::fillRandom(frame, rng);
        for (int variant = 0; variant < 13; ++variant) {
            ScopeSpec s;
            s.histogram = variant == 0 || variant == 5;
            s.waveform = variant == 1 || variant == 5;
            s.parade = variant == 2 || variant == 6;
            s.vectorscope = variant == 3 || variant == 6;
            s.stats = variant == 4 || variant == 7;
            s.paradeMode = variant == 6 ? ParadeMode::Ycbcr : ParadeMode::Rgb;
            s.displayImages = variant != 7;
            s.picture = variant != 5;
            // Nothing counted (Y'CbCr: the picture kernel): a preview with the picture (8), a
            // preview alone from the luma plane (9), false colour alone, written by the pass
            // (10), zebra alone (11: the picture kernel and the zebra kernel), zebra with the
            // waveform (12).
            if (variant >= 8 && variant <= 11) s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
            if (variant == 8 || variant == 9) s.preview = PreviewFilter::Edges;
            if (variant == 10) s.preview = PreviewFilter::FalseColour;
            if (variant == 11 || variant == 12) {
                s.preview = PreviewFilter::Zebra;
                s.filter.zebraIre = 70.0f;   // both zebras over random codes: stripes of each kind
                s.filter.zebraLowIre = 40.0f;
            }
            if (variant == 12) s.waveform = true;
            if (variant >= 9 && variant != 12) s.picture = false;
            compareEngines(frame.view(), s, label(frame, "subset " + std::to_string(variant)));
        }
    }
}

// RGB overlay and YRGB waveforms, whatever the parade is set to: both engines count the
// R'G'B' parade (countedSpec) and draw the same images, in every trace colour, with
// reference lines, the vectorscope at 1x and 2x.
TEST(CudaEngine, WaveformModesAndTraceColours) {
    std::mt19937 rng(17);
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10, PixelFormat::Rgba}) {
        Frame frame(f, 301, 77);
        test::fillRandom(frame, rng);
        for (int variant = 0; variant < 6; ++variant) {
            ScopeSpec s;
            s.waveformMode = variant % 2 ? WaveformMode::Yrgb : WaveformMode::RgbOverlay;
            s.traceColour = TraceColour(variant % 3);
            s.parade = variant < 3;
            s.paradeMode = ParadeMode::Ycbcr;
            s.vectorscopeZoom = 1 + variant % 2;
            s.referenceLines = *parseReferenceLines("5%,95%,16:8,940:10");
            ScopeResults gpu;
            compareEngines(frame.view(), frame.view(), s, label(frame, "waveform mode " + std::to_string(variant)), &gpu);
            EXPECT_EQ(gpu.paradeMode, ParadeMode::Rgb);
            EXPECT_FALSE(gpu.parade.empty());
        }
    }
}

// With nothing counted, Y'CbCr pictures come from the picture kernels (4:2:0 and 4:2:2:
// chunks of 4 columns, 128 columns apart; 4:4:4: one quad a thread): every width modulo 4 and 256
// around the chunks and warps, odd and even heights, the picture, the luma plane (edges
// preview) and the lookup preview (false colour) written by the pass.
TEST(CudaEngine, PictureKernelsAtEveryEdge) {
    std::mt19937 rng(11);
    for (PixelFormat f : test::allFormats()) {
        if (formatInfo(f).isRgb || formatInfo(f).layout == PixelLayout::Gray) continue;
        for (int w : {1, 2, 3, 5, 6, 7, 130, 255, 257, 258, 259, 387})
            for (int h : {1, 2, 3, 18}) {
                Frame frame(f, w, h);
                test::fillRandom(frame, rng);
                for (PreviewFilter p : {PreviewFilter::None, PreviewFilter::Edges, PreviewFilter::FalseColour}) {
                    ScopeSpec s;
                    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
                    s.preview = p;
                    s.picture = p != PreviewFilter::FalseColour;
                    compareEngines(frame.view(), s, label(frame, "picture kernel, preview " + std::string(previewName(p))));
                }
            }
    }
}

TEST(CudaEngine, PreviewFilterParameters) {
    std::mt19937 rng(11);
    // Widths and heights off the kernels' groups (8 pixels, 256 per warp, 2 and 16 rows).
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {2, 2}, {5, 3}, {7, 5}, {33, 17}, {199, 101}, {257, 19}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::Yuv422p10, PixelFormat::Rgb24})
        for (auto [w, h] : sizes) {
            Frame frame(f, w, h);
            if (w > 100) test::fillRuns(frame, rng); else test::fillRandom(frame, rng);
            const bool big = w > 1000;
            for (int r : {0, 1, 8, 32, 33, 100}) {
                if (big && r != 8 && r != 33) continue;
                ScopeSpec s = everything(PreviewFilter::BoxBlur);
                s.filter.blurRadius = r;
                compareEngines(frame.view(), s, label(frame, "box radius " + std::to_string(r)));
            }
            for (float sigma : {0.0f, 0.3f, 0.6f, 3.0f, 5.3f, 10.6f, 10.7f, 64.0f}) {
                if (big && sigma != 3.0f) continue;
                ScopeSpec s = everything(PreviewFilter::Gaussian);
                s.filter.gaussianSigma = sigma;
                compareEngines(frame.view(), s, label(frame, "gaussian sigma " + std::to_string(sigma)));
            }
            for (float t : {0.02f, 0.12f}) {
                ScopeSpec s = everything(PreviewFilter::FocusPeaking);
                s.filter.peakingThreshold = t;
                s.filter.peakingColour = t < 0.1f ? 0x80ff8000u : 0xff2020ffu;
                compareEngines(frame.view(), s, label(frame, "peaking " + std::to_string(t)));
            }
            for (auto [hi, lo] : {std::pair{95.0f, -1.0f}, std::pair{90.0f, 60.0f}}) {
                ScopeSpec s = everything(PreviewFilter::Zebra);
                s.filter.zebraIre = hi;
                s.filter.zebraLowIre = lo;
                compareEngines(frame.view(), s, label(frame, "zebra"));
            }
            for (PreviewFilter p : {PreviewFilter::Edges, PreviewFilter::Median3, PreviewFilter::FalseColour})
                compareEngines(frame.view(), everything(p), label(frame, std::string(previewName(p))));
        }
}

// Sobel gradients at chosen pixels: each (gx, gy) gets a 3x3 tile of its own (tiles 4
// columns by 3 rows, zero elsewhere) whose centre has exactly those gradients. With the
// top row 0 but for its right code t, the middle row 0 but for its right code e and the
// bottom row (0, s, v): gx = t + 2e + v, gy = 2s + v - t.
struct GradientTiles {
    static constexpr int kPerRow = 40;
    int width = 4 * kPerRow + 3;   // odd, and past a multiple of 8
    std::vector<std::array<int, 4>> tiles;   // t, e, s, v
    int height() const { return 3 * int((tiles.size() + kPerRow - 1) / kPerRow) + 2; }
    // Codes up to maxCode for (gx, gy) with gx >= gy >= 0 of equal parity (as every Sobel
    // gradient pair is); false where none fit.
    static bool codesFor(int gx, int gy, int maxCode, std::array<int, 4>& codes) {
        for (int sum = std::max(0, gx - 2 * maxCode); sum <= std::min(gx, 2 * maxCode); ++sum) {   // t + v
            if ((gx - sum) % 2 != 0) continue;
            for (int diff = std::max(-maxCode, gy - 2 * maxCode); diff <= std::min(maxCode, gy); ++diff) {   // v - t
                if ((sum + diff) % 2 != 0 || (gy - diff) % 2 != 0 || std::abs(diff) > sum || sum > 2 * maxCode - std::abs(diff)) continue;
                codes = {(sum - diff) / 2, (gx - sum) / 2, (gy - diff) / 2, (sum + diff) / 2};
                return true;
            }
        }
        return false;
    }
    // The realisable gradients whose squares lie nearest below `boundary` and at or above it.
    void addAround(int64_t boundary, int maxCode) {
        int64_t below = -1, above = std::numeric_limits<int64_t>::max();
        std::array<int, 4> belowCodes{}, aboveCodes{}, codes{};
        for (int gy = 0; int64_t(gy) * gy * 2 <= boundary + 8 * int64_t(maxCode); ++gy) {
            const int64_t rest = boundary - int64_t(gy) * gy;
            int gx = rest > 0 ? int(std::sqrt(double(rest))) + 2 : 0;
            while (gx > 0 && int64_t(gx) * gx >= rest) --gx;   // largest gx with g2 < boundary
            for (int g : {gx, gx - 1}) {
                const int64_t g2 = int64_t(g) * g + int64_t(gy) * gy;
                if (g >= gy && (g - gy) % 2 == 0 && g2 < boundary && g2 > below && codesFor(g, gy, maxCode, codes)) { below = g2; belowCodes = codes; }
            }
            for (int g : {gx + 1, gx + 2}) {
                const int gg = std::max(g, gy);
                const int64_t g2 = int64_t(gg) * gg + int64_t(gy) * gy;
                if ((gg - gy) % 2 == 0 && g2 >= boundary && g2 < above && codesFor(gg, gy, maxCode, codes)) { above = g2; aboveCodes = codes; }
            }
        }
        if (below >= 0) tiles.push_back(belowCodes);
        if (above != std::numeric_limits<int64_t>::max()) tiles.push_back(aboveCodes);
    }
    // Luma codes of the tiles, row by row (width x height()).
    std::vector<int> codes() const {
        std::vector<int> v(size_t(width) * size_t(height()), 0);
        for (size_t i = 0; i < tiles.size(); ++i) {
            const int x = 4 * int(i % kPerRow) + 1, y = 3 * int(i / kPerRow) + 1;
            const auto [t, e, s, b] = tiles[i];
            v[size_t(y - 1) * size_t(width) + size_t(x + 1)] = t;
            v[size_t(y) * size_t(width) + size_t(x + 1)] = e;
            v[size_t(y + 1) * size_t(width) + size_t(x)] = s;
            v[size_t(y + 1) * size_t(width) + size_t(x + 1)] = b;
        }
        return v;
    }
};

// Gradients either side of every edge grey's first square and of the focus peaking
// thresholds' first squares: the GPU's float estimates land on the boundaries there and
// must settle them as the CPU's double arithmetic does.
GradientTiles boundaryTiles(int depth, const std::vector<float>& thresholds) {
    GradientTiles g;
    const int maxCode = (1 << depth) - 1;
    for (int grey = 1; grey < 256; ++grey) g.addAround(sobelEdgeFirstSquare(depth, grey), maxCode);
    for (float t : thresholds) g.addAround(focusPeakingFirstSquare(depth, t), maxCode);
    return g;
}

// A threshold whose first square is a gradient's own square (k^2, k even: gx = k, gy = 0),
// so that a pixel lies exactly on it (most first squares are odd, and no Sobel g2 is).
float thresholdOnASquare(int depth) {
    const int maxCode = (1 << depth) - 1;
    for (int k = 100;; k += 2) {
        const float t = float(k) / float(4 * maxCode);
        if (focusPeakingFirstSquare(depth, t) == int64_t(k) * k) return t;
    }
}

TEST(CudaEngine, SobelAtEveryBoundary) {
    for (PixelFormat f : {PixelFormat::Gray8, PixelFormat::Gray10, PixelFormat::Yuv420p10}) {
        const int depth = formatInfo(f).bitDepth, maxCode = (1 << depth) - 1;
        const std::vector<float> thresholds = {0.12f, thresholdOnASquare(depth), 0.3f};
        const GradientTiles tiles = boundaryTiles(depth, thresholds);
        const std::vector<int> codes = tiles.codes();
        Frame frame(f, tiles.width, tiles.height());
        for (int y = 0; y < frame.height(); ++y)
            for (int x = 0; x < frame.width(); ++x) frame.setPixel(x, y, codes[size_t(y) * size_t(frame.width()) + size_t(x)], maxCode / 2, maxCode / 3);
        // The previews must be identical, not only within the comparison's one code value.
        ScopeResults cpu;
        auto compareExactly = [&](const ScopeSpec& spec, const std::string& what) {
            ScopeResults gpu;
            compareEngines(frame.view(), frame.view(), spec, label(frame, what), &gpu);
            ASSERT_TRUE(cpuEngine().process(frame.view(), spec, cpu).ok());
            EXPECT_TRUE(gpu.preview.pixels == cpu.preview.pixels) << label(frame, what) << ": previews differ";
        };
        compareExactly(everything(PreviewFilter::Edges), "edges at every grey's boundary");
        // The content is what it claims: every grey occurs.
        std::vector<bool> seen(256, false);
        for (size_t i = 0; i < cpu.preview.pixels.size(); i += 4) seen[cpu.preview.pixels[i]] = true;
        EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 256) << label(frame, "greys");
        for (float t : thresholds)
            for (uint32_t colour : {0xff2020ffu, 0x80ff8000u, 0x01ffffffu}) {
                ScopeSpec s = everything(PreviewFilter::FocusPeaking);
                s.filter.peakingThreshold = t;
                s.filter.peakingColour = colour;
                compareExactly(s, "peaking at its threshold " + std::to_string(t));
            }
    }
}

// 12-bit luma (no engine format has it): the filters themselves against core's.
TEST(CudaEngine, SobelFiltersAt12Bits) {
    const int depth = 12;
    const GradientTiles tiles = boundaryTiles(depth, {0.12f});
    const std::vector<int> codes = tiles.codes();
    const int w = tiles.width, h = tiles.height();
    LumaPlane luma{w, h, depth, Range::Full, {}, Transfer::Bt709};
    for (int c : codes) luma.values.push_back(uint16_t(c));
    RgbaImage picture;
    picture.resize(w, h);
    std::mt19937 rng(23);
    for (auto& b : picture.pixels) b = uint8_t(rng());
    cuda::PitchedBuffer dLuma, dPicture, dOut;
    ASSERT_TRUE(dLuma.reserve(size_t(w) * 2, size_t(h)).ok());
    ASSERT_TRUE(dPicture.reserve(size_t(w) * 4, size_t(h)).ok());
    ASSERT_TRUE(dOut.reserve(size_t(w) * 4, size_t(h)).ok());
    ASSERT_EQ(cudaMemcpy2D(dLuma.get(), dLuma.pitch(), luma.values.data(), size_t(w) * 2, size_t(w) * 2, size_t(h), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy2D(dPicture.get(), dPicture.pitch(), picture.pixels.data(), size_t(w) * 4, size_t(w) * 4, size_t(h), cudaMemcpyHostToDevice), cudaSuccess);
    for (uint32_t colour : {0u, 0xff2020ffu, 0x80ff8000u}) {
        ScopeSpec s = everything(colour == 0 ? PreviewFilter::Edges : PreviewFilter::FocusPeaking);
        s.filter.peakingColour = colour;
        RgbaImage want, got;
        if (colour == 0) sobelEdges(luma, want);
        else focusPeaking(picture, luma, s.filter.peakingThreshold, colour, want);
        cuda::PreviewFilters filters;
        ASSERT_TRUE(filters.prepare(s, w, h, depth, Range::Full, nullptr).ok());
        ASSERT_EQ(filters.enqueue(dPicture.get(), dPicture.pitch(), dLuma.get<uint16_t>(), dLuma.pitch(), cuda::ImageSink{dOut.get(), dOut.pitch(), 0}, nullptr),
                  cudaSuccess);
        got.resize(w, h);
        ASSERT_EQ(cudaMemcpy2D(got.pixels.data(), size_t(w) * 4, dOut.get(), dOut.pitch(), size_t(w) * 4, size_t(h), cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_TRUE(want.pixels == got.pixels) << "12-bit " << previewName(s.preview) << " colour " << colour;
    }
    // Deeper luma needs squares past 32 bits: refused, not miscomputed.
    cuda::PreviewFilters deep;
    EXPECT_FALSE(deep.prepare(everything(PreviewFilter::Edges), w, h, 16, Range::Full, nullptr).ok());
}

// The box blur against core's boxBlur() run on the GPU's own picture, byte for byte (exact
// sums, the same rounding, the centre's alpha). Content: random, and regions of 255 and of 0
// (the largest sums every packed field must hold, and zero lanes that must not borrow).
enum class BoxContent { Random, Extremes, White, Checker };
Frame boxFrame(int w, int h, BoxContent content, std::mt19937& rng) {
    Frame frame(PixelFormat::Rgb24, w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int v[3] = {int(rng() & 255u), int(rng() & 255u), int(rng() & 255u)};
            const int region = (x / 37 + y / 23) % 3;   // Extremes: white, black and random blocks
            if (content == BoxContent::White || (content == BoxContent::Extremes && region == 0)) v[0] = v[1] = v[2] = 255;
            if (content == BoxContent::Extremes && region == 1) v[0] = v[1] = v[2] = 0;
            if (content == BoxContent::Checker) v[0] = v[1] = v[2] = ((x ^ y) & 1) ? 255 : 0;
            frame.setPixel(x, y, v[0], v[1], v[2]);
        }
    return frame;
}
void expectExactBoxBlur(const Frame& frame, int r, const std::string& where) {
    ScopeSpec s = everything(PreviewFilter::BoxBlur);
    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
    s.filter.blurRadius = r;
    ScopeResults gpu;
    const Status st = cudaEngine()->process(frame.view(), s, gpu);
    ASSERT_TRUE(st.ok()) << where << ": " << st.message();
    ASSERT_EQ(gpu.picture.width, frame.width()) << where;
    RgbaImage expected;
    boxBlur(gpu.picture, r, expected);
    EXPECT_TRUE(test::imagesClose(gpu.preview, expected, 0, "box blur")) << label(frame, where + " radius " + std::to_string(r));
}

TEST(CudaEngine, BoxBlurEveryRadiusExact) {
    std::mt19937 rng(21);
    for (BoxContent content : {BoxContent::Random, BoxContent::Extremes, BoxContent::White, BoxContent::Checker}) {
        const Frame frame = boxFrame(67, 45, content, rng);
        if (content == BoxContent::White) {   // the extremes reach the blur unchanged
            ScopeResults gpu;
            ASSERT_TRUE(cudaEngine()->process(frame.view(), everything(PreviewFilter::BoxBlur), gpu).ok());
            for (size_t i = 0; i < gpu.picture.pixels.size(); ++i) {
                if (i % 4 != 3) { ASSERT_EQ(gpu.picture.pixels[i], 255) << "picture byte " << i; }
            }
        }
        for (int r = 1; r <= 33; ++r) expectExactBoxBlur(frame, r, "content " + std::to_string(int(content)));
    }
}

// Frames narrower or shorter than the window, a strip (256 - 2 ceil4(r) outputs) or a band
// (16 rows at these sizes) or a batch of 8 rows; widths at the strip boundaries; heights at
// the batch and band boundaries; frames tall enough for the unclamped middle batches.
TEST(CudaEngine, BoxBlurEdgesStripsAndBandsExact) {
    std::mt19937 rng(22);
    for (auto [w, h] : {std::pair{1, 1}, {2, 70}, {300, 3}, {1, 200}, {200, 1}, {5, 5}, {67, 2}})
        for (int r : {1, 7, 8, 31, 32}) expectExactBoxBlur(boxFrame(w, h, BoxContent::Extremes, rng), r, "small");
    for (int r : {3, 8, 32}) {
        const int outputs = 256 - 2 * ((r + 3) / 4 * 4);
        for (int w : {outputs - 1, outputs, outputs + 1, 2 * outputs + 3, 3 * outputs - 5})
            expectExactBoxBlur(boxFrame(w, 40, BoxContent::Extremes, rng), r, "strips");
    }
    for (int h : {7, 8, 9, 15, 16, 17, 31, 33, 65, 250})
        for (int r : {1, 8, 32}) expectExactBoxBlur(boxFrame(100, h, BoxContent::Extremes, rng), r, "bands");
    for (int r : {2, 8, 16, 32}) expectExactBoxBlur(boxFrame(261, 517, BoxContent::Random, rng), r, "random");
    if (test::smallOnly()) return;
    for (BoxContent content : {BoxContent::Random, BoxContent::Extremes})
        for (int r : {8, 32}) expectExactBoxBlur(boxFrame(3840, 2160, content, rng), r, "4K");
}

TEST(CudaEngine, LargeFrames8K) {
    if (test::smallOnly()) GTEST_SKIP() << "CS_CUDA_TEST_SMALL";
    std::mt19937 rng(13);
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010}) {
        Frame frame(f, 7680, 4320);
        test::fillRandom(frame, rng);
        compareEngines(frame.view(), everything(PreviewFilter::FalseColour), label(frame, "random"));
    }
}

// A frame in device memory (as NVDEC delivers it) gives exactly the host path's results.
TEST(CudaEngine, DeviceFramesEqualHostFrames) {
    std::mt19937 rng(17);
    const int w = test::smallOnly() ? 322 : 1920, h = test::smallOnly() ? 181 : 1080;
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p10})
        for (bool misaligned : {false, true}) {
            Frame frame(f, w, h);
            test::fillRandom(frame, rng);
            const FrameView host = frame.view();
            const auto& info = formatInfo(f);
            FrameView dev = host;
            dev.onDevice = true;
            std::vector<void*> allocations;
            for (int p = 0; p < info.planeCount; ++p) {
                const int rows = test::planeRowsOf(f, h, p);
                // Misaligned: a pitch that is not a multiple of 16 bytes (the engine must realign).
                const size_t pitch = size_t(host.pitch[size_t(p)]) + (misaligned ? 6 : 0);
                void* mem = nullptr;
                ASSERT_EQ(cudaMalloc(&mem, pitch * size_t(rows)), cudaSuccess);
                allocations.push_back(mem);
                ASSERT_EQ(cudaMemcpy2D(mem, pitch, host.data[size_t(p)], size_t(host.pitch[size_t(p)]), size_t(host.pitch[size_t(p)]),
                                       size_t(rows), cudaMemcpyHostToDevice),
                          cudaSuccess);
                dev.data[size_t(p)] = static_cast<const uint8_t*>(mem);
                dev.pitch[size_t(p)] = std::ptrdiff_t(pitch);
            }
            ScopeResults fromDevice, fromHost;
            const ScopeSpec spec = everything(PreviewFilter::Gaussian);
            const std::string where = label(frame, misaligned ? "device, misaligned pitch" : "device");
            compareEngines(dev, host, spec, where, &fromDevice);
            ASSERT_TRUE(cudaEngine()->process(host, spec, fromHost).ok());
            test::expectSameResults(fromDevice, fromHost, where + " vs host path", 0);
            for (void* m : allocations) cudaFree(m);
        }
}

TEST(CudaEngine, BadInputIsAnErrorNotACrash) {
    CudaEngine* e = cudaEngine();
    ScopeResults r;
    Frame frame(PixelFormat::Nv12, 64, 32);
    FrameView v = frame.view();
    v.onDevice = true;   // a host pointer claimed to be device memory
    const Status s = e->process(v, everything(), r);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("not CUDA device memory"), std::string::npos) << s.message();
    FrameView empty = frame.view();
    empty.width = 0;
    EXPECT_FALSE(e->process(empty, everything(), r).ok());
    FrameView missing = frame.view();
    missing.data[1] = nullptr;
    EXPECT_FALSE(e->process(missing, everything(), r).ok());
    // The engine still works afterwards.
    frame.fill(16, 128, 128);
    EXPECT_TRUE(e->process(frame.view(), everything(), r).ok());
    const auto none = makeCudaEngine(1000);
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.message().find("does not exist"), std::string::npos) << none.message();
}

TEST(CudaEngine, BuffersFollowChangingFrames) {
    std::mt19937 rng(19);
    for (auto [f, w, h] : {std::tuple{PixelFormat::P010, 640, 360}, std::tuple{PixelFormat::Nv12, 2, 2},
                           std::tuple{PixelFormat::Rgb24, 1001, 3}, std::tuple{PixelFormat::P010, 640, 360},
                           std::tuple{PixelFormat::Yuv444p10, 77, 512}}) {
        Frame frame(f, w, h);
        test::fillRandom(frame, rng);
        compareEngines(frame.view(), everything(PreviewFilter::Median3), label(frame, "sequence"));
    }
}

// Headless: the scope images are drawn on the GPU (cuda/ScopeImages.h); with ScopeSpec::counts
// off no large counts come back, and the images, histograms and statistics are still the CPU
// engine's exactly.
TEST(CudaEngine, HeadlessImagesWithoutCounts) {
    std::mt19937 rng(23);
    std::vector<std::tuple<PixelFormat, int, int>> frames = {{PixelFormat::Yuv420p, 640, 360}, {PixelFormat::P010, 333, 200}};
    if (!test::smallOnly()) frames.push_back({PixelFormat::Yuv420p10, 3840, 2160});
    for (auto [f, w, h] : frames) {
        Frame frame(f, w, h);
        test::fillRuns(frame, rng);
        ScopeSpec s = everything();
        s.counts = false;
        ScopeResults gpu, cpu;
        ASSERT_TRUE(cudaEngine()->process(frame.view(), s, gpu).ok());
        ASSERT_TRUE(cpuEngine().process(frame.view(), s, cpu).ok());
        const std::string where = label(frame, "no counts");
        EXPECT_TRUE(gpu.waveform.empty() && gpu.parade.empty() && gpu.vectorscope.empty()) << where;
        cpu.waveform.clear();
        cpu.parade.clear();
        cpu.vectorscope.clear();
        test::expectSameResults(gpu, cpu, where);
    }
}

// The overlay tables follow the spec and the frame: sizes, parade mode, scales, zoom, gains,
// waveform mode, trace colour, reference lines, depth and colour change from call to call, and every image stays the CPU engine's.
TEST(CudaEngine, ScopeImagesFollowChangingSpecs) {
    std::mt19937 rng(29);
    ColorInfo bt2020Full;
    bt2020Full.matrix = Matrix::Bt2020Ncl;
    bt2020Full.range = Range::Full;
    Frame eight(PixelFormat::Nv12, 500, 300), ten(PixelFormat::Yuv422p10, 500, 300, bt2020Full);
    test::fillRuns(eight, rng);
    test::fillRuns(ten, rng);
    for (int variant = 0; variant < 8; ++variant) {
        ScopeSpec s = everything();
        s.picture = variant % 3 == 0;
        s.scopeWidth = variant % 2 ? 640 : 1024;
        s.scopeHeight = variant % 2 ? 300 : 540;
        s.vectorscopeSize = variant % 2 ? 333 : 540;
        s.paradeMode = variant & 2 ? ParadeMode::Ycbcr : ParadeMode::Rgb;
        s.histogramScale = variant & 4 ? HistogramScale::Log : HistogramScale::Linear;
        s.waveformScale = variant & 2 ? WaveformScale::CodeValue : WaveformScale::Ire;
        s.vectorscopeZoom = variant & 4 ? 2 : 1;
        s.waveformGain = variant == 5 ? 4.0f : 1.0f;
        s.vectorscopeGain = variant == 6 ? 0.25f : 1.0f;
        s.histogramGain = variant == 7 ? 3.0f : 1.0f;
        s.histogram = variant != 3;
        s.parade = variant != 4;
        s.waveformMode = WaveformMode(variant % 3);   // the waveform's panels and overlay change too
        s.traceColour = TraceColour((variant / 2) % 3);
        if (variant & 1) s.referenceLines = *parseReferenceLines(variant & 2 ? "5%,95%" : "16:8,940:10");
        const Frame& frame = variant % 2 ? ten : eight;
        compareEngines(frame.view(), s, label(frame, "spec variant " + std::to_string(variant)));
    }
}

// An image too large for overlay tables on the device (here 8192 x 2100) is drawn by core on
// the host from counts copied back for it, even with ScopeSpec::counts off.
TEST(CudaEngine, HugeScopeImagesComeFromCore) {
    if (test::smallOnly()) GTEST_SKIP() << "CS_CUDA_TEST_SMALL";
    std::mt19937 rng(31);
    Frame frame(PixelFormat::Yuv420p10, 320, 180);
    test::fillRuns(frame, rng);
    ScopeSpec s = everything();
    s.scopeWidth = 8192;
    s.scopeHeight = 2100;
    s.counts = false;
    ScopeResults gpu, cpu;
    ASSERT_TRUE(cudaEngine()->process(frame.view(), s, gpu).ok());
    ASSERT_TRUE(cpuEngine().process(frame.view(), s, cpu).ok());
    EXPECT_TRUE(test::imagesClose(gpu.waveformImage, cpu.waveformImage, 0, "waveformImage"));
    EXPECT_TRUE(test::imagesClose(gpu.paradeImage, cpu.paradeImage, 0, "paradeImage"));
    EXPECT_TRUE(test::imagesClose(gpu.histogramImage, cpu.histogramImage, 0, "histogramImage"));
    EXPECT_TRUE(test::imagesClose(gpu.vectorscopeImage, cpu.vectorscopeImage, 0, "vectorscopeImage"));
}

// The pipeline counts into two sets of accumulators by turns and clears the one it is not
// using beside the preview: every frame of a run must start from zero, whatever the frame
// before asked for (here the vectorscope off then on again, and one frame three times).
TEST(CudaEngine, AccumulatorsStartCleanEveryFrame) {
    std::mt19937 rng(23);
    Frame a(PixelFormat::P010, 322, 180), b(PixelFormat::P010, 322, 180);
    test::fillRandom(a, rng);
    test::fillRandom(b, rng);
    ScopeSpec noVectorscope = everything(PreviewFilter::Zebra);
    noVectorscope.vectorscope = false;
    compareEngines(a.view(), everything(PreviewFilter::Zebra), label(a, "first"));
    compareEngines(b.view(), noVectorscope, label(b, "no vectorscope"));
    compareEngines(a.view(), everything(PreviewFilter::Zebra), label(a, "vectorscope again"));
    for (int i = 0; i < 3; ++i) compareEngines(b.view(), everything(PreviewFilter::None), label(b, "repeat " + std::to_string(i)));
}

// A host frame's planes in pitched device memory (as the engine's own buffers), for the
// tests that call cuda::scopePass directly.
class DevicePlanes {
public:
    DevicePlanes() = default;
    DevicePlanes(const DevicePlanes&) = delete;
    DevicePlanes& operator=(const DevicePlanes&) = delete;
    ~DevicePlanes() { for (void* m : memory_) cudaFree(m); }
    ::testing::AssertionResult upload(const Frame& frame) {
        const auto& info = formatInfo(frame.format());
        for (int p = 0; p < info.planeCount; ++p) {
            const size_t rows = size_t(test::planeRowsOf(frame.format(), frame.height(), p)), bytes = size_t(frame.pitch(p));
            void* m = nullptr;
            size_t pitch = 0;
            if (cudaMallocPitch(&m, &pitch, bytes, rows) != cudaSuccess) return ::testing::AssertionFailure() << "cudaMallocPitch";
            memory_.push_back(m);
            if (cudaMemcpy2D(m, pitch, frame.plane(p), bytes, bytes, rows, cudaMemcpyHostToDevice) != cudaSuccess)
                return ::testing::AssertionFailure() << "cudaMemcpy2D";
            planes_.data[p] = static_cast<const uint8_t*>(m);
            planes_.pitch[p] = pitch;
        }
        return ::testing::AssertionSuccess();
    }
    const cuda::PlaneSet& planes() const { return planes_; }

private:
    cuda::PlaneSet planes_{};
    std::vector<void*> memory_;
};

cuda::ScopeColour scopeColourOf(const Frame& frame) {
    const ColorInfo c = frame.view().color;
    const int depth = formatInfo(frame.format()).bitDepth;
    return {makeYuvToRgb(c.matrix, c.range, depth, 8), makeYuvToRgb(c.matrix, c.range, depth, depth), makeRgbToYuv(c.matrix, c.range, 8)};
}

// cuda::scopePass asked for the luma histogram alone into d_hist (levels words; with
// d_scratch, the one-launch path that writes d_hist whole), read back.
::testing::AssertionResult lumaHistogramAlone(const Frame& frame, uint32_t* d_hist, uint32_t* d_scratch, std::vector<uint32_t>& hist) {
    DevicePlanes planes;
    if (auto r = planes.upload(frame); !r) return r;
    cuda::ScopeOutputs o;
    o.d_histY = d_hist;
    o.d_histScratch = d_scratch;
    const cudaError_t e =
        cuda::scopePass(planes.planes(), frame.format(), frame.width(), frame.height(), scopeColourOf(frame), cuda::kScopeHistogram, o, nullptr);
    if (e != cudaSuccess) return ::testing::AssertionFailure() << "scopePass: " << cudaGetErrorString(e);
    hist.assign(size_t(levelsOf(frame.format())), 0u);
    if (cudaMemcpy(hist.data(), d_hist, hist.size() * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return ::testing::AssertionFailure() << "cudaMemcpy";
    return ::testing::AssertionSuccess();
}

// The luma histogram asked of cuda::scopePass alone runs its own kernel (16-byte loads,
// lane-owned counters): the same counts as the CPU engine's, every format, random and solid.
TEST(ScopePass, LumaHistogramAloneMatchesCpu) {
    std::mt19937 rng(29);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {17, 3}, {258, 131}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p10, PixelFormat::Yuv444p,
                          PixelFormat::Gray8, PixelFormat::Gray10, PixelFormat::Uyvy422, PixelFormat::Yuyv422, PixelFormat::Rgb24})
        for (auto [w, h] : sizes)
            for (bool solid : {false, true}) {
                Frame frame(f, w, h);
                if (solid) frame.fill(levelsOf(f) / 3, levelsOf(f) / 2, levelsOf(f) / 2);
                else test::fillRandom(frame, rng);
                const std::string where = label(frame, solid ? "solid, luma histogram alone" : "random, luma histogram alone");
                ScopeResults cpu;
                ASSERT_TRUE(cpuEngine().process(frame.view(), ScopeSpec{}, cpu).ok()) << where;
                const int levels = levelsOf(f);
                uint32_t* d_hist = nullptr;
                ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_hist), size_t(levels) * 4), cudaSuccess);
                ASSERT_EQ(cudaMemset(d_hist, 0, size_t(levels) * 4), cudaSuccess);
                std::vector<uint32_t> hist;
                EXPECT_TRUE(lumaHistogramAlone(frame, d_hist, nullptr, hist)) << where;
                EXPECT_TRUE(test::sameCounts(hist, cpu.histY, "histY")) << where;
                cudaFree(d_hist);
            }
}

// With scratch memory (ScopeOutputs::d_histScratch) the luma histogram alone is written
// whole: the output starts as garbage here and needs no clearing, and the pass leaves the
// scratch zero for the next frame (checked over consecutive frames). Rgb24 takes the
// general kernel, before which scopePass must have cleared the output itself.
TEST(ScopePass, LumaHistogramWithScratchWritesWholeHistogram) {
    std::mt19937 rng(31);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {37, 23}, {258, 131}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p10, PixelFormat::Gray8, PixelFormat::Uyvy422,
                          PixelFormat::Yuyv422, PixelFormat::Rgb24})
        for (auto [w, h] : sizes) {
            const int levels = levelsOf(f);
            uint32_t *d_hist = nullptr, *d_scratch = nullptr;
            const size_t scratchBytes = cuda::lumaHistogramScratchBytes(f);
            ASSERT_EQ(scratchBytes, size_t(levels) * 8);
            ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_hist), size_t(levels) * 4), cudaSuccess);
            ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_scratch), scratchBytes), cudaSuccess);
            ASSERT_EQ(cudaMemset(d_scratch, 0, scratchBytes), cudaSuccess);
            for (int frameNo = 0; frameNo < 3; ++frameNo) {
                Frame frame(f, w, h);
                if (frameNo == 1) frame.fill(levels / 5, levels / 2, levels / 2);
                else test::fillRandom(frame, rng);
                const std::string where = label(frame, "luma histogram with scratch, frame " + std::to_string(frameNo));
                ScopeResults cpu;
                ASSERT_TRUE(cpuEngine().process(frame.view(), ScopeSpec{}, cpu).ok()) << where;
                ASSERT_EQ(cudaMemset(d_hist, 0xab, size_t(levels) * 4), cudaSuccess);   // garbage, not cleared
                std::vector<uint32_t> hist, scratch(scratchBytes / 4);
                EXPECT_TRUE(lumaHistogramAlone(frame, d_hist, d_scratch, hist)) << where;
                ASSERT_EQ(cudaMemcpy(scratch.data(), d_scratch, scratchBytes, cudaMemcpyDeviceToHost), cudaSuccess);
                EXPECT_TRUE(test::sameCounts(hist, cpu.histY, "histY")) << where;
                EXPECT_EQ(std::count(scratch.begin(), scratch.end(), 0u), std::ptrdiff_t(scratch.size())) << where << ": scratch left dirty";
            }
            cudaFree(d_hist);
            cudaFree(d_scratch);
        }
}

// An 8K frame is several batches per warp for the luma histogram kernel (a 4K one is one),
// 8- and 10-bit and packed 4:2:2; with scratch, every bin is completed by whichever block
// adds to it last. Reference: the luma samples counted here.
TEST(ScopePass, LumaHistogram8KSeveralBatchesPerWarp) {
    if (test::smallOnly()) GTEST_SKIP() << "8K frames: not with CS_CUDA_TEST_SMALL";
    std::mt19937 rng(37);
    const int w = 7680, h = 4320;
    for (PixelFormat f : {PixelFormat::Gray8, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Uyvy422}) {
        const int levels = levelsOf(f);
        const size_t scratchBytes = cuda::lumaHistogramScratchBytes(f);
        uint32_t *d_hist = nullptr, *d_scratch = nullptr;
        ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_hist), size_t(levels) * 4), cudaSuccess);
        ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_scratch), scratchBytes), cudaSuccess);
        ASSERT_EQ(cudaMemset(d_scratch, 0, scratchBytes), cudaSuccess);
        for (bool solid : {true, false}) {
            Frame frame(f, w, h);
            if (solid) frame.fill(levels / 3, levels / 2, levels / 2);
            else test::fillRandom(frame, rng);
            std::vector<uint32_t> expected(size_t(levels), 0u);
            for (int y = 0; y < h; ++y) {
                const uint8_t* row = frame.plane(0) + size_t(y) * size_t(frame.pitch(0));
                for (int x = 0; x < w; ++x) {
                    if (f == PixelFormat::P010) ++expected[size_t((row[2 * x] | (row[2 * x + 1] << 8)) >> 6)];
                    else if (f == PixelFormat::Uyvy422) ++expected[row[2 * x + 1]];
                    else ++expected[row[x]];
                }
            }
            const std::string where = label(frame, solid ? "solid" : "random");
            for (uint32_t* scratch : {static_cast<uint32_t*>(nullptr), d_scratch}) {
                ASSERT_EQ(cudaMemset(d_hist, scratch ? 0xab : 0, size_t(levels) * 4), cudaSuccess);
                std::vector<uint32_t> hist;
                EXPECT_TRUE(lumaHistogramAlone(frame, d_hist, scratch, hist)) << where;
                EXPECT_TRUE(test::sameCounts(hist, expected, "histY")) << where << (scratch ? ", with scratch" : "");
            }
        }
        cudaFree(d_hist);
        cudaFree(d_scratch);
    }
}


// An RGBA picture (and, for the luma previews, its luma codes) in pitched device memory and
// the preview `spec` asks for, read back: written into pitched memory, or into a surface (an
// array, as the GL view's mapped texture is), each filled with `poison` first so that a pixel
// left unwritten shows. `tensor`: whether a Gaussian ran on tensor cores.
::testing::AssertionResult previewOnDevice(const RgbaImage& in, const LumaPlane* luma, const ScopeSpec& spec, bool surface, uint8_t poison,
                                           RgbaImage& out, bool* tensor = nullptr) {
    const int w = in.width, h = in.height;
    const size_t rowBytes = size_t(w) * 4;
    void *d_in = nullptr, *d_out = nullptr, *d_luma = nullptr;
    size_t inPitch = 0, outPitch = 0, lumaPitch = 0;
    cudaArray_t array = nullptr;
    cudaSurfaceObject_t surf = 0;
    auto release = [&] {
        cudaFree(d_in);
        cudaFree(d_out);
        cudaFree(d_luma);
        if (surf) cudaDestroySurfaceObject(surf);
        if (array) cudaFreeArray(array);
    };
    auto fail = [&](const char* what, const std::string& why) {
        release();
        return ::testing::AssertionFailure() << what << ": " << why;
    };
    cudaError_t e = cudaMallocPitch(&d_in, &inPitch, rowBytes, size_t(h));
    if (e == cudaSuccess) e = cudaMemcpy2D(d_in, inPitch, in.pixels.data(), rowBytes, rowBytes, size_t(h), cudaMemcpyHostToDevice);
    if (e == cudaSuccess && luma) {
        const size_t lumaBytes = size_t(w) * 2;
        e = cudaMallocPitch(&d_luma, &lumaPitch, lumaBytes, size_t(h));
        if (e == cudaSuccess) e = cudaMemcpy2D(d_luma, lumaPitch, luma->values.data(), lumaBytes, lumaBytes, size_t(h), cudaMemcpyHostToDevice);
    }
    if (e != cudaSuccess) return fail("input", cudaGetErrorString(e));
    cuda::ImageSink sink;
    const std::vector<uint8_t> poisoned(in.pixels.size(), poison);
    if (surface) {
        const cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
        e = cudaMallocArray(&array, &desc, size_t(w), size_t(h), cudaArraySurfaceLoadStore);
        if (e == cudaSuccess) e = cudaMemcpy2DToArray(array, 0, 0, poisoned.data(), rowBytes, rowBytes, size_t(h), cudaMemcpyHostToDevice);
        cudaResourceDesc res{};
        res.resType = cudaResourceTypeArray;
        res.res.array.array = array;
        if (e == cudaSuccess) e = cudaCreateSurfaceObject(&surf, &res);
        sink.surface = surf;
    } else {
        e = cudaMallocPitch(&d_out, &outPitch, rowBytes, size_t(h));
        if (e == cudaSuccess) e = cudaMemset2D(d_out, outPitch, poison, rowBytes, size_t(h));
        sink.d_pixels = static_cast<uint8_t*>(d_out);
        sink.pitch = outPitch;
    }
    if (e != cudaSuccess) return fail("output", cudaGetErrorString(e));
    cuda::PreviewFilters filters;
    const Status prepared = filters.prepare(spec, w, h, luma ? luma->bitDepth : 8, luma ? luma->range : Range::Limited, nullptr);
    if (!prepared.ok()) return fail("prepare", prepared.message());
    if (tensor) *tensor = filters.gaussianOnTensorCores();
    e = filters.enqueue(static_cast<const uint8_t*>(d_in), inPitch, static_cast<const uint16_t*>(d_luma), lumaPitch, sink, nullptr);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return fail("enqueue", cudaGetErrorString(e));
    out.resize(w, h);
    e = surface ? cudaMemcpy2DFromArray(out.pixels.data(), rowBytes, array, 0, 0, rowBytes, size_t(h), cudaMemcpyDeviceToHost)
                : cudaMemcpy2D(out.pixels.data(), rowBytes, d_out, outPitch, rowBytes, size_t(h), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return fail("read back", cudaGetErrorString(e));
    release();
    return ::testing::AssertionSuccess();
}
::testing::AssertionResult gaussianOnDevice(const RgbaImage& in, float sigma, bool surface, uint8_t poison, RgbaImage& out, bool& tensor) {
    ScopeSpec spec;
    spec.preview = PreviewFilter::Gaussian;
    spec.filter.gaussianSigma = sigma;
    return previewOnDevice(in, nullptr, spec, surface, poison, out, &tensor);
}

// Random bytes (alpha too); `flat`: a band of 255 across the top third and a block of 0 below
// it (hard edges on every side), random elsewhere.
RgbaImage gaussianTestPicture(int w, int h, bool flat, std::mt19937& rng) {
    RgbaImage img;
    img.resize(w, h);
    for (uint8_t& b : img.pixels) b = uint8_t(rng());
    if (flat)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int v = y < h / 3 ? 255 : (y < 2 * h / 3 && x >= w / 4 && x < 3 * w / 4 ? 0 : -1);
                if (v >= 0) for (int c = 0; c < 3; ++c) img.at(x, y)[c] = uint8_t(v);
            }
    return img;
}

// Whether this device runs the build's sm_90 code (where the tensor-core Gaussian must be the
// one that runs radii <= 16); older GPUs run it from sm_80 on only through their own build.
bool runsSm90Code() {
    int device = 0, major = 0;
    return cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
           major >= 9;
}

// The Gaussian preview kernels alone, on RGBA pictures uploaded as they are, against core's
// gaussianBlur on the same pixels (nothing converts between them): byte for byte from the
// exact kernels (radius > 16, or no tensor cores), within one code value from the tensor-core
// kernel. Every radius from 1 to 34 (both tensor-core variants, each compiled class of the
// strip kernel, the radii padded up to the next class, the two-pass path past 32), sizes that
// are not multiples of the kernels' 16 and 32 columns and 16- and 32-row blocks, ones that
// have several bands of rows, random content and flat 0 / 255 regions; pitched output twice
// (two poison values: every pixel written) and a surface for a few radii.
TEST(CudaPreview, GaussianMatchesCore) {
    std::mt19937 rng(41);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {2, 70}, {33, 17}, {300, 3}, {67, 45}, {257, 300}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    const bool sm90 = runsSm90Code();
    for (auto [w, h] : sizes)
        for (bool flat : {false, true}) {
            const RgbaImage picture = gaussianTestPicture(w, h, flat, rng);
            const bool small = w * h <= 4000;
            for (int r = 1; r <= 34; ++r) {
                // Every radius at the small sizes (and 257x300 unless CS_CUDA_TEST_SMALL), else a few.
                const bool few = r == 1 || r == 8 || r == 9 || r == 13 || r == 16 || r == 17 || r == 32 || r == 33;
                if (w > 1000 ? (r != 8 && r != 9 && r != 32) : (!small && test::smallOnly() && !few)) continue;
                const float sigma = (float(r) - 0.5f) / 3.0f;   // radius ceil(3 sigma) = r
                RgbaImage expected;
                gaussianBlur(picture, sigma, expected);
                const std::string where = std::to_string(w) + "x" + std::to_string(h) + (flat ? " flat" : " random") + " radius " +
                                          std::to_string(r);
                for (int run = 0; run < 3; ++run) {
                    const bool surface = run == 2;
                    if (surface && (!small || (r != 1 && r != 8 && r != 9 && r != 16 && r != 32))) continue;
                    RgbaImage got;
                    bool tensor = false;
                    ASSERT_TRUE(gaussianOnDevice(picture, sigma, surface, run == 0 ? 0xa5 : 0x5a, got, tensor)) << where;
                    if (sm90) { EXPECT_EQ(tensor, r <= 16) << where; }
                    EXPECT_TRUE(test::imagesClose(got, expected, tensor ? 1 : 0, surface ? "surface" : "pitched")) << where << ", run " << run;
                }
            }
        }
}

// A picture of one colour stays that colour, exactly, for every radius the tensor cores run
// (their sums are within 0.38 of the value there), with its alpha; channel values at both
// ends of the range and between.
TEST(CudaPreview, GaussianKeepsFlatPicturesFlat) {
    const uint8_t colours[][4] = {{0, 0, 0, 255}, {255, 255, 255, 0}, {1, 254, 128, 77}, {254, 1, 127, 200}, {37, 200, 93, 255}};
    for (auto [w, h] : {std::pair{1, 1}, std::pair{17, 33}, std::pair{300, 200}})
        for (const auto& c : colours) {
            RgbaImage picture;
            picture.resize(w, h);
            for (size_t i = 0; i < picture.pixels.size(); ++i) picture.pixels[i] = c[i % 4];
            for (int r = 1; r <= 16; ++r) {
                RgbaImage got;
                bool tensor = false;
                const std::string where = std::to_string(w) + "x" + std::to_string(h) + " colour " + std::to_string(int(c[0])) + "," +
                                          std::to_string(int(c[1])) + "," + std::to_string(int(c[2])) + " radius " + std::to_string(r);
                ASSERT_TRUE(gaussianOnDevice(picture, (float(r) - 0.5f) / 3.0f, false, 0xa5, got, tensor)) << where;
                EXPECT_TRUE(test::imagesClose(got, picture, 0, "flat")) << where;
            }
        }
}

// Every preview kernel writes the same bytes through a surface (an array, as the GL view's
// mapped texture is) as into pitched memory, and the Sobel edges are core's exactly through
// both: widths of whole warps of 256 columns (the edges kernel stores those through a shared
// stage, storeWarpGroups) with a partial last warp or none, and narrower ones; 8- and 10-bit luma.
TEST(CudaPreview, SurfaceAndPitchedSinksAgree) {
    std::mt19937 rng(59);
    for (auto [w, h] : {std::pair{1921, 37}, std::pair{512, 6}, std::pair{300, 3}, std::pair{1, 1}})
        for (int depth : {8, 10}) {
            LumaPlane luma{w, h, depth, Range::Full, {}, Transfer::Bt709};
            for (int i = 0; i < w * h; ++i) luma.values.push_back(uint16_t(rng() % (1u << depth)));
            RgbaImage picture;
            picture.resize(w, h);
            for (auto& b : picture.pixels) b = uint8_t(rng());
            RgbaImage edges;
            sobelEdges(luma, edges);
            for (PreviewFilter f : kFilters) {
                if (f == PreviewFilter::None) continue;
                const std::string where = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(depth) + "-bit " + std::string(previewName(f));
                RgbaImage viaPitched, viaSurface;
                ASSERT_TRUE(previewOnDevice(picture, &luma, everything(f), false, 0xa5, viaPitched)) << where;
                ASSERT_TRUE(previewOnDevice(picture, &luma, everything(f), true, 0x5a, viaSurface)) << where;
                EXPECT_TRUE(viaPitched.pixels == viaSurface.pixels) << where << ": the sinks differ";
                if (f == PreviewFilter::Edges) { EXPECT_TRUE(viaPitched.pixels == edges.pixels) << where << ": not core's edges"; }
            }
        }
}

}  // namespace
}  // namespace cs
