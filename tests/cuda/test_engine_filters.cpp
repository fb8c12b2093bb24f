// The CUDA engine's preview filters against the CPU engine's and core's: every filter's
// parameters, the Sobel filters (edges, focus peaking) at every boundary of their float
// estimates and at 12 bits, and the box blur byte for byte at every radius and edge.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "EngineCompare.h"
#include "core/Filters.h"
#include "cuda/filters/FilterKernels.h"

namespace cs {
namespace {

using test::cpuEngine;
using test::cudaEngine;
using test::compareEngines;
using test::everything;
using test::label;

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

}  // namespace
}  // namespace cs
