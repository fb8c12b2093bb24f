#include "SignalStatsKernels.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 512;

__global__ void unpackKernel(PixelSource src, int mid, int log2cw, int log2ch, SignalStatsPlanes out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out.width || y >= out.height) return;
    const YuvSample s = readYuv(src, x, y, mid);
    out.d_y[size_t(y) * out.width + x] = uint16_t(s.y);
    if ((x & ((1 << log2cw) - 1)) == 0 && (y & ((1 << log2ch) - 1)) == 0) {
        const size_t c = size_t(y >> log2ch) * out.chromaWidth + (x >> log2cw);
        out.d_u[c] = uint16_t(s.cb);
        out.d_v[c] = uint16_t(s.cr);
    }
}

// The sum over a block's threads, added to *dst by one atomic per warp.
__device__ void addWarpSum(unsigned long long* dst, unsigned long long v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0 && v) atomicAdd(dst, v);
}
__device__ void orWarp(unsigned int* dst, unsigned int v) {
    for (int o = 16; o > 0; o >>= 1) v |= __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0 && v) atomicOr(dst, v);
}

// Luma: histogram, DIF, black, BRNG (with the covering chroma), freeze SAD, mask.
__global__ void lumaKernel(SignalStatsPlanes cur, SignalStatsPlanes prev, SignalStatsPlanes ref, int levels, int black,
                           int log2cw, int log2ch, SignalStatsDeviceCounts out) {
    extern __shared__ uint32_t hist[];
    for (int i = threadIdx.x; i < levels; i += blockDim.x) hist[i] = 0;
    __syncthreads();
    const int f = levels >> 8;
    unsigned long long dif = 0, blackCount = 0, brng = 0, sad = 0;
    unsigned int mask = 0;
    const size_t n = size_t(cur.width) * cur.height;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const int s = cur.d_y[i];
        atomicAdd(&hist[s], 1u);
        mask |= unsigned(s);
        dif += unsigned(abs(s - int(prev.d_y[i])));
        blackCount += s <= black;
        if (ref.d_y) sad += unsigned(abs(s - int(ref.d_y[i])));
        const int x = int(i % size_t(cur.width)), y = int(i / size_t(cur.width));
        const size_t c = size_t(y >> log2ch) * cur.chromaWidth + (x >> log2cw);
        const int cb = cur.d_u[c], cr = cur.d_v[c];
        brng += s < 16 * f || s > 235 * f || cb < 16 * f || cb > 240 * f || cr < 16 * f || cr > 240 * f;
    }
    addWarpSum(&out.d_sums[kSumDifY], dif);
    addWarpSum(&out.d_sums[kSumBlack], blackCount);
    addWarpSum(&out.d_sums[kSumBrng], brng);
    addWarpSum(&out.d_sums[kSumFreezeSad], sad);
    orWarp(&out.d_masks[0], mask);
    __syncthreads();
    for (int i = threadIdx.x; i < levels; i += blockDim.x)
        if (hist[i]) atomicAdd(&out.d_histY[i], hist[i]);
}

// Chroma: U, V, SAT and HUE histograms, DIFs, freeze SAD over the first freezeRows rows, masks.
__global__ void chromaKernel(SignalStatsPlanes cur, SignalStatsPlanes prev, SignalStatsPlanes ref, const uint16_t* sat,
                             const uint16_t* hue, int levels, int freezeRows, SignalStatsDeviceCounts out) {
    extern __shared__ uint32_t shared[];
    uint32_t* hu = shared;
    uint32_t* hv = hu + levels;
    uint32_t* hs = hv + levels;
    uint32_t* hh = hs + levels;
    for (int i = threadIdx.x; i < 3 * levels + 360; i += blockDim.x) shared[i] = 0;
    __syncthreads();
    unsigned long long difU = 0, difV = 0, sad = 0;
    unsigned int maskU = 0, maskV = 0;
    const size_t n = size_t(cur.chromaWidth) * cur.chromaHeight, freezeN = size_t(cur.chromaWidth) * freezeRows;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const int u = cur.d_u[i], v = cur.d_v[i];
        atomicAdd(&hu[u], 1u);
        atomicAdd(&hv[v], 1u);
        const size_t t = size_t(u) * levels + v;
        atomicAdd(&hs[min(int(sat[t]), levels - 1)], 1u);
        atomicAdd(&hh[hue[t]], 1u);
        maskU |= unsigned(u);
        maskV |= unsigned(v);
        difU += unsigned(abs(u - int(prev.d_u[i])));
        difV += unsigned(abs(v - int(prev.d_v[i])));
        if (ref.d_y && i < freezeN) sad += unsigned(abs(u - int(ref.d_u[i]))) + unsigned(abs(v - int(ref.d_v[i])));
    }
    addWarpSum(&out.d_sums[kSumDifU], difU);
    addWarpSum(&out.d_sums[kSumDifV], difV);
    addWarpSum(&out.d_sums[kSumFreezeSad], sad);
    orWarp(&out.d_masks[1], maskU);
    orWarp(&out.d_masks[2], maskV);
    __syncthreads();
    for (int i = threadIdx.x; i < levels; i += blockDim.x) {
        if (hu[i]) atomicAdd(&out.d_histU[i], hu[i]);
        if (hv[i]) atomicAdd(&out.d_histV[i], hv[i]);
        if (hs[i]) atomicAdd(&out.d_histSat[i], hs[i]);
    }
    for (int i = threadIdx.x; i < 360; i += blockDim.x)
        if (hh[i]) atomicAdd(&out.d_histHue[i], hh[i]);
}

__device__ bool toutOutlier(uint8_t x, uint8_t y, uint8_t z) { return ((abs(x - y) + abs(z - y)) / 2) - abs(z - x) > 4; }

// One block per row: VREP (the row against the row four above) and TOUT.
__global__ void rowKernel(SignalStatsPlanes cur, SignalStatsDeviceCounts out) {
    const int y = blockIdx.x, w = cur.width, h = cur.height;
    const uint16_t* p = cur.d_y;
    unsigned long long diff = 0, tout = 0;
    const bool two = y - 2 >= 0 && y + 2 < h, inner = y >= 1 && y + 1 < h;
    for (int x = threadIdx.x; x < w; x += blockDim.x) {
        if (y >= 4) diff += unsigned(abs(int(p[size_t(y - 4) * w + x]) - int(p[size_t(y) * w + x])));
        if (inner && x >= 1 && x + 1 < w) {
            const auto at = [&](int xx, int yy) { return uint8_t(p[size_t(yy) * w + xx]); };
            const auto filt = [&](int xx, int j) { return toutOutlier(at(xx, y - j), at(xx, y), at(xx, y + j)); };
            const auto filt3 = [&](int j) { return filt(x - 1, j) && filt(x, j) && filt(x + 1, j); };
            tout += two ? (filt3(2) && filt3(1)) : filt3(1);
        }
    }
    __shared__ unsigned long long warpDiff[kThreads / 32];
    for (int o = 16; o > 0; o >>= 1) diff += __shfl_down_sync(0xffffffffu, diff, o);
    if ((threadIdx.x & 31) == 0) warpDiff[threadIdx.x / 32] = diff;
    addWarpSum(&out.d_sums[kSumTout], tout);
    __syncthreads();
    if (threadIdx.x == 0 && y >= 4) {
        unsigned long long total = 0;
        for (int i = 0; i < int(blockDim.x / 32); ++i) total += warpDiff[i];
        if (total < unsigned(w)) atomicAdd(&out.d_sums[kSumVrepRows], 1ull);
    }
}

}  // namespace

cudaError_t unpackSignalStatsPlanes(const PixelSource& src, int midLevel, int log2cw, int log2ch,
                                    const SignalStatsPlanes& d_out, cudaStream_t stream) {
    const dim3 block(32, 8), grid((d_out.width + 31) / 32, (d_out.height + 7) / 8);
    unpackKernel<<<grid, block, 0, stream>>>(src, midLevel, log2cw, log2ch, d_out);
    return cudaGetLastError();
}

cudaError_t countSignalStats(const SignalStatsPlanes& cur, const SignalStatsPlanes& prev, const SignalStatsPlanes& ref,
                             const uint16_t* d_satTable, const uint16_t* d_hueTable, int levels, int blackThreshold,
                             int log2cw, int log2ch, int freezeChromaRows, const SignalStatsDeviceCounts& out,
                             cudaStream_t stream) {
    const size_t histBytes = size_t(levels) * sizeof(uint32_t);
    for (uint32_t* h : {out.d_histY, out.d_histU, out.d_histV, out.d_histSat})
        if (cudaError_t e = cudaMemsetAsync(h, 0, histBytes, stream); e != cudaSuccess) return e;
    if (cudaError_t e = cudaMemsetAsync(out.d_histHue, 0, 360 * sizeof(uint32_t), stream); e != cudaSuccess) return e;
    if (cudaError_t e = cudaMemsetAsync(out.d_sums, 0, kSumCount * sizeof(unsigned long long), stream); e != cudaSuccess) return e;
    if (cudaError_t e = cudaMemsetAsync(out.d_masks, 0, 3 * sizeof(unsigned int), stream); e != cudaSuccess) return e;
    lumaKernel<<<kBlocks, kThreads, histBytes, stream>>>(cur, prev, ref, levels, blackThreshold, log2cw, log2ch, out);
    chromaKernel<<<kBlocks, kThreads, (3 * size_t(levels) + 360) * sizeof(uint32_t), stream>>>(cur, prev, ref, d_satTable, d_hueTable,
                                                                                             levels, freezeChromaRows, out);
    if (cur.height > 0) rowKernel<<<cur.height, kThreads, 0, stream>>>(cur, out);
    return cudaGetLastError();
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::signalStatsKernels() { return reinterpret_cast<const void*>(unpackKernel); }
