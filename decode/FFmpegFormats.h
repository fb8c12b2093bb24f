// Translation between FFmpeg's pixel formats and colour tags and cudascope's own
// (core/PixelFormat.h, core/Color.h): which decoded formats the engines read in place,
// what every other format is converted to, and how stream tags become a ColorInfo.
#pragma once
extern "C" {
#include <libavutil/pixfmt.h>
}

#include <cstring>
#include <optional>
#include <string>

#include "core/Color.h"
#include "core/PixelFormat.h"

namespace cs::ff {

// A decoded format the engines read without conversion. The JPEG formats (yuvj420p...)
// are the planar formats with full range implied.
struct NativeFormat {
    PixelFormat format;
    bool impliesFullRange = false;
};
std::optional<NativeFormat> nativeFormat(AVPixelFormat f);

// The JPEG formats (yuvj420p, yuvj422p, yuvj444p, yuvj440p, yuvj411p): full range by definition.
bool impliesFullRange(AVPixelFormat f);

// FFmpeg's identifier for one of ours (the non-JPEG form).
AVPixelFormat toAVPixelFormat(PixelFormat f);

// The supported format that a non-native format is converted to: high bit depth Y'CbCr ->
// the 10-bit planar form of its subsampling, RGB (and palette, Bayer, XYZ) -> rgb24 or rgba,
// luma-only -> gray or gray10le, other 8-bit Y'CbCr -> planar of its subsampling, or
// yuv444p where none matches. nullopt when swscale cannot read the format.
std::optional<PixelFormat> conversionTarget(AVPixelFormat f);

// FFmpeg's name of a format ("yuv420p10le"), "none" for AV_PIX_FMT_NONE.
std::string pixelFormatName(AVPixelFormat f);

// Colour tags of a frame. Unspecified matrix: guessMatrix(width, height), matrixTagged false.
// Unspecified range: limited, rangeTagged false (unless the format implies full range).
// A colour tag as an AVFrame or AVCodecParameters stores it, read without trusting it: a
// damaged stream can leave a value no enumerator has (undefined to load as the enum type),
// which reads as `unspecified`. Use it for every tag before comparing or passing it on.
template <class Tag>
Tag colorTag(const Tag& stored, int count, Tag unspecified) {
    static_assert(sizeof(Tag) == sizeof(int));
    int value = 0;
    std::memcpy(&value, &stored, sizeof value);
    return value >= 0 && value < count ? static_cast<Tag>(value) : unspecified;
}
inline AVColorSpace colorSpaceTag(const AVColorSpace& t) { return colorTag(t, AVCOL_SPC_NB, AVCOL_SPC_UNSPECIFIED); }
inline AVColorRange colorRangeTag(const AVColorRange& t) { return colorTag(t, AVCOL_RANGE_NB, AVCOL_RANGE_UNSPECIFIED); }
inline AVColorTransferCharacteristic transferTag(const AVColorTransferCharacteristic& t) {
    return colorTag(t, AVCOL_TRC_NB, AVCOL_TRC_UNSPECIFIED);
}

inline AVColorPrimaries primariesTag(const AVColorPrimaries& t) { return colorTag(t, AVCOL_PRI_NB, AVCOL_PRI_UNSPECIFIED); }
// The gamut scope's primaries of a tag (Unspecified for the ones it does not know).
Primaries primariesFromTag(AVColorPrimaries p);

ColorInfo colorInfoFromTags(AVColorSpace space, AVColorRange range, AVColorTransferCharacteristic transfer,
                            int width, int height, bool formatImpliesFullRange);

}  // namespace cs::ff
