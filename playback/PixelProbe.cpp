// Reading one pixel's code values.
#include "PixelProbe.h"

#include <cstdio>

#include "core/PixelAccess.h"

namespace cs {

std::optional<PixelReading> readPixel(const FrameView& frame, const ColorInfo& color, int x, int y) {
    if (frame.onDevice || !frame.valid() || x < 0 || y < 0 || x >= frame.width || y >= frame.height) return std::nullopt;
    const auto& info = formatInfo(frame.format);
    const PixelSource src = makePixelSource(frame);
    PixelReading p;
    p.x = x;
    p.y = y;
    if (info.isRgb) {
        // RGB sources are full-range 8-bit R'G'B'; Y'CbCr as the engines derive it.
        const Rgb v = readRgb(src, x, y);
        const Yuv yuv = rgbToYuv(makeRgbToYuv(color.matrix, color.range, 8), v.r, v.g, v.b);
        p.bitDepth = 8;
        p.rgbSource = true;
        p.r = v.r; p.g = v.g; p.b = v.b;
        p.luma = yuv.y; p.cb = yuv.cb; p.cr = yuv.cr;
        return p;
    }
    const int depth = info.bitDepth;
    const YuvSample v = readYuv(src, x, y, 1 << (depth - 1));
    const Rgb rgb = yuvToRgb(makeYuvToRgb(color.matrix, color.range, depth, depth), v.y, v.cb, v.cr);
    p.bitDepth = depth;
    p.luma = v.y; p.cb = v.cb; p.cr = v.cr;
    p.r = rgb.r; p.g = rgb.g; p.b = rgb.b;
    return p;
}

std::string describe(const PixelReading& p) {
    char text[160];
    const int w = p.bitDepth > 8 ? 4 : 3;
    std::snprintf(text, sizeof text, "x %d  y %d   Y'CbCr %*d %*d %*d   R'G'B' %*d %*d %*d   (%d-bit%s)", p.x, p.y, w,
                  p.luma, w, p.cb, w, p.cr, w, p.r, w, p.g, w, p.b, p.bitDepth, p.rgbSource ? ", RGB source" : "");
    return text;
}

}  // namespace cs
