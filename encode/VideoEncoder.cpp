#include "VideoEncoder.h"

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/Yuv420.h"
#include "decode/CudaDevice.h"
#include "decode/FFmpegHandles.h"

namespace cs {

struct VideoEncoder::Impl {
    ff::CodecContextPtr codec;
    ff::Handle<AVFormatContext, avformat_free_context> format;
    AVStream* stream = nullptr;             // owned by `format`
    ff::FramePtr frame;                     // the converted picture, reused
    ff::PacketPtr packet;
    RgbToYuv coefficients{};
    Yuv420Layout layout = Yuv420Layout::I420;
    std::shared_ptr<Yuv420Converter> converter;   // null: core/Yuv420 here
    ff::BufferRefPtr hwFrames;                    // NVENC fed device frames: their pool
    ff::SwsContextPtr sws;                        // the swscale conversion, when asked for
    int64_t lastPts = INT64_MIN;
    bool headerWritten = false;
    bool partOpen = false;   // NAME.part was opened and is not yet renamed or given up
};

namespace {

// Where a recording is written until close() renames it to `path`.
std::string partPath(const std::string& path) { return path + ".part"; }

// The muxer for a file name's extension: "mp4" or "matroska"; null for any other.
const char* muxerFor(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".mp4" || ext == ".m4v" || ext == ".mov") return ext == ".mov" ? "mov" : "mp4";
    if (ext == ".mkv") return "matroska";
    return nullptr;
}

struct ColourTags {
    AVColorPrimaries primaries;
    AVColorTransferCharacteristic transfer;
    AVColorSpace space;
};
ColourTags tagsFor(Matrix m) {
    switch (m) {
        case Matrix::Bt601: return {AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M};
        case Matrix::Bt709: return {AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709};
        case Matrix::Bt2020Ncl: return {AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL};
    }
    return {AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709};
}

// One configured, opened encoder, or why it could not be opened.
Result<ff::CodecContextPtr> openCodec(const char* name, const EncoderOptions& o, AVRational timeBase, bool globalHeader,
                                      AVPixelFormat pixFmt, AVBufferRef* hwFrames = nullptr) {
    const AVCodec* codec = avcodec_find_encoder_by_name(name);
    if (!codec) return Status::error(std::string("this FFmpeg has no ") + name + " encoder");
    ff::CodecContextPtr c(avcodec_alloc_context3(codec));
    if (!c) return Status::error(std::string(name) + ": out of memory");
    c->width = o.width;
    c->height = o.height;
    c->pix_fmt = pixFmt;
    if (hwFrames) {
        c->hw_frames_ctx = av_buffer_ref(hwFrames);
        if (!c->hw_frames_ctx) return Status::error(std::string(name) + ": out of memory");
    }
    c->time_base = timeBase;
    c->framerate = av_d2q(o.frameRate, 1001000);
    c->gop_size = std::max(1, int(std::lround(o.frameRate)));   // a keyframe (and an MP4 fragment) a second
    c->max_b_frames = 0;   // frames leave the encoder as they come: fragments close on time
    const ColourTags tags = tagsFor(o.matrix);
    c->color_primaries = tags.primaries;
    c->color_trc = tags.transfer;
    c->colorspace = tags.space;
    c->color_range = o.range == Range::Limited ? AVCOL_RANGE_MPEG : AVCOL_RANGE_JPEG;
    c->sample_aspect_ratio = AVRational{1, 1};
    if (globalHeader) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    const std::string n = name;
    const bool nvenc = n.find("nvenc") != std::string::npos;
    if (o.bitrate > 0) {
        c->bit_rate = o.bitrate;
        c->rc_max_rate = o.bitrate;
        c->rc_buffer_size = int(std::min<int64_t>(o.bitrate * 2, INT32_MAX));
    }
    if (nvenc) {
        av_opt_set(c->priv_data, "preset", "p4", 0);
        if (o.bitrate == 0) {
            av_opt_set(c->priv_data, "rc", "vbr", 0);
            av_opt_set_int(c->priv_data, "cq", o.quality, 0);
        }
    } else {
        av_opt_set(c->priv_data, "preset", "ultrafast", 0);
        if (o.bitrate == 0) av_opt_set_double(c->priv_data, "crf", o.quality, 0);
        if (n == "libx265") av_opt_set(c->priv_data, "x265-params", "log-level=error", 0);
    }
    const int r = avcodec_open2(c.get(), codec, nullptr);
    if (r < 0) return Status::error(std::string(name) + " could not be opened (" + ff::errorText(r) + ")");
    return c;
}

// A pool of CUDA frames (NV12) on the converter's device and stream, for NVENC.
Result<ff::BufferRefPtr> deviceFramePool(const Yuv420Converter& converter, int width, int height) {
    auto device = ff::createCudaDevice(&converter.deviceStream());
    if (!device) return device.status();
    ff::BufferRefPtr frames(av_hwframe_ctx_alloc(device->get()));
    if (!frames) return Status::error("out of memory");
    auto* ctx = reinterpret_cast<AVHWFramesContext*>(frames->data);
    ctx->format = AV_PIX_FMT_CUDA;
    ctx->sw_format = AV_PIX_FMT_NV12;
    ctx->width = width;
    ctx->height = height;
    ctx->initial_pool_size = 0;   // grows as NVENC holds frames
    const int r = av_hwframe_ctx_init(frames.get());
    if (r < 0) return Status::error("cannot make CUDA frames (" + ff::errorText(r) + ")");
    return frames;
}

// AVBufferRef.free for planes the converter owns: nothing to free.
void keepPlanes(void*, uint8_t*) {}

}  // namespace

const char* codecName(VideoCodec c) { return c == VideoCodec::Hevc ? "hevc" : "h264"; }

Result<std::unique_ptr<VideoEncoder>> VideoEncoder::open(const EncoderOptions& o) {
    const std::string& path = o.path;
    const char* muxer = muxerFor(path);
    if (!muxer)
        return Status::error(path + ": unknown file type (the extension must be .mp4, .m4v, .mov or .mkv)");
    if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192 || o.width % 2 || o.height % 2)
        return Status::error(path + ": cannot encode " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                             " (the size must be even, 16x16 to 8192x8192)");
    if (!(o.frameRate > 0)) return Status::error(path + ": the frame rate must be above 0");

    std::unique_ptr<VideoEncoder> e(new VideoEncoder);
    e->options_ = o;
    e->impl_ = std::make_unique<Impl>();
    Impl& im = *e->impl_;

    AVFormatContext* fmt = nullptr;
    if (avformat_alloc_output_context2(&fmt, nullptr, muxer, path.c_str()) < 0 || !fmt)
        return Status::error(path + ": cannot set up the " + muxer + " muxer");
    im.format.reset(fmt);
    const bool globalHeader = (fmt->oformat->flags & AVFMT_GLOBALHEADER) != 0;
    const AVRational timeBase = o.wallClock ? AVRational{1, 1000} : av_inv_q(av_d2q(o.frameRate, 1001000));

    // NVENC first (fed NV12: CUDA frames from the GPU converter, else host planes), else the
    // software encoder (fed I420); the reason NVENC was passed over is kept for the caller to show.
    const bool hevc = o.codec == VideoCodec::Hevc;
    im.converter = o.converter;
    if (o.tryNvenc && o.converter) {
        const char* name = hevc ? "hevc_nvenc" : "h264_nvenc";
        // Without an NVENC encoder in this FFmpeg there is no point in making device frames.
        auto pool = avcodec_find_encoder_by_name(name) ? deviceFramePool(*o.converter, o.width, o.height)
                                                       : Result<ff::BufferRefPtr>(Status::error(std::string("this FFmpeg has no ") + name + " encoder"));
        auto nv = pool ? openCodec(name, o, timeBase, globalHeader, AV_PIX_FMT_CUDA, pool->get())
                       : Result<ff::CodecContextPtr>(Status::error(std::string(name) + ": " + pool.message()));
        if (nv) {
            im.codec = std::move(*nv);
            im.hwFrames = std::move(*pool);
            im.layout = Yuv420Layout::Nv12;
        } else {
            e->fallback_ = nv.message();
        }
    } else if (o.tryNvenc) {
        auto nv = openCodec(hevc ? "hevc_nvenc" : "h264_nvenc", o, timeBase, globalHeader, AV_PIX_FMT_NV12);
        if (nv) {
            im.codec = std::move(*nv);
            im.layout = Yuv420Layout::Nv12;
        } else {
            e->fallback_ = nv.message();
        }
    }
    if (!im.codec) {
        auto sw = openCodec(hevc ? "libx265" : "libx264", o, timeBase, globalHeader, AV_PIX_FMT_YUV420P);
        if (!sw) return Status::error(path + ": no encoder for " + codecName(o.codec) + ": " + sw.message() +
                                      (e->fallback_.empty() ? "" : "; " + e->fallback_));
        im.codec = std::move(*sw);
        im.layout = Yuv420Layout::I420;
    }
    e->encoderName_ = im.codec->codec->name;
    im.coefficients = yuv420Coefficients(o.matrix, o.range);
    if (o.swscale && !im.converter) {
        im.sws.reset(sws_getContext(o.width, o.height, AV_PIX_FMT_RGBA, o.width, o.height, im.codec->pix_fmt, SWS_BILINEAR,
                                    nullptr, nullptr, nullptr));
        if (!im.sws) return Status::error(path + ": swscale cannot convert RGBA to " + av_get_pix_fmt_name(im.codec->pix_fmt));
        const int space = o.matrix == Matrix::Bt601 ? SWS_CS_ITU601 : o.matrix == Matrix::Bt2020Ncl ? SWS_CS_BT2020 : SWS_CS_ITU709;
        const int* table = sws_getCoefficients(space);
        sws_setColorspaceDetails(im.sws.get(), table, 1, table, o.range == Range::Full ? 1 : 0, 0, 1 << 16, 1 << 16);
    }

    im.stream = avformat_new_stream(fmt, nullptr);
    if (!im.stream) return Status::error(path + ": cannot add the video stream");
    if (avcodec_parameters_from_context(im.stream->codecpar, im.codec.get()) < 0)
        return Status::error(path + ": cannot describe the video stream");
    im.stream->time_base = im.codec->time_base;
    im.stream->avg_frame_rate = im.codec->framerate;
    if (!(fmt->oformat->flags & AVFMT_NOFILE)) {
        // Written as NAME.part (the muxer chosen above by NAME's extension) and renamed to NAME
        // by a close() without error: a failed recording never leaves a file under its name.
        const int r = avio_open(&fmt->pb, partPath(path).c_str(), AVIO_FLAG_WRITE);
        if (r < 0) return Status::error(path + ": cannot write the file (" + ff::errorText(r) + ")");
        im.partOpen = true;
    }
    AVDictionary* muxOptions = nullptr;
    if (std::string(muxer) != "matroska")
        av_dict_set(&muxOptions, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
    const int r = avformat_write_header(fmt, &muxOptions);
    av_dict_free(&muxOptions);
    if (r < 0) {
        avio_closep(&fmt->pb);
        std::error_code ec;
        std::filesystem::remove(partPath(path), ec);
        im.partOpen = false;
        return Status::error(path + ": cannot write the file's header (" + ff::errorText(r) + ")");
    }
    im.headerWritten = true;

    im.frame.reset(av_frame_alloc());
    im.packet.reset(av_packet_alloc());
    if (!im.frame || !im.packet) return Status::error(path + ": out of memory");
    im.frame->format = im.codec->pix_fmt;
    im.frame->width = o.width;
    im.frame->height = o.height;
    im.frame->color_primaries = im.codec->color_primaries;
    im.frame->color_trc = im.codec->color_trc;
    im.frame->colorspace = im.codec->colorspace;
    im.frame->color_range = im.codec->color_range;
    // The CPU conversion writes into a frame of our own; the GPU converter's frames are its
    // pinned planes or the device pool's, set per picture.
    if (!im.converter && av_frame_get_buffer(im.frame.get(), 0) < 0) return Status::error(path + ": out of memory");

    e->thread_ = std::thread([raw = e.get()] { raw->run(); });
    return e;
}

// An encoder dropped without close() (an error path of its caller) still finishes its thread;
// the caller has its own error to report, so this one goes unread.
VideoEncoder::~VideoEncoder() { (void)close(); }

Result<bool> VideoEncoder::submit(const RgbaImage& picture, double seconds) {
    if (picture.width != options_.width || picture.height != options_.height)
        return Status::error(options_.path + ": a " + std::to_string(picture.width) + "x" + std::to_string(picture.height) +
                             " picture for a " + std::to_string(options_.width) + "x" + std::to_string(options_.height) +
                             " recording");
    RgbaImage buffer;
    {
        std::unique_lock lock(mutex_);
        if (!options_.dropWhenBehind)
            room_.wait(lock, [&] { return int(queue_.size()) < options_.queueFrames || ended_ || !error_; });
        if (!error_) return error_;
        if (closed_ || stopping_ || ended_) return Status::error(options_.path + ": the recording is closed");
        ++stats_.submitted;
        if (int(queue_.size()) >= options_.queueFrames) {
            ++stats_.dropped;
            return false;
        }
        if (!free_.empty()) {
            buffer = std::move(free_.back());
            free_.pop_back();
        }
    }
    buffer.width = picture.width;
    buffer.height = picture.height;
    buffer.pixels.resize(picture.pixels.size());   // a reused buffer keeps its capacity
    std::memcpy(buffer.pixels.data(), picture.pixels.data(), picture.pixels.size());
    {
        std::lock_guard lock(mutex_);
        queue_.push_back({std::move(buffer), seconds});
    }
    wake_.notify_one();
    return true;
}

namespace {

// The picture converted into im.frame: by core/Yuv420 into the frame's own buffers; by the
// GPU converter into a CUDA frame of the pool (NVENC) or into its pinned planes, which the
// frame then points at (the software encoders copy their input when it is sent).
Status convert(VideoEncoder::Impl& im, const RgbaImage& picture, const std::string& path) {
    AVFrame* f = im.frame.get();
    Yuv420Planes planes;
    planes.layout = im.layout;
    if (im.hwFrames) {
        av_frame_unref(f);
        const int r = av_hwframe_get_buffer(im.hwFrames.get(), f, 0);
        if (r < 0) return Status::error(path + ": no CUDA frame for NVENC (" + ff::errorText(r) + ")");
        for (int i = 0; i < 2; ++i) {
            planes.plane[i] = f->data[i];
            planes.pitch[i] = f->linesize[i];
        }
        if (const Status s = im.converter->convertOnDevice(picture, im.coefficients, planes); !s)
            return Status::error(path + ": " + s.message());
    } else if (im.converter) {
        auto host = im.converter->convertToHost(picture, im.coefficients, im.layout);
        if (!host) return Status::error(path + ": " + host.message());
        av_frame_unref(f);
        f->format = im.codec->pix_fmt;
        f->width = picture.width;
        f->height = picture.height;
        f->buf[0] = av_buffer_create(host->plane[0], 1, keepPlanes, nullptr, 0);
        if (!f->buf[0]) return Status::error(path + ": out of memory");
        for (int i = 0; i < 3; ++i) {
            f->data[i] = host->plane[i];
            f->linesize[i] = int(host->pitch[i]);
        }
    } else if (im.sws) {
        if (av_frame_make_writable(f) < 0) return Status::error(path + ": out of memory");
        const uint8_t* const src[1] = {picture.pixels.data()};
        const int srcStride[1] = {picture.width * 4};
        sws_scale(im.sws.get(), src, srcStride, 0, picture.height, f->data, f->linesize);
        return {};
    } else {
        if (av_frame_make_writable(f) < 0) return Status::error(path + ": out of memory");
        for (int i = 0; i < 3; ++i) {
            planes.plane[i] = f->data[i];
            planes.pitch[i] = f->linesize[i];
        }
        rgbaToYuv420(picture.pixels.data(), std::ptrdiff_t(picture.width) * 4, picture.width, picture.height,
                     im.coefficients, planes);
        return {};
    }
    // av_frame_unref cleared the frame's description: the tags again.
    f->color_primaries = im.codec->color_primaries;
    f->color_trc = im.codec->color_trc;
    f->colorspace = im.codec->colorspace;
    f->color_range = im.codec->color_range;
    f->sample_aspect_ratio = AVRational{1, 1};
    return {};
}

// Sends `frame` (null: flush) and writes every packet that comes out.
Status encodeAndWrite(VideoEncoder::Impl& im, const AVFrame* frame, const std::string& path) {
    int r = avcodec_send_frame(im.codec.get(), frame);
    if (r < 0) return Status::error(path + ": the encoder refused a frame (" + ff::errorText(r) + ")");
    for (;;) {
        r = avcodec_receive_packet(im.codec.get(), im.packet.get());
        if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return {};
        if (r < 0) return Status::error(path + ": encoding failed (" + ff::errorText(r) + ")");
        av_packet_rescale_ts(im.packet.get(), im.codec->time_base, im.stream->time_base);
        im.packet->stream_index = im.stream->index;
        r = av_interleaved_write_frame(im.format.get(), im.packet.get());   // takes the packet's reference
        if (r < 0) return Status::error(path + ": cannot write (" + ff::errorText(r) + ")");
    }
}

}  // namespace

void VideoEncoder::run() {
    struct Ended {   // however run() returns, a submit() waiting for room wakes up
        VideoEncoder& e;
        ~Ended() {
            { std::lock_guard lock(e.mutex_); e.ended_ = true; }
            e.room_.notify_all();
        }
    } ended{*this};
    Impl& im = *impl_;
    const double ticksPerSecond = 1.0 / av_q2d(im.codec->time_base);
    for (;;) {
        Item item;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;   // stopping, and everything queued is encoded
            item = std::move(queue_.front());
            queue_.pop_front();
        }
        room_.notify_one();
        const auto converting = std::chrono::steady_clock::now();
        Status st = convert(im, item.picture, options_.path);
        const auto encoding = std::chrono::steady_clock::now();
        if (st) {
            // Each frame's own tick: its time rounded, and always after the last one.
            int64_t pts = std::llround(item.seconds * ticksPerSecond);
            if (pts <= im.lastPts) pts = im.lastPts + 1;
            im.lastPts = pts;
            im.frame->pts = pts;
            st = encodeAndWrite(im, im.frame.get(), options_.path);
        }
        const auto done = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        stats_.convertSeconds += std::chrono::duration<double>(encoding - converting).count();
        stats_.encodeSeconds += std::chrono::duration<double>(done - encoding).count();
        free_.push_back(std::move(item.picture));
        if (!st) {
            if (error_) error_ = st;
            queue_.clear();
            return;
        }
        ++stats_.encoded;
    }
}

Status VideoEncoder::close() {
    if (closed_) {
        std::lock_guard lock(mutex_);
        return error_;
    }
    closed_ = true;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    const bool started = thread_.joinable();   // false: open() failed before the file was ready
    if (started) thread_.join();
    Impl& im = *impl_;
    Status st;
    {
        std::lock_guard lock(mutex_);
        st = error_;
    }
    if (st && started) st = encodeAndWrite(im, nullptr, options_.path);
    if (im.headerWritten) {
        const int r = av_write_trailer(im.format.get());
        if (st && r < 0) st = Status::error(options_.path + ": cannot finish the file (" + ff::errorText(r) + ")");
        im.headerWritten = false;
    }
    if (im.format && im.format->pb) {
        const int r = avio_closep(&im.format->pb);
        if (st && r < 0) st = Status::error(options_.path + ": cannot close the file (" + ff::errorText(r) + ")");
    }
    std::lock_guard lock(mutex_);
    if (error_) error_ = st;
    if (im.partOpen) {   // whole: NAME.part becomes NAME; failed: NAME.part stays, and the error says so
        im.partOpen = false;
        const std::string part = partPath(options_.path);
        std::error_code ec;
        if (!started) {   // open() failed after creating it: nothing was recorded
            std::filesystem::remove(part, ec);
        } else if (error_) {
            std::filesystem::rename(part, options_.path, ec);
            if (ec) error_ = Status::error(options_.path + ": cannot rename " + part + " into place (" + ec.message() + ")");
        } else if (std::filesystem::exists(part, ec)) {
            error_ = Status::error(error_.message() + "; what was recorded is in " + part);
        }
    }
    return error_;
}

const char* VideoEncoder::conversion() const {
    if (impl_->hwFrames) return "gpu, frames on the device";
    if (impl_->converter) return "gpu, planes downloaded";
    return impl_->sws ? "swscale" : "cpu";
}

EncoderStats VideoEncoder::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace cs
