// The FFmpeg <-> cudascope translation tables: every supported format maps both ways and
// carries FFmpeg's own name (P010 included, which no file container can hold as raw
// video), conversion targets follow the rules, and colour tags map as specified.
#include <gtest/gtest.h>

#include "decode/FFmpegFormats.h"

extern "C" {
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace cs {
namespace {

TEST(FFmpegFormats, EverySupportedFormatMapsBothWaysUnderFfmpegsName) {
    for (int i = 0; i < int(PixelFormat::Count); ++i) {
        const auto format = PixelFormat(i);
        const AVPixelFormat av = ff::toAVPixelFormat(format);
        ASSERT_NE(av, AV_PIX_FMT_NONE) << formatInfo(format).name;
        EXPECT_EQ(std::string(av_get_pix_fmt_name(av)), std::string(formatInfo(format).name));
        const auto back = ff::nativeFormat(av);
        ASSERT_TRUE(back) << formatInfo(format).name;
        EXPECT_EQ(back->format, format);
        EXPECT_FALSE(back->impliesFullRange);
    }
    EXPECT_EQ(ff::nativeFormat(AV_PIX_FMT_P010LE)->format, PixelFormat::P010);
    EXPECT_EQ(ff::nativeFormat(AV_PIX_FMT_NV12)->format, PixelFormat::Nv12);
}

TEST(FFmpegFormats, JpegFormatsArePlanarWithFullRange) {
    struct Case {
        AVPixelFormat av;
        PixelFormat format;
    };
    for (const Case& c : {Case{AV_PIX_FMT_YUVJ420P, PixelFormat::Yuv420p}, Case{AV_PIX_FMT_YUVJ422P, PixelFormat::Yuv422p},
                          Case{AV_PIX_FMT_YUVJ444P, PixelFormat::Yuv444p}}) {
        const auto n = ff::nativeFormat(c.av);
        ASSERT_TRUE(n);
        EXPECT_EQ(n->format, c.format);
        EXPECT_TRUE(n->impliesFullRange);
        EXPECT_TRUE(ff::impliesFullRange(c.av));
        const ColorInfo color = ff::colorInfoFromTags(AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED,
                                                      AVCOL_TRC_UNSPECIFIED, 64, 48, n->impliesFullRange);
        EXPECT_EQ(color.range, Range::Full);
        EXPECT_TRUE(color.rangeTagged);
    }
}

TEST(FFmpegFormats, OtherFormatsConvertToTheNearestSupportedOne) {
    struct Case {
        AVPixelFormat av;
        PixelFormat target;
    };
    for (const Case& c : {
             Case{AV_PIX_FMT_YUV420P12LE, PixelFormat::Yuv420p10}, Case{AV_PIX_FMT_YUV420P9LE, PixelFormat::Yuv420p10},
             Case{AV_PIX_FMT_YUV422P16BE, PixelFormat::Yuv422p10}, Case{AV_PIX_FMT_YUV444P12LE, PixelFormat::Yuv444p10},
             Case{AV_PIX_FMT_P016LE, PixelFormat::Yuv420p10},      Case{AV_PIX_FMT_P010BE, PixelFormat::Yuv420p10},
             Case{AV_PIX_FMT_Y210LE, PixelFormat::Yuv422p10},      Case{AV_PIX_FMT_YUV420P10BE, PixelFormat::Yuv420p10},
             Case{AV_PIX_FMT_YUVA444P10LE, PixelFormat::Yuv444p10}, Case{AV_PIX_FMT_GRAY12LE, PixelFormat::Gray10},
             Case{AV_PIX_FMT_GRAY16BE, PixelFormat::Gray10},       Case{AV_PIX_FMT_YA8, PixelFormat::Gray8},
             Case{AV_PIX_FMT_MONOBLACK, PixelFormat::Gray8},       Case{AV_PIX_FMT_RGB48LE, PixelFormat::Rgb24},
             Case{AV_PIX_FMT_RGBA64LE, PixelFormat::Rgba},         Case{AV_PIX_FMT_GBRP, PixelFormat::Rgb24},
             Case{AV_PIX_FMT_GBRP10LE, PixelFormat::Rgb24},        Case{AV_PIX_FMT_GBRAP, PixelFormat::Rgba},
             Case{AV_PIX_FMT_PAL8, PixelFormat::Rgba},             Case{AV_PIX_FMT_BGR0, PixelFormat::Rgb24},
             Case{AV_PIX_FMT_ABGR, PixelFormat::Rgba},             Case{AV_PIX_FMT_RGB565LE, PixelFormat::Rgb24},
             Case{AV_PIX_FMT_BAYER_RGGB8, PixelFormat::Rgb24},     Case{AV_PIX_FMT_XYZ12LE, PixelFormat::Rgb24},
             Case{AV_PIX_FMT_YUVA420P, PixelFormat::Yuv420p},      Case{AV_PIX_FMT_NV21, PixelFormat::Yuv420p},
             Case{AV_PIX_FMT_YUV411P, PixelFormat::Yuv444p},
             Case{AV_PIX_FMT_YUV440P, PixelFormat::Yuv444p},       Case{AV_PIX_FMT_YUV410P, PixelFormat::Yuv444p},
             Case{AV_PIX_FMT_YUVJ411P, PixelFormat::Yuv444p}}) {
        SCOPED_TRACE(av_get_pix_fmt_name(c.av));
        EXPECT_FALSE(ff::nativeFormat(c.av));
        const auto target = ff::conversionTarget(c.av);
        ASSERT_TRUE(target);
        EXPECT_EQ(*target, c.target) << "got " << formatInfo(*target).name;
    }
    EXPECT_TRUE(ff::impliesFullRange(AV_PIX_FMT_YUVJ440P));
    EXPECT_TRUE(ff::impliesFullRange(AV_PIX_FMT_YUVJ411P));
    EXPECT_FALSE(ff::impliesFullRange(AV_PIX_FMT_YUV420P));
    // Hardware formats are never converted on the host.
    EXPECT_FALSE(ff::conversionTarget(AV_PIX_FMT_CUDA));
    EXPECT_FALSE(ff::conversionTarget(AV_PIX_FMT_NONE));
}

// Over every format FFmpeg knows: a target exists exactly when swscale can read the format,
// R'G'B' stays R'G'B', and Y'CbCr or luma keeps its kind, at 10 bits when it had more than 8.
TEST(FFmpegFormats, EveryFfmpegFormatHasAConsistentTarget) {
    int checked = 0;
    for (const AVPixFmtDescriptor* desc = av_pix_fmt_desc_next(nullptr); desc; desc = av_pix_fmt_desc_next(desc)) {
        const AVPixelFormat av = av_pix_fmt_desc_get_id(desc);
        SCOPED_TRACE(desc->name);
        const auto target = ff::conversionTarget(av);
        const bool readable = sws_isSupportedInput(av) && !(desc->flags & AV_PIX_FMT_FLAG_HWACCEL);
        ASSERT_EQ(target.has_value(), readable);
        if (!target) continue;
        ++checked;
        const bool rgbLike = (desc->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER)) ||
                             av == AV_PIX_FMT_XYZ12LE || av == AV_PIX_FMT_XYZ12BE;
        EXPECT_EQ(formatInfo(*target).isRgb, rgbLike);
        if (!rgbLike) {
            EXPECT_EQ(formatInfo(*target).bitDepth, desc->comp[0].depth > 8 ? 10 : 8);
        }
    }
    EXPECT_GT(checked, 100);
}

TEST(FFmpegFormats, ColourTagsMapAsSpecified) {
    struct MatrixCase {
        AVColorSpace space;
        Matrix matrix;
    };
    for (const MatrixCase& c : {MatrixCase{AVCOL_SPC_BT709, Matrix::Bt709}, MatrixCase{AVCOL_SPC_BT470BG, Matrix::Bt601},
                                MatrixCase{AVCOL_SPC_SMPTE170M, Matrix::Bt601}, MatrixCase{AVCOL_SPC_FCC, Matrix::Bt601},
                                MatrixCase{AVCOL_SPC_BT2020_NCL, Matrix::Bt2020Ncl},
                                MatrixCase{AVCOL_SPC_BT2020_CL, Matrix::Bt2020Ncl}}) {
        const ColorInfo color = ff::colorInfoFromTags(c.space, AVCOL_RANGE_MPEG, AVCOL_TRC_BT709, 720, 576, false);
        EXPECT_EQ(color.matrix, c.matrix) << av_color_space_name(c.space);
        EXPECT_TRUE(color.matrixTagged);
        EXPECT_EQ(color.range, Range::Limited);
        EXPECT_TRUE(color.rangeTagged);
    }
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{720, 576}, {1920, 1080}, {3840, 2160}}) {
        const ColorInfo untagged =
            ff::colorInfoFromTags(AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, w, h, false);
        EXPECT_EQ(untagged.matrix, guessMatrix(w, h));
        EXPECT_FALSE(untagged.matrixTagged);
        EXPECT_EQ(untagged.range, Range::Limited);
        EXPECT_FALSE(untagged.rangeTagged);
        EXPECT_EQ(untagged.transfer, Transfer::Unspecified);
    }
    const ColorInfo full = ff::colorInfoFromTags(AVCOL_SPC_BT709, AVCOL_RANGE_JPEG, AVCOL_TRC_BT709, 64, 48, false);
    EXPECT_EQ(full.range, Range::Full);
    EXPECT_TRUE(full.rangeTagged);

    struct TransferCase {
        AVColorTransferCharacteristic trc;
        Transfer transfer;
    };
    for (const TransferCase& c :
         {TransferCase{AVCOL_TRC_BT709, Transfer::Bt709}, TransferCase{AVCOL_TRC_SMPTE170M, Transfer::Bt709},
          TransferCase{AVCOL_TRC_BT2020_10, Transfer::Bt709}, TransferCase{AVCOL_TRC_SMPTE2084, Transfer::Pq},
          TransferCase{AVCOL_TRC_ARIB_STD_B67, Transfer::Hlg}, TransferCase{AVCOL_TRC_IEC61966_2_1, Transfer::Srgb},
          TransferCase{AVCOL_TRC_LINEAR, Transfer::Linear}, TransferCase{AVCOL_TRC_GAMMA28, Transfer::Unspecified}}) {
        EXPECT_EQ(ff::colorInfoFromTags(AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, c.trc, 64, 48, false).transfer, c.transfer)
            << av_color_transfer_name(c.trc);
    }
}

}  // namespace
}  // namespace cs
