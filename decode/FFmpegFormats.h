// Translation between FFmpeg's pixel formats and colour tags and cudascope's own
// (core/PixelFormat.h, core/Color.h): which decoded formats the engines read in place,
// what every other format is converted to, and how stream tags become a ColorInfo.
#pragma once
extern "C" {
#include <libavutil/pixfmt.h>
}

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
ColorInfo colorInfoFromTags(AVColorSpace space, AVColorRange range, AVColorTransferCharacteristic transfer,
                            int width, int height, bool formatImpliesFullRange);

}  // namespace cs::ff
