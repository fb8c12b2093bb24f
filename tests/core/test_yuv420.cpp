// RGBA -> NV12 / I420 (core/Yuv420.h): against the bars' published BT.709 code values, the
// textbook equations in double precision, FFmpeg's swscale (SWS_AREA: the same 2x2 box for
// chroma) and, for odd sizes, the even-sized picture with its last column and row repeated.
#include <gtest/gtest.h>

extern "C" {
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}

#include <cmath>
#include <random>
#include <vector>

#include "core/Yuv420.h"
#include "tests/core/CoreTestUtil.h"

using namespace cs;

namespace {

using cs::testing::Rgb8;
struct Code { int y, cb, cr; };

// An owned RGBA image and its converted planes, rows padded (pitch != row bytes), with a
// guard byte after each plane row that the conversion must leave alone.
struct Converted {
    int width, height;
    Yuv420Layout layout;
    std::vector<uint8_t> y, c0, c1;
    std::ptrdiff_t yPitch, cPitch;
    Converted(const std::vector<uint8_t>& rgba, int w, int h, Yuv420Layout l, const RgbToYuv& k = yuv420Coefficients())
        : width(w), height(h), layout(l) {
        const int cw = (w + 1) / 2, ch = (h + 1) / 2;
        yPitch = w + 9;
        cPitch = (l == Yuv420Layout::Nv12 ? 2 * cw : cw) + 5;
        y.assign(size_t(yPitch) * size_t(h), 0xA5);
        c0.assign(size_t(cPitch) * size_t(ch), 0xA5);
        c1.assign(l == Yuv420Layout::I420 ? size_t(cPitch) * size_t(ch) : 0, 0xA5);
        Yuv420Planes p;
        p.layout = l;
        p.plane[0] = y.data(); p.pitch[0] = yPitch;
        p.plane[1] = c0.data(); p.pitch[1] = cPitch;
        if (l == Yuv420Layout::I420) { p.plane[2] = c1.data(); p.pitch[2] = cPitch; }
        rgbaToYuv420(rgba.data(), std::ptrdiff_t(w) * 4, w, h, k, p);
    }
    int luma(int x, int yy) const { return y[size_t(yy * yPitch + x)]; }
    int cb(int bx, int by) const {
        return layout == Yuv420Layout::Nv12 ? c0[size_t(by * cPitch + 2 * bx)] : c0[size_t(by * cPitch + bx)];
    }
    int cr(int bx, int by) const {
        return layout == Yuv420Layout::Nv12 ? c0[size_t(by * cPitch + 2 * bx + 1)] : c1[size_t(by * cPitch + bx)];
    }
};

std::vector<uint8_t> randomRgba(int w, int h, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(size_t(w) * size_t(h) * 4);
    for (auto& b : v) b = uint8_t(rng() & 0xff);
    return v;
}

// Columns of colours, each `barWidth` pixels wide, `height` rows.
std::vector<uint8_t> bars(const std::vector<Rgb8>& colours, int barWidth, int height) {
    const int w = int(colours.size()) * barWidth;
    std::vector<uint8_t> v(size_t(w) * size_t(height) * 4);
    for (int yy = 0; yy < height; ++yy)
        for (int x = 0; x < w; ++x) {
            const Rgb8 c = colours[size_t(x / barWidth)];
            uint8_t* p = &v[size_t(yy * w + x) * 4];
            p[0] = uint8_t(c.r); p[1] = uint8_t(c.g); p[2] = uint8_t(c.b); p[3] = uint8_t(x * 37);   // alpha: noise
        }
    return v;
}

void expectBars(const std::vector<Rgb8>& colours, const std::vector<Code>& codes, const RgbToYuv& k, const char* what) {
    for (Yuv420Layout l : {Yuv420Layout::Nv12, Yuv420Layout::I420}) {
        const Converted c(bars(colours, 2, 2), int(colours.size()) * 2, 2, l, k);
        for (size_t i = 0; i < colours.size(); ++i) {
            const int bx = int(i);
            EXPECT_EQ(c.luma(2 * bx, 0), codes[i].y) << what << " bar " << i;
            EXPECT_EQ(c.luma(2 * bx + 1, 1), codes[i].y) << what << " bar " << i;
            EXPECT_EQ(c.cb(bx, 0), codes[i].cb) << what << " bar " << i;
            EXPECT_EQ(c.cr(bx, 0), codes[i].cr) << what << " bar " << i;
        }
    }
}

// The textbook equations in double precision: luma of one pixel, chroma of an average.
Code reference(Matrix m, Range r, double R, double G, double B) {
    const auto w = lumaWeights(m);
    const double y = (w.kr * R + w.kg * G + w.kb * B) / 255.0;
    const double pb = (B / 255.0 - y) / (2 * (1 - w.kb)), pr = (R / 255.0 - y) / (2 * (1 - w.kr));
    const bool limited = r == Range::Limited;
    return {int(std::lround(limited ? 16 + 219 * y : 255 * y)), int(std::lround(128 + (limited ? 224 : 255) * pb)),
            int(std::lround(128 + (limited ? 224 : 255) * pr))};
}

}  // namespace

TEST(Yuv420, HundredPercentBarsAreTheirBt709CodeValues) {
    // SMPTE RP 219 / ITU-R BT.709 100% bars, 8-bit limited: white, yellow, cyan, green,
    // magenta, red, blue, black.
    expectBars({{255, 255, 255}, {255, 255, 0}, {0, 255, 255}, {0, 255, 0}, {255, 0, 255}, {255, 0, 0}, {0, 0, 255}, {0, 0, 0}},
               {{235, 128, 128}, {219, 16, 138}, {188, 154, 16}, {173, 42, 26}, {78, 214, 230}, {63, 102, 240}, {32, 240, 118}, {16, 128, 128}},
               yuv420Coefficients(), "100% BT.709");
}

TEST(Yuv420, SeventyFivePercentBarsAreTheirBt709CodeValues) {
    // 75% bars (191 = 0.749 of 255), BT.709 limited 8-bit.
    expectBars({{191, 191, 191}, {191, 191, 0}, {0, 191, 191}, {0, 191, 0}, {191, 0, 191}, {191, 0, 0}, {0, 0, 191}},
               {{180, 128, 128}, {168, 44, 136}, {145, 147, 44}, {133, 63, 52}, {63, 193, 204}, {51, 109, 212}, {28, 212, 120}},
               yuv420Coefficients(), "75% BT.709");
}

TEST(Yuv420, MatrixAndRangeAreSelectable) {
    // BT.601 limited 75% bars (Rec. 601 code values; yellow's luma is 161, not the table's
    // 162, because 191 is 74.9%: 16 + 219 * 0.886 * 191/255 = 161.3), and full range white/black.
    expectBars({{191, 191, 0}, {191, 0, 0}, {0, 0, 191}},
               {{161, 44, 142}, {65, 100, 212}, {35, 212, 114}}, yuv420Coefficients(Matrix::Bt601, Range::Limited),
               "75% BT.601");
    expectBars({{255, 255, 255}, {0, 0, 0}}, {{255, 128, 128}, {0, 128, 128}},
               yuv420Coefficients(Matrix::Bt2020Ncl, Range::Full), "BT.2020 full");
}

TEST(Yuv420, EveryMatrixAndRangeWithinOneCodeOfTheTextbookEquations) {
    const int w = 34, h = 18;
    const auto rgba = randomRgba(w, h, 7);
    for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl})
        for (Range r : {Range::Limited, Range::Full}) {
            const Converted c(rgba, w, h, Yuv420Layout::I420, yuv420Coefficients(m, r));
            int worst = 0;
            for (int by = 0; by < h / 2; ++by)
                for (int bx = 0; bx < w / 2; ++bx) {
                    double sum[3] = {0, 0, 0};
                    for (int dy = 0; dy < 2; ++dy)
                        for (int dx = 0; dx < 2; ++dx) {
                            const uint8_t* p = &rgba[size_t((2 * by + dy) * w + 2 * bx + dx) * 4];
                            const Code one = reference(m, r, p[0], p[1], p[2]);
                            worst = std::max(worst, std::abs(c.luma(2 * bx + dx, 2 * by + dy) - one.y));
                            for (int i = 0; i < 3; ++i) sum[i] += p[i];
                        }
                    const Code avg = reference(m, r, sum[0] / 4, sum[1] / 4, sum[2] / 4);
                    worst = std::max({worst, std::abs(c.cb(bx, by) - avg.cb), std::abs(c.cr(bx, by) - avg.cr)});
                }
            EXPECT_LE(worst, 1) << matrixName(m) << " " << rangeName(r);
        }
}

TEST(Yuv420, Nv12AndI420HoldTheSameSamples) {
    const int w = 40, h = 22;
    const auto rgba = randomRgba(w, h, 3);
    const Converted nv12(rgba, w, h, Yuv420Layout::Nv12), i420(rgba, w, h, Yuv420Layout::I420);
    for (int yy = 0; yy < h; ++yy)
        for (int x = 0; x < w; ++x) ASSERT_EQ(nv12.luma(x, yy), i420.luma(x, yy));
    for (int by = 0; by < h / 2; ++by)
        for (int bx = 0; bx < w / 2; ++bx) {
            ASSERT_EQ(nv12.cb(bx, by), i420.cb(bx, by));
            ASSERT_EQ(nv12.cr(bx, by), i420.cr(bx, by));
        }
    // The padding after each row is left alone.
    for (int yy = 0; yy < h; ++yy) EXPECT_EQ(nv12.y[size_t(yy * nv12.yPitch + w)], 0xA5);
    for (int by = 0; by < h / 2; ++by) EXPECT_EQ(nv12.c0[size_t(by * nv12.cPitch + w)], 0xA5);
}

TEST(Yuv420, WithinOneCodeOfSwscale) {
    // swscale RGBA -> NV12, BT.709 limited from full-range RGB; SWS_AREA averages each 2x2
    // block for chroma, as this conversion does.
    for (auto [w, h] : {std::pair{64, 48}, std::pair{1920, 1080}}) {
        const auto rgba = randomRgba(w, h, unsigned(w));
        const Converted ours(rgba, w, h, Yuv420Layout::Nv12);
        SwsContext* sws = sws_getContext(w, h, AV_PIX_FMT_RGBA, w, h, AV_PIX_FMT_NV12, SWS_AREA | SWS_ACCURATE_RND,
                                         nullptr, nullptr, nullptr);
        ASSERT_NE(sws, nullptr);
        ASSERT_GE(sws_setColorspaceDetails(sws, sws_getCoefficients(SWS_CS_ITU709), 1, sws_getCoefficients(SWS_CS_ITU709), 0,
                                           0, 1 << 16, 1 << 16),
                  0);
        std::vector<uint8_t> y(size_t(w) * size_t(h)), uv(size_t(w) * size_t(h) / 2);
        const uint8_t* src[4] = {rgba.data(), nullptr, nullptr, nullptr};
        const int srcStride[4] = {w * 4, 0, 0, 0};
        uint8_t* dst[4] = {y.data(), uv.data(), nullptr, nullptr};
        const int dstStride[4] = {w, w, 0, 0};
        ASSERT_EQ(sws_scale(sws, src, srcStride, 0, h, dst, dstStride), h);
        sws_freeContext(sws);
        int worstY = 0, worstC = 0;
        for (int yy = 0; yy < h; ++yy)
            for (int x = 0; x < w; ++x) worstY = std::max(worstY, std::abs(ours.luma(x, yy) - y[size_t(yy * w + x)]));
        for (int by = 0; by < h / 2; ++by)
            for (int bx = 0; bx < w / 2; ++bx) {
                worstC = std::max(worstC, std::abs(ours.cb(bx, by) - uv[size_t(by * w + 2 * bx)]));
                worstC = std::max(worstC, std::abs(ours.cr(bx, by) - uv[size_t(by * w + 2 * bx + 1)]));
            }
        EXPECT_LE(worstY, 1) << w << "x" << h;
        EXPECT_LE(worstC, 1) << w << "x" << h;
    }
}

TEST(Yuv420, OddSizesRepeatTheLastColumnAndRow) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{7, 5}, std::pair{65, 47}, std::pair{8, 3}, std::pair{3, 8}}) {
        const auto rgba = randomRgba(w, h, unsigned(w * 100 + h));
        const int ew = (w + 1) / 2 * 2, eh = (h + 1) / 2 * 2;
        std::vector<uint8_t> even(size_t(ew) * size_t(eh) * 4);
        for (int yy = 0; yy < eh; ++yy)
            for (int x = 0; x < ew; ++x)
                std::copy_n(&rgba[size_t(std::min(yy, h - 1) * w + std::min(x, w - 1)) * 4], 4, &even[size_t(yy * ew + x) * 4]);
        for (Yuv420Layout l : {Yuv420Layout::Nv12, Yuv420Layout::I420}) {
            const Converted odd(rgba, w, h, l), ref(even, ew, eh, l);
            for (int yy = 0; yy < h; ++yy)
                for (int x = 0; x < w; ++x) ASSERT_EQ(odd.luma(x, yy), ref.luma(x, yy)) << w << "x" << h;
            for (int by = 0; by < eh / 2; ++by)
                for (int bx = 0; bx < ew / 2; ++bx) {
                    ASSERT_EQ(odd.cb(bx, by), ref.cb(bx, by)) << w << "x" << h;
                    ASSERT_EQ(odd.cr(bx, by), ref.cr(bx, by)) << w << "x" << h;
                }
            for (int yy = 0; yy < h; ++yy) ASSERT_EQ(odd.y[size_t(yy * odd.yPitch + w)], 0xA5);
        }
    }
}
