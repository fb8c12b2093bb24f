// The gamut display counts (core/GamutDisplay.h). A block takes rows (grid-stride), its threads
// consecutive pixels of a row, read through core/PixelAccess.h (the reference readers, every
// layout). The 512 x 512 bins do not fit a block's shared memory, so threads of a warp that share
// a bin (flat areas, the common case) add once through their leader (__match_any_sync) into the
// global counts, for each of a pixel's two points, as GamutKernels.cu counts the CIE bins.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "cuda/CudaCheck.h"
#include "GamutDisplayKernels.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
constexpr size_t kCountsBytes = size_t(kGamutDisplayBins) * kGamutDisplayBins * sizeof(uint32_t);

__device__ __forceinline__ void addOnce(uint32_t* d_counts, int32_t bin, unsigned lane) {
    const unsigned same = __match_any_sync(0xffffffffu, bin);
    if (bin >= 0 && (__ffs(same) - 1) == int(lane)) atomicAdd(&d_counts[bin], uint32_t(__popc(same)));
}

__global__ void __launch_bounds__(kThreads) gamutDisplayKernel(PixelSource src, int width, int height,
                                                               GamutDisplayCoefficients k, YuvToRgb toRgb, RgbToYuv toYuv,
                                                               int32_t mask, uint32_t* d_counts) {
    const unsigned lane = threadIdx.x & 31u;
    for (int y = int(blockIdx.x); y < height; y += int(gridDim.x)) {
        // Every lane of a warp runs the same number of iterations (width rounded up), so the
        // warp's votes see all 32 lanes; lanes past the row's end vote with bin -1.
        for (int x0 = 0; x0 < width; x0 += kThreads) {
            const int x = x0 + int(threadIdx.x);
            GamutDisplayPoint p{-1, -1};
            if (x < width) p = gamutDisplayAt(k, src, x, y, toRgb, toYuv, mask);
            addOnce(d_counts, p.first, lane);
            addOnce(d_counts, p.second, lane);
        }
    }
}

}  // namespace

cudaError_t gamutDisplayCount(const PixelSource& src, int width, int height, const GamutDisplayCoefficients& k,
                              const YuvToRgb& toRgb, const RgbToYuv& toYuv, int32_t mask, uint32_t* d_counts,
                              cudaStream_t stream) {
    if (width <= 0 || height <= 0 || !d_counts || k.mode == uint8_t(GamutDisplay::None)) return cudaErrorInvalidValue;
    if (cudaError_t e = cudaMemsetAsync(d_counts, 0, kCountsBytes, stream); e != cudaSuccess) return e;
    const dim3 grid(unsigned(std::min(height, kMaxBlocks)));
    gamutDisplayKernel<<<grid, kThreads, 0, stream>>>(src, width, height, k, toRgb, toYuv, mask, d_counts);
    return cudaGetLastError();
}

Status GamutDisplayPass::enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, const ScopeSpec& spec,
                                 cudaStream_t stream) {
    mode_ = spec.gamutDisplay;
    limit_ = spec.arrowheadLimit;
    if (mode_ == GamutDisplay::None) return {};
    const PixelFormatInfo& info = formatInfo(f.format);
    const int depth = info.bitDepth;
    const YuvToRgb toRgb = makeYuvToRgb(color.matrix, color.range, depth, depth);
    const RgbToYuv toYuv = makeRgbToYuv(color.matrix, color.range, 8);
    // As the CPU engine (cpu/GamutDisplayCount.cpp): RGB sources at 8 bits, Y'CbCr through toYuv.
    const GamutDisplayCoefficients k = makeGamutDisplayCoefficients(mode_, limit_, info.isRgb ? 8 : depth, color.range,
                                                                    info.isRgb ? 255 : toRgb.outMax);
    CS_TRY(counts_.reserve(kCountsBytes));
    FrameView device = f;
    for (int i = 0; i < 3; ++i) {
        device.data[size_t(i)] = planes.data[i];
        device.pitch[size_t(i)] = std::ptrdiff_t(planes.pitch[i]);
    }
    CS_CUDA_CHECK(gamutDisplayCount(makePixelSource(device), f.width, f.height, k, toRgb, toYuv, (1 << depth) - 1,
                                    counts_.get<uint32_t>(), stream));
    return {};
}

size_t GamutDisplayPass::downloadBytes() const { return mode_ == GamutDisplay::None ? 0 : kCountsBytes; }

Status GamutDisplayPass::download(void* pinned, cudaStream_t stream) {
    if (mode_ == GamutDisplay::None) return {};
    CS_CUDA_CHECK(cudaMemcpyAsync(pinned, counts_.get<uint32_t>(), kCountsBytes, cudaMemcpyDeviceToHost, stream));
    return {};
}

void GamutDisplayPass::finish(const void* pinned, GamutDisplayResults& out) const {
    out.mode = mode_;
    out.limit = limit_;
    if (mode_ == GamutDisplay::None) {
        out.counts.clear();
        return;
    }
    out.counts.resize(size_t(kGamutDisplayBins) * kGamutDisplayBins);
    std::memcpy(out.counts.data(), pinned, kCountsBytes);
}

}  // namespace cs::cuda

// The kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::gamutDisplayKernels() { return reinterpret_cast<const void*>(gamutDisplayKernel); }
