// cuda::scopePass called directly: the luma histogram alone (its own kernel), with and
// without scratch memory, against the CPU engine and against the samples counted here.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "EngineCompare.h"
#include "cuda/scope/ScopeKernels.h"

namespace cs {
namespace {

using test::cpuEngine;
using test::label;

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

}  // namespace
}  // namespace cs
