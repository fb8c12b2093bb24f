// The reduction of a frame to a small picture (a wall tile's picture and small scopes are
// counted on it): nearest sampling at the centre of each output pixel's block of the source,
// into Y'CbCr 4:4:4 at the frame's depth (8-bit: yuv444p, deeper: yuv444p10) or RGB24 for
// R'G'B' frames, so every supported format, NV12 and P010 from NVDEC included, comes out in
// one of three. The per-pixel rule is CS_HD: reduceFrame (host) and the CUDA engine's
// downscaleToHost (cuda/analysis/ReduceKernel.cu, for frames in GPU memory) run the same code and give
// the same code values.
#pragma once
#include <cstdint>

#include "Frame.h"
#include "PixelAccess.h"

namespace cs {

// The source column (row) sampled for output column (row) `i` of `outSize` taken from `inSize`.
CS_HD int reducedSourceIndex(int i, int outSize, int inSize) {
    return int((int64_t(i) * 2 + 1) * inSize / (int64_t(outSize) * 2));
}

// The format a frame of `format` reduces to.
PixelFormat reducedFormat(PixelFormat format);

// Where one output row goes: three plane rows (Y'CbCr 4:4:4) or one packed RGB24 row.
struct ReducedRow {
    uint8_t* p0; uint8_t* p1; uint8_t* p2;
};

// Output pixel x of a row sampled from source pixel (sx, sy). `mid`: the source's mid level
// (gray frames' chroma); `rgb`: the source is R'G'B' (out RGB24); `wide`: the output stores
// two bytes a sample (little-endian, depth above 8).
CS_HD void reducePixel(const PixelSource& src, int sx, int sy, int32_t mid, bool rgb, bool wide, ReducedRow row, int x) {
    if (rgb) {
        const Rgb c = readRgb(src, sx, sy);
        row.p0[3 * x] = uint8_t(c.r), row.p0[3 * x + 1] = uint8_t(c.g), row.p0[3 * x + 2] = uint8_t(c.b);
        return;
    }
    const YuvSample s = readYuv(src, sx, sy, mid);
    uint8_t* const out[3] = {row.p0, row.p1, row.p2};
    const int32_t v[3] = {s.y, s.cb, s.cr};
    for (int c = 0; c < 3; ++c) {
        if (!wide) {
            out[c][x] = uint8_t(v[c]);
        } else {
            out[c][2 * x] = uint8_t(v[c] & 255);
            out[c][2 * x + 1] = uint8_t(v[c] >> 8);
        }
    }
}

// Reduces a frame in host memory to width x height into `out` (reallocated when its format or
// size differ), colour tags and pts kept.
void reduceFrame(const FrameView& frame, int width, int height, Frame& out);

}  // namespace cs
