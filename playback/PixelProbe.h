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
};

// Reads (x, y) of a frame in host memory. `color` is the matrix and range in effect (tags
// with the user's override). Nothing for a device frame or a position outside the frame.
std::optional<PixelReading> readPixel(const FrameView& frame, const ColorInfo& color, int x, int y);

// "x 960  y 540   Y'CbCr 180 128 128   R'G'B' 191 191 191  (8-bit)"
std::string describe(const PixelReading& p);

}  // namespace cs
