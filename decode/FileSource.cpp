// FileSource: libavformat demuxing and libavcodec decoding of a file's best video stream.
//
// Software frames are handed out in place (the VideoFrame holds the AVFrame); formats the
// engines cannot read are converted once with swscale. NVDEC frames stay in CUDA memory.
// Damage never ends decoding: each problem becomes a warning naming the packet or frame,
// and decoding goes on with whatever decodes. Driven by one thread at a time (no locks).
#include "FileSource.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "CudaDevice.h"
#include "FFmpegFormats.h"
#include "FFmpegHandles.h"
#include "FFmpegLog.h"
#include "FrameLimits.h"

extern "C" {
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
}

namespace cs {
namespace {

constexpr size_t kMaxStoredWarnings = 200;          // a wrecked file must not grow memory without bound
constexpr int kMaxReceiveErrorsInARow = 64;         // decoder errors with no packet fed in between
constexpr int kMaxSeekRetries = 4;                  // 1, 2, 4, 8 s further back, then the start
// NVDEC frames are the decoder's own surfaces, mapped: each VideoFrame a consumer holds
// keeps one. This many beyond what the decoder needs for references (a frame queue plus
// the frame on screen and the one in the engine) keeps the pool from running dry.
constexpr int kHardwareFramesHeldDownstream = 12;

std::string seconds(double s) {
    char text[40];
    std::snprintf(text, sizeof text, "%.3f s", s);
    return text;
}

bool looksLikeUrl(const std::string& input) { return input.find("://") != std::string::npos; }

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

    explicit FileSource(std::string input) : input_(std::move(input)) {}

    const SourceInfo& info() const override { return info_; }
    ReadResult read(VideoFrame& out) override;
    Status seek(double seconds) override;
    std::vector<std::string> takeWarnings() override;

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
    std::string framePosition(double pts) const;
    void warnIfEndedEarly();
    Status seekStream(double target);
    Status retreat();   // after a seek that landed too late: 1, 2, 4, 8 s further back, then the start
    Status seekToStart();
    void resetDecoderState();
    void warn(std::string message);
    void collectDecoderMessages();
    std::shared_ptr<AVFrame> takeDecodedFrame();

    static AVPixelFormat chooseHardwareFormat(AVCodecContext* context, const AVPixelFormat* offered);

    std::string input_;
    SourceInfo info_;

    // Declared before the codec context so that it outlives the decoder's threads.
    ff::DecoderLog decoderLog_{this};
    ff::InputContextPtr format_;
    ff::CodecContextPtr codec_;
    ff::PacketPtr packet_;
    ff::FramePtr frame_;
    ff::BufferRefPtr cudaDevice_;
    ff::SwsContextPtr scaler_;
    AVStream* stream_ = nullptr;
    int streamIndex_ = -1;
    int64_t startTimestamp_ = 0;        // stream time base; pts are seconds from here
    double frameDuration_ = 1.0 / 25;   // for frames without a timestamp
    bool durationTrusted_ = false;      // container states it (not estimated from the bitrate)

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
    int64_t framesDecoded_ = 0;         // numbering for warnings, since the open or the last seek
    int64_t nextIndex_ = 0;
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

    std::vector<std::string> warnings_;
    size_t droppedWarnings_ = 0;
};

FileSource::Attempt FileSource::open(const std::string& input, const OpenOptions& options,
                                     const DemuxSetup& setup, bool useCuda, const std::string& fallbackReason) {
    Attempt attempt;
    auto fail = [&](std::string why, bool hardware = false) {
        attempt.source.reset();
        attempt.error = input + ": " + why;
        attempt.hardwareFailed = hardware;
        return std::move(attempt);
    };

    const std::string& url = setup.url.empty() ? input : setup.url;
    // Plain files get plainer sentences than the demuxer's for these two cases.
    if (!looksLikeUrl(url) && !setup.io) {
        std::error_code ec;
        const auto status = std::filesystem::status(url, ec);
        if (std::filesystem::is_directory(status)) return fail("is a directory, not a media file");
        if (std::filesystem::is_regular_file(status) && std::filesystem::file_size(url, ec) == 0 && !ec)
            return fail("empty file (0 bytes), not a media file");
    }

    auto source = std::make_unique<FileSource>(input);
    FileSource& s = *source;
    {
        ff::LogCapture capture;
        // Allocated first so that the interrupt callback covers the open itself.
        AVFormatContext* rawFormat = avformat_alloc_context();
        if (!rawFormat) return fail("out of memory");
        if (setup.interrupt) rawFormat->interrupt_callback = AVIOInterruptCB{setup.interrupt, setup.interruptOpaque};
        if (setup.io) {
            // Software after a failed NVDEC attempt reads the caller's bytes again from the start.
            if (avio_seek(setup.io, 0, SEEK_SET) < 0) {
                avformat_free_context(rawFormat);
                return fail("cannot read the input again from its start");
            }
            rawFormat->pb = setup.io;   // custom I/O: avformat_close_input leaves it to the caller
        }
        AVDictionary* openOptions = nullptr;
        for (const auto& [key, value] : setup.options) av_dict_set(&openOptions, key.c_str(), value.c_str(), 0);
        // On failure avformat_open_input frees the context; options it did not use are left.
        int ret = avformat_open_input(&rawFormat, url.c_str(), setup.demuxer, &openOptions);
        av_dict_free(&openOptions);
        if (ret < 0) {
            if (ret == AVERROR_INVALIDDATA) return fail("not a media file (" + ff::errorText(ret) + ")");
            if (!capture.lastError().empty()) {
                // The last message may only say "Cannot open connection": add the code's words.
                std::string detail = capture.lastError();
                if (const std::string code = ff::errorText(ret); detail.find(code) == std::string::npos)
                    detail += ": " + code;
                return fail("cannot be opened (" + detail + ")");
            }
            return fail(ff::errorText(ret));
        }
        s.format_.reset(rawFormat);
        ret = avformat_find_stream_info(rawFormat, nullptr);
        if (ret < 0) {
            const std::string detail = capture.lastError().empty() ? ff::errorText(ret) : capture.lastError();
            return fail("cannot read the stream layout (" + detail + ")");
        }
    }

    const AVCodec* decoder = nullptr;
    const int index = av_find_best_stream(s.format_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (index == AVERROR_DECODER_NOT_FOUND || (index >= 0 && !decoder)) {
        std::string codecName = "unknown";
        for (unsigned i = 0; i < s.format_->nb_streams; ++i) {
            const AVCodecParameters* candidate = s.format_->streams[i]->codecpar;
            if (candidate->codec_type != AVMEDIA_TYPE_VIDEO) continue;
            if (candidate->codec_id != AV_CODEC_ID_NONE) {
                codecName = avcodec_get_name(candidate->codec_id);
            } else if (candidate->codec_tag) {   // unknown to FFmpeg: name its fourcc
                char fourcc[AV_FOURCC_MAX_STRING_SIZE] = {};
                av_fourcc_make_string(fourcc, candidate->codec_tag);
                codecName = std::string("fourcc ") + fourcc;
            }
            break;
        }
        return fail("unsupported video codec (" + codecName + ": no decoder in this FFmpeg)");
    }
    if (index < 0) return fail("no video stream");
    s.streamIndex_ = index;
    s.stream_ = s.format_->streams[index];
    const AVCodecParameters* par = s.stream_->codecpar;
    if (const std::string problem = frameSizeProblem(par->width, par->height);
        !problem.empty() && !(par->width == 0 && par->height == 0))
        return fail(problem);   // 0x0 is "not known yet" for some demuxers: the first frame decides

    s.codec_.reset(avcodec_alloc_context3(decoder));
    s.packet_.reset(av_packet_alloc());
    s.frame_.reset(av_frame_alloc());
    if (!s.codec_ || !s.packet_ || !s.frame_) return fail("out of memory");
    int ret = avcodec_parameters_to_context(s.codec_.get(), par);
    if (ret < 0) return fail("cannot set up the decoder (" + ff::errorText(ret) + ")");
    s.codec_->pkt_timebase = s.stream_->time_base;

    if (useCuda && !ff::decoderSupportsCuda(decoder)) {
        // The default decoder may be a software library (libdav1d for AV1); another decoder
        // of the same codec may have the CUDA hwaccel.
        void* iterator = nullptr;
        while (const AVCodec* candidate = av_codec_iterate(&iterator))
            if (candidate->id == par->codec_id && av_codec_is_decoder(candidate) && ff::decoderSupportsCuda(candidate)) {
                decoder = candidate;
                break;
            }
    }
    if (useCuda) {
        if (!ff::decoderSupportsCuda(decoder))
            return fail(std::string("NVDEC cannot decode ") + avcodec_get_name(par->codec_id), true);
        auto device = ff::createCudaDevice(options.cudaStream);
        if (!device) return fail(device.message(), true);
        s.cudaDevice_ = std::move(device.value());
        s.codec_->hw_device_ctx = av_buffer_ref(s.cudaDevice_.get());
        if (!s.codec_->hw_device_ctx) return fail("out of memory");
        s.codec_->get_format = &FileSource::chooseHardwareFormat;
        s.codec_->extra_hw_frames = kHardwareFramesHeldDownstream;
        s.codec_->thread_count = 1;   // NVDEC is asynchronous already; frame threads would only add latency
        s.cuda_ = true;
    } else {
        s.codec_->thread_count = std::max(0, options.decoderThreads);
        // Frame threads hold back a frame each; a live source wants every frame out at once.
        s.codec_->thread_type = setup.lowDelay ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE;
    }
    s.decoderLog_.attach(s.codec_.get());
    {
        ff::LogCapture capture;
        ret = avcodec_open2(s.codec_.get(), decoder, nullptr);
        if (ret < 0) {
            const std::string detail = capture.lastError().empty() ? ff::errorText(ret) : capture.lastError();
            return fail(std::string("cannot open the ") + decoder->name + " decoder (" + detail + ")", useCuda);
        }
    }

    // What the container says; the first frame fills in size, format and colour.
    SourceInfo& info = s.info_;
    info.input = input;
    info.container = s.format_->iformat->name;
    info.codec = avcodec_get_name(par->codec_id);
    if (useCuda) {
        info.decoder = std::string(decoder->name) + " (nvdec)";
    } else if (!fallbackReason.empty()) {
        info.decoder = std::string(decoder->name) + " (software, fallback: " + fallbackReason + ")";
    } else {
        const int threads = std::max(1, s.codec_->thread_count);
        info.decoder = std::string(decoder->name) + " (software, " + std::to_string(threads) +
                       (threads == 1 ? " thread)" : " threads)");
    }
    const AVRational rate = av_guess_frame_rate(s.format_.get(), s.stream_, nullptr);
    if (rate.num > 0 && rate.den > 0) info.frameRate = av_q2d(rate);
    if (info.frameRate > 0) s.frameDuration_ = 1.0 / info.frameRate;
    s.startTimestamp_ = s.stream_->start_time != AV_NOPTS_VALUE ? s.stream_->start_time : 0;
    if (s.stream_->duration != AV_NOPTS_VALUE && s.stream_->duration > 0)
        info.duration = double(s.stream_->duration) * av_q2d(s.stream_->time_base);
    else if (s.format_->duration != AV_NOPTS_VALUE && s.format_->duration > 0)
        info.duration = double(s.format_->duration) / AV_TIME_BASE;
    s.durationTrusted_ = info.duration > 0 && s.format_->duration_estimation_method != AVFMT_DURATION_FROM_BITRATE;
    info.frameCount = s.stream_->nb_frames > 0 ? s.stream_->nb_frames : 0;
    info.seekable = s.format_->pb && (s.format_->pb->seekable & AVIO_SEEKABLE_NORMAL);
    info.live = looksLikeUrl(input) && !info.seekable && info.duration <= 0;
    info.width = par->width;
    info.height = par->height;
    info.sourcePixFmt = ff::pixelFormatName(static_cast<AVPixelFormat>(par->format));

    // Decode the first frame now: SourceInfo then describes what frames really are, and an
    // input that yields no picture at all (or NVDEC that cannot decode it) fails here.
    VideoFrame first;
    const ReadResult r = s.decodeNext(first);
    if (s.cuda_ && !s.cudaConfirmed_) {
        std::string reason = s.cudaProblem_;
        if (reason.empty()) reason = r.status == ReadStatus::Error ? r.message : "NVDEC decoded no frame";
        return fail(reason, true);
    }
    if (r.status == ReadStatus::Error) return fail(r.message);
    if (r.status == ReadStatus::EndOfStream) {
        std::string why = "no video frame could be decoded";
        if (!s.warnings_.empty()) {
            std::string cause = s.warnings_.front();
            if (cause.rfind(input + ": ", 0) == 0) cause.erase(0, input.size() + 2);
            why += " (" + cause + ")";
        }
        return fail(why);
    }
    s.primed_ = std::move(first);
    if (!fallbackReason.empty()) s.warn(input + ": NVDEC not used: " + fallbackReason + "; decoding in software");
    attempt.source = std::move(source);
    return attempt;
}

AVPixelFormat FileSource::chooseHardwareFormat(AVCodecContext* context, const AVPixelFormat* offered) {
    auto* log = static_cast<ff::DecoderLog*>(context->opaque);
    auto* self = log ? static_cast<FileSource*>(log->owner()) : nullptr;
    for (const AVPixelFormat* f = offered; *f != AV_PIX_FMT_NONE; ++f)
        if (*f == AV_PIX_FMT_CUDA) return AV_PIX_FMT_CUDA;
    // libavcodec offers CUDA only for the profiles and sizes NVDEC handles (and drops it
    // when the hwaccel fails to start). Refusing makes the decode fail, and open() then
    // falls back to a fresh software decoder with full threading.
    if (self) {
        try {   // a C callback: nothing may throw through it
            const char* profile = avcodec_profile_name(context->codec_id, context->profile);
            self->cudaProblem_ = std::string("NVDEC cannot decode this ") + avcodec_get_name(context->codec_id) +
                                 " stream (" + (profile ? std::string("profile ") + profile + ", " : std::string()) +
                                 ff::pixelFormatName(context->sw_pix_fmt) + ")";
        } catch (...) {
        }
    }
    return AV_PIX_FMT_NONE;
}

ReadResult FileSource::read(VideoFrame& out) {
    if (primed_) {
        out = std::move(*primed_);
        primed_.reset();
        return {ReadStatus::Frame, {}};
    }
    return decodeNext(out);
}

ReadResult FileSource::decodeNext(VideoFrame& out) {
    for (;;) {
        collectDecoderMessages();
        if (ended_) return {ReadStatus::EndOfStream, {}};
        const int ret = avcodec_receive_frame(codec_.get(), frame_.get());
        if (ret == 0) {
            receiveErrorsInARow_ = 0;
            ++framesDecoded_;
            std::string error;
            const Delivery d = deliver(out, error);
            if (d == Delivery::Frame) return {ReadStatus::Frame, {}};
            if (d == Delivery::Failed) return {ReadStatus::Error, error};
            continue;
        }
        if (ret == AVERROR_EOF) {
            if (seek_.active && framesDecoded_ == 0 && !seek_.fromStart) {
                // Nothing decodable after the landing point (no keyframe before the end, as
                // when MPEG-TS seeks land between keyframes): start further back.
                if (Status s = retreat(); !s) return {ReadStatus::Error, s.message()};
                continue;
            }
            ended_ = true;
            collectDecoderMessages();
            warnIfEndedEarly();
            return {ReadStatus::EndOfStream, {}};
        }
        if (ret != AVERROR(EAGAIN)) {
            if (cuda_ && !cudaConfirmed_) {
                if (cudaProblem_.empty()) cudaProblem_ = "the first NVDEC decode failed (" + ff::errorText(ret) + ")";
                return {ReadStatus::Error, input_ + ": " + cudaProblem_};
            }
            warn(input_ + ": decode error after packet " + std::to_string(packetsRead_) + " (" + ff::errorText(ret) +
                 "); decoding goes on");
            if (++receiveErrorsInARow_ > kMaxReceiveErrorsInARow) {
                warn(input_ + ": the decoder keeps failing; the stream ends here");
                ended_ = true;
                return {ReadStatus::EndOfStream, {}};
            }
            continue;
        }
        if (draining_) {   // a drained decoder should say EOF; never spin on it
            ended_ = true;
            return {ReadStatus::EndOfStream, {}};
        }
        feedPacket();
        if (cuda_ && !cudaConfirmed_ && !cudaProblem_.empty()) return {ReadStatus::Error, input_ + ": " + cudaProblem_};
    }
}

void FileSource::feedPacket() {
    if (!packetPending_) {
        const int ret = av_read_frame(format_.get(), packet_.get());
        if (ret == AVERROR(EAGAIN)) return;
        if (ret < 0) {
            int error = ret;
            if (ret == AVERROR_EOF && format_->pb && format_->pb->error < 0) error = format_->pb->error;
            if (error != AVERROR_EOF)
                warn(input_ + ": read error after packet " + std::to_string(packetsRead_) + " (" +
                     ff::errorText(error) + "); the stream ends here");
            avcodec_send_packet(codec_.get(), nullptr);   // drain: every buffered frame still comes out
            draining_ = true;
            return;
        }
        if (packet_->stream_index != streamIndex_) {
            av_packet_unref(packet_.get());
            return;
        }
        ++packetsRead_;
        if (packet_->flags & AV_PKT_FLAG_CORRUPT) {
            const int64_t ts = packet_->pts != AV_NOPTS_VALUE ? packet_->pts : packet_->dts;
            std::string where = "packet " + std::to_string(packetsRead_);
            if (ts != AV_NOPTS_VALUE)
                where += " (" + seconds(double(ts - startTimestamp_) * av_q2d(stream_->time_base)) + ")";
            warn(input_ + ": " + where + " is damaged (corrupt or cut short); decoding what it holds");
        }
    }
    receiveErrorsInARow_ = 0;
    const int ret = avcodec_send_packet(codec_.get(), packet_.get());
    if (ret == AVERROR(EAGAIN)) {   // decoder full: keep the packet, frames come out first
        packetPending_ = true;
        return;
    }
    packetPending_ = false;
    if (ret < 0) {
        if (cuda_ && !cudaConfirmed_ && cudaProblem_.empty())
            cudaProblem_ = "the first NVDEC decode failed (" + ff::errorText(ret) + ")";
        const int64_t ts = packet_->pts != AV_NOPTS_VALUE ? packet_->pts : packet_->dts;
        std::string where = "packet " + std::to_string(packetsRead_);
        if (ts != AV_NOPTS_VALUE)
            where += " (" + seconds(double(ts - startTimestamp_) * av_q2d(stream_->time_base)) + ")";
        warn(input_ + ": " + where + " could not be decoded (" + ff::errorText(ret) + "); decoding goes on");
    }
    av_packet_unref(packet_.get());
}

double FileSource::framePts(const AVFrame& frame) {
    const int64_t ts = frame.best_effort_timestamp;
    double pts;
    if (ts != AV_NOPTS_VALUE) pts = double(ts - startTimestamp_) * av_q2d(stream_->time_base);
    else if (havePts_) pts = lastPts_ + frameDuration_;
    else pts = seek_.active ? seek_.target : 0.0;
    lastPts_ = pts;
    havePts_ = true;
    return pts;
}

std::string FileSource::framePosition(double pts) const {
    return "frame " + std::to_string(framesDecoded_) + " (" + seconds(pts) + ")";
}

std::shared_ptr<AVFrame> FileSource::takeDecodedFrame() {
    ff::FramePtr next(av_frame_alloc());
    if (!next) return nullptr;
    std::swap(next, frame_);
    return ff::share(std::move(next));
}

FileSource::Delivery FileSource::deliver(VideoFrame& out, std::string& error) {
    AVFrame& f = *frame_;
    const double pts = framePts(f);

    if (seek_.active) {
        // Frame durations in odd time bases (1 ms in Matroska) round pts down by up to a tick.
        const double tolerance = std::min(0.5 * frameDuration_, std::max(1e-6, 1.01 * av_q2d(stream_->time_base)));
        if (seek_.firstFrame) {
            seek_.firstFrame = false;
            if (pts > seek_.target + tolerance && !seek_.fromStart) {
                // The demuxer landed after the target (a coarse index, or frames the decoder
                // could not show without earlier references): go further back and retry.
                av_frame_unref(&f);
                if (Status s = retreat(); !s) {
                    error = s.message();
                    return Delivery::Failed;
                }
                return Delivery::Skipped;
            }
        }
        if (pts < seek_.target - tolerance) {
            av_frame_unref(&f);
            return Delivery::Skipped;
        }
        seek_.active = false;
    }

    if ((f.flags & AV_FRAME_FLAG_CORRUPT) || f.decode_error_flags)
        warn(input_ + ": " + framePosition(pts) + " decoded with errors (damage concealed)");
    if (const std::string problem = frameSizeProblem(f.width, f.height); !problem.empty()) {
        warn(input_ + ": " + framePosition(pts) + ": " + problem + "; frame skipped");
        av_frame_unref(&f);
        return Delivery::Skipped;
    }
    if (f.format == AV_PIX_FMT_CUDA) return deliverHardwareFrame(out, pts, error);
    if (cuda_ && !cudaConfirmed_) {
        cudaProblem_ = "NVDEC returned a frame in host memory";
        av_frame_unref(&f);
        error = input_ + ": " + cudaProblem_;
        return Delivery::Failed;
    }
    return deliverSoftwareFrame(out, pts, error);
}

FileSource::Delivery FileSource::deliverHardwareFrame(VideoFrame& out, double pts, std::string& error) {
    const AVPixelFormat layout = ff::hardwareFrameLayout(frame_.get());
    PixelFormat format;
    if (layout == AV_PIX_FMT_NV12) format = PixelFormat::Nv12;
    else if (layout == AV_PIX_FMT_P010LE) format = PixelFormat::P010;
    else {
        const std::string problem = "NVDEC output " + ff::pixelFormatName(layout) + " is not one the engines read";
        av_frame_unref(frame_.get());
        if (!cudaConfirmed_) {
            cudaProblem_ = problem;
            error = input_ + ": " + problem;
            return Delivery::Failed;
        }
        warn(input_ + ": " + framePosition(pts) + ": " + problem + "; frame skipped");
        return Delivery::Skipped;
    }
    cudaConfirmed_ = true;
    auto holder = takeDecodedFrame();
    if (!holder) {
        error = input_ + ": out of memory";
        return Delivery::Failed;
    }
    finishDelivery(out, std::move(holder), format, false, layout, true, pts);
    return Delivery::Frame;
}

FileSource::Delivery FileSource::deliverSoftwareFrame(VideoFrame& out, double pts, std::string& error) {
    AVFrame& f = *frame_;
    const auto source = static_cast<AVPixelFormat>(f.format);
    std::shared_ptr<AVFrame> holder;
    PixelFormat format;
    bool impliesFullRange = false;

    if (const auto native = ff::nativeFormat(source)) {
        format = native->format;
        impliesFullRange = native->impliesFullRange;
        const bool bottomUp = std::any_of(f.linesize, f.linesize + formatInfo(format).planeCount,
                                          [](int pitch) { return pitch < 0; });
        if (bottomUp) {
            // Some decoders flip bottom-up pictures with a negative pitch; the engines want rows
            // top-down, so this rare case is the one copy.
            ff::FramePtr copy(av_frame_alloc());
            if (!copy) {
                error = input_ + ": out of memory";
                return Delivery::Failed;
            }
            copy->format = f.format;
            copy->width = f.width;
            copy->height = f.height;
            if (av_frame_get_buffer(copy.get(), 0) < 0 || av_frame_copy(copy.get(), &f) < 0 ||
                av_frame_copy_props(copy.get(), &f) < 0) {
                error = input_ + ": out of memory";
                return Delivery::Failed;
            }
            av_frame_unref(&f);
            holder = ff::share(std::move(copy));
        } else {
            holder = takeDecodedFrame();
        }
    } else {
        const auto target = ff::conversionTarget(source);
        if (!target) {
            const std::string problem = "pixel format " + ff::pixelFormatName(source) + " cannot be converted";
            av_frame_unref(&f);
            if (!delivered_) {
                error = input_ + ": " + problem;
                return Delivery::Failed;
            }
            warn(input_ + ": " + framePosition(pts) + ": " + problem + "; frame skipped");
            return Delivery::Skipped;
        }
        auto converted = convert(f, *target, error);
        av_frame_unref(&f);
        if (!converted) return Delivery::Failed;
        if (warnedConversionFrom_ != source) {
            warnedConversionFrom_ = source;
            warn(input_ + ": pixel format " + ff::pixelFormatName(source) + " is converted to " +
                 std::string(formatInfo(*target).name) + " (not read natively)");
        }
        format = *target;
        impliesFullRange = ff::impliesFullRange(source);   // yuvj440p -> yuv444p keeps its full range
        holder = ff::share(std::move(*converted));
    }
    if (!holder) {
        error = input_ + ": out of memory";
        return Delivery::Failed;
    }
    finishDelivery(out, std::move(holder), format, impliesFullRange, source, false, pts);
    return Delivery::Frame;
}

std::optional<ff::FramePtr> FileSource::convert(const AVFrame& in, PixelFormat target, std::string& error) {
    const auto source = static_cast<AVPixelFormat>(in.format);
    const AVPixelFormat destination = ff::toAVPixelFormat(target);
    // Bicubic, as the ffmpeg CLI converts: frames match what `ffmpeg -pix_fmt` writes.
    scaler_.reset(sws_getCachedContext(scaler_.release(), in.width, in.height, source, in.width, in.height,
                                       destination, SWS_BICUBIC, nullptr, nullptr, nullptr));
    if (!scaler_) {
        error = input_ + ": cannot convert " + ff::pixelFormatName(source) + " to " + ff::pixelFormatName(destination);
        return std::nullopt;
    }
    // Same matrix and range on both sides: Y'CbCr stays Y'CbCr and R'G'B' stays R'G'B', only
    // the bit depth and layout change, so the stream's colour tags still describe the result.
    const AVColorSpace space = in.colorspace != AVCOL_SPC_UNSPECIFIED ? in.colorspace : stream_->codecpar->color_space;
    const AVColorRange range = in.color_range != AVCOL_RANGE_UNSPECIFIED ? in.color_range : stream_->codecpar->color_range;
    const int* coefficients = sws_getCoefficients(space);
    const int full = range == AVCOL_RANGE_JPEG || ff::impliesFullRange(source) ? 1 : 0;
    sws_setColorspaceDetails(scaler_.get(), coefficients, full, coefficients, full, 0, 1 << 16, 1 << 16);

    ff::FramePtr out(av_frame_alloc());
    if (!out) {
        error = input_ + ": out of memory";
        return std::nullopt;
    }
    out->format = destination;
    out->width = in.width;
    out->height = in.height;
    if (av_frame_get_buffer(out.get(), 0) < 0 || av_frame_copy_props(out.get(), &in) < 0) {
        error = input_ + ": out of memory";
        return std::nullopt;
    }
    const int rows = sws_scale(scaler_.get(), in.data, in.linesize, 0, in.height, out->data, out->linesize);
    if (rows != in.height) {
        error = input_ + ": converting " + ff::pixelFormatName(source) + " to " + ff::pixelFormatName(destination) +
                " failed";
        return std::nullopt;
    }
    return out;
}

void FileSource::finishDelivery(VideoFrame& out, std::shared_ptr<AVFrame> holder, PixelFormat format,
                                bool impliesFullRange, AVPixelFormat sourceFormat, bool onDevice, double pts) {
    const AVFrame& f = *holder;
    const AVCodecParameters* par = stream_->codecpar;
    FrameView view;
    view.format = format;
    view.width = f.width;
    view.height = f.height;
    for (int i = 0; i < formatInfo(format).planeCount; ++i) {
        view.data[size_t(i)] = f.data[i];
        view.pitch[size_t(i)] = f.linesize[i];
    }
    // Frame tags first; the container's where the decoder leaves them unspecified.
    view.color = ff::colorInfoFromTags(f.colorspace != AVCOL_SPC_UNSPECIFIED ? f.colorspace : par->color_space,
                                       f.color_range != AVCOL_RANGE_UNSPECIFIED ? f.color_range : par->color_range,
                                       f.color_trc != AVCOL_TRC_UNSPECIFIED ? f.color_trc : par->color_trc,
                                       f.width, f.height, impliesFullRange);
    view.pts = pts;
    view.onDevice = onDevice;

    const std::string sourceName = ff::pixelFormatName(sourceFormat);
    if (delivered_) {
        if (f.width != info_.width || f.height != info_.height)
            warn(input_ + ": " + framePosition(pts) + ": frame size changed from " +
                 frameSizeText(info_.width, info_.height) + " to " + frameSizeText(f.width, f.height));
        if (format != info_.format || sourceName != info_.sourcePixFmt) {
            std::string now = sourceName;
            if (sourceName != formatInfo(format).name) now += " (delivered as " + std::string(formatInfo(format).name) + ")";
            warn(input_ + ": " + framePosition(pts) + ": pixel format changed from " + info_.sourcePixFmt + " to " + now);
        }
    }
    info_.width = f.width;
    info_.height = f.height;
    info_.format = format;
    info_.sourcePixFmt = sourceName;
    info_.color = view.color;
    delivered_ = true;

    out.holder = std::move(holder);
    out.view = view;
    out.index = nextIndex_++;
    out.onDevice = onDevice;
}

void FileSource::warnIfEndedEarly() {
    if (!durationTrusted_ || !havePts_) return;
    // The last frame starts one frame before the stated end; allow rounding of a frame more.
    if (lastPts_ + 2.5 * frameDuration_ < info_.duration)
        warn(input_ + ": the stream ends at " + seconds(lastPts_ + frameDuration_) + ", before its stated duration of " +
             seconds(info_.duration) + " (file cut short?)");
}

Status FileSource::seek(double target) {
    if (!info_.seekable) return Status::error(input_ + ": this input cannot seek");
    if (!std::isfinite(target)) return Status::error(input_ + ": cannot seek to a time that is not a number");
    target = std::max(0.0, target);
    primed_.reset();
    seek_ = SeekState{};
    Status s = seekStream(target);
    if (!s) s = seekToStart();
    if (!s) return s;
    seek_.active = true;
    seek_.firstFrame = true;
    seek_.target = target;
    nextIndex_ = 0;
    framesDecoded_ = 0;
    return {};
}

Status FileSource::retreat() {
    ++seek_.retries;
    const double earlier = seek_.target - double(1 << (seek_.retries - 1));
    Status s = (seek_.retries > kMaxSeekRetries || earlier <= 0.0) ? seekToStart() : seekStream(earlier);
    if (!s) s = seekToStart();
    seek_.firstFrame = true;
    return s;
}

Status FileSource::seekStream(double target) {
    // In the stream's time base, saturated to int64: a header may state a duration that a
    // fine time base cannot count (1.9e10 s in nanoseconds), and the slider goes there.
    constexpr double kTwo63 = 9223372036854775808.0;
    const double ticks = double(startTimestamp_) + std::floor(target / av_q2d(stream_->time_base));
    const int64_t ts = ticks >= kTwo63 ? INT64_MAX : ticks > -kTwo63 ? int64_t(ticks) : INT64_MIN;
    // The latest keyframe at or before ts; decoding forward from it reaches the target.
    int ret = avformat_seek_file(format_.get(), streamIndex_, INT64_MIN, ts, ts, 0);
    if (ret < 0) ret = av_seek_frame(format_.get(), streamIndex_, ts, AVSEEK_FLAG_BACKWARD);
    if (ret < 0) return Status::error(input_ + ": cannot seek to " + seconds(target) + " (" + ff::errorText(ret) + ")");
    resetDecoderState();
    return {};
}

Status FileSource::seekToStart() {
    int ret = avformat_seek_file(format_.get(), streamIndex_, INT64_MIN, startTimestamp_, startTimestamp_, 0);
    if (ret < 0) ret = av_seek_frame(format_.get(), -1, 0, AVSEEK_FLAG_BYTE);
    if (ret < 0) return Status::error(input_ + ": cannot seek to the start (" + ff::errorText(ret) + ")");
    seek_.fromStart = true;
    seek_.firstFrame = true;
    resetDecoderState();
    return {};
}

void FileSource::resetDecoderState() {
    avcodec_flush_buffers(codec_.get());
    av_packet_unref(packet_.get());
    av_frame_unref(frame_.get());
    packetPending_ = false;
    draining_ = false;
    ended_ = false;
    receiveErrorsInARow_ = 0;
    havePts_ = false;
}

void FileSource::collectDecoderMessages() {
    size_t dropped = 0;
    for (auto& line : decoderLog_.take(dropped))
        warn(input_ + ": decoder, near packet " + std::to_string(packetsRead_) + ": " + line);
    droppedWarnings_ += dropped;
}

void FileSource::warn(std::string message) {
    if (warnings_.size() < kMaxStoredWarnings) warnings_.push_back(std::move(message));
    else ++droppedWarnings_;
}

std::vector<std::string> FileSource::takeWarnings() {
    collectDecoderMessages();
    std::vector<std::string> taken;
    taken.swap(warnings_);
    if (droppedWarnings_ > 0) {
        taken.push_back(input_ + ": " + std::to_string(droppedWarnings_) + " more warnings not shown");
        droppedWarnings_ = 0;
    }
    return taken;
}

}  // namespace

Result<std::unique_ptr<Source>> openFileSource(const std::string& input, const OpenOptions& options) {
    return openFileSource(input, options, DemuxSetup{});
}

Result<std::unique_ptr<Source>> openFileSource(const std::string& input, const OpenOptions& options,
                                               const DemuxSetup& setup) {
    if (options.hwdec == HwDecode::None) {
        auto attempt = FileSource::open(input, options, setup, false, {});
        if (!attempt.source) return Status::error(attempt.error);
        return std::unique_ptr<Source>(std::move(attempt.source));
    }
    auto hardware = FileSource::open(input, options, setup, true, {});
    if (hardware.source) return std::unique_ptr<Source>(std::move(hardware.source));
    if (!hardware.hardwareFailed) return Status::error(hardware.error);
    // "<input>: <reason>" -> the reason alone, for the decoder string and the warning.
    std::string reason = hardware.error.substr(std::min(hardware.error.size(), input.size() + 2));
    if (options.hwdec == HwDecode::Nvdec) return Status::error(input + ": NVDEC decoding failed: " + reason);
    auto software = FileSource::open(input, options, setup, false, reason);
    if (!software.source) return Status::error(software.error);
    return std::unique_ptr<Source>(std::move(software.source));
}

}  // namespace cs
