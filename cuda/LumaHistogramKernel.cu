// The luma histogram alone (cuda::scopePass with exactly kScopeHistogram) for formats whose
// luma is a plane of its own. 16-byte loads (16 8-bit or 8 10-bit samples per lane); a warp
// reads 32 such chunks of one row (512 bytes) per unit, five units in flight. Counting uses
// lane-owned shared counters: the block's histogram is replicated 32 times as [bin][lane]
// words, lane l only ever adds to column l, so a warp's 32 atomics always hit 32 different
// banks and never the same address, whatever the picture (a solid frame costs what noise
// costs). Blocks add their columns' sums to the output at the end; given scratch memory, to
// the scratch instead, and the last block to finish moves the totals into the output and
// clears the scratch: one launch, no clearing launch before it.
#include <cuda_runtime.h>

#include <algorithm>

#include "ScopeDevice.cuh"
#include "ScopeKernelsDetail.h"

namespace cs::cuda::detail {
namespace {

// BPS: bytes per sample; P010: value in the high 10 bits (else masked to the depth).
template <int BPS, bool P010>
struct LumaTraits {
    static constexpr int kLevels = BPS == 1 ? 256 : 1024;
    static constexpr int kPerChunk = 16 / BPS;             // samples per 16-byte load
    static constexpr int kThreads = 1024;
    // Units (512-byte row pieces) a warp has in flight at once: a 4K 8-bit frame is one
    // batch with one block of 32 warps per multiprocessor.
    static constexpr int kUnits = 5;
    static constexpr size_t kShared = size_t(kLevels) * 32 * 4;
};

// kOverwrite: d_scratch (levels counters and a ticket, zero) collects the blocks' sums and
// the last block writes d_hist whole.
template <int BPS, bool P010, bool kOverwrite>
__global__ void __launch_bounds__(1024) lumaHistogramKernel(const uint8_t* plane, size_t pitch, int width, int height,
                                                            int chunksPerRow, int unitsPerRow, uint32_t* d_hist, uint32_t* d_scratch) {
    using T = LumaTraits<BPS, P010>;
    extern __shared__ __align__(16) uint32_t hist[];   // [bin][lane]
    const int lane = int(threadIdx.x & 31u);
    const int warpsInGrid = int(gridDim.x) * (T::kThreads / 32);
    const int warpId = int(blockIdx.x) * (T::kThreads / 32) + int(threadIdx.x >> 5);
    const int units = height * unitsPerRow;

    // A unit: 32 chunks of one row. A warp loads kUnits units (grid-strided) before
    // counting any: one memory round trip per batch; the first batch before the clear.
    auto load = [&](int u, int& chunk) {
        const int row = u / unitsPerRow;
        chunk = (u - row * unitsPerRow) * 32 + lane;
        if (chunk >= chunksPerRow) return make_uint4(0, 0, 0, 0);
        return __ldg(reinterpret_cast<const uint4*>(plane + size_t(row) * pitch) + chunk);
    };
    uint4 v[T::kUnits];
    int chunk[T::kUnits];
    auto loadBatch = [&](int first) {
#pragma unroll
        for (int k = 0; k < T::kUnits; ++k) {
            const int u = first + k * warpsInGrid;
            chunk[k] = chunksPerRow;
            v[k] = make_uint4(0, 0, 0, 0);
            if (u < units) v[k] = load(u, chunk[k]);
        }
    };
    int u = warpId;
    loadBatch(u);

    {
        uint4* h4 = reinterpret_cast<uint4*>(hist);
        for (int i = int(threadIdx.x); i < T::kLevels * 8; i += T::kThreads) h4[i] = make_uint4(0, 0, 0, 0);
    }
    __syncthreads();

    const uint32_t laneOffset = uint32_t(lane) * 4u;
    auto count = [&](const uint4& q, int ch) {
        if (ch >= chunksPerRow) return;
        const int valid = min(T::kPerChunk, width - ch * T::kPerChunk);
        const uint32_t w[4] = {q.x, q.y, q.z, q.w};
        if (valid == T::kPerChunk) {
#pragma unroll
            for (int i = 0; i < T::kPerChunk; ++i) {
                uint32_t key;
                if constexpr (BPS == 1) key = __byte_perm(w[i >> 2], 0, 0x4440 + (i & 3));
                else if constexpr (P010) key = (i & 1) ? (w[i >> 1] >> 22) : ((w[i >> 1] & 0xffffu) >> 6);
                else key = (w[i >> 1] >> (16 * (i & 1))) & 0x3ffu;
                sharedAddAt(hist, laneOffset + (key << 7), 1u);
            }
        } else {
            for (int i = 0; i < valid; ++i) {
                uint32_t key;
                if constexpr (BPS == 1) key = (w[i >> 2] >> (8 * (i & 3))) & 0xffu;
                else if constexpr (P010) key = ((w[i >> 1] >> (16 * (i & 1))) & 0xffffu) >> 6;
                else key = (w[i >> 1] >> (16 * (i & 1))) & 0x3ffu;
                sharedAddAt(hist, laneOffset + (key << 7), 1u);
            }
        }
    };
    while (u < units) {
#pragma unroll
        for (int k = 0; k < T::kUnits; ++k) count(v[k], chunk[k]);
        u += T::kUnits * warpsInGrid;
        if (u < units) loadBatch(u);
    }
    __syncthreads();

    // Each bin: the sum of its 32 lane columns, added once per block.
    uint32_t* sums = kOverwrite ? d_scratch : d_hist;
    for (int bin = int(threadIdx.x); bin < T::kLevels; bin += T::kThreads) {
        const uint4* row = reinterpret_cast<const uint4*>(hist + bin * 32);
        uint32_t n = 0;
#pragma unroll
        for (int k = 0; k < 8; ++k) { const uint4 q = row[k]; n += q.x + q.y + q.z + q.w; }
        if (n) atomicAdd(sums + bin, n);
    }
    if constexpr (kOverwrite) {
        // The last block to take a ticket sees every block's sums (each made them visible
        // before taking its ticket), writes the histogram and leaves the scratch zero.
        __shared__ bool last;
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) last = atomicAdd(d_scratch + T::kLevels, 1u) == gridDim.x - 1;
        __syncthreads();
        if (!last) return;
        __threadfence();
        for (int bin = int(threadIdx.x); bin < T::kLevels; bin += T::kThreads) d_hist[bin] = atomicExch(d_scratch + bin, 0u);
        if (threadIdx.x == 0) atomicExch(d_scratch + T::kLevels, 0u);
    }
}

template <int BPS, bool P010>
cudaError_t launchLuma(const PlaneSet& planes, int width, int height, uint32_t* d_hist, uint32_t* d_scratch, cudaStream_t stream) {
    using T = LumaTraits<BPS, P010>;
    if (T::kShared > maxSharedPerBlock()) return cudaErrorNotSupported;
    auto kernel = d_scratch ? lumaHistogramKernel<BPS, P010, true> : lumaHistogramKernel<BPS, P010, false>;
    if (const cudaError_t e = optInSharedMemory(reinterpret_cast<const void*>(kernel), T::kShared); e != cudaSuccess) return e;
    int device = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;
    int perSm = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, T::kThreads, T::kShared);
    if (e != cudaSuccess) return e;
    const int chunksPerRow = (width + T::kPerChunk - 1) / T::kPerChunk;
    const int unitsPerRow = (chunksPerRow + 31) / 32;
    const long long units = (long long)height * unitsPerRow;
    // Every multiprocessor (as many as there are units for), at most a full wave: a 4K frame
    // is then one batch per warp, all loads in flight at once, spread over the whole chip.
    const long long wantBlocks = (units + (T::kThreads / 32) - 1) / (T::kThreads / 32);
    const int blocks = int(std::max(1LL, std::min<long long>(wantBlocks, (long long)std::max(1, perSm) * sms)));
    kernel<<<dim3(unsigned(blocks)), T::kThreads, T::kShared, stream>>>(planes.data[0], planes.pitch[0], width, height, chunksPerRow,
                                                                        unitsPerRow, d_hist, d_scratch);
    return cudaGetLastError();
}

}  // namespace

cudaError_t lumaHistogramPass(const PlaneSet& planes, PixelFormat format, int width, int height, uint32_t* d_histY,
                              uint32_t* d_scratch, cudaStream_t stream) {
    const auto& info = formatInfo(format);
    if (info.layout == PixelLayout::PackedYuv422 || info.isRgb) return cudaErrorNotSupported;
    if (info.bytesPerSample == 1) return launchLuma<1, false>(planes, width, height, d_histY, d_scratch, stream);
    if (format == PixelFormat::P010) return launchLuma<2, true>(planes, width, height, d_histY, d_scratch, stream);
    return launchLuma<2, false>(planes, width, height, d_histY, d_scratch, stream);
}

}  // namespace cs::cuda::detail
