// The CUDA engine on the frames it is given: 8K frames, frames in device memory (aligned or
// not) against the same frames on the host, regions of frames (core/FrameRegion.h) against
// the cropped frames, fields (core/FieldView.h) against their lines as frames, bad input, frames that change size and format from call to call, and
// accumulators that start clean every frame.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "DeviceCopy.h"
#include "EngineCompare.h"
#include "tests/common/RegionScopes.h"

namespace cs {
namespace {

using test::cudaEngine;
using test::compareEngines;
using test::everything;
using test::label;

TEST(CudaEngine, LargeFrames8K) {
    if (test::smallOnly()) GTEST_SKIP() << "CS_CUDA_TEST_SMALL";
    std::mt19937 rng(13);
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010}) {
        Frame frame(f, 7680, 4320);
        test::fillRandom(frame, rng);
        compareEngines(frame.view(), everything(PreviewFilter::FalseColour), label(frame, "random"));
    }
}

// A frame in device memory (as NVDEC delivers it) gives exactly the host path's results.
TEST(CudaEngine, DeviceFramesEqualHostFrames) {
    std::mt19937 rng(17);
    const int w = test::smallOnly() ? 322 : 1920, h = test::smallOnly() ? 181 : 1080;
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p10})
        for (bool misaligned : {false, true}) {
            Frame frame(f, w, h);
            test::fillRandom(frame, rng);
            const FrameView host = frame.view();
            const auto& info = formatInfo(f);
            FrameView dev = host;
            dev.onDevice = true;
            std::vector<void*> allocations;
            for (int p = 0; p < info.planeCount; ++p) {
                const int rows = test::planeRowsOf(f, h, p);
                // Misaligned: a pitch that is not a multiple of 16 bytes (the engine must realign).
                const size_t pitch = size_t(host.pitch[size_t(p)]) + (misaligned ? 6 : 0);
                void* mem = nullptr;
                ASSERT_EQ(cudaMalloc(&mem, pitch * size_t(rows)), cudaSuccess);
                allocations.push_back(mem);
                ASSERT_EQ(cudaMemcpy2D(mem, pitch, host.data[size_t(p)], size_t(host.pitch[size_t(p)]), size_t(host.pitch[size_t(p)]),
                                       size_t(rows), cudaMemcpyHostToDevice),
                          cudaSuccess);
                dev.data[size_t(p)] = static_cast<const uint8_t*>(mem);
                dev.pitch[size_t(p)] = std::ptrdiff_t(pitch);
            }
            ScopeResults fromDevice, fromHost;
            const ScopeSpec spec = everything(PreviewFilter::Gaussian);
            const std::string where = label(frame, misaligned ? "device, misaligned pitch" : "device");
            compareEngines(dev, host, spec, where, &fromDevice);
            ASSERT_TRUE(cudaEngine()->process(host, spec, fromHost).ok());
            test::expectSameResults(fromDevice, fromHost, where + " vs host path", 0);
            for (void* m : allocations) cudaFree(m);
        }
}

// A region's view of a frame, in device memory as NVDEC leaves it and on the host, gives the
// CUDA engine's scopes of the region cropped and built as a frame (every count, statistic and
// image, exactly), and the CPU engine's of the same region (the picture within a code value).
TEST(CudaEngine, RegionScopesEqualTheCroppedFrame) {
    std::mt19937 rng(29);
    const int w = 322, h = 181;
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p, PixelFormat::Yuv422p10})
        for (const FrameRegion& region : {FrameRegion{41, 17, 151, 97}, FrameRegion{0, 77, w, 1}, FrameRegion{301, 170, 21, 11}}) {
            const std::string where = std::string(formatInfo(f).name) + " region " + regionName(region);
            SCOPED_TRACE(where);
            ColorInfo color;
            color.transfer = f == PixelFormat::P010 ? Transfer::Pq : Transfer::Bt709;
            const testing::Components c = testing::randomComponents(f, w, h, rng);
            const Frame frame = testing::buildFrame(f, c, color);
            const FrameRegion snapped = snapRegion(region, f, w, h);
            const Frame crop = testing::buildFrame(f, testing::cropComponents(f, c, snapped), color);
            const test::DeviceCopy device(frame);
            ASSERT_EQ(device.planes.size(), size_t(formatInfo(f).planeCount));
            auto onDevice = regionView(device.view, region);
            auto onHost = regionView(frame.view(), region);
            ASSERT_TRUE(onDevice.ok()) << onDevice.message();
            ASSERT_TRUE(onHost.ok()) << onHost.message();
            const ScopeSpec spec = testing::everyScope(ParadeMode::Rgb);
            ScopeResults ofDevice, ofHost, ofCrop;
            ASSERT_TRUE(cudaEngine()->process(*onDevice, spec, ofDevice).ok());
            ASSERT_TRUE(cudaEngine()->process(*onHost, spec, ofHost).ok());
            ASSERT_TRUE(cudaEngine()->process(crop.view(), spec, ofCrop).ok());
            testing::expectSameScopes(ofDevice, ofCrop);
            testing::expectSameScopes(ofHost, ofCrop);
            compareEngines(*onDevice, *onHost, spec, where + ": the CUDA engine against the CPU engine");
        }
}

// A field's view (core/FieldView.h), in device memory and on the host: the CUDA engine's
// scopes of the field's lines built as a frame, and the CPU engine's of the same view.
TEST(CudaEngine, FieldScopesEqualTheFieldsLinesAsAFrame) {
    std::mt19937 rng(31);
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p, PixelFormat::Yuv422p10})
        for (int h : {180, 181, 486})
            for (Field field : {Field::Top, Field::Bottom}) {
                const std::string where = std::string(formatInfo(f).name) + " height " + std::to_string(h) + " " + fieldName(field);
                SCOPED_TRACE(where);
                const testing::Components c = testing::randomComponents(f, 322, h, rng);
                const Frame frame = testing::buildFrame(f, c, ColorInfo{});
                const Frame alone = testing::buildFrame(f, testing::fieldComponents(f, c, field), ColorInfo{});
                const test::DeviceCopy device(frame);
                auto onDevice = fieldView(device.view, field);
                auto onHost = fieldView(frame.view(), field);
                ASSERT_TRUE(onDevice.ok()) << onDevice.message();
                ASSERT_TRUE(onHost.ok()) << onHost.message();
                const ScopeSpec spec = testing::everyScope(ParadeMode::Rgb);
                ScopeResults ofDevice, ofHost, ofAlone;
                ASSERT_TRUE(cudaEngine()->process(*onDevice, spec, ofDevice).ok());
                ASSERT_TRUE(cudaEngine()->process(*onHost, spec, ofHost).ok());
                ASSERT_TRUE(cudaEngine()->process(alone.view(), spec, ofAlone).ok());
                testing::expectSameScopes(ofDevice, ofAlone);
                testing::expectSameScopes(ofHost, ofAlone);
                compareEngines(*onDevice, *onHost, spec, where + ": the CUDA engine against the CPU engine");
            }
}

TEST(CudaEngine, BadInputIsAnErrorNotACrash) {
    CudaEngine* e = cudaEngine();
    ScopeResults r;
    Frame frame(PixelFormat::Nv12, 64, 32);
    FrameView v = frame.view();
    v.onDevice = true;   // a host pointer claimed to be device memory
    const Status s = e->process(v, everything(), r);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("not CUDA device memory"), std::string::npos) << s.message();
    FrameView empty = frame.view();
    empty.width = 0;
    EXPECT_FALSE(e->process(empty, everything(), r).ok());
    FrameView missing = frame.view();
    missing.data[1] = nullptr;
    EXPECT_FALSE(e->process(missing, everything(), r).ok());
    // The engine still works afterwards.
    frame.fill(16, 128, 128);
    EXPECT_TRUE(e->process(frame.view(), everything(), r).ok());
    const auto none = makeCudaEngine(1000);
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.message().find("does not exist"), std::string::npos) << none.message();
}

TEST(CudaEngine, BuffersFollowChangingFrames) {
    std::mt19937 rng(19);
    for (auto [f, w, h] : {std::tuple{PixelFormat::P010, 640, 360}, std::tuple{PixelFormat::Nv12, 2, 2},
                           std::tuple{PixelFormat::Rgb24, 1001, 3}, std::tuple{PixelFormat::P010, 640, 360},
                           std::tuple{PixelFormat::Yuv444p10, 77, 512}}) {
        Frame frame(f, w, h);
        test::fillRandom(frame, rng);
        compareEngines(frame.view(), everything(PreviewFilter::Median3), label(frame, "sequence"));
    }
}

// The pipeline counts into two sets of accumulators by turns and clears the one it is not
// using beside the preview: every frame of a run must start from zero, whatever the frame
// before asked for (here the vectorscope off then on again, and one frame three times).
TEST(CudaEngine, AccumulatorsStartCleanEveryFrame) {
    std::mt19937 rng(23);
    Frame a(PixelFormat::P010, 322, 180), b(PixelFormat::P010, 322, 180);
    test::fillRandom(a, rng);
    test::fillRandom(b, rng);
    ScopeSpec noVectorscope = everything(PreviewFilter::Zebra);
    noVectorscope.vectorscope = false;
    compareEngines(a.view(), everything(PreviewFilter::Zebra), label(a, "first"));
    compareEngines(b.view(), noVectorscope, label(b, "no vectorscope"));
    compareEngines(a.view(), everything(PreviewFilter::Zebra), label(a, "vectorscope again"));
    for (int i = 0; i < 3; ++i) compareEngines(b.view(), everything(PreviewFilter::None), label(b, "repeat " + std::to_string(i)));
}

}  // namespace
}  // namespace cs
