#include "Yuv420.h"

#include <cstring>

namespace cs {

void rgbaToYuv420(const uint8_t* rgba, std::ptrdiff_t rgbaPitch, int width, int height, const RgbToYuv& k,
                  const Yuv420Planes& out) {
    const int blocksX = (width + 1) / 2, blocksY = (height + 1) / 2;
    for (int by = 0; by < blocksY; ++by) {
        const int y0 = 2 * by, y1 = y0 + 1 < height ? y0 + 1 : y0;   // the last row repeats on odd heights
        const uint8_t* row0 = rgba + std::ptrdiff_t(y0) * rgbaPitch;
        const uint8_t* row1 = rgba + std::ptrdiff_t(y1) * rgbaPitch;
        uint8_t* luma0 = out.plane[0] + std::ptrdiff_t(y0) * out.pitch[0];
        uint8_t* luma1 = out.plane[0] + std::ptrdiff_t(y1) * out.pitch[0];
        uint8_t* c0 = out.plane[1] + std::ptrdiff_t(by) * out.pitch[1];
        uint8_t* c1 = out.layout == Yuv420Layout::I420 ? out.plane[2] + std::ptrdiff_t(by) * out.pitch[2] : nullptr;
        for (int bx = 0; bx < blocksX; ++bx) {
            const int x0 = 2 * bx, x1 = x0 + 1 < width ? x0 + 1 : x0;   // the last column repeats on odd widths
            uint32_t p00, p01, p10, p11;
            std::memcpy(&p00, row0 + 4 * x0, 4);
            std::memcpy(&p01, row0 + 4 * x1, 4);
            std::memcpy(&p10, row1 + 4 * x0, 4);
            std::memcpy(&p11, row1 + 4 * x1, 4);
            // Row y1 == y0 on an odd height's last block row: its luma is written twice, the same.
            luma0[x0] = rgbaLuma(k, p00);
            luma0[x1] = rgbaLuma(k, p01);
            luma1[x0] = rgbaLuma(k, p10);
            luma1[x1] = rgbaLuma(k, p11);
            const Chroma c = blockChroma(k, p00, p01, p10, p11);
            if (c1) {
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
