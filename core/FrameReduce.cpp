// The reduction of a frame to a small picture (core/FrameReduce.h).
#include "FrameReduce.h"

namespace cs {

PixelFormat reducedFormat(PixelFormat format) {
    const PixelFormatInfo& info = formatInfo(format);
    return info.isRgb ? PixelFormat::Rgb24 : (info.bitDepth > 8 ? PixelFormat::Yuv444p10 : PixelFormat::Yuv444p);
}

void reduceFrame(const FrameView& frame, int width, int height, Frame& out) {
    const PixelFormatInfo& info = formatInfo(frame.format);
    const PixelFormat format = reducedFormat(frame.format);
    if (out.format() != format || out.width() != width || out.height() != height) out = Frame(format, width, height);
    out.color() = frame.color;
    out.pts = frame.pts;
    const PixelSource src = makePixelSource(frame);
    const int32_t mid = 1 << (info.bitDepth - 1);
    const bool wide = format == PixelFormat::Yuv444p10;
    for (int y = 0; y < height; ++y) {
        const int sy = reducedSourceIndex(y, height, frame.height);
        ReducedRow row{out.plane(0) + y * out.pitch(0), nullptr, nullptr};
        if (!info.isRgb) row.p1 = out.plane(1) + y * out.pitch(1), row.p2 = out.plane(2) + y * out.pitch(2);
        for (int x = 0; x < width; ++x)
            reducePixel(src, reducedSourceIndex(x, width, frame.width), sy, mid, info.isRgb, wide, row, x);
    }
}

}  // namespace cs
