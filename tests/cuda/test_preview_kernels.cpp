// The preview kernels (cuda::PreviewFilters) alone on pictures uploaded as they are: the
// Gaussian against core's gaussianBlur, flat pictures kept flat, and every filter writing the
// same bytes through a surface as into pitched memory.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "EngineCompare.h"
#include "core/Filters.h"
#include "cuda/filters/FilterKernels.h"
#include "cuda/engine/KernelCheck.h"

namespace cs {
namespace {

using test::everything;
using test::kFilters;

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

// Whether this device runs the build's code for sm_80 or later (machine code, or PTX compiled
// by the driver), as the start-up check reads it: there the tensor-core Gaussian must be the
// one that runs radii <= 16; code from compute_75 PTX has no mma.sync and takes the strip kernel.
bool runsSm80Code() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return false;
    const auto code = cuda::kernelCode(device);
    return code.ok() && code.value().ptxVersion >= 80;
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
    const bool sm80 = runsSm80Code();
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
                    EXPECT_EQ(tensor, sm80 && r <= 16) << where;
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
