// Samples above the format's range (16-bit words with bits set above the depth, as damaged
// 10-bit streams leave them) through the CUDA engine, cuda/analysis/CudaSignalStats and the device
// reduction, against the CPU engine, core's SignalStatsMeter and the host reduction on the
// same frames: every value equal, the rule being core/PixelAccess.h's sampleCode (the bits
// above the depth ignored). Run under compute-sanitizer, an out-of-bounds table or
// histogram index on the GPU is an error (docs/CUDA.md).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "CudaTestUtil.h"
#include "DeviceCopy.h"
#include "EngineCompare.h"
#include "core/FrameReduce.h"
#include "core/SampleRange.h"
#include "analysis/SignalStats.h"
#include "cuda/analysis/CudaSignalStats.h"

namespace cs {
namespace {

using test::DeviceCopy;

// Every stored word random over all 16 bits (kind 0), or every word 0xFFFF (kind 1), or
// 14376 (kind 2: FFmpeg's H.264 10-bit decoder on a damaged stream).
void fillWords(Frame& f, std::mt19937& rng, int kind) {
    const auto& info = formatInfo(f.format());
    for (int p = 0; p < info.planeCount; ++p) {
        const size_t bytes = size_t(f.pitch(p)) * size_t(planeRows(f.format(), f.height(), p));
        for (size_t i = 0; i + 1 < bytes; i += 2) {
            const uint32_t w = kind == 0 ? (rng() & 0xffffu) : kind == 1 ? 0xffffu : 14376u;
            f.plane(p)[i] = uint8_t(w & 0xff);
            f.plane(p)[i + 1] = uint8_t(w >> 8);
        }
    }
}

void expectSameStats(const SignalStats& a, const SignalStats& b, const std::string& where) {
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

const PixelFormat kDeepFormats[] = {PixelFormat::Yuv420p10, PixelFormat::Yuv422p10, PixelFormat::Yuv444p10, PixelFormat::Gray10};

TEST(CudaOutOfRange, EngineEqualsCpuEngine) {
    ASSERT_NE(test::cudaEngine(), nullptr);
    std::mt19937 rng(41);
    for (PixelFormat f : kDeepFormats)
        for (int kind = 0; kind < 3; ++kind) {
            Frame frame(f, 322, 181);
            fillWords(frame, rng, kind);
            ASSERT_GT(samplesAboveRange(frame.view()).value_or(0), 0);
            const DeviceCopy dev(frame);
            ASSERT_EQ(dev.planes.size(), size_t(formatInfo(f).planeCount));
            for (PreviewFilter preview : test::kFilters) {
                const std::string where = test::label(frame, "words " + std::to_string(kind) + " preview " +
                                                                 std::to_string(int(preview)));
                test::compareEngines(frame.view(), frame.view(), test::everything(preview), where + " (host frame)");
                test::compareEngines(dev.view, frame.view(), test::everything(preview), where + " (device frame)");
            }
        }
}

TEST(CudaOutOfRange, SignalStatsEqualCpuMeter) {
    std::mt19937 rng(43);
    for (PixelFormat f : kDeepFormats) {
        auto gpu = CudaSignalStatsMeter::create(0);
        ASSERT_TRUE(gpu.ok()) << gpu.message();
        SignalStatsMeter cpu;
        FreezeReference reference;
        for (int kind = 0; kind < 3; ++kind) {
            const std::string where = std::string(formatInfo(f).name) + " words " + std::to_string(kind);
            Frame frame(f, 322, 181);
            fillWords(frame, rng, kind);
            const int black = blackThresholdFor(0.1, 10, false);
            SignalStats fromCpu, fromGpu;
            ASSERT_TRUE(cpu.measure(frame.view(), black, fromCpu).ok()) << where;
            const double cpuMafd = reference.mafd(cpu.current());
            const DeviceCopy dev(frame);
            double gpuMafd = -1;
            const Status st = (*gpu)->measure(dev.view, black, fromGpu, gpuMafd);
            ASSERT_TRUE(st.ok()) << where << ": " << st.message();
            expectSameStats(fromGpu, fromCpu, where);
            EXPECT_EQ(gpuMafd, cpuMafd) << where;
            EXPECT_LE(fromGpu.ymax, 1023) << where;
            reference.set(cpu.current());
            ASSERT_TRUE((*gpu)->setReference().ok());
        }
    }
}

TEST(CudaOutOfRange, DeviceReductionEqualsHost) {
    CudaEngine& engine = *test::cudaEngine();
    std::mt19937 rng(47);
    for (PixelFormat f : kDeepFormats) {
        SCOPED_TRACE(formatInfo(f).name);
        Frame frame(f, 322, 181);
        fillWords(frame, rng, 0);
        const DeviceCopy dev(frame);
        Frame onHost, onGpu;
        reduceFrame(frame.view(), 160, 90, onHost);
        ASSERT_TRUE(engine.downscaleToHost(dev.view, 160, 90, onGpu).ok());
        ASSERT_EQ(onGpu.format(), onHost.format());
        const PixelFormat out = onHost.format();
        for (int p = 0; p < formatInfo(out).planeCount; ++p)
            for (int y = 0; y < planeRows(out, 90, p); ++y)
                ASSERT_EQ(std::memcmp(onHost.plane(p) + y * onHost.pitch(p), onGpu.plane(p) + y * onGpu.pitch(p),
                                      planeRowBytes(out, 160, p)), 0) << "plane " << p << " row " << y;
        EXPECT_EQ(samplesAboveRange(onHost.view()), 0) << "the reduction holds codes, not words";
    }
}

}  // namespace
}  // namespace cs
