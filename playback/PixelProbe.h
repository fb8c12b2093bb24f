// The pixel picker's reading: one pixel's Y'CbCr and R'G'B' code values at the source's
// native depth, computed with the engines' own conversions (core/Color.h, PixelAccess.h)
// so the numbers match what the scopes count.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/Frame.h"

namespace cs {

struct PixelReading {
    int x = 0, y = 0;
    int bitDepth = 8;          // of the Y'CbCr values (RGB sources: of the derived Y'CbCr, 8)
    bool rgbSource = false;    // R'G'B' are the stored values; Y'CbCr derived through the matrix
    int32_t luma = 0, cb = 0, cr = 0;
    int32_t r = 0, g = 0, b = 0;   // full range at bitDepth
    Range range = Range::Full;     // of the source (tag or override): how the parade labels R'G'B'
};

// An R'G'B' value (full range at `bitDepth`) in the codes the R'G'B' parade reads it at in
// code values: a limited-range source's parade stands on the luma waveform's footing, 0 at
// black (16 << (d - 8)) and the top code at white (235 << (d - 8)), so 75% white (8-bit 191)
// reads 180 as its luma does; a full-range source's reads its own value.
int32_t paradeCode(int32_t fullRangeValue, int bitDepth, Range range);

// Reads (x, y) of a frame in host memory. `color` is the matrix and range in effect (tags
// with the user's override). Nothing for a device frame or a position outside the frame.
std::optional<PixelReading> readPixel(const FrameView& frame, const ColorInfo& color, int x, int y);

// "x 960  y 540   Y'CbCr 180 128 128   R'G'B' (16-235) 180 180 180   (8-bit)": R'G'B' in
// the parade's codes (paradeCode), labelled with black's and white's codes.
std::string describe(const PixelReading& p);

}  // namespace cs
