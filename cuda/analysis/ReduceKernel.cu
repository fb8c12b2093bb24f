// The reduction of a device frame (cuda/analysis/ReduceKernel.h).
#include "ReduceKernel.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__global__ void __launch_bounds__(kBlockX * kBlockY)
reduceKernel(PixelSource src, int srcWidth, int srcHeight, int32_t mid, bool rgb, bool wide, ReducedRow out, size_t outPitch,
             int outWidth, int outHeight) {
    const int x = int(blockIdx.x) * kBlockX + int(threadIdx.x), y = int(blockIdx.y) * kBlockY + int(threadIdx.y);
    if (x >= outWidth || y >= outHeight) return;
    const size_t offset = size_t(y) * outPitch;
    ReducedRow row{out.p0 + offset, rgb ? nullptr : out.p1 + offset, rgb ? nullptr : out.p2 + offset};
    reducePixel(src, reducedSourceIndex(x, outWidth, srcWidth), reducedSourceIndex(y, outHeight, srcHeight), mid, rgb, wide,
                row, x);
}

}  // namespace

cudaError_t reduceFrameOnDevice(const PixelSource& src, int srcWidth, int srcHeight, int32_t mid, bool rgb, bool wide,
                                const ReducedRow& d_out, size_t outPitch, int outWidth, int outHeight, cudaStream_t stream) {
    if (outWidth <= 0 || outHeight <= 0) return cudaSuccess;
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(unsigned((outWidth + kBlockX - 1) / kBlockX), unsigned((outHeight + kBlockY - 1) / kBlockY));
    reduceKernel<<<grid, block, 0, stream>>>(src, srcWidth, srcHeight, mid, rgb, wide, d_out, outPitch, outWidth, outHeight);
    return cudaGetLastError();
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::reduceKernel() { return reinterpret_cast<const void*>(cs::cuda::reduceKernel); }
