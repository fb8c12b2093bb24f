// Focus peaking's width on the CUDA engine (core/PeakingWidth.h): widths 1, 2 and 3 give the
// CPU engine's preview byte for byte, on 8- and 10-bit frames of fine detail, opaque and
// semi-transparent colours, sizes off the kernels' blocks (8-pixel groups, 32 x 8 tiles);
// and the filter alone, into pitched memory and into a surface, against core's focusPeaking.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "CudaTestUtil.h"
#include "EngineFixture.h"
#include "core/Filters.h"
#include "cuda/filters/FilterKernels.h"

namespace cs {
namespace {

std::string where(const Frame& f, int width, uint32_t colour) {
    return std::string(formatInfo(f.format()).name) + " " + std::to_string(f.width()) + "x" + std::to_string(f.height()) + " width " +
           std::to_string(width) + " colour " + std::to_string(colour);
}

// How many pixels of two images differ.
size_t differingPixels(const RgbaImage& a, const RgbaImage& b) {
    if (a.pixels.size() != b.pixels.size()) return size_t(-1);
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); i += 4)
        n += a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2] || a.pixels[i + 3] != b.pixels[i + 3];
    return n;
}

TEST(CudaPeakingWidth, EnginePreviewEqualsTheCpusAtEveryWidth) {
    CudaEngine* cuda = test::cudaEngine();
    ASSERT_NE(cuda, nullptr);
    std::mt19937 rng(17);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {3, 5}, {9, 9}, {37, 23}, {258, 131}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10}) {
        ASSERT_TRUE(formatInfo(f).bitDepth == 8 || formatInfo(f).bitDepth == 10);
        for (auto [w, h] : sizes) {
            Frame frame(f, w, h);
            // Runs (edges with flat stretches between them: dilation changes the picture) on
            // the larger frames, pixel noise on the small ones.
            if (w > 100) test::fillRuns(frame, rng); else test::fillRandom(frame, rng);
            for (uint32_t colour : {0xff2020ffu, 0x80ff8000u}) {
                RgbaImage narrow;
                for (int width = 1; width <= 3; ++width) {
                    ScopeSpec s;
                    s.preview = PreviewFilter::FocusPeaking;
                    s.filter.peakingThreshold = 0.12f;
                    s.filter.peakingColour = colour;
                    s.filter.peakingWidth = width;
                    ScopeResults gpu, cpu;
                    const Status gs = cuda->process(frame.view(), s, gpu);
                    ASSERT_TRUE(gs.ok()) << where(frame, width, colour) << ": " << gs.message();
                    ASSERT_TRUE(test::cpuEngine().process(frame.view(), s, cpu).ok());
                    ASSERT_EQ(gpu.picture.pixels, cpu.picture.pixels) << where(frame, width, colour) << ": the pictures differ";
                    ASSERT_EQ(gpu.preview.width, w);
                    EXPECT_EQ(differingPixels(gpu.preview, cpu.preview), 0u) << where(frame, width, colour);
                    // The width reaches the preview: wider paints more on frames with room to widen.
                    if (width == 1) {
                        narrow = cpu.preview;
                    } else if (w > 100) {
                        EXPECT_GT(differingPixels(cpu.preview, narrow), 0u) << where(frame, width, colour);
                    }
                }
            }
        }
    }
}

// PreviewFilters alone on host-made luma (sparse steps at 8 and 10 bits, so marks lie near
// tile borders and frame edges) and a random picture: pitched output and a surface.
TEST(CudaPeakingWidth, FilterEqualsCoreIntoPitchedMemoryAndSurfaces) {
    std::mt19937 rng(29);
    for (int depth : {8, 10})
        for (auto [w, h] : {std::pair{1, 1}, std::pair{5, 3}, std::pair{33, 17}, std::pair{70, 9}, std::pair{257, 19}}) {
            LumaPlane luma{w, h, depth, Range::Full, {}, Transfer::Bt709};
            for (int i = 0; i < w * h; ++i) luma.values.push_back(uint16_t(rng() % 7 == 0 ? rng() % uint32_t(1 << depth) : 0));
            RgbaImage picture;
            picture.resize(w, h);
            for (auto& b : picture.pixels) b = uint8_t(rng());
            cuda::PitchedBuffer dLuma, dPicture, dOut;
            ASSERT_TRUE(dLuma.reserve(size_t(w) * 2, size_t(h)).ok());
            ASSERT_TRUE(dPicture.reserve(size_t(w) * 4, size_t(h)).ok());
            ASSERT_TRUE(dOut.reserve(size_t(w) * 4, size_t(h)).ok());
            ASSERT_EQ(cudaMemcpy2D(dLuma.get(), dLuma.pitch(), luma.values.data(), size_t(w) * 2, size_t(w) * 2, size_t(h), cudaMemcpyHostToDevice),
                      cudaSuccess);
            ASSERT_EQ(cudaMemcpy2D(dPicture.get(), dPicture.pitch(), picture.pixels.data(), size_t(w) * 4, size_t(w) * 4, size_t(h),
                                   cudaMemcpyHostToDevice),
                      cudaSuccess);
            cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
            cudaArray_t array = nullptr;
            ASSERT_EQ(cudaMallocArray(&array, &desc, size_t(w), size_t(h), cudaArraySurfaceLoadStore), cudaSuccess);
            cudaResourceDesc res{};
            res.resType = cudaResourceTypeArray;
            res.res.array.array = array;
            cudaSurfaceObject_t surface = 0;
            ASSERT_EQ(cudaCreateSurfaceObject(&surface, &res), cudaSuccess);
            for (uint32_t colour : {0xff20ff20u, 0x40ffffffu})
                for (int width = 1; width <= 3; ++width) {
                    ScopeSpec s;
                    s.preview = PreviewFilter::FocusPeaking;
                    s.filter.peakingThreshold = 0.2f;
                    s.filter.peakingColour = colour;
                    s.filter.peakingWidth = width;
                    RgbaImage want, pitched, surfaced;
                    focusPeaking(picture, luma, 0.2f, colour, width, want);
                    cuda::PreviewFilters filters;
                    ASSERT_TRUE(filters.prepare(s, w, h, depth, Range::Full, nullptr).ok());
                    ASSERT_EQ(filters.enqueue(dPicture.get(), dPicture.pitch(), dLuma.get<uint16_t>(), dLuma.pitch(),
                                              cuda::ImageSink{dOut.get(), dOut.pitch(), 0}, nullptr),
                              cudaSuccess);
                    ASSERT_EQ(filters.enqueue(dPicture.get(), dPicture.pitch(), dLuma.get<uint16_t>(), dLuma.pitch(), cuda::ImageSink{nullptr, 0, surface},
                                              nullptr),
                              cudaSuccess);
                    pitched.resize(w, h);
                    surfaced.resize(w, h);
                    ASSERT_EQ(cudaMemcpy2D(pitched.pixels.data(), size_t(w) * 4, dOut.get(), dOut.pitch(), size_t(w) * 4, size_t(h),
                                           cudaMemcpyDeviceToHost),
                              cudaSuccess);
                    ASSERT_EQ(cudaMemcpy2DFromArray(surfaced.pixels.data(), size_t(w) * 4, array, 0, 0, size_t(w) * 4, size_t(h),
                                                    cudaMemcpyDeviceToHost),
                              cudaSuccess);
                    const std::string at = std::to_string(depth) + "-bit " + std::to_string(w) + "x" + std::to_string(h) + " width " +
                                           std::to_string(width) + " colour " + std::to_string(colour);
                    EXPECT_EQ(differingPixels(pitched, want), 0u) << at << " (pitched)";
                    EXPECT_EQ(differingPixels(surfaced, want), 0u) << at << " (surface)";
                }
            cudaDestroySurfaceObject(surface);
            cudaFreeArray(array);
        }
}

}  // namespace
}  // namespace cs
