// The box blur preview (FilterKernelsDetail.h): core/Filters.cpp's exact integer sums,
// radii <= 32 as one kernel over strips of columns, larger radii in two passes through
// scratch memory (the start window counted in closed form, as the CPU does).
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/DependentLaunch.cuh"
#include "FilterDevice.cuh"
#include "FilterKernelsDetail.h"
#include "cuda/Sinks.cuh"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

// ---- Box blur, r <= 32: one kernel over strips of columns ------------------------------------

// A block keeps the vertical window sums of 256 consecutive columns (one per thread, in
// registers) and walks down a band of rows (a multiple of 8, sized so that the whole grid is
// resident at once: no second wave); its outputs are the middle 256 - 2 ceil4(r) columns.
// Every 8 rows the threads write their 8 rows of vertical sums to shared memory, then each
// warp takes one row and each lane slides the horizontal window along 8 outputs. Two shared
// buffers, alternating by batch: one barrier per batch (a buffer is rewritten only after the
// next batch's barrier, which every reader of it has passed). Reads: each input pixel once as
// it enters the vertical window and once as it leaves (L1/L2 keep it), the centre row's
// alpha, plus the window of the block's first row.
constexpr int kBoxThreads = 256;   // columns of vertical sums per block
constexpr int kBoxBlocksPerSm = 3;  // the register budget: 80 per thread
constexpr int kBoxBatch = 8;       // rows per exchange through shared memory
constexpr int kBoxSegment = 8;     // outputs a thread slides over along a row
static_assert(kBoxThreads / 32 == kBoxBatch, "one warp per row of a batch");
static_assert(kBoxThreads / kBoxSegment == 32, "a row's segments are one warp's lanes");

// Vertical sums in two words with 16-bit lanes: R | B << 16, and G. A window of at most 65
// pixels sums to at most 65 x 255 = 16575 per channel, so one add-and-subtract (IADD3) slides
// both lanes of a word exactly: the packed value is linear in its lanes, and every lane's true
// result lies in 0..65535, so no lane ever borrows from or carries into the other.
__device__ __forceinline__ uint32_t redBlue(uint32_t px) { return __byte_perm(px, 0u, 0x4240u); }
__device__ __forceinline__ uint32_t greenOf(uint32_t px) { return __byte_perm(px, 0u, 0x4441u); }

// (sum + n/2) / n for the box's n = (2r+1)^2: the n/2 rides in the start sums, and the
// division is one multiply-high per channel that leaves the quotient in a byte of its own,
// the other bytes zero: magic = ceil(2^k / n) with k = 40 (quotient in byte 1) for n > 256
// (r >= 8), k = 32 (byte 0) below, so that magic < 2^32. Exact for every sum: with
// x = sum + n/2 < 256 n and magic = (2^k + e) / n, 0 <= e < n, x magic / 2^k exceeds x / n by
// x e / (n 2^k) < 256 n^2 / (n 2^k) <= 1/n (256 n^2 <= 2^k for n <= 65^2 and n <= 225), too
// little to reach the next integer. Three byte permutes assemble R, G, B and the centre's alpha.
struct BoxParams {
    int r;
    int outputs;               // output columns per block: 256 - 2 ceil4(r), a multiple of 8
    int rows;                  // rows per band, a multiple of 8; the first longBands bands have 8 more
    int longBands;
    int bands;                 // the grid's y
    uint32_t half;             // n/2
    uint32_t magic;
    uint32_t selectRG, selectRGB;   // __byte_perm selectors picking the quotient bytes
};
BoxParams boxParams(int r, int w, int h, int multiprocessors) {
    const uint64_t n = uint64_t(2 * r + 1) * uint64_t(2 * r + 1);
    const uint32_t quotientByte = n > 256 ? 1u : 0u;
    BoxParams p;
    p.r = r;
    p.outputs = kBoxThreads - 2 * ((r + 3) / 4 * 4);
    // As many bands as fit beside the strips in one wave, at least two batches of 8 rows each
    // (the first row's window is read whole: short bands would read it too often). The
    // frame's batches are shared out as evenly as whole batches allow, since the multiprocessor
    // with the most batches sets the kernel's time: at 4K, r = 8, 24 bands of 11 or 12 batches
    // (16 strips, 384 blocks), where bands of one size took 23 of 12 (368 blocks: many
    // multiprocessors ran three 12-batch blocks, the ideal share being 10.9 batches a block).
    const int strips = (w + p.outputs - 1) / p.outputs;
    const int batches = (h + kBoxBatch - 1) / kBoxBatch;
    p.bands = std::max(1, std::min(kBoxBlocksPerSm * std::max(1, multiprocessors) / strips, batches / 2));
    p.rows = batches / p.bands * kBoxBatch;
    p.longBands = batches % p.bands;
    p.half = uint32_t(n / 2);
    p.magic = uint32_t(((uint64_t(1) << (32 + 8 * quotientByte)) + n - 1) / n);
    p.selectRG = quotientByte | ((4u + quotientByte) << 4);   // bytes 0, 1: R, G
    p.selectRGB = 0x10u | ((4u + quotientByte) << 8);         // bytes 0, 1 kept, byte 2: B
    return p;
}
__device__ __forceinline__ uint32_t boxMean(uint32_t sumR, uint32_t sumG, uint32_t sumB, uint32_t centre, const BoxParams& p) {
    const uint32_t rg = __byte_perm(__umulhi(sumR, p.magic), __umulhi(sumG, p.magic), p.selectRG);
    const uint32_t rgb = __byte_perm(rg, __umulhi(sumB, p.magic), p.selectRGB);
    return __byte_perm(rgb, centre, 0x7210u);   // the centre's alpha, as the CPU keeps it
}
// Shared slot of vertical-sum column c: one pad word pair per 8, so that the 16 lanes of a
// half-warp reading 8-column segments hit different banks.
__device__ __forceinline__ int boxSlot(int c) { return c + (c >> 3); }

template <class Sink>
__global__ void __launch_bounds__(kBoxThreads, kBoxBlocksPerSm) boxStripKernel(const uint8_t* in, size_t pitch, int w, int h, BoxParams p, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    __shared__ uint2 vsRows[2][kBoxBatch][kBoxThreads + kBoxThreads / 8];
    const int r = p.r, tid = int(threadIdx.x);
    const int band = int(blockIdx.y), x0 = int(blockIdx.x) * p.outputs;
    const int y0 = band * p.rows + kBoxBatch * min(band, p.longBands), yEnd = min(y0 + p.rows + (band < p.longBands ? kBoxBatch : 0), h);
    // This thread's column: vertical-sum index tid is image column x0 - r + tid (clamped:
    // replicated edges, as the CPU's clamped window).
    const uint8_t* column = in + size_t(clampi(x0 - r + tid, w)) * 4;
    auto at = [&](int y) { return __ldg(reinterpret_cast<const uint32_t*>(column + size_t(clampi(y, h)) * pitch)); };
    uint32_t sumRB = 0, sumG = 0;
#pragma unroll 8
    for (int k = -r; k <= r; ++k) {
        const uint32_t px = at(y0 + k);
        sumRB += redBlue(px);
        sumG += greenOf(px);
    }

    const int warp = tid >> 5, lane = tid & 31, segments = p.outputs / kBoxSegment;
    const int whole = (2 * r + 1) / kBoxSegment, part = (2 * r + 1) % kBoxSegment;
    // The pixels entering and leaving the vertical window over a batch are loaded one batch
    // ahead (the next batch's loads are in flight while this one is summed): the loads'
    // latency is otherwise the kernel's largest stall. Inside the image the rows step by the
    // pitch, unclamped. (Each lane's 8 centre pixels, for their alphas, are loaded where they
    // are used: loaded at the start of the batch, their 8 registers live across the barrier
    // cost more than the latency they would hide.)
    uint32_t nextEnter[kBoxBatch], nextLeave[kBoxBatch];
    auto loadBatch = [&](int yb) {
        if (yb - r >= 0 && yb + kBoxBatch + r < h) {
            const uint8_t* enter = column + size_t(yb + r + 1) * pitch;
            const uint8_t* leave = column + size_t(yb - r) * pitch;
#pragma unroll
            for (int i = 0; i < kBoxBatch; ++i, enter += pitch, leave += pitch) {
                nextEnter[i] = __ldg(reinterpret_cast<const uint32_t*>(enter));
                nextLeave[i] = __ldg(reinterpret_cast<const uint32_t*>(leave));
            }
        } else {
#pragma unroll
            for (int i = 0; i < kBoxBatch; ++i) { nextEnter[i] = at(yb + i + r + 1); nextLeave[i] = at(yb + i - r); }
        }
    };
    const int c0 = lane * kBoxSegment, x = x0 + c0;
    const bool outputs = lane < segments && x < w;   // this lane writes pixels
    const int n = min(kBoxSegment, w - x);
    loadBatch(y0);
    int buffer = 0;
    for (int yb = y0; yb < yEnd; yb += kBoxBatch, buffer ^= 1) {
        const int y = yb + warp;
        // Vertical sums of rows yb .. yb+7 into shared memory, sliding down.
        uint32_t enter[kBoxBatch], leave[kBoxBatch];
#pragma unroll
        for (int i = 0; i < kBoxBatch; ++i) { enter[i] = nextEnter[i]; leave[i] = nextLeave[i]; }
        if (yb + kBoxBatch < yEnd) loadBatch(yb + kBoxBatch);
#pragma unroll
        for (int i = 0; i < kBoxBatch; ++i) {
            vsRows[buffer][i][boxSlot(tid)] = make_uint2(sumRB, sumG);
            sumRB = sumRB + redBlue(enter[i]) - redBlue(leave[i]);
            sumG = sumG + greenOf(enter[i]) - greenOf(leave[i]);
        }
        __syncthreads();
        // Warp i: row yb + i; lane g: outputs x0 + 8g .. x0 + 8g + 7, whose windows span
        // vertical sums 8g .. 8g + 2r + 7. Each lane (all 32: windows reach into the lanes
        // right of the last output) sums its own 8; with 2r + 1 = 8 whole + part, a window
        // starts as the sums of `whole` lanes from its own (shuffles) plus `part` single
        // sums, and slides with one shared read per step (the leaving sum is its own).
        // Horizontal sums reach 65 x 16575: R, G and B in words of their own. Column
        // c0 + m sits at slot 9 lane + m + m / 8: the lane's base plus a warp-uniform offset.
        if (y < yEnd) {   // the same for the whole warp
            const uint2* mine = vsRows[buffer][warp] + 9 * lane;
            uint2 own[kBoxSegment];
#pragma unroll
            for (int j = 0; j < kBoxSegment; ++j) own[j] = mine[j];
            // Sums of three R | B words still fit the 16-bit lanes (3 x 16575 < 65536).
            const uint32_t rb0 = own[0].x + own[1].x + own[2].x, rb1 = own[3].x + own[4].x + own[5].x, rb2 = own[6].x + own[7].x;
            const uint32_t segR = (rb0 & 0xffffu) + (rb1 & 0xffffu) + (rb2 & 0xffffu);
            const uint32_t segB = (rb0 >> 16) + (rb1 >> 16) + (rb2 >> 16);
            uint32_t segG = 0;
#pragma unroll
            for (int j = 0; j < kBoxSegment; ++j) segG += own[j].y;
            uint32_t sR = p.half, sG = p.half, sB = p.half;
            if (whole > 0) { sR += segR; sG += segG; sB += segB; }
            for (int i = 1; i < whole; ++i) {
                sR += __shfl_down_sync(0xffffffffu, segR, unsigned(i));
                sG += __shfl_down_sync(0xffffffffu, segG, unsigned(i));
                sB += __shfl_down_sync(0xffffffffu, segB, unsigned(i));
            }
            if (outputs) {
                uint32_t centre[kBoxSegment];
                const uint32_t* src = reinterpret_cast<const uint32_t*>(in + size_t(y) * pitch) + x;
                if (n == kBoxSegment) {
                    const uint4 a = __ldg(reinterpret_cast<const uint4*>(src)), b = __ldg(reinterpret_cast<const uint4*>(src) + 1);
                    centre[0] = a.x; centre[1] = a.y; centre[2] = a.z; centre[3] = a.w; centre[4] = b.x; centre[5] = b.y; centre[6] = b.z; centre[7] = b.w;
                } else {
#pragma unroll
                    for (int j = 0; j < kBoxSegment; ++j) centre[j] = j < n ? __ldg(src + j) : 0u;
                }
                const uint2* single = mine + 9 * whole;   // columns c0 + 8 whole + k, k < 8
                for (int k = 0; k < part; ++k) {
                    const uint2 e = single[k];
                    sR += e.x & 0xffffu; sB += e.x >> 16; sG += e.y;
                }
                uint32_t o[kBoxSegment];
#pragma unroll
                for (int j = 0; j < kBoxSegment; ++j) {
                    o[j] = boxMean(sR, sG, sB, centre[j], p);
                    if (j < kBoxSegment - 1) {   // slide: column c0 + 2r + 1 + j enters
                        const int m = 2 * r + 1 + j;
                        const uint2 e = mine[m + (m >> 3)];
                        sR = sR + (e.x & 0xffffu) - (own[j].x & 0xffffu);
                        sB = sB + (e.x >> 16) - (own[j].x >> 16);
                        sG = sG + e.y - own[j].y;
                    }
                }
                out.store4(x, y, o, min(n, 4));
                if (n > 4) out.store4(x + 4, y, o + 4, n - 4);
            }
        }
    }
}

// ---- Blurs of large radius: two passes through scratch memory ------------------------------

// Box, vertical sums per column (one thread slides down a whole column; the start window is
// counted in closed form, as the CPU does, so the cost does not grow with r).
__global__ void boxColumnsKernel(const uint8_t* in, size_t pitch, int w, int h, int r, uint4* sums, size_t sumsPitch) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= w) return;
    auto px = [&](long long y) { return pixelAt(in, pitch, x, int(y < 0 ? 0 : (y >= h ? h - 1 : y))); };
    uint32_t s[3] = {0, 0, 0};
    const long long below = r, above = r > h - 1 ? r - (h - 1) : 0;
    const uint32_t first = px(0), last = px(h - 1);
    for (int c = 0; c < 3; ++c) s[c] = uint32_t(below) * channel(first, c) + uint32_t(above) * channel(last, c);
    for (int y = 0; y <= min(r, h - 1); ++y)
        for (int c = 0; c < 3; ++c) s[c] += channel(px(y), c);
    for (int y = 0; y < h; ++y) {
        reinterpret_cast<uint4*>(reinterpret_cast<uint8_t*>(sums) + size_t(y) * sumsPitch)[x] = make_uint4(s[0], s[1], s[2], 0);
        const uint32_t add = px(y + r + 1LL), sub = px(y - r);
        for (int c = 0; c < 3; ++c) s[c] += channel(add, c) - channel(sub, c);
    }
}

template <class Sink>
__global__ void boxRowsKernel(const uint8_t* in, size_t pitch, const uint4* sums, size_t sumsPitch, int w, int h, int r, Sink out) {
    const int y = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (y >= h) return;
    const uint4* row = reinterpret_cast<const uint4*>(reinterpret_cast<const uint8_t*>(sums) + size_t(y) * sumsPitch);
    auto at = [&](long long x) { return row[x < 0 ? 0 : (x >= w ? w - 1 : x)]; };
    auto add = [](unsigned long long* s, uint4 v, long long times) {
        s[0] += (unsigned long long)(times) * v.x; s[1] += (unsigned long long)(times) * v.y; s[2] += (unsigned long long)(times) * v.z;
    };
    unsigned long long s[3] = {0, 0, 0};
    add(s, at(0), r);
    if (r > w - 1) add(s, at(w - 1), r - (w - 1));
    for (int x = 0; x <= min(r, w - 1); ++x) add(s, at(x), 1);
    const unsigned long long n = (2ull * unsigned(r) + 1) * (2ull * unsigned(r) + 1);
    for (int x = 0; x < w; ++x) {
        const uint32_t alpha = pixelAt(in, pitch, x, y) & 0xff000000u;
        out.store(x, y, uint32_t((s[0] + n / 2) / n) | (uint32_t((s[1] + n / 2) / n) << 8) | (uint32_t((s[2] + n / 2) / n) << 16) | alpha);
        const uint4 a = at(x + r + 1LL), b = at(x - r);
        s[0] += a.x; s[1] += a.y; s[2] += a.z;
        s[0] -= b.x; s[1] -= b.y; s[2] -= b.z;
    }
}

}  // namespace

cudaError_t enqueueBoxStrips(const uint8_t* d_in, size_t pitch, int w, int h, int r, int multiprocessors, const ImageSink& out,
                             cudaStream_t stream, bool dependent) {
    const BoxParams bp = boxParams(r, w, h, multiprocessors);
    const dim3 strips((unsigned(w) + unsigned(bp.outputs) - 1) / unsigned(bp.outputs), unsigned(bp.bands));
    return withSink(out, [&](auto sink) {
        launchDependent(dependent, boxStripKernel<decltype(sink)>, strips, dim3(kBoxThreads), stream, d_in, pitch, w, h, bp, sink);
    });
}

cudaError_t enqueueBoxTwoPass(const uint8_t* d_in, size_t pitch, int w, int h, int r, uint4* d_sums, size_t sumsPitch,
                              const ImageSink& out, cudaStream_t stream, bool dependent) {
    if (const cudaError_t e = launchDependent(dependent, boxColumnsKernel, dim3(unsigned(w + 127) / 128), dim3(128), stream, d_in,
                                              pitch, w, h, r, d_sums, sumsPitch);
        e != cudaSuccess)
        return e;
    return withSink(out, [&](auto sink) {
        boxRowsKernel<<<unsigned(h + 127) / 128, 128, 0, stream>>>(d_in, pitch, d_sums, sumsPitch, w, h, r, sink);
    });
}

}  // namespace cs::cuda::detail

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::boxBlurKernels() { return reinterpret_cast<const void*>(detail::boxColumnsKernel); }
