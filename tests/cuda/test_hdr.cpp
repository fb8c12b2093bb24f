// HDR light levels (core/Hdr.h): the CUDA engine's max(R', G', B') code counts, and so its
// max/avg nits and shares, identical to the CPU engine's on the same frames: every pixel
// format, PQ and HLG, both ranges, random and flat content (a flat frame: every lane of a
// warp on one code), odd sizes, host and device frames, the override of the transfer, and
// the HDR false colour preview.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "CudaTestUtil.h"
#include "EngineFixture.h"

namespace cs {
namespace {

void expectSameHdr(const FrameView& gpuView, const FrameView& cpuView, const ScopeSpec& spec, const std::string& where) {
    SCOPED_TRACE(where);
    CudaEngine* cuda = test::cudaEngine();
    ASSERT_NE(cuda, nullptr);
    ScopeResults gpu, cpu;
    const Status gs = cuda->process(gpuView, spec, gpu);
    ASSERT_TRUE(gs.ok()) << gs.message();
    ASSERT_TRUE(test::cpuEngine().process(cpuView, spec, cpu).ok());
    ASSERT_EQ(gpu.hdr.measured, cpu.hdr.measured);
    EXPECT_EQ(gpu.hdr.transfer, cpu.hdr.transfer);
    EXPECT_TRUE(test::sameCounts(gpu.hdr.maxCodes, cpu.hdr.maxCodes, "hdr max codes"));
    // Both are finishHdrStats of equal counts: equal to the bit.
    EXPECT_EQ(gpu.hdr.maxNits, cpu.hdr.maxNits);
    EXPECT_EQ(gpu.hdr.avgNits, cpu.hdr.avgNits);
    EXPECT_EQ(gpu.hdr.above, cpu.hdr.above);
}

std::string label(const Frame& f, Transfer t, Range r, const char* what) {
    return std::string(formatInfo(f.format()).name) + " " + std::to_string(f.width()) + "x" + std::to_string(f.height()) + " " +
           std::string(transferName(t)) + " " + std::string(rangeName(r)) + " " + what;
}

TEST(CudaHdr, EveryFormatMatchesCpu) {
    std::mt19937 rng(2084);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {3, 5}, {37, 23}, {258, 131}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    ScopeSpec spec;
    spec.displayImages = false;
    for (PixelFormat f : test::allFormats())
        for (auto [w, h] : sizes)
            for (Transfer t : {Transfer::Pq, Transfer::Hlg})
                for (Range r : {Range::Limited, Range::Full}) {
                    Frame frame(f, w, h, ColorInfo{Matrix::Bt2020Ncl, r, t, true, true});
                    test::fillRandom(frame, rng);
                    expectSameHdr(frame.view(), frame.view(), spec, label(frame, t, r, "random"));
                    test::fillRuns(frame, rng);
                    expectSameHdr(frame.view(), frame.view(), spec, label(frame, t, r, "runs"));
                }
}

TEST(CudaHdr, FlatFramesAndOverride) {
    ScopeSpec spec;
    spec.displayImages = false;
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::P010, PixelFormat::Nv12}) {
        Frame frame(f, 3840, 2160, ColorInfo{Matrix::Bt709, Range::Limited, Transfer::Bt709, true, true});
        const int s = formatInfo(f).bitDepth - 8;
        frame.fill(235 << s, 128 << s, 128 << s);
        // SDR: nothing measured by either engine; the override measures it as PQ, then as HLG.
        expectSameHdr(frame.view(), frame.view(), spec, label(frame, Transfer::Bt709, Range::Limited, "flat, sdr"));
        spec.colorOverride.transfer = Transfer::Pq;
        expectSameHdr(frame.view(), frame.view(), spec, label(frame, Transfer::Pq, Range::Limited, "flat, pq override"));
        spec.colorOverride.transfer = Transfer::Hlg;
        expectSameHdr(frame.view(), frame.view(), spec, label(frame, Transfer::Hlg, Range::Limited, "flat, hlg override"));
        spec.colorOverride.transfer.reset();
    }
}

// HDR false colour: the CUDA engine's table comes from core's falseColour() for the frame's
// transfer, so the preview (and every other result) equals the CPU engine's.
TEST(CudaHdr, FalseColourPreviewMatchesCpu) {
    std::mt19937 rng(203);
    ScopeSpec spec;
    spec.preview = PreviewFilter::FalseColour;
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::P010, PixelFormat::Nv12, PixelFormat::Yuv422p})
        for (Transfer t : {Transfer::Pq, Transfer::Hlg, Transfer::Bt709}) {
            Frame frame(f, 517, 289, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, t, true, true});
            test::fillRandom(frame, rng);
            const std::string where = label(frame, t, Range::Limited, "false colour");
            ScopeResults gpu, cpu;
            ASSERT_TRUE(test::cudaEngine()->process(frame.view(), spec, gpu).ok()) << where;
            ASSERT_TRUE(test::cpuEngine().process(frame.view(), spec, cpu).ok()) << where;
            test::expectSameResults(gpu, cpu, where);   // a wrong band differs by far more than the one code allowed
            EXPECT_TRUE(test::sameCounts(gpu.hdr.maxCodes, cpu.hdr.maxCodes, "hdr max codes")) << where;
        }
}

// A frame in device memory (NVDEC's P010) counts as the same frame on the host.
TEST(CudaHdr, DeviceFrames) {
    std::mt19937 rng(10000);
    ScopeSpec spec;
    spec.displayImages = false;
    for (PixelFormat f : {PixelFormat::P010, PixelFormat::Yuv420p10}) {
        Frame frame(f, 1280, 720, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, Transfer::Pq, true, true});
        test::fillRandom(frame, rng);
        const FrameView host = frame.view();
        FrameView dev = host;
        dev.onDevice = true;
        std::vector<void*> allocations;
        for (int p = 0; p < formatInfo(f).planeCount; ++p) {
            const size_t pitch = size_t(host.pitch[size_t(p)]), rows = size_t(test::planeRowsOf(f, 720, p));
            void* mem = nullptr;
            ASSERT_EQ(cudaMalloc(&mem, pitch * rows), cudaSuccess);
            allocations.push_back(mem);
            ASSERT_EQ(cudaMemcpy(mem, host.data[size_t(p)], pitch * rows, cudaMemcpyHostToDevice), cudaSuccess);
            dev.data[size_t(p)] = static_cast<const uint8_t*>(mem);
        }
        expectSameHdr(dev, host, spec, label(frame, Transfer::Pq, Range::Limited, "device"));
        for (void* m : allocations) cudaFree(m);
    }
}

}  // namespace
}  // namespace cs
