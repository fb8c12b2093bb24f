// NVDEC through FFmpeg's CUDA hwaccel: frames stay in CUDA memory (NV12 for 8-bit H.264
// and AV1, P010 for HEVC Main10 and 10-bit AV1), the VideoFrame views the hardware frame's
// own device pointers, and every pixel, copied back to the host, equals software decoding
// of the same clip (NVDEC, libavcodec and libdav1d are bit-exact on conformant streams).
// AV1 goes through FFmpeg's native av1 decoder (the default, libdav1d, has no hwaccel).
//
// Exits 77 (skipped) where FFmpeg cannot create a CUDA device; the AV1 cases skip where
// the GPU has no AV1 decoder (libavcodec's reason is printed). Clips are made with the
// ffmpeg CLI, or taken from $CS_TEST_NVDEC_CLIPS (h264.mp4, hevc10.mkv, av1.mkv, av1-10.mkv
// made the same way) on machines that have a GPU but no ffmpeg CLI.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <memory>
#include <type_traits>
#include <vector>

#include "DecodeTestUtil.h"
#include "core/PixelAccess.h"

#include <dlfcn.h>

// hwcontext_cuda.h needs only these two handle types from cuda.h (declared as cuda.h does).
#ifndef CUDA_VERSION
#define CUDA_VERSION 0
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
#endif

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_cuda.h>
#include <libavutil/log.h>
}

namespace cs {
namespace {

constexpr int kFrames = 24;

std::string clipPath(test::TempDir& dir, const std::string& name, const std::string& encode) {
    if (const char* premade = std::getenv("CS_TEST_NVDEC_CLIPS"); premade && *premade)
        return (std::filesystem::path(premade) / name).string();
    const std::string clip = dir.file(name);
    EXPECT_TRUE(test::runFfmpeg("-f lavfi -i testsrc2=s=320x240:r=25 -frames:v " + std::to_string(kFrames) + " " +
                                encode + " " + clip));
    return clip;
}

using CUresult = int;
using CUdevice = int;
typedef struct CUevent_st* CUevent;

// A decode stream as the CUDA engine makes one (core/DeviceStream.h), made here through the
// driver API (loaded at run time, as FFmpeg loads it): a non-blocking stream on the primary
// context, in the state the CUDA runtime leaves that context when the engine starts first
// (active, default flags: FFmpeg 5.1 refuses it for AV_CUDA_USE_PRIMARY_CONTEXT; openSource
// copes), and a ready event per frame.
class DriverStream final : public DeviceStream {
public:
    bool open() {
        driver_ = dlopen("libcuda.so.1", RTLD_NOW);
        if (!driver_) return false;
        auto sym = [&](auto& fn, const char* name) { fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(driver_, name)); return fn != nullptr; };
        if (!(sym(cuInit_, "cuInit") && sym(cuDeviceGet_, "cuDeviceGet") && sym(retain_, "cuDevicePrimaryCtxRetain") &&
              sym(release_, "cuDevicePrimaryCtxRelease_v2") && sym(setFlags_, "cuDevicePrimaryCtxSetFlags_v2") &&
              sym(push_, "cuCtxPushCurrent_v2") && sym(pop_, "cuCtxPopCurrent_v2") && sym(streamCreate_, "cuStreamCreate") &&
              sym(streamDestroy_, "cuStreamDestroy_v2") && sym(eventCreate_, "cuEventCreate") && sym(eventRecord_, "cuEventRecord") &&
              sym(eventQuery_, "cuEventQuery") && sym(eventDestroy_, "cuEventDestroy_v2")))
            return false;
        if (cuInit_(0) != 0 || cuDeviceGet_(&device_, 0) != 0) return false;
        setFlags_(device_, 0 /* CU_CTX_SCHED_AUTO */);
        if (retain_(&primary_, device_) != 0) return false;
        Current current(*this);
        return streamCreate_(&stream_, 1 /* CU_STREAM_NON_BLOCKING */) == 0;
    }
    ~DriverStream() override {
        if (primary_) {
            {
                Current current(*this);
                if (stream_) streamDestroy_(stream_);
            }
            release_(device_);
        }
    }
    int device() const override { return device_; }
    void* native() const override { return stream_; }
    Result<std::shared_ptr<void>> recordReady() override {
        Current current(*this);
        CUevent event = nullptr;
        if (eventCreate_(&event, 2 /* CU_EVENT_DISABLE_TIMING */) != 0 || eventRecord_(event, stream_) != 0)
            return Status::error("cannot record a ready event");
        ++recorded;
        return std::shared_ptr<void>(event, [this](void* e) {
            Current again(*this);
            eventDestroy_(static_cast<CUevent>(e));
        });
    }
    // Whether the event has completed (cuEventQuery: 0, CUDA_SUCCESS).
    bool complete(void* event) {
        Current current(*this);
        return eventQuery_(static_cast<CUevent>(event)) == 0;
    }
    int recorded = 0;

private:
    struct Current {   // the primary context current on this thread while it lives
        explicit Current(DriverStream& owner) : stream(owner) { stream.push_(stream.primary_); }
        ~Current() { CUcontext popped = nullptr; stream.pop_(&popped); }
        DriverStream& stream;
    };
    void* driver_ = nullptr;
    CUresult (*cuInit_)(unsigned) = nullptr;
    CUresult (*cuDeviceGet_)(CUdevice*, int) = nullptr;
    CUresult (*retain_)(CUcontext*, CUdevice) = nullptr;
    CUresult (*release_)(CUdevice) = nullptr;
    CUresult (*setFlags_)(CUdevice, unsigned) = nullptr;
    CUresult (*push_)(CUcontext) = nullptr;
    CUresult (*pop_)(CUcontext*) = nullptr;
    CUresult (*streamCreate_)(CUstream*, unsigned) = nullptr;
    CUresult (*streamDestroy_)(CUstream) = nullptr;
    CUresult (*eventCreate_)(CUevent*, unsigned) = nullptr;
    CUresult (*eventRecord_)(CUevent, CUstream) = nullptr;
    CUresult (*eventQuery_)(CUevent) = nullptr;
    CUresult (*eventDestroy_)(CUevent) = nullptr;
    CUdevice device_ = 0;
    CUcontext primary_ = nullptr;
    CUstream stream_ = nullptr;
};

// Every pixel of the NVDEC frames (copied to the host) against software decoding. With a
// decode stream: decoding runs on it, and every frame carries a ready event recorded there.
void compareWithSoftware(const std::string& clip, const std::string& decoderName, PixelFormat deviceFormat,
                         AVPixelFormat hostLayout, DriverStream* stream = nullptr) {
    OpenOptions nvdec;
    nvdec.hwdec = HwDecode::Nvdec;
    if (stream) nvdec.deviceStream = std::shared_ptr<DeviceStream>(stream, [](DeviceStream*) {});   // owned by the caller
    auto hardware = test::openOrFail(clip, nvdec);
    auto software = test::openOrFail(clip);
    ASSERT_TRUE(hardware && software);
    EXPECT_EQ(hardware->info().decoder, decoderName + " (nvdec)");
    EXPECT_EQ(hardware->info().format, deviceFormat);
    EXPECT_TRUE(hardware->takeWarnings().empty());

    // Decode both in step, holding the last 8 NVDEC frames the way a player's queue does
    // (the decoder's surface pool must allow that), then both must end together.
    std::deque<VideoFrame> held;
    for (size_t i = 0;; ++i) {
        SCOPED_TRACE("frame " + std::to_string(i));
        VideoFrame h, sw;
        const ReadStatus hs = hardware->read(h).status, ss = software->read(sw).status;
        ASSERT_EQ(hs, ss);
        if (hs == ReadStatus::EndOfStream) {
            EXPECT_EQ(i, size_t(kFrames));
            break;
        }
        ASSERT_EQ(hs, ReadStatus::Frame);
        ASSERT_LT(i, size_t(kFrames));
        ASSERT_TRUE(h.onDevice);
        ASSERT_TRUE(h.view.onDevice);
        ASSERT_TRUE(h.holder);
        ASSERT_EQ(h.holder->format, AV_PIX_FMT_CUDA);
        if (stream) {
            ASSERT_TRUE(h.holder->hw_frames_ctx);
            const auto* frames = reinterpret_cast<const AVHWFramesContext*>(h.holder->hw_frames_ctx->data);
            EXPECT_EQ(static_cast<const AVCUDADeviceContext*>(frames->device_ctx->hwctx)->stream, stream->native())
                << "NVDEC must work on the stream it was given";
            ASSERT_TRUE(h.ready) << "a frame decoded on a stream carries its ready event";
            EXPECT_EQ(h.view.deviceReady, h.ready.get());
            EXPECT_EQ(stream->recorded, int(i) + 1) << "one event per frame";
        } else {
            EXPECT_FALSE(h.ready);
            EXPECT_EQ(h.view.deviceReady, nullptr);
        }
        EXPECT_EQ(h.view.format, deviceFormat);
        EXPECT_EQ(h.view.data[0], h.holder->data[0]) << "the view must be the device surface itself";
        EXPECT_EQ(h.view.data[1], h.holder->data[1]);
        EXPECT_EQ(h.view.pitch[0], h.holder->linesize[0]);
        EXPECT_EQ(h.view.pitch[1], h.holder->linesize[1]);
        EXPECT_NEAR(h.view.pts, sw.view.pts, 1e-6);

        AVFrame* host = av_frame_alloc();
        ASSERT_NE(host, nullptr);
        ASSERT_GE(av_hwframe_transfer_data(host, h.holder.get(), 0), 0);   // waits for the device's stream
        if (stream) {
            EXPECT_TRUE(stream->complete(h.ready.get())) << "the ready event follows the frame's own work";
        }
        ASSERT_EQ(host->format, hostLayout);
        FrameView hostView = h.view;
        hostView.onDevice = false;
        for (size_t p = 0; p < 2; ++p) {
            hostView.data[p] = host->data[p];
            hostView.pitch[p] = host->linesize[p];
        }
        const PixelSource a = makePixelSource(hostView), b = makePixelSource(sw.view);
        const int mid = hostView.levels() / 2;
        int differences = 0;
        for (int y = 0; y < hostView.height; ++y)
            for (int x = 0; x < hostView.width; ++x) {
                const YuvSample s = readYuv(a, x, y, mid), r = readYuv(b, x, y, mid);
                if ((s.y != r.y || s.cb != r.cb || s.cr != r.cr) && ++differences <= 5)
                    ADD_FAILURE() << "(" << x << "," << y << ") nvdec " << s.y << "/" << s.cb << "/" << s.cr
                                  << ", software " << r.y << "/" << r.cb << "/" << r.cr;
            }
        EXPECT_EQ(differences, 0);
        av_frame_free(&host);
        held.push_back(std::move(h));
        if (held.size() > 8) held.pop_front();
    }
    EXPECT_TRUE(hardware->takeWarnings().empty()) << test::joined(hardware->takeWarnings());
}

TEST(Nvdec, H264EightBitIsNv12InDeviceMemoryAndExact) {
    test::TempDir dir;
    const std::string clip = clipPath(dir, "h264.mp4", "-pix_fmt yuv420p -c:v libx264 -g 6 -bf 2");
    compareWithSoftware(clip, "h264", PixelFormat::Nv12, AV_PIX_FMT_NV12);
}

TEST(Nvdec, HevcMain10IsP010InDeviceMemoryAndExact) {
    test::TempDir dir;
    const std::string clip =
        clipPath(dir, "hevc10.mkv", "-pix_fmt yuv420p10le -c:v libx265 -x265-params log-level=error:keyint=6 -profile:v main10");
    compareWithSoftware(clip, "hevc", PixelFormat::P010, AV_PIX_FMT_P010LE);
}

// AV1 with hidden alt-ref frames (libaom's good-quality mode), in 8 and 10 bits.
const char* const kAv1Encode = "-c:v libaom-av1 -cpu-used 8 -g 6";

// Skips the calling test where libavcodec says NVDEC cannot decode AV1 on this GPU (no
// hwaccel in this FFmpeg, or a GPU without an AV1 decoder: "Hardware is lacking required
// capabilities"); any other failure to open fails it.
bool av1NvdecUnavailable(const std::string& clip, std::string& reason) {
    OpenOptions nvdec;
    nvdec.hwdec = HwDecode::Nvdec;
    auto opened = openSource(clip, nvdec);
    if (opened) return false;
    reason = opened.message();
    return reason.find("NVDEC cannot decode") != std::string::npos;
}

TEST(Nvdec, Av1EightBitIsNv12InDeviceMemoryAndExact) {
    test::TempDir dir;
    const std::string clip = clipPath(dir, "av1.mkv", std::string("-pix_fmt yuv420p ") + kAv1Encode);
    if (std::string reason; av1NvdecUnavailable(clip, reason)) GTEST_SKIP() << reason;
    compareWithSoftware(clip, "av1", PixelFormat::Nv12, AV_PIX_FMT_NV12);
}

TEST(Nvdec, Av1TenBitIsP010InDeviceMemoryAndExact) {
    test::TempDir dir;
    const std::string clip = clipPath(dir, "av1-10.mkv", std::string("-pix_fmt yuv420p10le ") + kAv1Encode);
    if (std::string reason; av1NvdecUnavailable(clip, reason)) GTEST_SKIP() << reason;
    compareWithSoftware(clip, "av1", PixelFormat::P010, AV_PIX_FMT_P010LE);
}

// Auto takes the native av1 decoder with NVDEC over the default libdav1d.
TEST(Nvdec, AutoPicksNvdecForAv1) {
    test::TempDir dir;
    const std::string clip = clipPath(dir, "av1-10.mkv", std::string("-pix_fmt yuv420p10le ") + kAv1Encode);
    if (std::string reason; av1NvdecUnavailable(clip, reason)) GTEST_SKIP() << reason;
    OpenOptions options;
    options.hwdec = HwDecode::Auto;
    auto source = test::openOrFail(clip, options);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().decoder, "av1 (nvdec)");
    EXPECT_EQ(source->info().codec, "av1");
    EXPECT_TRUE(source->takeWarnings().empty()) << test::joined(source->takeWarnings());
    VideoFrame f;
    int frames = 0;
    while (source->read(f).status == ReadStatus::Frame) {   // one frame held at a time
        EXPECT_TRUE(f.onDevice);
        ++frames;
    }
    EXPECT_EQ(frames, kFrames);
}

TEST(Nvdec, AutoPicksNvdecAndSeeks) {
    test::TempDir dir;
    const std::string clip = clipPath(dir, "h264.mp4", "-pix_fmt yuv420p -c:v libx264 -g 6 -bf 2");
    OpenOptions options;
    options.hwdec = HwDecode::Auto;
    auto source = test::openOrFail(clip, options);
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().decoder, "h264 (nvdec)");
    ASSERT_TRUE(source->seek(0.3));
    VideoFrame f;
    ASSERT_EQ(source->read(f).status, ReadStatus::Frame);
    EXPECT_TRUE(f.onDevice);
    EXPECT_NEAR(f.view.pts, 0.32, 1e-3);
    int remaining = 0;
    while (source->read(f).status == ReadStatus::Frame) ++remaining;   // one frame held at a time
    EXPECT_EQ(remaining, kFrames - 9);
}

// A source lends at most kDeviceFrameBudget NVDEC frames and counts them. Held to the budget,
// the next read refuses at once with an error naming it, and decodes nothing: once a frame is
// dropped, reading goes on with the very next frame, and every frame of the clip comes out in
// order, none lost (no warnings). A frame's copies count once; dropping the last returns it.
TEST(Nvdec, FramesHeldToTheBudgetStallReadingAndLoseNone) {
    static_assert(kFrames > kDeviceFrameBudget + 2, "the clip must outlast the budget");
    test::TempDir dir;
    const std::string clip = clipPath(dir, "h264.mp4", "-pix_fmt yuv420p -c:v libx264 -g 6 -bf 2");
    OpenOptions options;
    options.hwdec = HwDecode::Nvdec;
    auto source = test::openOrFail(clip, options);
    ASSERT_TRUE(source);
    std::deque<VideoFrame> held;
    std::vector<int64_t> indices;
    for (int i = 0; i < kDeviceFrameBudget; ++i) {
        VideoFrame f;
        ASSERT_EQ(source->read(f).status, ReadStatus::Frame) << "frame " << i;
        ASSERT_TRUE(f.onDevice);
        indices.push_back(f.index);
        const VideoFrame copy = f;   // a second copy of the same frame: still one surface
        held.push_back(std::move(f));
        EXPECT_EQ(source->deviceFramesLent(), i + 1);
    }
    VideoFrame refused;
    const ReadResult stall = source->read(refused);
    ASSERT_EQ(stall.status, ReadStatus::Error);
    EXPECT_NE(stall.message.find(std::to_string(kDeviceFrameBudget) + " NVDEC frames are held"), std::string::npos) << stall.message;
    EXPECT_EQ(source->read(refused).status, ReadStatus::Error) << "still at the budget: still refused";
    EXPECT_EQ(source->deviceFramesLent(), kDeviceFrameBudget);
    held.pop_front();
    EXPECT_EQ(source->deviceFramesLent(), kDeviceFrameBudget - 1);
    for (;;) {
        VideoFrame f;
        const ReadResult r = source->read(f);
        if (r.status == ReadStatus::EndOfStream) break;
        ASSERT_EQ(r.status, ReadStatus::Frame) << r.message;
        indices.push_back(f.index);
        held.push_back(std::move(f));
        held.pop_front();   // at the budget less one from here on
        EXPECT_EQ(source->deviceFramesLent(), kDeviceFrameBudget - 1);
    }
    ASSERT_EQ(indices.size(), size_t(kFrames)) << "every frame of the clip, none lost";
    for (size_t i = 1; i < indices.size(); ++i) EXPECT_EQ(indices[i], indices[i - 1] + 1) << "frame " << i;
    EXPECT_TRUE(source->takeWarnings().empty()) << test::joined(source->takeWarnings());
    held.clear();
    EXPECT_EQ(source->deviceFramesLent(), 0);
}

// A decode stream handed over (as the CUDA engine hands one per source): decoding runs on
// it, in the primary context the engine already made active, each frame carries a ready
// event recorded on it, and frames are still exact.
TEST(Nvdec, DecodesOnTheStreamItIsGivenWithAReadyEventPerFrame) {
    DriverStream stream;
    ASSERT_TRUE(stream.open()) << "cannot make a CUDA stream through the driver API";
    test::TempDir dir;
    const std::string clip =
        clipPath(dir, "hevc10.mkv", "-pix_fmt yuv420p10le -c:v libx265 -x265-params log-level=error:keyint=6 -profile:v main10");
    compareWithSoftware(clip, "hevc", PixelFormat::P010, AV_PIX_FMT_P010LE, &stream);
    EXPECT_EQ(stream.recorded, kFrames);
}

}  // namespace
}  // namespace cs

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    // Listing the cases (CTest's discovery) needs no device.
    if (!testing::GTEST_FLAG(list_tests)) {
        av_log_set_level(AV_LOG_ERROR);
        AVBufferRef* device = nullptr;
        const int ret = av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_CUDA, nullptr, nullptr, 0);
        if (ret < 0) {
            std::printf("decode_nvdec_tests: no CUDA device for FFmpeg, skipped\n");
            return 77;
        }
        av_buffer_unref(&device);
    }
    return RUN_ALL_TESTS();
}
