// The gamut preview (PreviewFilter::Gamut: the pixels outside the target painted over the
// picture) of the CUDA engine against the CPU engine's, byte for byte: 8- and 10-bit 4:2:0
// and 4:2:2 (planar and NV12/P010) BT.2020 frames holding BT.2020's primaries and
// secondaries, ramps from grey to them (each crossing the BT.709 and P3 boundaries
// somewhere) and random codes, against the BT.709, P3-D65 and BT.2020 targets, with and
// without the chromaticity counts (one kernel either paints or paints and counts); frames
// in host and in device memory; and written into a GL texture by processToGl.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "CudaTestUtil.h"
#include "EngineFixture.h"
#include "HeadlessGl.h"
#include "core/Color.h"
#include "core/Gamut.h"

namespace cs {
namespace {

using test::cpuEngine;
using test::cudaEngine;

constexpr ColorInfo kBt2020{Matrix::Bt2020Ncl, Range::Limited, Transfer::Bt709, true, true, Primaries::Bt2020};

// The top half: eight columns of colour bars (BT.2020's R, G, B, C, M, Y at 100% and 75%
// over grey and white rows) above ramps from mid grey to each primary and secondary along x;
// the bottom half: random codes over the whole range (out-of-legal ones included).
Frame wideGamutFrame(PixelFormat format, int w, int h, const ColorInfo& color, std::mt19937& rng) {
    Frame f(format, w, h, color);
    const int depth = formatInfo(format).bitDepth, top = (1 << depth) - 1;
    const RgbToYuv k = makeRgbToYuv(color.matrix, color.range, depth);
    constexpr int kColours[6][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {0, 255, 255}, {255, 0, 255}, {255, 255, 0}};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (y >= h / 2) {
                f.setPixel(x, y, int(rng() % uint32_t(top + 1)), int(rng() % uint32_t(top + 1)), int(rng() % uint32_t(top + 1)));
                continue;
            }
            int r = 128, g = 128, b = 128;
            const int band = y * 4 / std::max(1, h / 2);   // 0..3 over the top half
            const int* c = kColours[(x * 6 / w + band) % 6];
            if (band == 0) {   // bars at 100%, then 75%
                const int level = x * 2 / w == 0 ? 255 : 191;
                r = c[0] * level / 255; g = c[1] * level / 255; b = c[2] * level / 255;
            } else if (band == 1) {   // white and black bars between them
                r = g = b = (x / 8) % 2 ? 235 : 16;
                if ((x / 8) % 3 == 0) { r = c[0]; g = c[1]; b = c[2]; }
            } else {   // grey to the colour along each sixth of the row
                const int sixth = std::max(1, w / 6);
                const int t = (x % sixth) * 255 / sixth;
                r = 128 + (c[0] - 128) * t / 255; g = 128 + (c[1] - 128) * t / 255; b = 128 + (c[2] - 128) * t / 255;
            }
            const Yuv v = rgbToYuv(k, r, g, b);
            f.setPixel(x, y, v.y, v.cb, v.cr);
        }
    return f;
}

ScopeSpec gamutPreviewSpec(Primaries target, bool counts) {
    ScopeSpec s;
    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
    s.displayImages = true;
    s.picture = true;
    s.preview = PreviewFilter::Gamut;
    s.cie = counts;
    s.gamutTarget = target;
    return s;
}

// Pixels of `preview` that are not the picture's.
size_t painted(const ScopeResults& r) {
    size_t n = 0;
    for (size_t i = 0; i + 3 < r.preview.pixels.size() && i + 3 < r.picture.pixels.size(); i += 4)
        n += std::memcmp(&r.preview.pixels[i], &r.picture.pixels[i], 4) != 0;
    return n;
}

// The CUDA engine on `gpuView`, the CPU engine on `cpuView` (the same frame in host memory):
// previews and pictures byte for byte, and the counts where asked for.
void compareGamutPreview(const FrameView& gpuView, const FrameView& cpuView, const ScopeSpec& spec, const std::string& where) {
    SCOPED_TRACE(where);
    CudaEngine* cuda = cudaEngine();
    ASSERT_NE(cuda, nullptr);
    ScopeResults gpu, cpu;
    const Status gs = cuda->process(gpuView, spec, gpu);
    ASSERT_TRUE(gs.ok()) << gs.message();
    ASSERT_TRUE(cpuEngine().process(cpuView, spec, cpu).ok());
    ASSERT_EQ(cpu.preview.width, cpuView.width);
    ASSERT_EQ(cpu.preview.height, cpuView.height);
    EXPECT_TRUE(test::imagesClose(gpu.preview, cpu.preview, 0, "gamut preview"));
    EXPECT_TRUE(test::imagesClose(gpu.picture, cpu.picture, 0, "picture"));
    EXPECT_EQ(gpu.gamut.measured, spec.cie);
    EXPECT_TRUE(test::sameCounts(gpu.gamut.counts, cpu.gamut.counts, "cie counts"));
    EXPECT_EQ(gpu.gamut.outside, cpu.gamut.outside);
    // The frames hold colours outside BT.709 and P3 and none outside BT.2020 (its own gamut).
    const size_t n = painted(cpu);
    if (spec.gamutTarget == Primaries::Bt2020) {
        EXPECT_EQ(n, 0u);
    } else {
        EXPECT_GT(n, size_t(cpuView.width) * size_t(cpuView.height) / 50);
    }
    if (spec.cie) {
        EXPECT_LE(n, cpu.gamut.outside);   // every painted pixel is one outside
    }
}

constexpr PixelFormat kFormats[] = {PixelFormat::Yuv420p, PixelFormat::Yuv422p, PixelFormat::Nv12,
                                    PixelFormat::Yuv420p10, PixelFormat::Yuv422p10, PixelFormat::P010};
constexpr Primaries kTargets[] = {Primaries::Bt709, Primaries::P3D65, Primaries::Bt2020};

TEST(GamutPreview, SameAsCpuEngineEveryTarget) {
    std::mt19937 rng(2020);
    const std::pair<int, int> sizes[] = {{258, 130}, {37, 23}, {test::smallOnly() ? 642 : 1920, test::smallOnly() ? 362 : 1080}};
    for (PixelFormat format : kFormats)
        for (auto [w, h] : sizes) {
            const Frame f = wideGamutFrame(format, w, h, kBt2020, rng);
            for (Primaries target : kTargets)
                for (bool counts : {false, true})
                    compareGamutPreview(f.view(), f.view(), gamutPreviewSpec(target, counts),
                                        std::string(formatInfo(format).name) + " " + std::to_string(w) + "x" + std::to_string(h) +
                                            " -> " + std::string(gamutTargetName(target)) + (counts ? " with counts" : " alone"));
        }
}

// The rule follows the transfer (PQ's linear light) and the stream's full range; the other
// scopes and the preview's neighbours in the spec leave it alone.
TEST(GamutPreview, SameAsCpuEngineWithPqFullRangeAndEveryScope) {
    std::mt19937 rng(2084);
    for (PixelFormat format : {PixelFormat::Yuv420p10, PixelFormat::Yuv422p})
        for (Range range : {Range::Limited, Range::Full}) {
            const ColorInfo pq{Matrix::Bt2020Ncl, range, Transfer::Pq, true, true, Primaries::Bt2020};
            const Frame f = wideGamutFrame(format, 400, 226, pq, rng);
            for (Primaries target : {Primaries::Bt709, Primaries::P3D65}) {
                ScopeSpec spec = gamutPreviewSpec(target, true);
                spec.histogram = spec.waveform = spec.parade = spec.vectorscope = spec.stats = true;
                compareGamutPreview(f.view(), f.view(), spec,
                                    std::string(formatInfo(format).name) + " pq " + (range == Range::Full ? "full" : "limited") +
                                        " -> " + std::string(gamutTargetName(target)));
            }
        }
}

// A frame in device memory (NVDEC's NV12 and P010) paints as the same frame on the host.
TEST(GamutPreview, DeviceFramesSameAsHostFrames) {
    std::mt19937 rng(709);
    for (PixelFormat format : {PixelFormat::Nv12, PixelFormat::P010}) {
        const int w = 1280, h = 720;
        const Frame frame = wideGamutFrame(format, w, h, kBt2020, rng);
        const FrameView host = frame.view();
        FrameView dev = host;
        dev.onDevice = true;
        std::vector<void*> allocations;
        for (int p = 0; p < formatInfo(format).planeCount; ++p) {
            const size_t pitch = size_t(host.pitch[size_t(p)]), rows = size_t(test::planeRowsOf(format, h, p));
            void* mem = nullptr;
            ASSERT_EQ(cudaMalloc(&mem, pitch * rows), cudaSuccess);
            allocations.push_back(mem);
            ASSERT_EQ(cudaMemcpy(mem, host.data[size_t(p)], pitch * rows, cudaMemcpyHostToDevice), cudaSuccess);
            dev.data[size_t(p)] = static_cast<const uint8_t*>(mem);
        }
        for (Primaries target : kTargets)
            compareGamutPreview(dev, host, gamutPreviewSpec(target, target != Primaries::P3D65),
                                std::string(formatInfo(format).name) + " device -> " + std::string(gamutTargetName(target)));
        for (void* m : allocations) cudaFree(m);
    }
}

// The window's path: processToGl writes the preview into a GL texture through interop.
class GamutPreviewGl : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_NE(cudaEngine(), nullptr);
        std::string why;
        if (!gl_.open(cudaEngine()->device(), why)) GTEST_SKIP() << "no headless GL context through EGL: " << why;
    }
    void TearDown() override {
        if (cudaEngine()) cudaEngine()->releaseGl();
    }
    test::HeadlessGl gl_;
};

TEST_F(GamutPreviewGl, TextureSameAsCpuEngine) {
    std::mt19937 rng(431);
    const int w = 642, h = 362;
    test::Texture picture(w, h), preview(w, h);
    for (PixelFormat format : {PixelFormat::Yuv420p, PixelFormat::P010, PixelFormat::Yuv422p10}) {
        const Frame f = wideGamutFrame(format, w, h, kBt2020, rng);
        for (Primaries target : kTargets)
            for (bool counts : {false, true}) {
                const std::string where = std::string(formatInfo(format).name) + " -> " + std::string(gamutTargetName(target)) +
                                          (counts ? " with counts" : " alone");
                SCOPED_TRACE(where);
                const ScopeSpec spec = gamutPreviewSpec(target, counts);
                // Stale texels would show where the kernel wrote nothing: start from a colour no preview has.
                preview.respecify(0x12345678u);
                GlTargets t;
                t.picture = picture.target();
                t.preview = preview.target();
                ScopeResults gpu, cpu;
                const Status s = cudaEngine()->processToGl(f.view(), spec, gpu, t);
                ASSERT_TRUE(s.ok()) << s.message();
                ASSERT_TRUE(cpuEngine().process(f.view(), spec, cpu).ok());
                EXPECT_TRUE(test::imagesClose(preview.read(), cpu.preview, 0, "preview texture"));
                EXPECT_TRUE(test::imagesClose(picture.read(), cpu.picture, 0, "picture texture"));
                EXPECT_EQ(gpu.gamut.measured, counts);
                EXPECT_EQ(gpu.gamut.outside, cpu.gamut.outside);
            }
    }
}

}  // namespace
}  // namespace cs
