// FileSource, delivery: a decoded frame handed out in place (NVDEC surfaces, native software
// formats) or converted once with swscale, with SourceInfo following size and format changes.
#include "FileSourceImpl.h"

#include <algorithm>
#include <utility>

#include "CudaDevice.h"
#include "FFmpegFormats.h"
#include "FrameLimits.h"

extern "C" {
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
}

namespace cs::detail {

namespace {
// An NVDEC frame while it is lent: counted from delivery until its last copy is dropped, when
// the surface goes back to the decoder's pool first and the count follows.
struct LentSurface {
    LentSurface(std::shared_ptr<AVFrame> f, std::shared_ptr<std::atomic<int>> count) : frame(std::move(f)), lent(std::move(count)) {
        lent->fetch_add(1);
    }
    ~LentSurface() {
        frame.reset();
        lent->fetch_sub(1);
    }
    LentSurface(const LentSurface&) = delete;
    LentSurface& operator=(const LentSurface&) = delete;
    std::shared_ptr<AVFrame> frame;
    std::shared_ptr<std::atomic<int>> lent;
};
}  // namespace

std::shared_ptr<AVFrame> FileSource::takeDecodedFrame() {
    ff::FramePtr next(av_frame_alloc());
    if (!next) return nullptr;
    std::swap(next, frame_);
    return ff::share(std::move(next));
}

FileSource::Delivery FileSource::deliver(VideoFrame& out, std::string& error) {
    AVFrame& f = *frame_;
    const double pts = framePts(f);
    deliveringTimecode_ = timecodes_ ? timecodes_->read(f, pts, codec_->has_b_frames > 0) : FrameTimecode{};

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
        integrity_.frameConcealed(framePosition(pts));
    if (const std::string problem = frameSizeProblem(f.width, f.height); !problem.empty()) {
        warn(input_ + ": " + skippedFramePosition(pts) + ": " + problem + "; frame skipped");
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
        warn(input_ + ": " + skippedFramePosition(pts) + ": " + problem + "; frame skipped");
        return Delivery::Skipped;
    }
    cudaConfirmed_ = true;
    auto decoded = takeDecodedFrame();
    if (!decoded) {
        error = input_ + ": out of memory";
        return Delivery::Failed;
    }
    // Lent until the last copy of the frame is dropped (lent_, FileSourceImpl.h).
    auto lent = std::make_shared<LentSurface>(std::move(decoded), lent_);
    std::shared_ptr<AVFrame> holder(lent, lent->frame.get());
    finishDelivery(out, std::move(holder), format, false, layout, true, pts);
    if (deviceStream_) {
        // The picture was mapped with this stream as its post-processing stream: it is ready
        // once the stream's work so far is done. Consumers wait for this event, not the stream.
        auto ready = deviceStream_->recordReady();
        if (!ready) {
            error = input_ + ": " + ready.message();
            return Delivery::Failed;
        }
        out.ready = std::move(ready.value());
        out.view.deviceReady = out.ready.get();
    }
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
            const std::string problem = "pixel format " + ff::pixelFormatName(source) +
                                        " cannot be read: the engines do not take it and FFmpeg's swscale cannot convert it";
            av_frame_unref(&f);
            if (!delivered_) {
                error = input_ + ": " + problem;
                return Delivery::Failed;
            }
            warn(input_ + ": " + skippedFramePosition(pts) + ": " + problem + "; frame skipped");
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
    const AVColorSpace frameSpace = ff::colorSpaceTag(in.colorspace);
    const AVColorRange frameRange = ff::colorRangeTag(in.color_range);
    const AVColorSpace space = frameSpace != AVCOL_SPC_UNSPECIFIED ? frameSpace : ff::colorSpaceTag(stream_->codecpar->color_space);
    const AVColorRange range = frameRange != AVCOL_RANGE_UNSPECIFIED ? frameRange : ff::colorRangeTag(stream_->codecpar->color_range);
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
    const AVColorSpace space = ff::colorSpaceTag(f.colorspace);
    const AVColorRange range = ff::colorRangeTag(f.color_range);
    const AVColorTransferCharacteristic transfer = ff::transferTag(f.color_trc);
    view.color = ff::colorInfoFromTags(space != AVCOL_SPC_UNSPECIFIED ? space : ff::colorSpaceTag(par->color_space),
                                       range != AVCOL_RANGE_UNSPECIFIED ? range : ff::colorRangeTag(par->color_range),
                                       transfer != AVCOL_TRC_UNSPECIFIED ? transfer : ff::transferTag(par->color_trc),
                                       f.width, f.height, impliesFullRange);
    const AVColorPrimaries primaries = ff::primariesTag(f.color_primaries);
    view.color.primaries =
        ff::primariesFromTag(primaries != AVCOL_PRI_UNSPECIFIED ? primaries : ff::primariesTag(par->color_primaries));
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
    out.ready.reset();
    out.index = nextIndex_++;
    out.onDevice = onDevice;
    out.timecode = deliveringTimecode_;
}

}  // namespace cs::detail
