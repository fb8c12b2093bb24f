// Synthetic and decoded frames for the CPU benchmark (see BenchFrames.h).
#include "BenchFrames.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <random>

extern "C" {
#include <libavutil/pixdesc.h>
}

#include "decode/FFmpegFormats.h"

namespace cs::bench {
namespace {

// Stores one sample at native depth: 8-bit as a byte, 10-bit as a little-endian word.
inline void storeSample(uint8_t* row, int x, int value, int bitDepth) {
    if (bitDepth == 8) {
        row[x] = uint8_t(value);
    } else {
        row[2 * x] = uint8_t(value & 0xff);
        row[2 * x + 1] = uint8_t(value >> 8);
    }
}

// Fills the view of an AVFrame whose format is yuv420p or yuv420p10le.
FrameView viewOf(const AVFrame& f, PixelFormat format, const ColorInfo& color) {
    FrameView v;
    v.format = format;
    v.width = f.width;
    v.height = f.height;
    for (size_t i = 0; i < 3; ++i) {
        v.data[i] = f.data[i];
        v.pitch[i] = f.linesize[i];
    }
    v.color = color;
    return v;
}

Status allocate(AVFrame& f, AVPixelFormat format, int width, int height) {
    f.format = format;
    f.width = width;
    f.height = height;
    if (const int err = av_frame_get_buffer(&f, 0); err < 0)
        return Status::error("A " + std::to_string(width) + "x" + std::to_string(height) +
                             " benchmark frame could not be allocated: " + avErrorText(err) + ".");
    return {};
}

// Zone plate: luma cos(pi r^2 / W) reaches the Nyquist frequency at the left and right
// edges, so every level between the limits is hit and neighbouring columns differ;
// chroma runs the same rings as (cos, sin) pairs, a full circle on the vectorscope.
void fillZonePlate(AVFrame& f, int bitDepth) {
    const double scale = double(1 << (bitDepth - 8));
    const double yMid = 125.5 * scale, yAmp = 109.5 * scale, cMid = 128.0 * scale, cAmp = 112.0 * scale;
    const double cx = f.width / 2.0, cy = f.height / 2.0, k = std::numbers::pi / f.width;
    for (int y = 0; y < f.height; ++y) {
        uint8_t* row = f.data[0] + ptrdiff_t(y) * f.linesize[0];
        for (int x = 0; x < f.width; ++x) {
            const double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            storeSample(row, x, int(std::lround(yMid + yAmp * std::cos(k * (dx * dx + dy * dy)))), bitDepth);
        }
    }
    const int chromaW = (f.width + 1) / 2, chromaH = (f.height + 1) / 2;
    for (int y = 0; y < chromaH; ++y) {
        uint8_t* cbRow = f.data[1] + ptrdiff_t(y) * f.linesize[1];
        uint8_t* crRow = f.data[2] + ptrdiff_t(y) * f.linesize[2];
        for (int x = 0; x < chromaW; ++x) {
            const double dx = 2.0 * x + 1.0 - cx, dy = 2.0 * y + 1.0 - cy;
            const double phase = 0.25 * k * (dx * dx + dy * dy);   // slower rings: no chroma aliasing
            storeSample(cbRow, x, int(std::lround(cMid + cAmp * std::cos(phase))), bitDepth);
            storeSample(crRow, x, int(std::lround(cMid + cAmp * std::sin(phase))), bitDepth);
        }
    }
}

// Uniform noise over every code value (out-of-legal and out-of-gamut pixels included):
// the worst case for scattered counting, as each pixel lands in an unrelated bin.
void fillNoise(AVFrame& f, int bitDepth) {
    std::mt19937 random(20240601u);   // fixed seed: the same frame on every run
    std::uniform_int_distribution<int> code(0, (1 << bitDepth) - 1);
    for (int plane = 0; plane < 3; ++plane) {
        const int w = plane == 0 ? f.width : (f.width + 1) / 2, h = plane == 0 ? f.height : (f.height + 1) / 2;
        for (int y = 0; y < h; ++y) {
            uint8_t* row = f.data[plane] + ptrdiff_t(y) * f.linesize[plane];
            for (int x = 0; x < w; ++x) storeSample(row, x, code(random), bitDepth);
        }
    }
}

ColorInfo colorOfClip(const AVFrame& f) {
    ColorInfo c;
    c.matrixTagged = true;
    switch (ff::colorSpaceTag(f.colorspace)) {   // a damaged stream's tag can be outside the enum
        case AVCOL_SPC_BT709: c.matrix = Matrix::Bt709; break;
        case AVCOL_SPC_BT470BG:
        case AVCOL_SPC_SMPTE170M: c.matrix = Matrix::Bt601; break;
        case AVCOL_SPC_BT2020_NCL: c.matrix = Matrix::Bt2020Ncl; break;
        default: c.matrix = guessMatrix(f.width, f.height); c.matrixTagged = false; break;
    }
    const AVColorRange range = ff::colorRangeTag(f.color_range);
    c.rangeTagged = range != AVCOL_RANGE_UNSPECIFIED;
    c.range = range == AVCOL_RANGE_JPEG ? Range::Full : Range::Limited;
    return c;
}

}  // namespace

std::string_view contentName(Content c) { return c == Content::ZonePlate ? "zone plate" : "noise"; }

Result<BenchFrame> makeSyntheticFrame(Content content, int width, int height, int bitDepth) {
    BenchFrame out;
    out.frame.reset(av_frame_alloc());
    if (!out.frame) return Status::error("The benchmark frame could not be allocated: out of memory.");
    AVFrame& f = *out.frame;
    if (Status s = allocate(f, bitDepth == 8 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV420P10LE, width, height); !s.ok())
        return s;
    f.colorspace = AVCOL_SPC_BT709;
    f.color_primaries = AVCOL_PRI_BT709;
    f.color_trc = AVCOL_TRC_BT709;
    f.color_range = AVCOL_RANGE_MPEG;
    f.sample_aspect_ratio = AVRational{1, 1};
    if (content == Content::ZonePlate) fillZonePlate(f, bitDepth);
    else fillNoise(f, bitDepth);

    ColorInfo color;
    color.matrix = Matrix::Bt709;
    color.range = Range::Limited;
    color.transfer = Transfer::Bt709;
    color.matrixTagged = color.rangeTagged = true;
    out.view = viewOf(f, bitDepth == 8 ? PixelFormat::Yuv420p : PixelFormat::Yuv420p10, color);
    out.content = std::string(contentName(content));
    return out;
}

Result<BenchFrame> decodeClipFrame(const std::string& path) {
    auto failed = [&](const std::string& what, int err) {
        return Status::error(path + ": " + what + " (" + avErrorText(err) + ").");
    };
    AVFormatContext* rawFormat = nullptr;
    if (const int err = avformat_open_input(&rawFormat, path.c_str(), nullptr, nullptr); err < 0)
        return failed("cannot be opened", err);
    FormatInputPtr container(rawFormat);
    if (const int err = avformat_find_stream_info(container.get(), nullptr); err < 0)
        return failed("its streams cannot be read", err);
    const AVCodec* decoder = nullptr;
    const int stream = av_find_best_stream(container.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (stream < 0) return failed("has no decodable video stream", stream);
    CodecContextPtr codec(avcodec_alloc_context3(decoder));
    if (!codec) return Status::error(path + ": the decoder could not be allocated: out of memory.");
    if (const int err = avcodec_parameters_to_context(codec.get(), container->streams[stream]->codecpar); err < 0)
        return failed("its codec parameters are unusable", err);
    if (const int err = avcodec_open2(codec.get(), decoder, nullptr); err < 0)
        return failed("the decoder could not be opened", err);

    FramePtr decoded(av_frame_alloc());
    PacketPtr packet(av_packet_alloc());
    if (!decoded || !packet) return Status::error(path + ": decoding buffers could not be allocated: out of memory.");
    bool flushed = false;
    for (;;) {
        const int got = avcodec_receive_frame(codec.get(), decoded.get());
        if (got == 0) break;
        if (got == AVERROR_EOF) return Status::error(path + ": the video stream ended before a frame was decoded.");
        if (got != AVERROR(EAGAIN)) return failed("the first frame could not be decoded", got);
        if (flushed) return Status::error(path + ": the video stream ended before a frame was decoded.");
        const int read = av_read_frame(container.get(), packet.get());
        if (read == AVERROR_EOF) {
            flushed = true;
            avcodec_send_packet(codec.get(), nullptr);
            continue;
        }
        if (read < 0) return failed("a packet could not be read", read);
        if (packet->stream_index == stream) {
            const int sent = avcodec_send_packet(codec.get(), packet.get());
            // Damaged packets before the first good frame are skipped, as a player would.
            if (sent < 0 && sent != AVERROR(EAGAIN) && sent != AVERROR_INVALIDDATA)
                return failed("a packet could not be decoded", sent);
        }
        av_packet_unref(packet.get());
    }

    ColorInfo color = colorOfClip(*decoded);
    // yuvj420p is yuv420p with a full-range tag (already read into `color`).
    if (decoded->format == AV_PIX_FMT_YUVJ420P) decoded->format = AV_PIX_FMT_YUV420P;
    const auto* desc = av_pix_fmt_desc_get(AVPixelFormat(decoded->format));
    if (!desc) return Status::error(path + ": the decoder produced an unknown pixel format.");
    BenchFrame out;
    out.content = "clip " + std::filesystem::path(path).filename().string();
    if (decoded->format == AV_PIX_FMT_YUV420P || decoded->format == AV_PIX_FMT_YUV420P10LE) {
        out.frame = std::move(decoded);
    } else {
        const bool deep = desc->comp[0].depth > 8;
        const AVPixelFormat target = deep ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P;
        out.frame.reset(av_frame_alloc());
        if (!out.frame) return Status::error(path + ": a conversion frame could not be allocated: out of memory.");
        if (Status s = allocate(*out.frame, target, decoded->width, decoded->height); !s.ok()) return s;
        SwsContextPtr sws(sws_getContext(decoded->width, decoded->height, AVPixelFormat(decoded->format),
                                         decoded->width, decoded->height, target, SWS_BICUBIC, nullptr, nullptr, nullptr));
        if (!sws)
            return Status::error(path + ": its pixel format " + desc->name + " cannot be converted to " +
                                 av_get_pix_fmt_name(target) + ".");
        // Y'CbCr keeps its range and matrix through the conversion; R'G'B' becomes
        // swscale's default, BT.601 limited range, and is tagged so.
        const bool rgb = (desc->flags & AV_PIX_FMT_FLAG_RGB) != 0;
        if (rgb) {
            color.matrix = Matrix::Bt601;
            color.range = Range::Limited;
            color.matrixTagged = color.rangeTagged = true;
        }
        const int fullRange = color.range == Range::Full ? 1 : 0;
        const int* coefficients = sws_getCoefficients(SWS_CS_DEFAULT);
        sws_setColorspaceDetails(sws.get(), coefficients, rgb ? 1 : fullRange, coefficients, fullRange, 0, 1 << 16, 1 << 16);
        sws_scale(sws.get(), decoded->data, decoded->linesize, 0, decoded->height, out.frame->data, out.frame->linesize);
        av_frame_copy_props(out.frame.get(), decoded.get());
        out.content += std::string(" (") + desc->name + " converted)";
    }
    const PixelFormat format = out.frame->format == AV_PIX_FMT_YUV420P ? PixelFormat::Yuv420p : PixelFormat::Yuv420p10;
    out.view = viewOf(*out.frame, format, color);
    return out;
}

}  // namespace cs::bench
