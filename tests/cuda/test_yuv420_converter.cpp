// cuda/convert/Yuv420Converter (what `cudascope record` hands the encoder with the CUDA engine)
// against core's CPU conversion: the planes it downloads into pinned memory and the planes it
// writes into device memory (NVENC's frames) hold the same bytes as rgbaToYuv420's, NV12 and
// I420, even and odd sizes, pictures of changing size through one converter.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/Yuv420.h"
#include "cuda/convert/Yuv420Converter.h"

using namespace cs;

namespace {

RgbaImage randomPicture(int w, int h) {
    RgbaImage p;
    p.resize(w, h);
    std::mt19937 rng(unsigned(w * 31 + h));
    for (auto& b : p.pixels) b = uint8_t(rng());
    return p;
}

// The CPU conversion into tightly packed planes: Y, then Cb/Cr (NV12: interleaved rows of 2*cw).
std::vector<uint8_t> cpuPlanes(const RgbaImage& p, const RgbToYuv& k, Yuv420Layout layout) {
    const int cw = (p.width + 1) / 2, ch = (p.height + 1) / 2;
    std::vector<uint8_t> out(size_t(p.width) * size_t(p.height) + 2 * size_t(cw) * size_t(ch));
    Yuv420Planes planes;
    planes.layout = layout;
    planes.plane[0] = out.data();
    planes.pitch[0] = p.width;
    planes.plane[1] = out.data() + size_t(p.width) * size_t(p.height);
    planes.pitch[1] = layout == Yuv420Layout::Nv12 ? 2 * cw : cw;
    planes.plane[2] = layout == Yuv420Layout::Nv12 ? nullptr : planes.plane[1] + size_t(cw) * size_t(ch);
    planes.pitch[2] = cw;
    rgbaToYuv420(p.pixels.data(), std::ptrdiff_t(p.width) * 4, p.width, p.height, k, planes);
    return out;
}

// Planes (host memory) packed as cpuPlanes packs them.
std::vector<uint8_t> packed(const Yuv420Planes& planes, int w, int h) {
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    std::vector<uint8_t> out;
    const auto rows = [&](const uint8_t* p, std::ptrdiff_t pitch, int bytes, int n) {
        for (int y = 0; y < n; ++y) out.insert(out.end(), p + y * pitch, p + y * pitch + bytes);
    };
    rows(planes.plane[0], planes.pitch[0], w, h);
    if (planes.layout == Yuv420Layout::Nv12) {
        rows(planes.plane[1], planes.pitch[1], 2 * cw, ch);
    } else {
        rows(planes.plane[1], planes.pitch[1], cw, ch);
        rows(planes.plane[2], planes.pitch[2], cw, ch);
    }
    return out;
}

bool haveDevice() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

}  // namespace

TEST(Yuv420Converter, DownloadedPlanesEqualTheCpuConversion) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    auto converter = cuda::makeYuv420Converter(0);
    ASSERT_TRUE(converter.ok()) << converter.message();
    const RgbToYuv k = yuv420Coefficients();
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{67, 33}, std::pair{320, 240}, std::pair{1, 1}}) {
        const RgbaImage p = randomPicture(w, h);
        for (Yuv420Layout l : {Yuv420Layout::I420, Yuv420Layout::Nv12}) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + (l == Yuv420Layout::Nv12 ? " nv12" : " i420"));
            auto planes = (*converter)->convertToHost(p, k, l);
            ASSERT_TRUE(planes.ok()) << planes.message();
            EXPECT_TRUE(packed(*planes, w, h) == cpuPlanes(p, k, l));
        }
    }
}

TEST(Yuv420Converter, DevicePlanesEqualTheCpuConversion) {
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device";
    auto converter = cuda::makeYuv420Converter(0);
    ASSERT_TRUE(converter.ok()) << converter.message();
    const RgbToYuv k = yuv420Coefficients(Matrix::Bt601, Range::Full);
    for (auto [w, h] : {std::pair{1280, 720}, std::pair{99, 51}}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
        const RgbaImage p = randomPicture(w, h);
        // An NV12 frame as FFmpeg's CUDA frame pool lays it out: pitched Y and CbCr planes.
        const int cw = (w + 1) / 2, ch = (h + 1) / 2;
        uint8_t *d_y = nullptr, *d_c = nullptr;
        size_t yPitch = 0, cPitch = 0;
        ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&d_y), &yPitch, size_t(w), size_t(h)), cudaSuccess);
        ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&d_c), &cPitch, size_t(2 * cw), size_t(ch)), cudaSuccess);
        Yuv420Planes d_out;
        d_out.layout = Yuv420Layout::Nv12;
        d_out.plane[0] = d_y;
        d_out.pitch[0] = std::ptrdiff_t(yPitch);
        d_out.plane[1] = d_c;
        d_out.pitch[1] = std::ptrdiff_t(cPitch);
        const Status s = (*converter)->convertOnDevice(p, k, d_out);
        ASSERT_TRUE(s.ok()) << s.message();
        std::vector<uint8_t> y(yPitch * size_t(h)), c(cPitch * size_t(ch));
        ASSERT_EQ(cudaMemcpy(y.data(), d_y, y.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(c.data(), d_c, c.size(), cudaMemcpyDeviceToHost), cudaSuccess);
        cudaFree(d_y);
        cudaFree(d_c);
        Yuv420Planes host = d_out;
        host.plane[0] = y.data();
        host.plane[1] = c.data();
        EXPECT_TRUE(packed(host, w, h) == cpuPlanes(p, k, Yuv420Layout::Nv12));
    }
}
