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
        p.range = color.range;
        return p;
    }
    const int depth = info.bitDepth;
    const YuvSample v = readYuv(src, x, y, 1 << (depth - 1));
    const Rgb rgb = yuvToRgb(makeYuvToRgb(color.matrix, color.range, depth, depth), v.y, v.cb, v.cr);
    p.bitDepth = depth;
    p.luma = v.y; p.cb = v.cb; p.cr = v.cr;
    p.r = rgb.r; p.g = rgb.g; p.b = rgb.b;
    p.range = color.range;
    return p;
}

int32_t paradeCode(int32_t v, int bitDepth, Range range) {
    if (range != Range::Limited || bitDepth < 8 || bitDepth > 16) return v;
    const int64_t s = bitDepth - 8, top = (int64_t(1) << bitDepth) - 1, black = int64_t(16) << s, span = int64_t(219) << s;
    // Rounded to the nearest code (v may lie outside 0..top for an out-of-gamut pixel).
    const int64_t scaled = int64_t(v) * span, half = top / 2;
    const int64_t q = scaled >= 0 ? (scaled + half) / top : -((-scaled + half) / top);
    return int32_t(black + q);
}

std::string describe(const PixelReading& p) {
    char text[200];
    const int w = p.bitDepth > 8 ? 4 : 3;
    const int top = (1 << p.bitDepth) - 1;
    const int lo = p.range == Range::Limited ? paradeCode(0, p.bitDepth, p.range) : 0;
    const int hi = p.range == Range::Limited ? paradeCode(top, p.bitDepth, p.range) : top;
    std::snprintf(text, sizeof text, "x %d  y %d   Y'CbCr %*d %*d %*d   R'G'B' (%d-%d) %*d %*d %*d   (%d-bit%s)", p.x, p.y, w,
                  p.luma, w, p.cb, w, p.cr, lo, hi, w, paradeCode(p.r, p.bitDepth, p.range), w,
                  paradeCode(p.g, p.bitDepth, p.range), w, paradeCode(p.b, p.bitDepth, p.range), p.bitDepth,
                  p.rgbSource ? ", RGB source" : "");
    return text;
}

}  // namespace cs
