// Packed RGBA (8-bit R'G'B' full range, alpha ignored) to planar 4:2:0 Y'CbCr for encoders:
// NV12 (Y plane + interleaved CbCr plane) or I420 (Y, Cb, Cr planes), 8-bit.
//
// Each 2x2 block of pixels gives four luma samples and one Cb/Cr pair: the chroma of the
// block's average R'G'B' (the four pixels' chroma sums, rounded once), sited at the
// block's centre. Frames of odd width or height repeat their last column or row to fill the
// last blocks. The arithmetic is core/Color.h's RgbToYuv fixed point, marked CS_HD: the
// CPU conversion (rgbaToYuv420) and the CUDA kernel (cuda/convert/Yuv420Kernel.h) run these very
// functions, so they agree to the code value.
#pragma once
#include <cstddef>
#include <cstdint>

#include "Color.h"

namespace cs {

enum class Yuv420Layout : uint8_t { Nv12, I420 };

// One RGBA pixel as a little-endian 32-bit word: R in the low byte, then G, B, A.
CS_HD int32_t rgbaRed(uint32_t p) { return int32_t(p & 0xffu); }
CS_HD int32_t rgbaGreen(uint32_t p) { return int32_t((p >> 8) & 0xffu); }
CS_HD int32_t rgbaBlue(uint32_t p) { return int32_t((p >> 16) & 0xffu); }

// Luma of one pixel, 8-bit.
CS_HD uint8_t rgbaLuma(const RgbToYuv& k, uint32_t p) {
    const int32_t r = rgbaRed(p), g = rgbaGreen(p), b = rgbaBlue(p);
    return uint8_t(clampCode((k.yr * r + k.yg * g + k.yb * b + k.yOffset) >> kFixedShift, k.yMax));
}

// Cb and Cr of a 2x2 block from the sums of its four pixels' R', G' and B' (each 0..1020):
// k.cOffset holds 128 and half a unit in fixed point, so four of them are the offset and the
// rounding of a sum of four, shifted by two more bits. Every term stays below 2^31.
struct Chroma { uint8_t cb, cr; };
CS_HD Chroma blockChroma(const RgbToYuv& k, int32_t sumR, int32_t sumG, int32_t sumB) {
    const int32_t cb = (k.ur * sumR + k.ug * sumG + k.ub * sumB + 4 * k.cOffset) >> (kFixedShift + 2);
    const int32_t cr = (k.vr * sumR + k.vg * sumG + k.vb * sumB + 4 * k.cOffset) >> (kFixedShift + 2);
    return {uint8_t(clampCode(cb, k.cMax)), uint8_t(clampCode(cr, k.cMax))};
}

// The chroma of the block of pixels p00 p01 / p10 p11.
CS_HD Chroma blockChroma(const RgbToYuv& k, uint32_t p00, uint32_t p01, uint32_t p10, uint32_t p11) {
    return blockChroma(k, rgbaRed(p00) + rgbaRed(p01) + rgbaRed(p10) + rgbaRed(p11),
                       rgbaGreen(p00) + rgbaGreen(p01) + rgbaGreen(p10) + rgbaGreen(p11),
                       rgbaBlue(p00) + rgbaBlue(p01) + rgbaBlue(p10) + rgbaBlue(p11));
}

// Where the converted planes go. NV12: plane[0] Y, plane[1] CbCr interleaved (plane[2]
// unused); I420: Y, Cb, Cr. Pitches in bytes; chroma planes are ceil(w/2) x ceil(h/2).
struct Yuv420Planes {
    Yuv420Layout layout = Yuv420Layout::Nv12;
    uint8_t* plane[3] = {nullptr, nullptr, nullptr};
    std::ptrdiff_t pitch[3] = {0, 0, 0};
};

// The coefficients for 8-bit output in the given matrix and range (BT.709 limited: what
// the encoders are tagged with by default).
inline RgbToYuv yuv420Coefficients(Matrix m = Matrix::Bt709, Range r = Range::Limited) { return makeRgbToYuv(m, r, 8); }

// The CPU conversion of a width x height RGBA image (rows `rgbaPitch` bytes apart).
void rgbaToYuv420(const uint8_t* rgba, std::ptrdiff_t rgbaPitch, int width, int height, const RgbToYuv& k,
                  const Yuv420Planes& out);

}  // namespace cs
