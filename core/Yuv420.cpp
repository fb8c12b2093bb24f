#include "Yuv420.h"

#include <cstring>

namespace cs {
namespace {

uint32_t load(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// One row's luma: a plain loop over the pixels that the compiler vectorises (k is a local
// copy, so the byte stores cannot alias it).
void lumaRow(const uint8_t* rgba, int width, const RgbToYuv k, uint8_t* luma) {
    for (int x = 0; x < width; ++x) luma[x] = rgbaLuma(k, load(rgba + 4 * x));
}

// The chroma of the whole 2x2 blocks of a row pair (blocks [0, blocks)); NV12 interleaves
// Cb and Cr into cb (cr unused), I420 writes them apart.
template <bool I420>
void chromaRow(const uint8_t* row0, const uint8_t* row1, int blocks, const RgbToYuv k, uint8_t* cb, uint8_t* cr) {
    for (int bx = 0; bx < blocks; ++bx) {
        const uint32_t p00 = load(row0 + 8 * bx), p01 = load(row0 + 8 * bx + 4);
        const uint32_t p10 = load(row1 + 8 * bx), p11 = load(row1 + 8 * bx + 4);
        const Chroma c = blockChroma(k, p00, p01, p10, p11);
        if constexpr (I420) {
            cb[bx] = c.cb;
            cr[bx] = c.cr;
        } else {
            cb[2 * bx] = c.cb;
            cb[2 * bx + 1] = c.cr;
        }
    }
}

}  // namespace

void rgbaToYuv420(const uint8_t* rgba, std::ptrdiff_t rgbaPitch, int width, int height, const RgbToYuv& k,
                  const Yuv420Planes& out) {
    const RgbToYuv coefficients = k;
    const int blocksY = (height + 1) / 2, wholeBlocksX = width / 2;
    const bool i420 = out.layout == Yuv420Layout::I420;
    for (int by = 0; by < blocksY; ++by) {
        const int y0 = 2 * by, y1 = y0 + 1 < height ? y0 + 1 : y0;   // the last row repeats on odd heights
        const uint8_t* row0 = rgba + std::ptrdiff_t(y0) * rgbaPitch;
        const uint8_t* row1 = rgba + std::ptrdiff_t(y1) * rgbaPitch;
        // Row y1 == y0 on an odd height's last block row: its luma is written twice, the same.
        lumaRow(row0, width, coefficients, out.plane[0] + std::ptrdiff_t(y0) * out.pitch[0]);
        lumaRow(row1, width, coefficients, out.plane[0] + std::ptrdiff_t(y1) * out.pitch[0]);
        uint8_t* c0 = out.plane[1] + std::ptrdiff_t(by) * out.pitch[1];
        uint8_t* c1 = i420 ? out.plane[2] + std::ptrdiff_t(by) * out.pitch[2] : nullptr;
        if (i420)
            chromaRow<true>(row0, row1, wholeBlocksX, coefficients, c0, c1);
        else
            chromaRow<false>(row0, row1, wholeBlocksX, coefficients, c0, nullptr);
        if (width % 2) {   // the last column repeats on odd widths
            const int x = width - 1, bx = wholeBlocksX;
            const uint32_t p0 = load(row0 + 4 * x), p1 = load(row1 + 4 * x);
            const Chroma c = blockChroma(coefficients, p0, p0, p1, p1);
            if (i420) {
                c0[bx] = c.cb;
                c1[bx] = c.cr;
            } else {
                c0[2 * bx] = c.cb;
                c0[2 * bx + 1] = c.cr;
            }
        }
    }
}

}  // namespace cs
