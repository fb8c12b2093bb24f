// cuda/convert/Yuv420Kernel against core's CPU conversion (core/Yuv420.h): the same bytes, on random
// RGBA, for NV12 and I420, even and odd sizes, with aligned pitched planes (the vector path)
// and with planes offset by one byte (the byte path).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/Yuv420.h"
#include "cuda/convert/Yuv420Kernel.h"

using namespace cs;

namespace {

#define ASSERT_CUDA(expr) ASSERT_EQ((expr), cudaSuccess) << #expr

struct DeviceBytes {
    uint8_t* p = nullptr;
    explicit DeviceBytes(size_t n) { cudaMalloc(reinterpret_cast<void**>(&p), n); }
    ~DeviceBytes() { cudaFree(p); }
    DeviceBytes(const DeviceBytes&) = delete;
    DeviceBytes& operator=(const DeviceBytes&) = delete;
};

// One conversion on the GPU and on the CPU; `skew` bytes added to every pointer and pitch
// (0: aligned pitches, the vector path; 1: the byte path).
void compare(int w, int h, Yuv420Layout layout, Matrix m, Range r, int skew) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + (layout == Yuv420Layout::Nv12 ? " nv12" : " i420") +
                 " skew " + std::to_string(skew));
    std::mt19937 rng(unsigned(w * 7919 + h));
    const size_t rgbaPitch = (size_t(w) * 4 + 255) / 256 * 256 + size_t(skew);
    std::vector<uint8_t> rgba(rgbaPitch * size_t(h));
    for (auto& b : rgba) b = uint8_t(rng());
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    const size_t yPitch = (size_t(w) + 63) / 64 * 64 + size_t(skew);
    const size_t cPitch = (size_t(layout == Yuv420Layout::Nv12 ? 2 * cw : cw) + 63) / 64 * 64 + size_t(skew);
    const size_t ySize = yPitch * size_t(h), cSize = cPitch * size_t(ch);
    const RgbToYuv k = yuv420Coefficients(m, r);

    // CPU reference, into host planes of the same geometry.
    std::vector<uint8_t> cpu(ySize + 2 * cSize, 0);
    Yuv420Planes hostOut;
    hostOut.layout = layout;
    hostOut.plane[0] = cpu.data(); hostOut.pitch[0] = std::ptrdiff_t(yPitch);
    hostOut.plane[1] = cpu.data() + ySize; hostOut.pitch[1] = std::ptrdiff_t(cPitch);
    hostOut.plane[2] = cpu.data() + ySize + cSize; hostOut.pitch[2] = std::ptrdiff_t(cPitch);
    if (layout == Yuv420Layout::Nv12) hostOut.plane[2] = nullptr;
    rgbaToYuv420(rgba.data(), std::ptrdiff_t(rgbaPitch), w, h, k, hostOut);

    DeviceBytes d_rgba(rgba.size() + 16), d_planes(cpu.size() + 16);
    ASSERT_NE(d_rgba.p, nullptr);
    ASSERT_NE(d_planes.p, nullptr);
    ASSERT_CUDA(cudaMemcpy(d_rgba.p + skew, rgba.data(), rgba.size(), cudaMemcpyHostToDevice));
    ASSERT_CUDA(cudaMemset(d_planes.p, 0, cpu.size() + 16));
    Yuv420Planes devOut = hostOut;
    uint8_t* base = d_planes.p + skew;
    devOut.plane[0] = base;
    devOut.plane[1] = base + ySize;
    devOut.plane[2] = layout == Yuv420Layout::I420 ? base + ySize + cSize : nullptr;
    EXPECT_EQ(cs::cuda::yuv420VectorAligned(d_rgba.p + skew, rgbaPitch, devOut), skew == 0);
    cudaStream_t stream = nullptr;
    ASSERT_CUDA(cudaStreamCreate(&stream));
    ASSERT_CUDA(cs::cuda::rgbaToYuv420(d_rgba.p + skew, rgbaPitch, w, h, k, devOut, stream));
    ASSERT_CUDA(cudaStreamSynchronize(stream));
    cudaStreamDestroy(stream);
    std::vector<uint8_t> gpu(cpu.size());
    ASSERT_CUDA(cudaMemcpy(gpu.data(), base, gpu.size(), cudaMemcpyDeviceToHost));

    // Every sample inside the planes; the padding after each row is not compared.
    size_t diffs = 0;
    std::string first;
    auto check = [&](const char* plane, size_t offset, size_t pitch, int rowBytes, int rows) {
        for (int yy = 0; yy < rows; ++yy)
            for (int x = 0; x < rowBytes; ++x) {
                const size_t i = offset + size_t(yy) * pitch + size_t(x);
                if (gpu[i] != cpu[i] && !diffs++)
                    first = std::string(plane) + " x=" + std::to_string(x) + " y=" + std::to_string(yy) + ": " +
                            std::to_string(gpu[i]) + " (cuda) vs " + std::to_string(cpu[i]) + " (cpu)";
            }
    };
    check("Y", 0, yPitch, w, h);
    if (layout == Yuv420Layout::Nv12) {
        check("CbCr", ySize, cPitch, 2 * cw, ch);
    } else {
        check("Cb", ySize, cPitch, cw, ch);
        check("Cr", ySize + cSize, cPitch, cw, ch);
    }
    EXPECT_EQ(diffs, 0u) << "first difference: " << first;
}

}  // namespace

TEST(Yuv420Kernel, EqualsTheCpuConversionOnEvenSizes) {
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{64, 48}, std::pair{3840, 2160}})
        for (Yuv420Layout l : {Yuv420Layout::Nv12, Yuv420Layout::I420}) compare(w, h, l, Matrix::Bt709, Range::Limited, 0);
}

TEST(Yuv420Kernel, EqualsTheCpuConversionOnOddSizes) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{7, 5}, std::pair{33, 17}, std::pair{130, 3}, std::pair{1921, 1081}})
        for (Yuv420Layout l : {Yuv420Layout::Nv12, Yuv420Layout::I420}) compare(w, h, l, Matrix::Bt709, Range::Limited, 0);
}

TEST(Yuv420Kernel, EqualsTheCpuConversionOnUnalignedPlanes) {
    for (auto [w, h] : {std::pair{64, 48}, std::pair{33, 17}})
        for (Yuv420Layout l : {Yuv420Layout::Nv12, Yuv420Layout::I420}) compare(w, h, l, Matrix::Bt709, Range::Limited, 1);
}

TEST(Yuv420Kernel, EqualsTheCpuConversionForEveryMatrixAndRange) {
    for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl})
        for (Range r : {Range::Limited, Range::Full}) compare(96, 54, Yuv420Layout::Nv12, m, r, 0);
}
