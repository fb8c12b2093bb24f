// The gamut counts and preview (core/Gamut.h). A block takes rows (grid-stride), its threads
// consecutive pixels of a row, read through core/PixelAccess.h (the reference readers,
// every layout). The code-value table sits in shared memory. Counting: the 512 x 512 bins
// do not fit a block's shared memory, so threads of a warp that share a bin (flat areas,
// the common case) add once through their leader (__match_any_sync) into the global
// counts; the pixels outside the target are summed per block and added once. The preview:
// each thread reads its pixel of the picture and writes core's gamutPreviewPixel of it, so a
// warp's loads and stores cover consecutive pixels.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "cuda/CudaCheck.h"
#include "GamutKernels.h"
#include "cuda/Sinks.cuh"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxLevels = 1024;   // depths up to 10 bits (core/PixelFormat.h)
constexpr int kMaxBlocks = 1024;

// kCount: the bins and the pixels outside; kPaint: the preview into `out` from `picture`.
template <bool kCount, bool kPaint, class Sink>
__global__ void __launch_bounds__(kThreads) gamutKernel(PixelSource src, int width, int height, YuvToRgb toRgb, int levels,
                                                        GamutCoefficients k, const float* d_linear, uint32_t* d_counts,
                                                        unsigned long long* d_outside, const uint8_t* picture,
                                                        size_t picturePitch, Sink out) {
    __shared__ float linear[kMaxLevels];
    __shared__ unsigned int blockOutside;
    for (int i = int(threadIdx.x); i < levels; i += kThreads) linear[i] = d_linear[i];
    if (threadIdx.x == 0) blockOutside = 0;
    __syncthreads();
    const int32_t mask = levels - 1, mid = levels >> 1;
    const unsigned lane = threadIdx.x & 31u;
    unsigned int outside = 0;
    for (int y = int(blockIdx.x); y < height; y += int(gridDim.x)) {
        // Every lane of a warp runs the same number of iterations (width rounded up), so
        // the warp's vote sees all 32 lanes; lanes past the row's end vote with bin -1.
        for (int x0 = 0; x0 < width; x0 += kThreads) {
            const int x = x0 + int(threadIdx.x);
            int32_t bin = -1;
            if (x < width) {
                Rgb c;
                if (src.isRgb) {
                    c = readRgb(src, x, y);
                } else {
                    const YuvSample s = readYuv(src, x, y, mid);
                    c = yuvToRgb(toRgb, s.y & mask, s.cb & mask, s.cr & mask);
                }
                const GamutPixel p = gamutPixel(k, linear[c.r], linear[c.g], linear[c.b]);
                bin = p.bin;
                outside += p.outside ? 1u : 0u;
                if constexpr (kPaint) {
                    const uint32_t px = __ldg(reinterpret_cast<const unsigned int*>(picture + size_t(y) * picturePitch) + x);
                    out.store(x, y, gamutPreviewPixel(px, p.outside));
                }
            }
            if constexpr (kCount) {
                const unsigned same = __match_any_sync(0xffffffffu, bin);
                if (bin >= 0 && (__ffs(same) - 1) == int(lane)) atomicAdd(&d_counts[bin], uint32_t(__popc(same)));
            }
        }
    }
    if constexpr (kCount) {
        for (int offset = 16; offset > 0; offset >>= 1) outside += __shfl_down_sync(0xffffffffu, outside, offset);
        if (lane == 0 && outside) atomicAdd(&blockOutside, outside);
        __syncthreads();
        if (threadIdx.x == 0 && blockOutside) atomicAdd(d_outside, (unsigned long long)blockOutside);
    }
}

}  // namespace

cudaError_t gamutPass(const PixelSource& src, int width, int height, const YuvToRgb& toRgbNative, int levels,
                      const GamutCoefficients& k, const float* d_linear, uint32_t* d_counts,
                      unsigned long long* d_outside, const GamutPaint* paint, cudaStream_t stream) {
    if (levels < 2 || levels > kMaxLevels || width <= 0 || height <= 0 || !d_linear) return cudaErrorInvalidValue;
    const bool count = d_counts != nullptr;
    if (count != (d_outside != nullptr)) return cudaErrorInvalidValue;
    if (paint && (!paint->d_picture || (!paint->out.d_pixels && !paint->out.surface))) return cudaErrorInvalidValue;
    if (!count && !paint) return cudaSuccess;
    if (count) {
        if (cudaError_t e = cudaMemsetAsync(d_counts, 0, size_t(kCieBins) * kCieBins * sizeof(uint32_t), stream); e != cudaSuccess)
            return e;
        if (cudaError_t e = cudaMemsetAsync(d_outside, 0, sizeof(unsigned long long), stream); e != cudaSuccess) return e;
    }
    const dim3 grid(unsigned(std::min(height, kMaxBlocks)));
    if (!paint) {
        gamutKernel<true, false, PitchedOut><<<grid, kThreads, 0, stream>>>(src, width, height, toRgbNative, levels, k, d_linear,
                                                                           d_counts, d_outside, nullptr, 0, PitchedOut{nullptr, 0});
        return cudaGetLastError();
    }
    return withSink(paint->out, [&](auto sink) {
        using Sink = decltype(sink);
        if (count)
            gamutKernel<true, true, Sink><<<grid, kThreads, 0, stream>>>(src, width, height, toRgbNative, levels, k, d_linear, d_counts,
                                                                         d_outside, paint->d_picture, paint->picturePitch, sink);
        else
            gamutKernel<false, true, Sink><<<grid, kThreads, 0, stream>>>(src, width, height, toRgbNative, levels, k, d_linear, nullptr,
                                                                          nullptr, paint->d_picture, paint->picturePitch, sink);
    });
}

Status GamutPass::enqueue(const FrameView& f, const PlaneSet& planes, const ColorInfo& color, const ScopeSpec& spec,
                          const GamutPaint* paint, cudaStream_t stream) {
    queued_ = spec.cie;
    if (!queued_ && !paint) return {};
    const int depth = formatInfo(f.format).bitDepth, levels = 1 << depth;
    current_ = &tables_.get(effectivePrimaries(color, f.height), color.transfer, spec.gamutTarget, spec.cieMode, levels);
    if (queued_) {
        CS_TRY(counts_.reserve(size_t(kCieBins) * kCieBins * sizeof(uint32_t)));
        CS_TRY(outside_.reserve(sizeof(unsigned long long)));
    }
    CS_TRY(linear_.reserve(size_t(levels) * sizeof(float)));
    // The code-value table (at most 4 KB) goes up with every frame, ordered on the stream.
    CS_CUDA_CHECK(cudaMemcpyAsync(linear_.get<float>(), current_->linear.data(), size_t(levels) * sizeof(float),
                                  cudaMemcpyHostToDevice, stream));
    FrameView device = f;
    for (int i = 0; i < 3; ++i) {
        device.data[size_t(i)] = planes.data[i];
        device.pitch[size_t(i)] = std::ptrdiff_t(planes.pitch[i]);
    }
    CS_CUDA_CHECK(gamutPass(makePixelSource(device), f.width, f.height, makeYuvToRgb(color.matrix, color.range, depth, depth),
                            levels, current_->k, linear_.get<float>(), queued_ ? counts_.get<uint32_t>() : nullptr,
                            queued_ ? outside_.get<unsigned long long>() : nullptr, paint, stream));
    return {};
}

// In pinned memory: the pixels outside (8 bytes), then the counts.
constexpr size_t kCountsBytes = size_t(kCieBins) * kCieBins * sizeof(uint32_t);

size_t GamutPass::downloadBytes(bool counts) const {
    if (!queued_) return 0;
    return sizeof(unsigned long long) + (counts ? kCountsBytes : 0);
}

Status GamutPass::download(void* pinned, bool counts, cudaStream_t stream) {
    countsQueued_ = queued_ && counts;
    if (!queued_) return {};
    auto* bytes = static_cast<uint8_t*>(pinned);
    CS_CUDA_CHECK(cudaMemcpyAsync(bytes, outside_.get<unsigned long long>(), sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, stream));
    if (countsQueued_)
        CS_CUDA_CHECK(cudaMemcpyAsync(bytes + sizeof(unsigned long long), counts_.get<uint32_t>(), kCountsBytes,
                                      cudaMemcpyDeviceToHost, stream));
    return {};
}

void GamutPass::finish(const void* pinned, GamutResults& out, int width, int height) const {
    if (!queued_) {
        out = {};
        return;
    }
    const auto* bytes = static_cast<const uint8_t*>(pinned);
    unsigned long long outside = 0;
    std::memcpy(&outside, bytes, sizeof outside);
    if (countsQueued_) {
        out.counts.resize(size_t(kCieBins) * kCieBins);
        std::memcpy(out.counts.data(), bytes + sizeof(unsigned long long), kCountsBytes);
    } else {
        out.counts.clear();
    }
    out.measured = true;
    out.source = current_->source;
    out.target = current_->target;
    out.mode = current_->mode;
    out.outside = outside;
    out.outsideShare = double(outside) / (double(width) * double(height));
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::gamutKernels() { return reinterpret_cast<const void*>(gamutKernel<true, false, PitchedOut>); }
