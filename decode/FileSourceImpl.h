// FileSource: libavformat demuxing and libavcodec decoding of a file's best video stream,
// the class shared by its parts: FileOpen.cpp (opening, the NVDEC choice), FileDecode.cpp (the
// decode loop, packets in, frames out), FileDelivery.cpp (frames handed out, converted where
// the engines cannot read them), FileSeek.cpp (seeking), and StreamIntegrity (damage reports).
//
// Software frames are handed out in place (the VideoFrame holds the AVFrame); formats the
// engines cannot read are converted once with swscale. NVDEC frames stay in CUDA memory.
// Damage never ends decoding: what FFmpeg says about it becomes a warning naming the packet,
// frame or byte (StreamIntegrity.h), and decoding goes on with whatever decodes. Driven by
// one thread at a time (no locks).
#pragma once
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "FFmpegHandles.h"
#include "FFmpegLog.h"
#include "FileSource.h"
#include "StreamIntegrity.h"
#include "timecode/TimecodeReader.h"

namespace cs::detail {

inline constexpr int kMaxReceiveErrorsInARow = 64;   // decoder errors with no packet fed in between
inline constexpr int kMaxSeekRetries = 4;            // 1, 2, 4, 8 s further back, then the start

inline bool looksLikeUrl(const std::string& input) { return input.find("://") != std::string::npos; }

class FileSource final : public Source {
public:
    // One attempt at opening: the source, or the sentence saying why not, and whether it was
    // only the hardware path that failed (so software decoding can be tried instead).
    struct Attempt {
        std::unique_ptr<FileSource> source;
        std::string error;
        bool hardwareFailed = false;
    };

    static Attempt open(const std::string& input, const OpenOptions& options, const DemuxSetup& setup,
                        bool useCuda, const std::string& fallbackReason);

    explicit FileSource(std::string input) : input_(std::move(input)), warnings_(input_), integrity_(input_, warnings_) {}

    const SourceInfo& info() const override { return info_; }
    ReadResult read(VideoFrame& out) override;
    Status seek(double seconds) override;
    std::vector<std::string> takeWarnings() override;
    int deviceFramesLent() const override { return lent_->load(); }

private:
    enum class Delivery { Frame, Skipped, Failed };

    ReadResult decodeNext(VideoFrame& out);
    void feedPacket();
    Delivery deliver(VideoFrame& out, std::string& error);
    Delivery deliverHardwareFrame(VideoFrame& out, double pts, std::string& error);
    Delivery deliverSoftwareFrame(VideoFrame& out, double pts, std::string& error);
    void finishDelivery(VideoFrame& out, std::shared_ptr<AVFrame> holder, PixelFormat format,
                        bool impliesFullRange, AVPixelFormat sourceFormat, bool onDevice, double pts);
    std::optional<ff::FramePtr> convert(const AVFrame& in, PixelFormat target, std::string& error);
    double framePts(const AVFrame& frame);
    std::string framePosition(double pts) const;          // "frame 5 (0.200 s)": the index it is delivered with
    std::string skippedFramePosition(double pts) const;   // a frame never delivered: its time and the next index
    std::string decodingPosition() const;   // where decoding is, for what the demuxer says
    Status seekStream(double target);
    Status retreat();   // after a seek that landed too late: 1, 2, 4, 8 s further back, then the start
    Status seekToStart();
    void resetDecoderState();
    void warn(std::string message) { warnings_.add(std::move(message)); }
    void collectMessages();
    std::shared_ptr<AVFrame> takeDecodedFrame();

    static AVPixelFormat chooseHardwareFormat(AVCodecContext* context, const AVPixelFormat* offered);

    std::string input_;
    SourceInfo info_;
    Warnings warnings_;
    StreamIntegrity integrity_;

    // Declared before the codec context so that it outlives the decoder's threads.
    ff::DecoderLog decoderLog_{this};
    ff::InputContextPtr format_;
    ff::CodecContextPtr codec_;
    ff::PacketPtr packet_;
    ff::FramePtr frame_;
    ff::BufferRefPtr cudaDevice_;
    std::shared_ptr<DeviceStream> deviceStream_;   // NVDEC's stream: each hardware frame gets a ready event on it
    // NVDEC frames lent and not yet returned (kDeviceFrameBudget): raised by the reading thread
    // as a frame is delivered, lowered by whichever thread drops its last copy (after the
    // surface went back), so shared with every frame's holder.
    std::shared_ptr<std::atomic<int>> lent_ = std::make_shared<std::atomic<int>>(0);
    ff::SwsContextPtr scaler_;
    AVStream* stream_ = nullptr;
    int streamIndex_ = -1;
    // The frames' source timecode (created at open, once the rate is known); the one of the
    // frame being delivered, read before a seek may skip it so that counting sees every frame.
    std::optional<TimecodeReader> timecodes_;
    FrameTimecode deliveringTimecode_;
    int64_t startTimestamp_ = 0;        // stream time base; pts are seconds from here
    double frameDuration_ = 1.0 / 25;   // for frames without a timestamp

    // Hardware decoding: on until the first frame proves it, then confirmed.
    bool cuda_ = false;
    bool cudaConfirmed_ = false;
    std::string cudaProblem_;           // why NVDEC could not decode (get_format, first frame)

    // Decoding state.
    std::optional<VideoFrame> primed_;  // the first frame, decoded while opening
    bool packetPending_ = false;        // packet_ holds one the decoder refused with EAGAIN
    bool draining_ = false;
    bool ended_ = false;
    int receiveErrorsInARow_ = 0;
    int64_t packetsRead_ = 0;
    std::atomic<int64_t>* packetCounter_ = nullptr;   // DemuxSetup::packetsRead
    int64_t framesDecoded_ = 0;         // out of the decoder since the open or the last seek
    int64_t nextIndex_ = 0;             // the next delivered frame's index: warnings name frames by it
    double lastPts_ = 0.0;
    bool havePts_ = false;
    bool delivered_ = false;            // info_ describes a delivered frame
    AVPixelFormat warnedConversionFrom_ = AV_PIX_FMT_NONE;

    // Seeking: frames before the target are decoded and dropped.
    struct SeekState {
        bool active = false;
        bool firstFrame = false;
        bool fromStart = false;
        int retries = 0;
        double target = 0.0;
    } seek_;
};

}  // namespace cs::detail
