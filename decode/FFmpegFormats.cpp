// Pixel format and colour tag translation between FFmpeg and cudascope (see FFmpegFormats.h).
#include "FFmpegFormats.h"

extern "C" {
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace cs::ff {

std::optional<NativeFormat> nativeFormat(AVPixelFormat f) {
    switch (f) {
        case AV_PIX_FMT_YUV420P: return NativeFormat{PixelFormat::Yuv420p};
        case AV_PIX_FMT_YUVJ420P: return NativeFormat{PixelFormat::Yuv420p, true};
        case AV_PIX_FMT_YUV422P: return NativeFormat{PixelFormat::Yuv422p};
        case AV_PIX_FMT_YUVJ422P: return NativeFormat{PixelFormat::Yuv422p, true};
        case AV_PIX_FMT_YUV444P: return NativeFormat{PixelFormat::Yuv444p};
        case AV_PIX_FMT_YUVJ444P: return NativeFormat{PixelFormat::Yuv444p, true};
        case AV_PIX_FMT_YUV420P10LE: return NativeFormat{PixelFormat::Yuv420p10};
        case AV_PIX_FMT_YUV422P10LE: return NativeFormat{PixelFormat::Yuv422p10};
        case AV_PIX_FMT_YUV444P10LE: return NativeFormat{PixelFormat::Yuv444p10};
        case AV_PIX_FMT_NV12: return NativeFormat{PixelFormat::Nv12};
        case AV_PIX_FMT_P010LE: return NativeFormat{PixelFormat::P010};
        case AV_PIX_FMT_UYVY422: return NativeFormat{PixelFormat::Uyvy422};
        case AV_PIX_FMT_YUYV422: return NativeFormat{PixelFormat::Yuyv422};
        case AV_PIX_FMT_RGB24: return NativeFormat{PixelFormat::Rgb24};
        case AV_PIX_FMT_BGR24: return NativeFormat{PixelFormat::Bgr24};
        case AV_PIX_FMT_RGBA: return NativeFormat{PixelFormat::Rgba};
        case AV_PIX_FMT_BGRA: return NativeFormat{PixelFormat::Bgra};
        case AV_PIX_FMT_ARGB: return NativeFormat{PixelFormat::Argb};
        case AV_PIX_FMT_GRAY8: return NativeFormat{PixelFormat::Gray8};
        case AV_PIX_FMT_GRAY10LE: return NativeFormat{PixelFormat::Gray10};
        default: return std::nullopt;
    }
}

bool impliesFullRange(AVPixelFormat f) {
    return f == AV_PIX_FMT_YUVJ420P || f == AV_PIX_FMT_YUVJ422P || f == AV_PIX_FMT_YUVJ444P ||
           f == AV_PIX_FMT_YUVJ440P || f == AV_PIX_FMT_YUVJ411P;
}

AVPixelFormat toAVPixelFormat(PixelFormat f) {
    switch (f) {
        case PixelFormat::Yuv420p: return AV_PIX_FMT_YUV420P;
        case PixelFormat::Yuv422p: return AV_PIX_FMT_YUV422P;
        case PixelFormat::Yuv444p: return AV_PIX_FMT_YUV444P;
        case PixelFormat::Yuv420p10: return AV_PIX_FMT_YUV420P10LE;
        case PixelFormat::Yuv422p10: return AV_PIX_FMT_YUV422P10LE;
        case PixelFormat::Yuv444p10: return AV_PIX_FMT_YUV444P10LE;
        case PixelFormat::Nv12: return AV_PIX_FMT_NV12;
        case PixelFormat::P010: return AV_PIX_FMT_P010LE;
        case PixelFormat::Uyvy422: return AV_PIX_FMT_UYVY422;
        case PixelFormat::Yuyv422: return AV_PIX_FMT_YUYV422;
        case PixelFormat::Rgb24: return AV_PIX_FMT_RGB24;
        case PixelFormat::Bgr24: return AV_PIX_FMT_BGR24;
        case PixelFormat::Rgba: return AV_PIX_FMT_RGBA;
        case PixelFormat::Bgra: return AV_PIX_FMT_BGRA;
        case PixelFormat::Argb: return AV_PIX_FMT_ARGB;
        case PixelFormat::Gray8: return AV_PIX_FMT_GRAY8;
        case PixelFormat::Gray10: return AV_PIX_FMT_GRAY10LE;
        case PixelFormat::Count: break;
    }
    return AV_PIX_FMT_NONE;
}

std::optional<PixelFormat> conversionTarget(AVPixelFormat f) {
    const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(f);
    if (!desc || (desc->flags & AV_PIX_FMT_FLAG_HWACCEL) || !sws_isSupportedInput(f)) return std::nullopt;
    const bool alpha = desc->flags & AV_PIX_FMT_FLAG_ALPHA;
    const bool rgbLike = (desc->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER)) ||
                         f == AV_PIX_FMT_XYZ12LE || f == AV_PIX_FMT_XYZ12BE;
    // R'G'B' stays R'G'B' (no matrix is applied on the way), at the engines' 8 bits.
    if (rgbLike) return alpha ? PixelFormat::Rgba : PixelFormat::Rgb24;
    const bool high = desc->comp[0].depth > 8;
    const int colourComponents = desc->nb_components - (alpha ? 1 : 0);
    if (colourComponents <= 1) return high ? PixelFormat::Gray10 : PixelFormat::Gray8;
    const int sw = desc->log2_chroma_w, sh = desc->log2_chroma_h;
    if (sw == 1 && sh == 1) return high ? PixelFormat::Yuv420p10 : PixelFormat::Yuv420p;
    if (sw == 1 && sh == 0) return high ? PixelFormat::Yuv422p10 : PixelFormat::Yuv422p;
    return high ? PixelFormat::Yuv444p10 : PixelFormat::Yuv444p;   // 4:4:4 and the odd ones (4:1:1, 4:4:0, 4:1:0)
}

std::string pixelFormatName(AVPixelFormat f) {
    const char* name = av_get_pix_fmt_name(f);
    return name ? name : "none";
}

Primaries primariesFromTag(AVColorPrimaries p) {
    switch (p) {
        case AVCOL_PRI_BT709: return Primaries::Bt709;
        case AVCOL_PRI_BT2020: return Primaries::Bt2020;
        case AVCOL_PRI_SMPTE432: return Primaries::P3D65;
        case AVCOL_PRI_SMPTE431: return Primaries::DciP3;
        case AVCOL_PRI_BT470BG: return Primaries::Bt601_625;
        case AVCOL_PRI_SMPTE170M:
        case AVCOL_PRI_SMPTE240M: return Primaries::Bt601_525;
        default: return Primaries::Unspecified;
    }
}

ColorInfo colorInfoFromTags(AVColorSpace space, AVColorRange range, AVColorTransferCharacteristic transfer,
                            int width, int height, bool formatImpliesFullRange) {
    ColorInfo c;
    switch (space) {
        case AVCOL_SPC_BT709: c.matrix = Matrix::Bt709; c.matrixTagged = true; break;
        case AVCOL_SPC_BT470BG:
        case AVCOL_SPC_SMPTE170M:
        case AVCOL_SPC_FCC: c.matrix = Matrix::Bt601; c.matrixTagged = true; break;
        case AVCOL_SPC_BT2020_NCL:
        case AVCOL_SPC_BT2020_CL: c.matrix = Matrix::Bt2020Ncl; c.matrixTagged = true; break;
        default: c.matrix = guessMatrix(width, height); c.matrixTagged = false; break;
    }
    if (formatImpliesFullRange || range == AVCOL_RANGE_JPEG) {
        c.range = Range::Full;
        c.rangeTagged = true;
    } else if (range == AVCOL_RANGE_MPEG) {
        c.range = Range::Limited;
        c.rangeTagged = true;
    } else {
        c.range = Range::Limited;
        c.rangeTagged = false;
    }
    switch (transfer) {
        case AVCOL_TRC_BT709:
        case AVCOL_TRC_SMPTE170M:
        case AVCOL_TRC_BT2020_10:
        case AVCOL_TRC_BT2020_12: c.transfer = Transfer::Bt709; break;
        case AVCOL_TRC_SMPTE2084: c.transfer = Transfer::Pq; break;
        case AVCOL_TRC_ARIB_STD_B67: c.transfer = Transfer::Hlg; break;
        case AVCOL_TRC_IEC61966_2_1: c.transfer = Transfer::Srgb; break;
        case AVCOL_TRC_LINEAR: c.transfer = Transfer::Linear; break;
        default: c.transfer = Transfer::Unspecified; break;
    }
    return c;
}

}  // namespace cs::ff
