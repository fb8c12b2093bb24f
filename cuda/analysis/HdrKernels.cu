// The max(R', G', B') code histogram (core/Hdr.h). A block takes rows (grid-stride), its
// threads consecutive pixels of a row, read through core/PixelAccess.h (the reference
// readers, every layout). Counting: threads of a warp that share a code (flat areas, the
// common case in HDR pictures) add once through their leader (__match_any_sync), into the
// block's shared histogram; the block adds its non-zero bins to the output at the end.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/CudaCheck.h"
#include "HdrKernels.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxLevels = 1024;   // depths up to 10 bits (core/PixelFormat.h)
constexpr int kMaxBlocks = 1024;

__global__ void __launch_bounds__(kThreads) hdrMaxCodeKernel(PixelSource src, int width, int height, YuvToRgb k, int levels,
                                                             uint32_t* d_counts) {
    __shared__ uint32_t bins[kMaxLevels];
    for (int i = int(threadIdx.x); i < levels; i += kThreads) bins[i] = 0;
    __syncthreads();
    const int32_t mask = levels - 1, mid = levels >> 1;
    const unsigned lane = threadIdx.x & 31u;
    for (int y = int(blockIdx.x); y < height; y += int(gridDim.x)) {
        // Every lane of a warp runs the same number of iterations (width rounded up), so
        // the warp's vote sees all 32 lanes; lanes past the row's end vote with code -1.
        for (int x0 = 0; x0 < width; x0 += kThreads) {
            const int x = x0 + int(threadIdx.x);
            int32_t code = -1;
            if (x < width) {
                if (src.isRgb) {
                    const Rgb c = readRgb(src, x, y);
                    code = max(max(c.r, c.g), c.b);
                } else {
                    const YuvSample s = readYuv(src, x, y, mid);
                    code = hdrMaxCode(k, s.y & mask, s.cb & mask, s.cr & mask);
                }
            }
            const unsigned same = __match_any_sync(0xffffffffu, code);
            if (code >= 0 && (__ffs(same) - 1) == int(lane)) atomicAdd(&bins[code], uint32_t(__popc(same)));
        }
    }
    __syncthreads();
    for (int i = int(threadIdx.x); i < levels; i += kThreads)
        if (bins[i]) atomicAdd(&d_counts[i], bins[i]);
}

}  // namespace

cudaError_t hdrMaxCodeHistogram(const PixelSource& src, int width, int height, const YuvToRgb& toRgbNative, int levels,
                                uint32_t* d_counts, cudaStream_t stream) {
    if (levels < 2 || levels > kMaxLevels || width <= 0 || height <= 0) return cudaErrorInvalidValue;
    if (cudaError_t e = cudaMemsetAsync(d_counts, 0, size_t(levels) * sizeof(uint32_t), stream); e != cudaSuccess) return e;
    const int blocks = std::min(height, kMaxBlocks);
    hdrMaxCodeKernel<<<dim3(unsigned(blocks)), kThreads, 0, stream>>>(src, width, height, toRgbNative, levels, d_counts);
    return cudaGetLastError();
}

Status HdrPass::enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, bool wanted, cudaStream_t stream) {
    queued_ = wanted && isHdr(color.transfer);
    if (!queued_) return {};
    const int depth = formatInfo(f.format).bitDepth;
    transfer_ = color.transfer;
    levels_ = 1 << depth;
    CS_TRY(counts_.reserve(size_t(levels_) * sizeof(uint32_t)));
    FrameView device = f;
    for (int i = 0; i < 3; ++i) {
        device.data[size_t(i)] = planes.data[i];
        device.pitch[size_t(i)] = std::ptrdiff_t(planes.pitch[i]);
    }
    CS_CUDA_CHECK(hdrMaxCodeHistogram(makePixelSource(device), f.width, f.height,
                                      makeYuvToRgb(color.matrix, color.range, depth, depth), levels_, counts_.get<uint32_t>(),
                                      stream));
    return {};
}

Status HdrPass::download(HdrStats& out, cudaStream_t stream) {
    out = {};
    if (!queued_) return {};
    out.maxCodes.resize(size_t(levels_));
    CS_CUDA_CHECK(cudaMemcpyAsync(out.maxCodes.data(), counts_.get<uint32_t>(), size_t(levels_) * sizeof(uint32_t),
                                  cudaMemcpyDeviceToHost, stream));
    return {};
}

void HdrPass::finish(HdrStats& out) const {
    if (!queued_) return;
    out.measured = true;
    out.transfer = transfer_;
    finishHdrStats(out);
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::hdrKernels() { return reinterpret_cast<const void*>(hdrMaxCodeKernel); }
