// FileSource, opening: the demuxer, the best video stream, the decoder (NVDEC or software),
// and the first frame decoded at once so that SourceInfo describes what frames really are.
#include "FileSourceImpl.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

#include "CudaDevice.h"
#include "FFmpegFormats.h"
#include "FrameLimits.h"
#include "core/ThreadPool.h"

extern "C" {
#include <libavutil/cpu.h>
#include <libavutil/mastering_display_metadata.h>
}

namespace cs::detail {
namespace {

// The threads an open software decoder decodes with. libavcodec's own frame or slice threads
// leave their count in thread_count (0 resolved to CPUs + 1); a decoder with neither runs on
// the calling thread, unless it is a library with threads of its own, which was given
// thread_count before opening (libavcodec sets it to 1 where the library takes no count).
int decodingThreads(const AVCodecContext& codec) {
    if (codec.active_thread_type != 0 || (codec.codec->capabilities & AV_CODEC_CAP_OTHER_THREADS))
        return std::max(1, codec.thread_count);
    return 1;
}

// What the codec's time-code side data (S12M) is called.
TimecodeSource codecTimecodeSource(AVCodecID codec) {
    if (codec == AV_CODEC_ID_H264) return TimecodeSource::H264Sei;
    if (codec == AV_CODEC_ID_HEVC) return TimecodeSource::HevcSei;
    return TimecodeSource::FrameSei;
}

const char* timecodeTag(const AVDictionary* metadata) {
    const AVDictionaryEntry* e = av_dict_get(metadata, "timecode", nullptr, 0);
    return e && e->value && *e->value ? e->value : nullptr;
}

// The container's start timecode: a QuickTime/MP4 tmcd track (the demuxer copies its first
// sample to the `timecode` tag of the track and of the video track it serves), the video
// stream's own tag, then the container's (MXF: its material package's timecode component).
ContainerTimecode containerTimecode(const AVFormatContext& format, const AVStream& video) {
    for (unsigned i = 0; i < format.nb_streams; ++i) {
        const AVStream* st = format.streams[i];
        if (st->codecpar->codec_type != AVMEDIA_TYPE_DATA || st->codecpar->codec_tag != MKTAG('t', 'm', 'c', 'd')) continue;
        const char* tag = timecodeTag(video.metadata);
        if (!tag) tag = timecodeTag(st->metadata);
        if (tag) return {tag, TimecodeSource::MovTmcd};
    }
    if (const char* tag = timecodeTag(video.metadata)) return {tag, TimecodeSource::StreamTag};
    if (const char* tag = timecodeTag(format.metadata)) {
        const bool mxf = format.iformat && std::string_view(format.iformat->name) == "mxf";
        return {tag, mxf ? TimecodeSource::Mxf : TimecodeSource::FormatTag};
    }
    return {};
}

// Where the file's packets end, from its last few megabytes (byte seek: the demuxers that
// resynchronise there, Matroska among them), in seconds: `video`, the end of the last packet of
// `stream`; `any`, of any stream's (a sound that outlasts the picture is no truncation).
// Nullopt where it cannot be read. Leaves the demuxer anywhere: the caller seeks back.
struct PacketEnds {
    double video = 0, any = 0;
};
std::optional<PacketEnds> lastPacketEnds(AVFormatContext& format, const AVStream& stream) {
    if (!format.pb || !format.iformat || (format.iformat->flags & AVFMT_NO_BYTE_SEEK)) return std::nullopt;
    const int64_t size = avio_size(format.pb);
    if (size <= 0) return std::nullopt;
    const int64_t tail = std::min<int64_t>(size, int64_t(4) << 20);
    if (av_seek_frame(&format, -1, size - tail, AVSEEK_FLAG_BYTE) < 0) return std::nullopt;
    ff::PacketPtr packet(av_packet_alloc());
    if (!packet) return std::nullopt;
    bool sawVideo = false;
    PacketEnds ends;
    while (av_read_frame(&format, packet.get()) >= 0) {
        const int64_t ts = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
        if (ts != AV_NOPTS_VALUE && packet->stream_index >= 0 && unsigned(packet->stream_index) < format.nb_streams) {
            const AVStream& st = *format.streams[packet->stream_index];
            const double end = double(ts + std::max<int64_t>(packet->duration, 0)) * av_q2d(st.time_base);
            ends.any = std::max(ends.any, end);
            if (packet->stream_index == stream.index) {
                ends.video = sawVideo ? std::max(ends.video, end) : end;
                sawVideo = true;
            }
        }
        av_packet_unref(packet.get());
    }
    if (!sawVideo) return std::nullopt;
    return ends;
}

}  // namespace

FileSource::Attempt FileSource::open(const std::string& input, const OpenOptions& options,
                                     const DemuxSetup& setup, bool useCuda, const std::string& fallbackReason) {
    Attempt attempt;
    auto fail = [&](std::string why, bool hardware = false) {
        attempt.source.reset();
        attempt.error = input + ": " + why;
        attempt.hardwareFailed = hardware;
        return std::move(attempt);
    };
    // A sentence that already names the input (a read error, a warning), as a reason alone.
    auto reasonOf = [&](std::string sentence) {
        if (sentence.rfind(input + ": ", 0) == 0) sentence.erase(0, input.size() + 2);
        return sentence;
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
    s.packetCounter_ = setup.packetsRead;
    {
        ff::LogCapture capture;
        // Allocated first so that the interrupt callback covers the open itself, and so that
        // what the demuxer says while opening is heard.
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
        s.integrity_.watch(rawFormat);
        const auto listening = s.integrity_.listen("while opening");
        AVDictionary* openOptions = nullptr;
        for (const auto& [key, value] : setup.options) av_dict_set(&openOptions, key.c_str(), value.c_str(), 0);
        // On failure avformat_open_input frees the context; options it did not use are left.
        int ret = avformat_open_input(&rawFormat, url.c_str(), setup.demuxer, &openOptions);
        av_dict_free(&openOptions);
        if (ret < 0) {
            const std::string& said = capture.lastError();
            if (ret == AVERROR_INVALIDDATA)   // no demuxer took it, or the one that did found it broken
                return fail(said.empty() ? "not a media file (its contents match no format FFmpeg knows)"
                                         : "damaged or not a media file (" + said + ")");
            if (said.empty()) return fail(ff::errorText(ret));
            // A demuxer reading a file says what is wrong ("Picture size 0x48 is invalid"); the
            // code beside it can be any number it happened to return. A connection's last
            // message may only say "Cannot open connection": the code's words say why.
            std::string detail = said;
            const bool file = !looksLikeUrl(url) && !setup.demuxer;
            if (const std::string code = ff::errorText(ret); !file && detail.find(code) == std::string::npos)
                detail += ": " + code;
            return fail("cannot be opened (" + detail + ")");
        }
        s.format_.reset(rawFormat);
        s.integrity_.headerRead(*rawFormat);
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

    if (useCuda && !ff::decoderSupportsCuda(decoder)) {
        // The default decoder may be a software library (libdav1d for AV1); another decoder
        // of the same codec may have the CUDA hwaccel (FFmpeg's native av1). Chosen before the
        // context is allocated: a context belongs to the decoder it was allocated for.
        void* iterator = nullptr;
        while (const AVCodec* candidate = av_codec_iterate(&iterator))
            if (candidate->id == par->codec_id && av_codec_is_decoder(candidate) && ff::decoderSupportsCuda(candidate)) {
                decoder = candidate;
                break;
            }
    }
    s.codec_.reset(avcodec_alloc_context3(decoder));
    s.packet_.reset(av_packet_alloc());
    s.frame_.reset(av_frame_alloc());
    if (!s.codec_ || !s.packet_ || !s.frame_) return fail("out of memory");
    int ret = avcodec_parameters_to_context(s.codec_.get(), par);
    if (ret < 0) return fail("cannot set up the decoder (" + ff::errorText(ret) + ")");
    s.codec_->pkt_timebase = s.stream_->time_base;

    if (useCuda) {
        if (!ff::decoderSupportsCuda(decoder))
            return fail(std::string("NVDEC cannot decode ") + avcodec_get_name(par->codec_id), true);
        auto device = ff::createCudaDevice(options.deviceStream.get());
        if (!device) return fail(device.message(), true);
        s.cudaDevice_ = std::move(device.value());
        s.deviceStream_ = options.deviceStream;
        s.codec_->hw_device_ctx = av_buffer_ref(s.cudaDevice_.get());
        if (!s.codec_->hw_device_ctx) return fail("out of memory");
        s.codec_->get_format = &FileSource::chooseHardwareFormat;
        s.codec_->extra_hw_frames = kDeviceFrameBudget;   // the surfaces a consumer may hold (Source.h)
        s.codec_->thread_count = 1;   // NVDEC is asynchronous already; frame threads would only add latency
        s.cuda_ = true;
    } else {
        // 0: FFmpeg's pick, unless the process was given a thread budget (core/ThreadPool.h).
        s.codec_->thread_count = options.decoderThreads > 0 ? options.decoderThreads
                                 : ThreadPool::processThreadsSet() ? ThreadPool::processThreads()
                                                                   : 0;
        // Frame threads hold back a frame each; a live source wants every frame out at once.
        s.codec_->thread_type = setup.lowDelay ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE;
        if (decoder->capabilities & AV_CODEC_CAP_OTHER_THREADS) {
            // A library with its own threads (libdav1d, libaom, libvpx). libavcodec leaves 0
            // as 0 for these, and each library reads 0 its own way (libdav1d: one thread per
            // CPU): set the count, so that the figure reported is the one the library runs
            // with. libdav1d's frame delay follows from it (ceil(sqrt(threads)) frames in
            // flight); the low-delay flag makes it 1, as slice threads do for a live source.
            if (s.codec_->thread_count == 0) s.codec_->thread_count = av_cpu_count();
            if (setup.lowDelay) s.codec_->flags |= AV_CODEC_FLAG_LOW_DELAY;
        }
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
    } else {
        const int threads = decodingThreads(*s.codec_);
        info.decoder = std::string(decoder->name) + " (software, " + std::to_string(threads) +
                       (threads == 1 ? " thread" : " threads") +
                       (fallbackReason.empty() ? std::string(")") : ", fallback: " + fallbackReason + ")");
    }
    const AVRational rate = av_guess_frame_rate(s.format_.get(), s.stream_, nullptr);
    if (rate.num > 0 && rate.den > 0) info.frameRate = av_q2d(rate);
    if (info.frameRate > 0) s.frameDuration_ = 1.0 / info.frameRate;
    s.timecodes_.emplace(TimecodeRate{rate.num, rate.den}, codecTimecodeSource(par->codec_id),
                         containerTimecode(*s.format_, *s.stream_));
    for (auto& p : s.timecodes_->takeProblems()) s.warn(input + ": " + p);
    s.startTimestamp_ = s.stream_->start_time != AV_NOPTS_VALUE ? s.stream_->start_time : 0;
    s.integrity_.streamChosen(*s.stream_, s.startTimestamp_);
    if (s.stream_->duration != AV_NOPTS_VALUE && s.stream_->duration > 0)
        info.duration = double(s.stream_->duration) * av_q2d(s.stream_->time_base);
    else if (s.format_->duration != AV_NOPTS_VALUE && s.format_->duration > 0)
        info.duration = double(s.format_->duration) / AV_TIME_BASE;
    info.frameCount = s.stream_->nb_frames > 0 ? s.stream_->nb_frames : 0;
    info.seekable = s.format_->pb && (s.format_->pb->seekable & AVIO_SEEKABLE_NORMAL);
    // A file cut short (a recording stopped, a copy not finished) keeps the duration its
    // header promised (Matroska's Segment Info) where the stream states none of its own: the
    // end of its last video packet is what plays, and a transport would offer frames that
    // are not there.
    const bool headerDuration = !(s.stream_->duration != AV_NOPTS_VALUE && s.stream_->duration > 0) && info.duration > 0;
    if (headerDuration && info.seekable && !looksLikeUrl(input)) {   // local files: a network one would download its tail
        const std::optional<PacketEnds> ends = lastPacketEnds(*s.format_, *s.stream_);
        const double start = double(s.startTimestamp_) * av_q2d(s.stream_->time_base);
        const double tolerance = std::max(0.1, s.frameDuration_);
        if (ends && ends->video - start > 0 && ends->any - start < info.duration - tolerance) {
            s.warn(input + ": the file ends at " + seconds(ends->video - start) + ", before the " + seconds(info.duration) +
                   " its header states (cut short?)");
            info.duration = ends->video - start;
            if (info.frameCount > 0 && info.frameRate > 0) info.frameCount = std::min<int64_t>(info.frameCount, std::llround(info.duration * info.frameRate));
        }
        if (Status back = s.seekToStart(); !back) return fail(reasonOf(back.message()));
        s.seek_ = SeekState{};
    }
    info.live = looksLikeUrl(input) && !info.seekable && info.duration <= 0;
    info.width = par->width;
    info.height = par->height;
    info.sourcePixFmt = ff::pixelFormatName(static_cast<AVPixelFormat>(par->format));
    switch (par->field_order) {
        case AV_FIELD_PROGRESSIVE: info.fieldOrder = "progressive"; break;
        case AV_FIELD_TT: info.fieldOrder = "tff"; break;
        case AV_FIELD_BB: info.fieldOrder = "bff"; break;
        case AV_FIELD_TB: info.fieldOrder = "tb"; break;
        case AV_FIELD_BT: info.fieldOrder = "bt"; break;
        default: break;
    }
    if (const uint8_t* d = av_stream_get_side_data(s.stream_, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nullptr)) {
        const auto* cll = reinterpret_cast<const AVContentLightMetadata*>(d);
        info.maxCll = double(cll->MaxCLL);
        info.maxFall = double(cll->MaxFALL);
    }
    if (const uint8_t* d = av_stream_get_side_data(s.stream_, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nullptr)) {
        const auto* m = reinterpret_cast<const AVMasteringDisplayMetadata*>(d);
        if (m->has_primaries)
            info.masteringPrimaries = {av_q2d(m->display_primaries[0][0]), av_q2d(m->display_primaries[0][1]),
                                       av_q2d(m->display_primaries[1][0]), av_q2d(m->display_primaries[1][1]),
                                       av_q2d(m->display_primaries[2][0]), av_q2d(m->display_primaries[2][1]),
                                       av_q2d(m->white_point[0]),          av_q2d(m->white_point[1])};
    }

    // Decode the first frame now: SourceInfo then describes what frames really are, and an
    // input that yields no picture at all (or NVDEC that cannot decode it) fails here.
    VideoFrame first;
    const ReadResult r = s.decodeNext(first);
    if (s.cuda_ && !s.cudaConfirmed_) {
        std::string reason = s.cudaProblem_;
        if (reason.empty()) reason = r.status == ReadStatus::Error ? reasonOf(r.message) : "NVDEC decoded no frame";
        return fail(reason, true);
    }
    if (r.status == ReadStatus::Error) return fail(reasonOf(r.message));
    if (r.status == ReadStatus::EndOfStream) {
        std::string why = "no video frame could be decoded";
        if (!s.warnings_.pending().empty()) why += " (" + reasonOf(s.warnings_.pending().front()) + ")";
        return fail(why);
    }
    info.timecode = first.timecode.known() ? first.timecode : s.timecodes_->container();
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
            std::string problem = std::string("NVDEC cannot decode this ") + avcodec_get_name(context->codec_id) +
                                  " stream (" + (profile ? std::string("profile ") + profile + ", " : std::string()) +
                                  ff::pixelFormatName(context->sw_pix_fmt);
            // Where the hwaccel was offered but failed to start, libavcodec said why first
            // ("Hardware is lacking required capabilities": a GPU without this codec's
            // decoder). Before the first frame this attempt is given up, so its messages are
            // taken for the reason rather than left as warnings.
            if (!self->cudaConfirmed_) {
                size_t dropped = 0;
                const std::vector<std::string> said = self->decoderLog_.take(dropped);
                if (!said.empty()) problem += ": " + said.front();
            }
            self->cudaProblem_ = problem + ")";
        } catch (...) {
        }
    }
    return AV_PIX_FMT_NONE;
}

}  // namespace cs::detail

namespace cs {

using detail::FileSource;

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