// cuda/analysis/CudaSignalStats (qc's signalstats, black count and freeze MAFD for NVDEC frames)
// against core's SignalStatsMeter, the CPU reference, on the same frames: every Y'CbCr
// format, random samples (out-of-range values included), sequences with a repeated frame
// (DIF 0, MAFD 0) and a size change; every value equal.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <random>
#include <vector>

#include "CudaTestUtil.h"
#include "analysis/SignalStats.h"
#include "cuda/analysis/CudaSignalStats.h"

using namespace cs;

namespace {

// A host frame copied to device memory; freed with the object.
struct DeviceCopy {
    FrameView view;
    std::vector<void*> allocations;
    explicit DeviceCopy(const Frame& frame) {
        const FrameView host = frame.view();
        view = host;
        view.onDevice = true;
        const auto& info = formatInfo(frame.format());
        for (int p = 0; p < info.planeCount; ++p) {
            const int rows = test::planeRowsOf(frame.format(), frame.height(), p);
            const size_t pitch = size_t(host.pitch[size_t(p)]);
            void* mem = nullptr;
            EXPECT_EQ(cudaMalloc(&mem, pitch * size_t(rows)), cudaSuccess);
            allocations.push_back(mem);
            EXPECT_EQ(cudaMemcpy(mem, host.data[size_t(p)], pitch * size_t(rows), cudaMemcpyHostToDevice), cudaSuccess);
            view.data[size_t(p)] = static_cast<const uint8_t*>(mem);
        }
    }
    ~DeviceCopy() {
        for (void* m : allocations) cudaFree(m);
    }
};

void expectEqual(const SignalStats& a, const SignalStats& b, const std::string& where) {
#define CS_EQ(field) EXPECT_EQ(a.field, b.field) << where << ": " #field
    CS_EQ(ymin); CS_EQ(ylow); CS_EQ(yavg); CS_EQ(yhigh); CS_EQ(ymax);
    CS_EQ(umin); CS_EQ(ulow); CS_EQ(uavg); CS_EQ(uhigh); CS_EQ(umax);
    CS_EQ(vmin); CS_EQ(vlow); CS_EQ(vavg); CS_EQ(vhigh); CS_EQ(vmax);
    CS_EQ(satmin); CS_EQ(satlow); CS_EQ(satavg); CS_EQ(sathigh); CS_EQ(satmax);
    CS_EQ(huemed); CS_EQ(hueavg); CS_EQ(ydif); CS_EQ(udif); CS_EQ(vdif);
    CS_EQ(tout); CS_EQ(vrep); CS_EQ(brng); CS_EQ(blackPixels);
    CS_EQ(ybitdepth); CS_EQ(ubitdepth); CS_EQ(vbitdepth);
#undef CS_EQ
}

}  // namespace

TEST(CudaSignalStats, EqualsCpuMeter) {
    std::mt19937 rng(29);
    int tested = 0;
    for (PixelFormat f : test::allFormats()) {
        if (formatInfo(f).isRgb) continue;
        auto gpu = CudaSignalStatsMeter::create(0);
        ASSERT_TRUE(gpu.ok()) << gpu.message();
        SignalStatsMeter cpu;
        FreezeReference reference;
        // Frames: random, random, the second again (frozen), a smaller random one, random.
        std::vector<Frame> frames;
        for (int i = 0; i < 5; ++i) {
            const int w = i == 3 ? 130 : 322, h = i == 3 ? 67 : 181;   // odd sizes: partial chroma
            Frame frame(f, w, h);
            test::fillRandom(frame, rng);
            if (i == 1) {   // mostly dark, a few lines repeated: black counts and VREP rows
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x)
                        if ((y / 8) % 2 == 0) frame.setPixel(x, y, 16 << (formatInfo(f).bitDepth - 8), 1 << (formatInfo(f).bitDepth - 1), 1 << (formatInfo(f).bitDepth - 1));
            }
            frames.push_back(i == 2 ? frames[1] : std::move(frame));
        }
        for (size_t i = 0; i < frames.size(); ++i) {
            const std::string where = std::string(formatInfo(f).name) + " frame " + std::to_string(i);
            const int black = blackThresholdFor(0.1, formatInfo(f).bitDepth, false);
            SignalStats fromCpu, fromGpu;
            ASSERT_TRUE(cpu.measure(frames[i].view(), black, fromCpu).ok()) << where;
            const double cpuMafd = reference.mafd(cpu.current());
            DeviceCopy dev(frames[i]);
            double gpuMafd = -1;
            const Status st = (*gpu)->measure(dev.view, black, fromGpu, gpuMafd);
            ASSERT_TRUE(st.ok()) << where << ": " << st.message();
            expectEqual(fromGpu, fromCpu, where);
            EXPECT_EQ(gpuMafd, cpuMafd) << where;
            if (i == 2) {
                EXPECT_EQ(gpuMafd, 0.0) << where;
            }
            if (cpuMafd > 0.001) {   // freezedetect: a moving frame becomes the reference
                reference.set(cpu.current());
                ASSERT_TRUE((*gpu)->setReference().ok());
            }
        }
        ++tested;
    }
    EXPECT_GT(tested, 5);
}

TEST(CudaSignalStats, RgbAndHostFramesAreErrors) {
    auto gpu = CudaSignalStatsMeter::create(0);
    ASSERT_TRUE(gpu.ok()) << gpu.message();
    SignalStats out;
    double mafd = 0;
    Frame host(PixelFormat::Yuv420p, 64, 32);
    EXPECT_FALSE((*gpu)->measure(host.view(), 37, out, mafd).ok());   // host memory
    Frame rgb(PixelFormat::Rgb24, 64, 32);
    DeviceCopy dev(rgb);
    EXPECT_FALSE((*gpu)->measure(dev.view, 37, out, mafd).ok());
}
