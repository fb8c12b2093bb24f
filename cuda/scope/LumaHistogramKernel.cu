// The luma histogram alone (cuda::scopePass with exactly kScopeHistogram) for every Y'CbCr
// and grey format: those whose luma is a plane of its own, and packed 4:2:2 (UYVY, YUYV),
// whose lumas are every other byte. 16-byte loads (16 8-bit samples, 8 10-bit ones or 8
// packed pixels per lane, so a UYVY-to-luma pass reads nothing narrower); a warp
// reads 32 consecutive such chunks (512 bytes; rows follow one another) per unit, a batch
// of five units in flight before it counts any (a 4K frame is one batch with one block of
// 32 warps per SM). Counting uses lane-owned shared counters: the block's histogram is
// replicated 32 times as [bin][lane] words, lane l only ever adds to column l, so a warp's
// 32 atomics always hit 32 different banks and never the same address, whatever the picture
// (a solid frame costs what noise costs).
//
// Blocks add their columns' sums to the output at the end (a warp reads a bin's row of 32
// lane columns and sums it with one warp reduction). Given scratch memory, they add
// to the scratch instead, one 64-bit word per bin holding the count (low half) and the
// number of blocks that added (high half): the block whose add completes a bin writes that
// bin's total to the output and clears the word. One launch, no clearing launch before it,
// and no ticket or fence between the blocks (each bin finishes by itself).
//
// Not private byte counters per thread (one byte load and store per pixel, no atomics;
// docs/CUDA.md): a conflict-free shared atomic costs less than a byte load plus a byte store,
// and zeroing and summing 192 KB of counters per block is not free.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/DependentLaunch.cuh"
#include "ScopeDevice.cuh"
#include "ScopeKernelsDetail.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

// Where a chunk's samples are: bytes; 16-bit words with the value in the high 10 bits
// (P010) or the low 10 (planar 10-bit); packed 4:2:2, a 16-bit word per pixel with its luma
// in the low byte (YUYV) or the high one (UYVY).
enum class LumaSamples { Bytes, P010, Low10, PackedLowByte, PackedHighByte };

template <LumaSamples S>
struct LumaTraits {
    static constexpr bool kTenBit = S == LumaSamples::P010 || S == LumaSamples::Low10;
    static constexpr int kLevels = kTenBit ? 1024 : 256;
    static constexpr int kPerChunk = S == LumaSamples::Bytes ? 16 : 8;   // samples (pixels) per 16-byte load
    static constexpr int kThreads = 1024;
    static constexpr int kUnits = 5;                       // units a warp has in flight at once
    static constexpr size_t kShared = size_t(kLevels) * 32 * 4;

    // Sample i of a chunk whose words are w.
    __device__ __forceinline__ static uint32_t key(const uint32_t (&w)[4], int i) {
        if constexpr (S == LumaSamples::Bytes) return sampleInWord<1>(w[i >> 2], i);
        else if constexpr (S == LumaSamples::P010 || S == LumaSamples::Low10) return sampleInWord<2, S == LumaSamples::P010>(w[i >> 1], i);
        else return sampleInWord<1>(w[i >> 1], 2 * (i & 1) + (S == LumaSamples::PackedHighByte ? 1 : 0));   // a byte of pixel i's 16-bit word
    }
};

// rowMagic = ceil(2^36 / chunksPerRow): chunk g's row is (g * rowMagic) >> 36, exact for
// g < 2^25 (a frame has at most 16384 rows of 2048 chunks).
__device__ __forceinline__ uint32_t rowOfChunk(uint32_t g, unsigned long long rowMagic) { return uint32_t((g * rowMagic) >> 36); }

// kOverwrite: d_scratch (levels 64-bit words, zero) collects the blocks' sums and the last
// block to add to a bin writes it to d_hist.
template <LumaSamples S, bool kOverwrite>
__global__ void __launch_bounds__(1024) lumaHistogramKernel(const uint8_t* plane, size_t pitch, int width, uint32_t chunksPerRow, uint32_t chunks,
                                                            unsigned long long rowMagic, uint32_t* d_hist, unsigned long long* d_scratch) {
    allowDependentLaunch();   // the preview after the pass may be scheduled once every block has started
    using T = LumaTraits<S>;
    extern __shared__ __align__(16) uint32_t hist[];   // [bin][lane]
    const int lane = int(threadIdx.x & 31u);
    const uint32_t warpsInGrid = gridDim.x * (T::kThreads / 32);
    const uint32_t firstChunk = (blockIdx.x * (T::kThreads / 32) + (threadIdx.x >> 5)) * 32u + uint32_t(lane);

    // Unit k of batch b: chunk firstChunk + (b * kUnits + k) * (32 chunks per warp in the grid).
    uint4 v[T::kUnits];
    int valid[T::kUnits];   // samples in the chunk (0: none)
    auto loadBatch = [&](uint32_t b) {
#pragma unroll
        for (int k = 0; k < T::kUnits; ++k) {
            const uint32_t g = firstChunk + (b * T::kUnits + uint32_t(k)) * warpsInGrid * 32u;
            valid[k] = 0;
            v[k] = make_uint4(0, 0, 0, 0);
            if (g < chunks) {
                const uint32_t row = rowOfChunk(g, rowMagic), col = g - row * chunksPerRow;
                valid[k] = min(T::kPerChunk, width - int(col) * T::kPerChunk);
                v[k] = __ldg(reinterpret_cast<const uint4*>(plane + size_t(row) * pitch) + col);
            }
        }
    };
    loadBatch(0);   // in flight while the counters are cleared
    {
        uint4* h4 = reinterpret_cast<uint4*>(hist);
        for (int i = int(threadIdx.x); i < T::kLevels * 8; i += T::kThreads) h4[i] = make_uint4(0, 0, 0, 0);
    }
    __syncthreads();

    const uint32_t laneOffset = uint32_t(lane) * 4u;
    auto count = [&](const uint4& q, int n) {
        const uint32_t w[4] = {q.x, q.y, q.z, q.w};
        if (n == T::kPerChunk) {
#pragma unroll
            for (int i = 0; i < T::kPerChunk; ++i) sharedAddAt(hist, laneOffset + (T::key(w, i) << 7), 1u);
        } else {
            for (int i = 0; i < n; ++i) sharedAddAt(hist, laneOffset + (T::key(w, i) << 7), 1u);
        }
    };
    const uint32_t perBatch = uint32_t(T::kUnits) * warpsInGrid * 32u;
    for (uint32_t b = 0;; ++b) {
#pragma unroll
        for (int k = 0; k < T::kUnits; ++k)
            if (valid[k]) count(v[k], valid[k]);
        if ((b + 1) * perBatch + (firstChunk - lane) >= chunks) break;   // the warp's next batch is empty
        loadBatch(b + 1);
    }
    __syncthreads();

    // Each bin: the sum of its 32 lane columns, added once per block. A warp reads a bin's
    // row of 32 words (one word a lane: one conflict-free access; a thread reading a whole
    // row, rows 128 bytes apart, met 8-way bank conflicts) and sums it with one warp
    // reduction; lane (bin mod 32) keeps the sum, so the global adds of 32 bins go out as one
    // instruction.
    constexpr int kWarps = T::kThreads / 32;
    for (int first = int(threadIdx.x >> 5) * 32; first < T::kLevels; first += kWarps * 32) {
        uint32_t mine = 0;
#pragma unroll 8
        for (int k = 0; k < 32; ++k) {
            const uint32_t n = warpSum32(hist[(first + k) * 32 + lane]);
            if (lane == k) mine = n;
        }
        const int bin = first + lane;
        if constexpr (kOverwrite) {
            // Every block adds to every bin (zero too): the add that brings the block count
            // to gridDim.x is the last, and its result is the bin's total.
            const unsigned long long before = atomicAdd(d_scratch + bin, (1ull << 32) | mine);
            if (uint32_t(before >> 32) == gridDim.x - 1) {
                d_hist[bin] = uint32_t(before) + mine;
                d_scratch[bin] = 0;
            }
        } else if (mine) {
            atomicAdd(d_hist + bin, mine);
        }
    }
}

template <LumaSamples S>
cudaError_t launchLuma(const PlaneSet& planes, int width, int height, uint32_t* d_hist, uint32_t* d_scratch, cudaStream_t stream) {
    using T = LumaTraits<S>;
    if (T::kShared > maxSharedPerBlock()) return cudaErrorNotSupported;
    auto kernel = d_scratch ? lumaHistogramKernel<S, true> : lumaHistogramKernel<S, false>;
    if (const cudaError_t e = optInSharedMemory(reinterpret_cast<const void*>(kernel), T::kShared); e != cudaSuccess) return e;
    int device = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;
    int perSm = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, T::kThreads, T::kShared);
    if (e != cudaSuccess) return e;
    const uint32_t chunksPerRow = uint32_t((width + T::kPerChunk - 1) / T::kPerChunk);
    const uint32_t chunks = chunksPerRow * uint32_t(height);
    const unsigned long long rowMagic = ((1ull << 36) + chunksPerRow - 1) / chunksPerRow;
    // Every multiprocessor (as many as there are warps' units for), at most a full wave: a 4K
    // frame is then one batch per warp, all loads in flight at once, spread over the whole chip.
    const uint32_t chunksPerBlockUnit = uint32_t(T::kThreads);   // 32 warps x 32 lanes
    const uint32_t wantBlocks = (chunks + chunksPerBlockUnit - 1) / chunksPerBlockUnit;
    const int blocks = int(std::max(1u, std::min<uint32_t>(wantBlocks, uint32_t(std::max(1, perSm) * sms))));
    kernel<<<dim3(unsigned(blocks)), T::kThreads, T::kShared, stream>>>(planes.data[0], planes.pitch[0], width, chunksPerRow, chunks, rowMagic,
                                                                        d_hist, reinterpret_cast<unsigned long long*>(d_scratch));
    return cudaGetLastError();
}

}  // namespace

cudaError_t lumaHistogramPass(const PlaneSet& planes, PixelFormat format, int width, int height, uint32_t* d_histY,
                              uint32_t* d_scratch, cudaStream_t stream) {
    const auto& info = formatInfo(format);
    if (info.isRgb) return cudaErrorNotSupported;
    if (info.layout == PixelLayout::PackedYuv422) {
        // Y0's byte in its 16-bit word: 0 for YUYV, 1 for UYVY (8-bit only: the engine has no deeper packed 4:2:2).
        if (info.bitDepth != 8) return cudaErrorNotSupported;
        if (info.offset[0] == 0) return launchLuma<LumaSamples::PackedLowByte>(planes, width, height, d_histY, d_scratch, stream);
        return launchLuma<LumaSamples::PackedHighByte>(planes, width, height, d_histY, d_scratch, stream);
    }
    if (info.bytesPerSample == 1) return launchLuma<LumaSamples::Bytes>(planes, width, height, d_histY, d_scratch, stream);
    if (format == PixelFormat::P010) return launchLuma<LumaSamples::P010>(planes, width, height, d_histY, d_scratch, stream);
    return launchLuma<LumaSamples::Low10>(planes, width, height, d_histY, d_scratch, stream);
}

}  // namespace cs::cuda::detail

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::lumaHistogramKernel() { return reinterpret_cast<const void*>(detail::lumaHistogramKernel<detail::LumaSamples::Bytes, false>); }
