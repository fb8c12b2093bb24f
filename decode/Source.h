// Sources of frames: a file, the built-in test patterns, a network stream or a camera
// (openSource picks by the input's form). One source is driven by one thread at a time.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/DeviceStream.h"
#include "core/Frame.h"
#include "core/Status.h"
#include "timecode/Timecode.h"

struct AVFrame;

namespace cs {

// NVDEC frames are the decoder's own surfaces: a source lends at most this many at once (every
// frame read and not yet dropped, by anyone, copies counted once; Source::deviceFramesLent).
// The decoder is given this many surfaces beyond those it keeps for references, so it never
// runs dry while they are out; at the budget read() refuses with an error that says so and
// decodes nothing, so no frame is lost, and the next read after a frame is dropped goes on
// where it stopped. Consumers size their queues from it (ui/main/Player.cpp, playback/WallTile.cpp,
// decode/LiveReader.h), counting the frame a reader thread holds while its queue is full and
// the frame on screen.
inline constexpr int kDeviceFrameBudget = 14;

// One decoded frame. `view` points into `holder` (an FFmpeg frame, host or device memory);
// the frame's surface returns to the decoder's pool when the last copy is dropped.
// A surface goes back only when the last copy is dropped, so drop it only once the engine
// that reads it has finished (the CUDA engine's calls return finished): the decoder writes
// the next picture into it on its own stream, which waits for nobody.
struct VideoFrame {
    std::shared_ptr<AVFrame> holder;
    FrameView view;
    // NVDEC frames decoded on OpenOptions::deviceStream: the event recorded on that stream
    // once the frame's planes were queued (view.deviceReady is it). It stays the frame's
    // until the last copy is dropped.
    std::shared_ptr<void> ready;
    int64_t index = 0;          // decode order number from the start (or from the last seek)
    bool onDevice = false;      // planes are CUDA device pointers (NVDEC)
    // The source's own timecode of this frame (SEI, GOP header, the container's start counted
    // on: timecode/TimecodeReader.h); not known() where the source has none.
    FrameTimecode timecode;
};

struct SourceInfo {
    std::string input;          // what the user gave: a path, "pattern:bars", a URL
    std::string container;      // "matroska,webm", "pattern"
    std::string codec;          // "h264", "hevc", "rawvideo"
    std::string decoder;        // "h264 (software)", "hevc_cuvid"..., "pattern"
    std::string sourcePixFmt;   // the stream's own pixel format name (may differ from `format` when converted)
    int width = 0, height = 0;
    PixelFormat format = PixelFormat::Yuv420p;   // what frames arrive as
    ColorInfo color;
    double frameRate = 0.0;     // frames per second (0 when unknown)
    double duration = 0.0;      // seconds (0 when unknown or live)
    int64_t frameCount = 0;     // 0 when unknown
    bool seekable = false;
    bool live = false;
    // The first frame's source timecode and where it came from (not known() where none).
    FrameTimecode timecode;
    // The stream's field order as the container (or the codec's headers) state it:
    // "progressive", "tff", "bff", "tb", "bt" (FFmpeg's AVFieldOrder), empty when unknown.
    std::string fieldOrder;
    // The container's HDR side data (Matroska, MP4): CTA-861.3's content light level (cd/m2,
    // -1: none) and SMPTE ST 2086's mastering display primaries and white point (CIE 1931
    // x, y: red, green, blue, white; empty: none). Codec SEI arrives on the frames instead.
    double maxCll = -1, maxFall = -1;
    std::vector<double> masteringPrimaries;
};

enum class ReadStatus { Frame, EndOfStream, Error };

struct ReadResult {
    ReadStatus status = ReadStatus::Error;
    std::string message;        // for Error: one sentence naming the input and the reason
};

enum class HwDecode { Auto, Nvdec, None };

struct OpenOptions {
    HwDecode hwdec = HwDecode::None;
    int decoderThreads = 0;     // 0: FFmpeg picks
    // NVDEC decodes on this stream (one per source: CudaEngine::makeDecodeStream), on its
    // device's primary context, and each frame gets a ready event recorded on it. Null:
    // FFmpeg's default stream of device 0 and no events (the CUDA engine then orders itself
    // after the legacy default stream).
    std::shared_ptr<DeviceStream> deviceStream;
    // Live inputs (isLiveInput): the longest an open may take (connecting, waiting for the
    // first picture) and the longest one read may wait for the next frame, in seconds,
    // before it gives up with an error that says so.
    double liveOpenTimeout = 5.0;
    double liveStallTimeout = 2.0;
    // Live inputs: once packets arrive, an open waits up to this long in all for its first
    // picture, as long as packets keep coming (a pause of liveStallTimeout ends it): a stream
    // joined between keyframes shows nothing until the next keyframe.
    double liveFirstPictureTimeout = 30.0;
    // Live inputs: when set, an open sets it true once packets arrive, before any picture is
    // decoded ("receiving data, waiting for a keyframe"). Set on the thread driving the open.
    std::atomic<bool>* dataArriving = nullptr;
    // Live inputs: when set and true (from any thread), an open or read in progress gives
    // up at once. LiveReader uses it to stop without waiting for a timeout.
    const std::atomic<bool>* cancel = nullptr;
};

class Source {
public:
    virtual ~Source() = default;
    virtual const SourceInfo& info() const = 0;
    // Next frame in presentation order. Damage that the decoder survives is not an
    // error: it is reported through takeWarnings() and decoding goes on.
    // view.pts is in seconds from the stream's start (a file's first frame is at about 0).
    virtual ReadResult read(VideoFrame& out) = 0;
    // Seek so that the next read returns the frame at or just after `seconds`.
    virtual Status seek(double seconds) = 0;
    // Warnings collected since the last call (damaged packets, conversions, size changes).
    virtual std::vector<std::string> takeWarnings() = 0;
    // NVDEC frames this source has handed out that are still held (kDeviceFrameBudget at most;
    // 0 for host frames). Any thread may ask; frames are returned on whichever thread drops them.
    virtual int deviceFramesLent() const { return 0; }
};

// "pattern:bars[:10bit]", "pattern:ramp", "pattern:zoneplate", a file path, a network URL
// (rtsp://, rtsps://, rtp://, udp://, srt://, http(s)://, rtmp(s)://, an .sdp file) or a
// camera "v4l2:/dev/videoN[?size=WxH&fps=N&format=yuyv422]" (decode/README.md has the syntax).
// Live inputs come back with info().live (and seekable false), opened for low latency;
// their open and reads give up after OpenOptions' timeouts.
// Errors name the input and the reason: "missing.mp4: No such file or directory".
Result<std::unique_ptr<Source>> openSource(const std::string& input, const OpenOptions& options = {});

// True for what openSource opens as a live source (a network URL, an .sdp file, a camera):
// by syntax alone, opening nothing. Play these through LiveReader (decode/LiveReader.h).
// SourceInfo::fieldOrder in words: "progressive", "interlaced, top field first", "interlaced,
// bottom field first", and for "tb" / "bt" which field is coded and which shown first; "" when
// the stream does not say.
std::string fieldOrderText(const std::string& fieldOrder);
bool isInterlacedFieldOrder(const std::string& fieldOrder);   // tff, bff, tb, bt

bool isLiveInput(const std::string& input);

// FFmpeg's own log lines on stderr. Off by default: every problem already reaches the user
// as one sentence (an error or a warning); turn them on to debug a stream.
void setLibraryLogging(bool enabled);

}  // namespace cs
