// Streams and events (docs/ARCHITECTURE.md, "Threads, streams and frames"): the CUDA engine
// reads a device frame written on another stream only after the frame's ready event (or,
// without one, after the legacy default stream's work), returns without waiting for work
// queued later on that stream (a source's read-ahead), copies a region of a device frame
// back on its own stream (the pixel picker), and a decode stream's events go back to its pool. Each race is set up so that reading early would read other bytes: the frame's
// planes are copied in behind gigabytes of memsets on the producer's stream, into memory that
// holds another picture until then.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "CudaTestUtil.h"
#include "EngineFixture.h"
#include "core/PixelAccess.h"

namespace cs {
namespace {

// A frame's planes in device memory, written on `producer` behind a long run of memsets on
// the same stream: the call returns at once, the planes hold a flat grey (another picture)
// until the copies land.
class LateDeviceFrame {
public:
    LateDeviceFrame(const Frame& frame, cudaStream_t producer) {
        host_ = frame.view();
        view_ = host_;
        view_.onDevice = true;
        const auto& info = formatInfo(frame.format());
        Frame grey(frame.format(), frame.width(), frame.height(), host_.color);
        grey.fill(info.bitDepth == 8 ? 128 : 512, info.bitDepth == 8 ? 128 : 512, info.bitDepth == 8 ? 128 : 512);
        for (int p = 0; p < info.planeCount; ++p) {
            const size_t bytes = size_t(frame.pitch(p)) * size_t(planeRows(frame.format(), frame.height(), p));
            void* device = nullptr;
            void* pinned = nullptr;
            ok_ = ok_ && cudaMalloc(&device, bytes) == cudaSuccess && cudaMallocHost(&pinned, bytes) == cudaSuccess;
            device_.push_back(device);
            pinned_.push_back(pinned);
            if (!ok_) return;
            std::memcpy(pinned, frame.plane(p), bytes);
            ok_ = cudaMemcpy(device, grey.plane(p), bytes, cudaMemcpyHostToDevice) == cudaSuccess;   // done before the call returns
            view_.data[size_t(p)] = static_cast<const uint8_t*>(device);
        }
        // Several milliseconds of work ahead of the copies on the producer's stream.
        const size_t busyBytes = size_t(test::smallOnly() ? 64 : 512) << 20;
        ok_ = ok_ && cudaMalloc(&busy_, busyBytes) == cudaSuccess;
        for (int i = 0; ok_ && i < 16; ++i) ok_ = cudaMemsetAsync(busy_, i, busyBytes, producer) == cudaSuccess;
        for (int p = 0; ok_ && p < info.planeCount; ++p) {
            const size_t bytes = size_t(frame.pitch(p)) * size_t(planeRows(frame.format(), frame.height(), p));
            ok_ = cudaMemcpyAsync(device_[size_t(p)], pinned_[size_t(p)], bytes, cudaMemcpyHostToDevice, producer) == cudaSuccess;
        }
    }
    ~LateDeviceFrame() {
        cudaDeviceSynchronize();
        for (void* d : device_) cudaFree(d);
        for (void* h : pinned_) cudaFreeHost(h);
        cudaFree(busy_);
    }
    bool ok() const { return ok_; }
    FrameView& view() { return view_; }
    const FrameView& host() const { return host_; }

private:
    bool ok_ = true;
    FrameView host_, view_;
    std::vector<void*> device_, pinned_;
    void* busy_ = nullptr;
};

Frame randomFrame(PixelFormat f, uint32_t seed) {
    std::mt19937 rng(seed);
    Frame frame(f, 322, 182);
    test::fillRandom(frame, rng);
    return frame;
}

ScopeSpec everything() {
    ScopeSpec spec;
    spec.preview = PreviewFilter::Edges;
    return spec;
}

// NVDEC's case: planes written on a decode stream, the frame carrying its ready event.
TEST(CudaStreams, DeviceFrameIsReadAfterItsReadyEvent) {
    CudaEngine& engine = *test::cudaEngine();
    auto stream = engine.makeDecodeStream();
    ASSERT_TRUE(stream.ok()) << stream.message();
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010}) {
        SCOPED_TRACE(formatInfo(f).name);
        const Frame frame = randomFrame(f, 5);
        LateDeviceFrame late(frame, static_cast<cudaStream_t>(stream.value()->native()));
        ASSERT_TRUE(late.ok());
        auto ready = stream.value()->recordReady();
        ASSERT_TRUE(ready.ok()) << ready.message();
        late.view().deviceReady = ready.value().get();
        ScopeResults fromDevice, fromHost;
        ASSERT_TRUE(engine.process(late.view(), everything(), fromDevice).ok());
        ASSERT_TRUE(engine.process(late.host(), everything(), fromHost).ok());
        test::expectSameResults(fromDevice, fromHost, "device frame after its ready event", 0);
    }
}

// A device frame without a ready event (FFmpeg given no stream decodes on the legacy default
// stream): the engine orders itself after that stream's work.
TEST(CudaStreams, DeviceFrameWithoutAnEventIsReadAfterTheLegacyStream) {
    CudaEngine& engine = *test::cudaEngine();
    const Frame frame = randomFrame(PixelFormat::Nv12, 6);
    LateDeviceFrame late(frame, cudaStreamLegacy);
    ASSERT_TRUE(late.ok());
    ScopeResults fromDevice, fromHost;
    ASSERT_TRUE(engine.process(late.view(), everything(), fromDevice).ok());
    ASSERT_TRUE(engine.process(late.host(), everything(), fromHost).ok());
    test::expectSameResults(fromDevice, fromHost, "device frame after the legacy stream", 0);
}

// Work queued on the decode stream after a frame's ready event (the next frames' decoding,
// read ahead by another thread) is not waited for: the engine returns while that stream is
// still held by a host function that only lets go once the engine has returned.
TEST(CudaStreams, EngineDoesNotWaitForLaterWorkOnTheDecodeStream) {
    CudaEngine& engine = *test::cudaEngine();
    auto made = engine.makeDecodeStream();
    ASSERT_TRUE(made.ok()) << made.message();
    auto& stream = *made.value();
    const auto decode = static_cast<cudaStream_t>(stream.native());
    const Frame frame = randomFrame(PixelFormat::Nv12, 7);
    LateDeviceFrame late(frame, decode);
    ASSERT_TRUE(late.ok());
    auto ready = stream.recordReady();
    ASSERT_TRUE(ready.ok());
    late.view().deviceReady = ready.value().get();

    // The gate holds the decode stream until released (or, should the engine wait for the
    // whole stream, until 20 s have passed, so that the test fails instead of hanging).
    struct Gate {
        std::atomic<bool> open{false};
        static void CUDART_CB hold(void* self) {
            auto& gate = *static_cast<Gate*>(self);
            const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (!gate.open.load() && std::chrono::steady_clock::now() < giveUp) std::this_thread::yield();
        }
    } gate;
    ASSERT_EQ(cudaLaunchHostFunc(decode, &Gate::hold, &gate), cudaSuccess);
    ScopeResults fromDevice, fromHost;
    const Status s = engine.process(late.view(), everything(), fromDevice);
    const cudaError_t decodeState = cudaStreamQuery(decode);
    gate.open = true;
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(decodeState, cudaErrorNotReady) << "the engine returned only once the decode stream's later work was done";
    ASSERT_EQ(cudaStreamSynchronize(decode), cudaSuccess);
    ASSERT_TRUE(engine.process(late.host(), everything(), fromHost).ok());
    test::expectSameResults(fromDevice, fromHost, "device frame", 0);
}

// The pixel picker's read of a device frame (CudaEngine::copyRegion): a region's samples,
// for every layout, equal the frame's own at the same places; regions off the frame or off
// its chroma grid are errors.
TEST(CudaStreams, CopyRegionGivesTheFramesSamples) {
    CudaEngine& engine = *test::cudaEngine();
    for (PixelFormat f : test::allFormats()) {
        SCOPED_TRACE(formatInfo(f).name);
        const Frame frame = randomFrame(f, 8);
        const FrameView host = frame.view();
        FrameView dev = host;
        dev.onDevice = true;
        std::vector<void*> planes;
        for (int p = 0; p < formatInfo(f).planeCount; ++p) {
            const size_t bytes = size_t(host.pitch[size_t(p)]) * size_t(planeRows(f, host.height, p));
            void* mem = nullptr;
            ASSERT_EQ(cudaMalloc(&mem, bytes), cudaSuccess);
            planes.push_back(mem);
            ASSERT_EQ(cudaMemcpy(mem, host.data[size_t(p)], bytes, cudaMemcpyHostToDevice), cudaSuccess);
            dev.data[size_t(p)] = static_cast<const uint8_t*>(mem);
        }
        const int x0 = 6, y0 = 4, w = 7, h = 5;
        auto region = engine.copyRegion(dev, x0, y0, w, h);
        ASSERT_TRUE(region.ok()) << region.message();
        const PixelSource a = makePixelSource(region.value().view()), b = makePixelSource(host);
        const int mid = host.levels() / 2;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                if (formatInfo(f).isRgb) {
                    const Rgb s = readRgb(a, x, y), r = readRgb(b, x0 + x, y0 + y);
                    EXPECT_TRUE(s.r == r.r && s.g == r.g && s.b == r.b) << "(" << x << ", " << y << ")";
                } else {
                    const YuvSample s = readYuv(a, x, y, mid), r = readYuv(b, x0 + x, y0 + y, mid);
                    EXPECT_TRUE(s.y == r.y && s.cb == r.cb && s.cr == r.cr) << "(" << x << ", " << y << ")";
                }
            }
        // Into a reused frame (qc --host-detectors' copy each frame): the whole frame, then the
        // region again into the same storage, the same samples as the fresh copy.
        Frame reused;
        ASSERT_TRUE(engine.copyRegion(dev, 0, 0, host.width, host.height, reused).ok());
        EXPECT_EQ(reused.height(), host.height);
        ASSERT_TRUE(engine.copyRegion(dev, x0, y0, w, h, reused).ok());
        ASSERT_EQ(reused.width(), w);
        for (int p = 0; p < formatInfo(f).planeCount; ++p)
            for (int y = 0; y < planeRows(f, h, p); ++y)
                EXPECT_EQ(std::memcmp(reused.plane(p) + std::ptrdiff_t(y) * reused.pitch(p),
                                      region.value().plane(p) + std::ptrdiff_t(y) * region.value().pitch(p), planeRowBytes(f, w, p)),
                          0) << "plane " << p << " row " << y;
        EXPECT_FALSE(engine.copyRegion(dev, host.width - 2, 0, 4, 2).ok()) << "past the right edge";
        EXPECT_FALSE(engine.copyRegion(host, 0, 0, 2, 2).ok()) << "a host frame";
        if (formatInfo(f).log2ChromaW) {
            EXPECT_FALSE(engine.copyRegion(dev, 1, 0, 2, 2).ok()) << "off the chroma grid";
        }
        for (void* m : planes) cudaFree(m);
    }
}

// A ready event belongs to its frame until the frame lets go; then the stream records it again.
TEST(CudaStreams, ReadyEventsGoBackToTheirStreamsPool) {
    auto made = test::cudaEngine()->makeDecodeStream();
    ASSERT_TRUE(made.ok()) << made.message();
    DeviceStream& stream = *made.value();
    EXPECT_EQ(stream.device(), test::cudaEngine()->device());
    auto a = stream.recordReady(), b = stream.recordReady();
    ASSERT_TRUE(a.ok() && b.ok());
    void* const first = a.value().get();
    EXPECT_NE(first, b.value().get()) << "two frames alive: two events";
    a.value().reset();
    auto c = stream.recordReady();
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.value().get(), first) << "the dropped frame's event is recorded again";
    EXPECT_EQ(cudaEventSynchronize(static_cast<cudaEvent_t>(c.value().get())), cudaSuccess);
}

}  // namespace
}  // namespace cs
