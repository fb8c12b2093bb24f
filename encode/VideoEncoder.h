// A video file from RGBA pictures: each picture converted to 4:2:0 by core/Yuv420 (BT.709
// limited unless asked otherwise, the same tags written into the stream), encoded by
// h264_nvenc / hevc_nvenc where the GPU has NVENC, else libx264 / libx265, and muxed into
// MP4 (fragmented at every keyframe, so a recording cut off is playable up to its last
// fragment) or Matroska, chosen by the file's extension. The file is written as NAME.part and
// renamed to NAME by a close() without error, so a failed recording (a full disk) never
// leaves a file under its name; its NAME.part stays, named in the error.
//
// Threading: submit() is called from one producer thread and never waits for the encoder
// (unless dropWhenBehind is off); it copies the picture into a free buffer of a bounded
// queue, or, when the queue is full, drops it and counts the drop. The encoder thread owns the codec and muxer contexts
// between open() and close(); `mutex_` guards the queue, the free buffers, the counters and
// the first error. close() lets the thread encode what is queued, then flushes the encoder
// and writes the file's trailer.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/Color.h"
#include "core/ScopeResults.h"
#include "core/Status.h"
#include "core/Yuv420Converter.h"

namespace cs {

enum class VideoCodec { H264, Hevc };

struct EncoderOptions {
    std::string path;               // .mp4 or .mkv
    int width = 0, height = 0;      // even, 16 .. 8192
    double frameRate = 30.0;        // the source's rate (sets the GOP: one keyframe a second)
    bool wallClock = false;         // live sources: timestamps in milliseconds, not frame periods
    VideoCodec codec = VideoCodec::H264;
    int64_t bitrate = 0;            // bits per second; 0: constant quality
    int quality = 20;               // CRF (libx264/libx265) or CQ (NVENC), 0..51
    bool tryNvenc = true;           // try h264_nvenc / hevc_nvenc first
    Matrix matrix = Matrix::Bt709;
    Range range = Range::Limited;
    int queueFrames = 8;            // pictures waiting for the encoder before drops begin
    // Live monitoring: a full queue drops the picture (counted). Files read faster than real
    // time (headless recording of a file): submit() waits for room instead.
    bool dropWhenBehind = true;
    // The conversion: null, core/Yuv420 on the encoder's thread; else this converter (the GPU:
    // cuda/convert/Yuv420Converter.h), whose device frames feed NVENC directly (AV_PIX_FMT_CUDA frames,
    // NV12, on its stream's primary context) and whose pinned planes feed libx264 / libx265.
    std::shared_ptr<Yuv420Converter> converter;
    // Without a converter: libswscale converts instead of core/Yuv420 (BT.709/601/2020 and the
    // range set as above; bilinear chroma). For comparison (bench/record).
    bool swscale = false;
};

struct EncoderStats {
    int64_t submitted = 0, encoded = 0, dropped = 0;
    // Seconds the encoder's thread spent converting pictures and encoding + writing them.
    double convertSeconds = 0, encodeSeconds = 0;
};

class VideoEncoder {
public:
    // Opens the encoder and the file (refused: unknown extension, size, a file that cannot be
    // written, no encoder at all), writes the header and starts the thread.
    static Result<std::unique_ptr<VideoEncoder>> open(const EncoderOptions& options);
    ~VideoEncoder();
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    // Queues one picture (options' size) shown at `seconds` from the recording's start. Returns
    // false when it was dropped (queue full), an error once encoding or writing failed.
    Result<bool> submit(const RgbaImage& picture, double seconds);
    // Encodes what is queued, flushes the encoder, writes the trailer, closes the file.
    // The first error of the whole recording, if any. Idempotent.
    Status close();

    const std::string& encoderName() const { return encoderName_; }   // "libx264", "h264_nvenc"...
    const std::string& fallbackReason() const { return fallback_; }   // why NVENC was not used ("" if it was, or not tried)
    // Where the pictures are converted: "cpu" (core/Yuv420), "swscale", "gpu, frames on the
    // device" (NVENC fed CUDA frames) or "gpu, planes downloaded" (the software encoder fed
    // pinned planes).
    const char* conversion() const;
    EncoderStats stats() const;

    struct Impl;

private:
    VideoEncoder() = default;
    void run();

    std::unique_ptr<Impl> impl_;
    EncoderOptions options_;
    std::string encoderName_, fallback_;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;     // the encoder thread: a picture is queued, or stop
    std::condition_variable room_;     // submit() without drops: the queue has room, or the thread ended
    struct Item {
        RgbaImage picture;
        double seconds = 0;
    };
    std::deque<Item> queue_;           // guarded by mutex_
    std::vector<RgbaImage> free_;      // guarded by mutex_: buffers to reuse
    bool stopping_ = false;            // guarded by mutex_
    bool ended_ = false;               // guarded by mutex_: the encoder thread has returned
    Status error_;                     // guarded by mutex_: the first failure
    EncoderStats stats_;               // guarded by mutex_
    bool closed_ = false;              // the caller's thread only
};

// "h264" -> H264, "hevc" / "h265" -> Hevc.
const char* codecName(VideoCodec c);

}  // namespace cs
