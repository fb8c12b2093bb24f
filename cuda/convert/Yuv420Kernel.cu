#include "Yuv420Kernel.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kBlockX = 32, kBlockY = 4;   // threads: one warp across, four block rows down

// One pixel by bytes: the fallback path makes no assumption about alignment.
__device__ __forceinline__ uint32_t pixelAt(const uint8_t* row, int x) {
    const uint8_t* p = row + 4 * size_t(x);
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// One thread: the 2x2 blocks (2*gx, by) and (2*gx+1, by), i.e. pixels x0 = 4*gx .. x0+3 of
// rows 2*by and 2*by+1 (the last row repeated on odd heights, the last column on odd widths).
template <bool Vector>
__global__ void __launch_bounds__(kBlockX * kBlockY)
rgbaToYuv420Kernel(const uint8_t* __restrict__ rgba, size_t rgbaPitch, int width, int height, RgbToYuv k,
                   Yuv420Planes out) {
    const int gx = int(blockIdx.x) * kBlockX + int(threadIdx.x);
    const int by = int(blockIdx.y) * kBlockY + int(threadIdx.y);
    const int x0 = 4 * gx, y0 = 2 * by;
    if (x0 >= width || y0 >= height) return;
    const bool secondRow = y0 + 1 < height;
    const uint8_t* row0 = rgba + size_t(y0) * rgbaPitch;
    const uint8_t* row1 = secondRow ? row0 + rgbaPitch : row0;
    uint8_t* luma0 = out.plane[0] + ptrdiff_t(y0) * out.pitch[0];
    uint8_t* luma1 = luma0 + out.pitch[0];
    uint8_t* c0 = out.plane[1] + ptrdiff_t(by) * out.pitch[1];
    const bool i420 = out.layout == Yuv420Layout::I420;

    if (Vector && x0 + 3 < width) {
        const uint4 a = __ldg(reinterpret_cast<const uint4*>(row0) + gx);
        const uint4 b = __ldg(reinterpret_cast<const uint4*>(row1) + gx);
        const uint32_t y0w = uint32_t(rgbaLuma(k, a.x)) | uint32_t(rgbaLuma(k, a.y)) << 8 |
                             uint32_t(rgbaLuma(k, a.z)) << 16 | uint32_t(rgbaLuma(k, a.w)) << 24;
        reinterpret_cast<uint32_t*>(luma0)[gx] = y0w;
        if (secondRow)
            reinterpret_cast<uint32_t*>(luma1)[gx] = uint32_t(rgbaLuma(k, b.x)) | uint32_t(rgbaLuma(k, b.y)) << 8 |
                                                     uint32_t(rgbaLuma(k, b.z)) << 16 | uint32_t(rgbaLuma(k, b.w)) << 24;
        const Chroma left = blockChroma(k, a.x, a.y, b.x, b.y), right = blockChroma(k, a.z, a.w, b.z, b.w);
        if (i420) {
            uint8_t* c1 = out.plane[2] + ptrdiff_t(by) * out.pitch[2];
            reinterpret_cast<uint16_t*>(c0)[gx] = uint16_t(left.cb | right.cb << 8);
            reinterpret_cast<uint16_t*>(c1)[gx] = uint16_t(left.cr | right.cr << 8);
        } else {
            reinterpret_cast<uint32_t*>(c0)[gx] = uint32_t(left.cb) | uint32_t(left.cr) << 8 | uint32_t(right.cb) << 16 |
                                                  uint32_t(right.cr) << 24;
        }
        return;
    }
    // Single bytes: unaligned planes, or the last group of a row.
    for (int i = 0; i < 2; ++i) {
        const int xa = x0 + 2 * i;
        if (xa >= width) break;
        const int xb = xa + 1 < width ? xa + 1 : xa;
        const uint32_t p00 = pixelAt(row0, xa), p01 = pixelAt(row0, xb), p10 = pixelAt(row1, xa), p11 = pixelAt(row1, xb);
        luma0[xa] = rgbaLuma(k, p00);
        if (xb != xa) luma0[xb] = rgbaLuma(k, p01);
        if (secondRow) {
            luma1[xa] = rgbaLuma(k, p10);
            if (xb != xa) luma1[xb] = rgbaLuma(k, p11);
        }
        const Chroma c = blockChroma(k, p00, p01, p10, p11);
        const int bx = 2 * gx + i;
        if (i420) {
            c0[bx] = c.cb;
            out.plane[2][ptrdiff_t(by) * out.pitch[2] + bx] = c.cr;
        } else {
            c0[2 * bx] = c.cb;
            c0[2 * bx + 1] = c.cr;
        }
    }
}

bool alignedTo(const void* p, size_t n) { return reinterpret_cast<uintptr_t>(p) % n == 0; }

}  // namespace

bool yuv420VectorAligned(const uint8_t* d_rgba, size_t rgbaPitch, const Yuv420Planes& d_out) {
    const size_t chroma = d_out.layout == Yuv420Layout::I420 ? 2 : 4;
    bool ok = alignedTo(d_rgba, 16) && rgbaPitch % 16 == 0 && alignedTo(d_out.plane[0], 4) && d_out.pitch[0] % 4 == 0 &&
              alignedTo(d_out.plane[1], chroma) && size_t(d_out.pitch[1]) % chroma == 0;
    if (d_out.layout == Yuv420Layout::I420) ok = ok && alignedTo(d_out.plane[2], 2) && d_out.pitch[2] % 2 == 0;
    return ok;
}

cudaError_t rgbaToYuv420(const uint8_t* d_rgba, size_t rgbaPitch, int width, int height, const RgbToYuv& k,
                         const Yuv420Planes& d_out, cudaStream_t stream) {
    if (width <= 0 || height <= 0) return cudaSuccess;
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(unsigned((width + 4 * kBlockX - 1) / (4 * kBlockX)), unsigned(((height + 1) / 2 + kBlockY - 1) / kBlockY));
    if (yuv420VectorAligned(d_rgba, rgbaPitch, d_out))
        rgbaToYuv420Kernel<true><<<grid, block, 0, stream>>>(d_rgba, rgbaPitch, width, height, k, d_out);
    else
        rgbaToYuv420Kernel<false><<<grid, block, 0, stream>>>(d_rgba, rgbaPitch, width, height, k, d_out);
    return cudaGetLastError();
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::yuv420Kernel() { return reinterpret_cast<const void*>(rgbaToYuv420Kernel<true>); }
