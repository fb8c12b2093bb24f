// The reduction of a frame to a small picture (core/FrameReduce.h): the sampled pixel is the
// centre of each output pixel's block, every layout comes out 4:4:4 at its depth (or RGB24),
// checked against values computed here from the pattern written.
#include <gtest/gtest.h>

#include "core/FrameReduce.h"

using namespace cs;

namespace {

// A pattern every format can hold: luma and chroma change along x and y at the chroma grid.
int lumaAt(int x, int y, int depth) { return (40 + x * 7 + y * 3) % (1 << depth); }
int cbAt(int x, int y, int depth) { return (100 + (x / 2) * 5 + (y / 2)) % (1 << depth); }
int crAt(int x, int y, int depth) { return (300 - (x / 2) - (y / 2) * 4) % (1 << depth); }

}  // namespace

TEST(FrameReduce, SourceIndexIsTheBlockCentre) {
    EXPECT_EQ(reducedSourceIndex(0, 16, 64), 2);
    EXPECT_EQ(reducedSourceIndex(15, 16, 64), 62);
    EXPECT_EQ(reducedSourceIndex(0, 270, 2160), 4);
    EXPECT_EQ(reducedSourceIndex(269, 270, 2160), 2156);
    EXPECT_EQ(reducedSourceIndex(0, 3, 10), 1);   // (1 * 10) / 6
    EXPECT_EQ(reducedSourceIndex(2, 3, 10), 8);   // (5 * 10) / 6
    EXPECT_EQ(reducedSourceIndex(4, 5, 5), 4);    // same size: the identity
}

TEST(FrameReduce, EveryLayoutSamplesTheBlockCentre) {
    const PixelFormat formats[] = {PixelFormat::Nv12,    PixelFormat::P010,    PixelFormat::Yuv420p, PixelFormat::Yuv420p10,
                                   PixelFormat::Yuv422p, PixelFormat::Yuv444p10, PixelFormat::Uyvy422, PixelFormat::Gray10};
    for (const PixelFormat format : formats) {
        const PixelFormatInfo& info = formatInfo(format);
        const int depth = info.bitDepth, W = 64, H = 36, w = 20, h = 9;
        Frame f(format, W, H);
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) f.setPixel(x, y, lumaAt(x, y, depth), cbAt(x, y, depth), crAt(x, y, depth));
        Frame out;
        reduceFrame(f.view(), w, h, out);
        ASSERT_EQ(out.format(), depth > 8 ? PixelFormat::Yuv444p10 : PixelFormat::Yuv444p) << info.name;
        ASSERT_EQ(out.width(), w);
        ASSERT_EQ(out.height(), h);
        const PixelSource s = makePixelSource(out.view());
        const int mid = 1 << (depth - 1);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int sx = int((2 * x + 1) * W / (2 * w)), sy = int((2 * y + 1) * H / (2 * h));
                // The chroma sample covering (sx, sy) holds the pattern at its grid's first pixel.
                const int cx = sx >> info.log2ChromaW << info.log2ChromaW, cy = sy >> info.log2ChromaH << info.log2ChromaH;
                const YuvSample v = readYuv(s, x, y, mid);
                ASSERT_EQ(v.y, lumaAt(sx, sy, depth)) << info.name << " " << x << "," << y;
                if (info.layout == PixelLayout::Gray) {
                    ASSERT_EQ(v.cb, mid) << info.name;
                    ASSERT_EQ(v.cr, mid) << info.name;
                } else {
                    ASSERT_EQ(v.cb, cbAt(cx, cy, depth)) << info.name << " " << x << "," << y;
                    ASSERT_EQ(v.cr, crAt(cx, cy, depth)) << info.name << " " << x << "," << y;
                }
            }
    }
}

TEST(FrameReduce, RgbComesOutRgb24) {
    Frame f(PixelFormat::Bgra, 30, 20);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 30; ++x) f.setPixel(x, y, x * 8, y * 12, 255 - x - y);
    f.color().range = Range::Full;
    Frame out;
    reduceFrame(f.view(), 10, 5, out);
    ASSERT_EQ(out.format(), PixelFormat::Rgb24);
    EXPECT_EQ(out.color().range, Range::Full);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 10; ++x) {
            const int sx = 3 * x + 1, sy = 4 * y + 2;
            const uint8_t* p = out.plane(0) + y * out.pitch(0) + 3 * x;
            EXPECT_EQ(p[0], sx * 8);
            EXPECT_EQ(p[1], sy * 12);
            EXPECT_EQ(p[2], 255 - sx - sy);
        }
}
