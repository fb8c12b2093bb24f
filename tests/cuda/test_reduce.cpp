// CudaEngine::downscaleToHost against core/FrameReduce.h's reduceFrame: for every format the
// engine takes (NV12 and P010 as NVDEC gives them), frames in GPU memory reduced to several
// sizes equal the host reduction byte for byte.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "CudaTestUtil.h"
#include "DeviceCopy.h"
#include "EngineFixture.h"
#include "core/FrameReduce.h"

namespace cs {
namespace {

using test::DeviceCopy;

void expectSameFrame(const Frame& a, const Frame& b) {
    ASSERT_EQ(a.format(), b.format());
    ASSERT_EQ(a.width(), b.width());
    ASSERT_EQ(a.height(), b.height());
    EXPECT_EQ(a.pts, b.pts);
    EXPECT_EQ(a.view().color.range, b.view().color.range);
    const PixelFormatInfo& info = formatInfo(a.format());
    for (int p = 0; p < info.planeCount; ++p) {
        const size_t rowBytes = planeRowBytes(a.format(), a.width(), p);
        for (int y = 0; y < planeRows(a.format(), a.height(), p); ++y)
            ASSERT_EQ(std::memcmp(a.plane(p) + y * a.pitch(p), b.plane(p) + y * b.pitch(p), rowBytes), 0)
                << "plane " << p << " row " << y;
    }
}

TEST(CudaReduce, DeviceFramesReduceAsTheHostDoes) {
    CudaEngine& engine = *test::cudaEngine();
    for (PixelFormat f : test::allFormats()) {
        SCOPED_TRACE(formatInfo(f).name);
        std::mt19937 rng(11 + uint32_t(f));
        Frame frame(f, 642, 362);
        test::fillRandom(frame, rng);
        frame.pts = 2.5;
        const DeviceCopy dev(frame);
        ASSERT_EQ(dev.planes.size(), size_t(formatInfo(f).planeCount));
        const std::pair<int, int> sizes[] = {{160, 90}, {7, 5}, {642, 362}, {700, 400}, {480, 270}};
        Frame onGpu;
        for (const auto& [w, h] : sizes) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
            Frame onHost;
            reduceFrame(frame.view(), w, h, onHost);
            const Status s = engine.downscaleToHost(dev.view, w, h, onGpu);   // reused across sizes
            ASSERT_TRUE(s.ok()) << s.message();
            expectSameFrame(onGpu, onHost);
            Frame fromHostFrame;
            ASSERT_TRUE(engine.downscaleToHost(frame.view(), w, h, fromHostFrame).ok());
            expectSameFrame(fromHostFrame, onHost);
        }
        EXPECT_FALSE(engine.downscaleToHost(dev.view, 0, 10, onGpu).ok()) << "an empty size";
    }
}

}  // namespace
}  // namespace cs
