// Internal to cs_cuda: what the preview filter kernels share (BoxBlurKernels.cu,
// GaussianKernels.cu, GroupFilterKernels.cu, LookupFilterKernels.cu): reads of the RGBA
// picture, indices clamped to the frame as the CPU clamps them, and the 2-D launch shape.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace cs::cuda::detail {

__device__ __forceinline__ int clampi(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }
__device__ __forceinline__ uint32_t pixelAt(const uint8_t* img, size_t pitch, int x, int y) {
    return __ldg(reinterpret_cast<const unsigned int*>(img + size_t(y) * pitch) + x);
}
__device__ __forceinline__ uint32_t channel(uint32_t px, int c) { return (px >> (8 * c)) & 0xffu; }

inline dim3 gridFor(int w, int h, dim3 block) { return dim3(unsigned((w + int(block.x) - 1) / int(block.x)), unsigned((h + int(block.y) - 1) / int(block.y))); }
inline const dim3 kBlock2d(32, 8);

}  // namespace cs::cuda::detail
