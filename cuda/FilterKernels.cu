// Preview filter kernels (see FilterKernels.h). Each gives core/Filters.cpp's results
// exactly but the tensor-core Gaussian (radius <= 16: within one code value, as its kernel's
// comment shows): integer sums are exact, float arithmetic uses the explicitly rounded
// intrinsics (__fmul_rn, __fadd_rn, ...) so that no multiply-add is contracted into an FMA
// the CPU does not do, and Sobel's double-precision steps are replaced by integer comparisons with
// thresholds core computes with them. Blurs of radius <= 32 run as one kernel over strips of
// columns (Gaussians of radius <= 16 on tensor cores); larger radii take a two-pass path
// through scratch memory.
#include "FilterKernels.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "DependentLaunch.cuh"
#include "Sinks.cuh"
#include "core/Filters.h"

namespace cs::cuda {
namespace {

using detail::launchDependent;
using detail::waitForPrecedingKernel;

constexpr int kBoxStripRadiusMax = 32;   // box radii up to this run as one strip kernel (larger: two passes)
constexpr int kMaxBoxRadius = 1 << 20;
constexpr float kMaxGaussianSigma = 64.0f;
constexpr int kMaxGaussRadius = 192;
constexpr int kMaxSobelDepth = 12;   // Sobel squares in 32 bits (every engine format is 8 or 10 bit)

__device__ __forceinline__ int clampi(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }
__device__ __forceinline__ uint32_t pixelAt(const uint8_t* img, size_t pitch, int x, int y) {
    return __ldg(reinterpret_cast<const unsigned int*>(img + size_t(y) * pitch) + x);
}
__device__ __forceinline__ uint32_t channel(uint32_t px, int c) { return (px >> (8 * c)) & 0xffu; }

dim3 gridFor(int w, int h, dim3 block) { return dim3(unsigned((w + int(block.x) - 1) / int(block.x)), unsigned((h + int(block.y) - 1) / int(block.y))); }

// ---- Copy --------------------------------------------------------------------------------

template <class Sink>
__global__ void copyKernel(const uint8_t* in, size_t pitch, int w, int h, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x < w && y < h) out.store(x, y, pixelAt(in, pitch, x, y));
}

// ---- Blurs ---------------------------------------------------------------------------------

// float(v) for 0 <= v < 2^23, exactly, without the (quarter-rate) integer-to-float unit:
// the bits of 2^23 + v read as a float, minus 2^23.
__device__ __forceinline__ float byteToFloat(uint32_t v) { return __fsub_rn(__uint_as_float(0x4B000000u | v), 8388608.0f); }

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
    // latency was the kernel's largest stall. Inside the image the rows step by the pitch,
    // unclamped. (Each lane's 8 centre pixels, for their alphas, are loaded where they are
    // used: loaded at the start of the batch, their 8 registers live across the barrier cost
    // 1.3 µs more than the latency they hid.)
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

struct GaussWeights {
    int radius;
    float w[2 * kMaxGaussRadius + 1];
};

// ---- Gaussian, r <= 32: one kernel over strips of columns ------------------------------------
//
// core's arithmetic: per output, taps k = 0..2r summed in order from 0.0f, each product and
// each sum rounded (__fmul_rn / __fadd_rn: no FMA), the horizontal pass into float, then the
// vertical pass, then floor(acc + 0.5) clamped. Two things make it cheap without changing a
// single rounding:
//  - the weights are symmetric (w[k] = w[2r-k]: exp(-k^2 / 2s^2), normalised), so an input
//    value's product with tap k is the same float as with tap 2r-k: each input is multiplied
//    by the r+1 distinct weights once, and each product feeds two outputs;
//  - the radius is a template parameter: the loops unroll, the inputs and partial sums live
//    in registers. Radii between the compiled classes pad the weights with zeros at both
//    ends: 0 + 0 = 0 before the first real tap and acc + 0 = acc after the last (every term
//    is >= +0), so the sums are unchanged.
//
// A block of 96 threads (warp c = channel c) owns 32 output columns and walks down a band of
// rows, 32 rows per batch:
//  1. the batch's input rows (32 + 2R columns, clamped) are copied to shared memory as packed
//     RGBA (cp.async, issued during the previous batch's vertical pass);
//  2. horizontal: lane l takes row l, converts its 32 + 2R bytes of channel c to float once
//     and slides along the row: each input feeds the outputs whose windows hold it;
//  3. vertical: lane l takes column l; each of the batch's 32 rows of horizontal sums feeds
//     the 2R + 1 outputs whose windows hold it; the partial sums of the 2R outputs below the
//     batch stay in registers for the next batch, so a band computes each horizontal row once
//     (plus 2R rows above the band, whose outputs are not stored);
//  4. the bytes of the three channels are joined with the centre's alpha and stored, 16 bytes
//     at a time, during the next batch.
// Both passes run in pieces of 16 outputs: a 16-output piece has 15.5 products per output
// at R = 9 where a 32-output one has 12.8 (6% more instructions), but half the unrolled code
// issued 5% more instructions per cycle on an H200, and came out 1% faster.
constexpr int kGaussColumns = 32;        // output columns per block: one per lane
constexpr int kGaussBatch = 32;          // rows per batch: one per lane
constexpr int kGaussThreads = 96;        // one warp per channel
constexpr int kGaussStripRadiusMax = 32;
constexpr int kGaussRun = 16;            // outputs per unrolled piece of a row or column
constexpr int kGaussSumStride = kGaussColumns + 4;   // 4 mod 8 words: lanes' 16-byte row accesses hit distinct banks
static_assert(kGaussColumns == 32 && kGaussBatch == 32, "lanes map to rows and columns");
static_assert(kGaussColumns % kGaussRun == 0 && kGaussRun % 4 == 0);

// Input words per staged row: 32 + 2R rounded up to 4, then to 4 mod 8 (as kGaussSumStride).
constexpr int gaussStageStride(int radius) {
    const int words = (kGaussColumns + 2 * radius + 3) / 4 * 4;
    return words % 8 == 0 ? words + 4 : words;
}
template <int R>
struct GaussStripShared {
    uint32_t stage[kGaussBatch][gaussStageStride(R)];   // packed input rows
    float sums[3][kGaussBatch][kGaussSumStride];        // horizontal sums per channel
    uint32_t rgb[kGaussBatch][kGaussColumns];           // output bytes (R, G, B; byte 3 unused)
};
// 24 KB of shared memory at R = 9: 8 blocks (24 warps, 6 per scheduler) fit an SM, with the
// register budget 65536 / (96 x 8) = 85.
constexpr int gaussStripMinBlocks(int radius) { return radius <= 12 ? 8 : (radius <= 16 ? 7 : 4); }

// The folded weights of a radius class R: w[d] is taps d and 2R - d (d = R the centre).
struct GaussFolded {
    float w[kGaussStripRadiusMax + 1];
};

__device__ __forceinline__ void copyWordAsync(uint32_t* dst, const uint8_t* src) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(uint32_t(__cvta_generic_to_shared(dst))), "l"(src) : "memory");
#else
    *dst = __ldg(reinterpret_cast<const unsigned int*>(src));
#endif
}
__device__ __forceinline__ void commitAsyncCopies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void waitAsyncCopies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

// Horizontal sums of kGaussRun outputs of one staged row, channel `sel` picks (byte c below
// 2^23's float bits): input i is tap i - j of output j. Stores each 4 outputs once complete.
template <int R>
__device__ __forceinline__ void gaussRow(const uint32_t* src, uint32_t sel, const GaussFolded& g, float* dst) {
    constexpr int kInputs = kGaussRun + 2 * R;
    float acc[kGaussRun];
#pragma unroll
    for (int q = 0; q < (kInputs + 3) / 4; ++q) {
        const uint4 four = *reinterpret_cast<const uint4*>(src + 4 * q);
        const uint32_t px[4] = {four.x, four.y, four.z, four.w};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int i = 4 * q + e;
            if (i < kInputs) {
                const float v = __fsub_rn(__uint_as_float(__byte_perm(px[e], 0x4B000000u, sel)), 8388608.0f);
                float p[R + 1];
#pragma unroll
                for (int d = 0; d <= R; ++d) p[d] = __fmul_rn(g.w[d], v);
#pragma unroll
                for (int j = 0; j < kGaussRun; ++j) {
                    const int k = i - j;
                    if (k == 0) acc[j] = p[0];
                    else if (k > 0 && k <= 2 * R) acc[j] = __fadd_rn(acc[j], p[k <= R ? k : 2 * R - k]);
                }
                const int done = i - 2 * R;   // output `done` has its last tap
                if (done >= 3 && done % 4 == 3)
                    *reinterpret_cast<float4*>(dst + done - 3) = make_float4(acc[done - 3], acc[done - 2], acc[done - 1], acc[done]);
            }
        }
    }
}

// Vertical sums of one column over kGaussRun rows: row i of `src` is tap 2R + i - j of output
// j (j = 0.. the piece's rows, then the rows below); `pending` carries the partial sums of
// the 2R outputs below the piece. Writes the finished bytes to `dst` (row stride 128 bytes).
template <int R>
__device__ __forceinline__ void gaussColumn(const float* src, float (&pending)[2 * R], const GaussFolded& g, uint8_t* dst) {
    float acc[kGaussRun + 2 * R];
#pragma unroll
    for (int m = 0; m < 2 * R; ++m) acc[m] = pending[m];
#pragma unroll
    for (int i = 0; i < kGaussRun; ++i) {
        const float v = src[i * kGaussSumStride];
        float p[R + 1];
#pragma unroll
        for (int d = 0; d <= R; ++d) p[d] = __fmul_rn(g.w[d], v);
#pragma unroll
        for (int m = 0; m <= 2 * R; ++m) {   // output i + m, tap 2R - m
            const int k = 2 * R - m;
            if (k == 0) acc[i + m] = p[0];
            else acc[i + m] = __fadd_rn(acc[i + m], p[k <= R ? k : 2 * R - k]);
        }
        // floor(acc + 0.5) clamped (acc >= 0): rounding down to an integer by adding 2^23.
        const float rounded = __fadd_rd(fminf(__fadd_rn(acc[i], 0.5f), 255.0f), 8388608.0f);
        dst[i * kGaussColumns * 4] = uint8_t(__float_as_uint(rounded));
    }
#pragma unroll
    for (int m = 0; m < 2 * R; ++m) pending[m] = acc[kGaussRun + m];
}

template <int R, class Sink>
__global__ void __launch_bounds__(kGaussThreads, gaussStripMinBlocks(R))
    gaussStripKernel(const uint8_t* in, size_t pitch, int w, int h, int bandRows, const __grid_constant__ GaussFolded g, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    __shared__ __align__(16) GaussStripShared<R> sm;
    constexpr int kInputs = kGaussColumns + 2 * R, kInputsPerLane = (kInputs + 31) / 32;
    const int tid = int(threadIdx.x), lane = tid & 31, warp = tid >> 5;
    const int x0 = int(blockIdx.x) * kGaussColumns, y0 = int(blockIdx.y) * bandRows, yEnd = min(y0 + bandRows, h);

    // Staging: warp c copies rows c, c + 3, ...; lane l columns l, l + 32, ... (clamped).
    int srcOffset[kInputsPerLane];
#pragma unroll
    for (int c = 0; c < kInputsPerLane; ++c) srcOffset[c] = clampi(x0 - R + lane + 32 * c, w) * 4;
    auto stage = [&](int ys) {
        for (int row = warp; row < kGaussBatch; row += kGaussThreads / 32) {
            const uint8_t* src = in + size_t(clampi(ys + R + row, h)) * pitch;
#pragma unroll
            for (int c = 0; c < kInputsPerLane; ++c)
                if (lane + 32 * c < kInputs) copyWordAsync(&sm.stage[row][lane + 32 * c], src + srcOffset[c]);
        }
        commitAsyncCopies();
    };
    // Outputs of the batch from row yb: the rows inside the band, joined with the centre's
    // alpha (all of a thread's loads first: one memory latency, not three).
    auto store = [&](int yb) {
        constexpr int kGroups = kGaussColumns / 4, kPerThread = (kGaussBatch * kGroups + kGaussThreads - 1) / kGaussThreads;
        uint4 alpha[kPerThread];
        int n[kPerThread];
#pragma unroll
        for (int t = 0; t < kPerThread; ++t) {
            const int gi = tid + t * kGaussThreads, row = gi / kGroups, x = x0 + 4 * (gi % kGroups), y = yb + row;
            n[t] = gi < kGaussBatch * kGroups && y >= y0 && y < yEnd ? min(4, w - x) : 0;
            const uint32_t* src = reinterpret_cast<const uint32_t*>(in + size_t(clampi(y, h)) * pitch) + x;
            if (n[t] == 4) alpha[t] = __ldg(reinterpret_cast<const uint4*>(src));
            else alpha[t] = make_uint4(n[t] > 0 ? __ldg(src) : 0u, n[t] > 1 ? __ldg(src + 1) : 0u, n[t] > 2 ? __ldg(src + 2) : 0u, 0u);
        }
#pragma unroll
        for (int t = 0; t < kPerThread; ++t) {
            if (n[t] <= 0) continue;
            const int gi = tid + t * kGaussThreads, row = gi / kGroups, col = 4 * (gi % kGroups);
            const uint4 rgb = *reinterpret_cast<const uint4*>(&sm.rgb[row][col]);
            const uint32_t o[4] = {(rgb.x & 0x00ffffffu) | (alpha[t].x & 0xff000000u), (rgb.y & 0x00ffffffu) | (alpha[t].y & 0xff000000u),
                                   (rgb.z & 0x00ffffffu) | (alpha[t].z & 0xff000000u), (rgb.w & 0x00ffffffu) | (alpha[t].w & 0xff000000u)};
            const int x = x0 + col, y = yb + row;
            if (n[t] == 4) {
                out.store4(x, y, o, 4);
            } else {   // the image's last columns (constant indices: the pixels stay in registers)
                out.store(x, y, o[0]);
                if (n[t] > 1) out.store(x + 1, y, o[1]);
                if (n[t] > 2) out.store(x + 2, y, o[2]);
            }
        }
    };

    // The band's first batch starts 2R rows above it: its outputs there are not stored, and
    // from the band's first row on every output has all its taps from this block.
    const uint32_t sel = 0x7440u | uint32_t(warp);   // byte `warp` of the word, then 0, 0, 0x4B
    float pending[2 * R];
#pragma unroll
    for (int m = 0; m < 2 * R; ++m) pending[m] = 0.0f;
    int ys = y0 - 2 * R;
    stage(ys);
    for (; ys < yEnd; ys += kGaussBatch) {
        waitAsyncCopies();
        __syncthreads();
        if (ys > y0 - 2 * R) store(ys - kGaussBatch);   // the previous batch's bytes (written before this barrier)
#pragma unroll 1
        for (int piece = 0; piece < kGaussColumns; piece += kGaussRun)
            gaussRow<R>(&sm.stage[lane][piece], sel, g, &sm.sums[warp][lane][piece]);
        __syncthreads();
        // The next batch's rows, while the vertical pass runs: the horizontal pass is done with the stage.
        if (ys + kGaussBatch < yEnd) stage(ys + kGaussBatch);
#pragma unroll 1
        for (int piece = 0; piece < kGaussBatch; piece += kGaussRun)
            gaussColumn<R>(&sm.sums[warp][piece][lane], pending, g, reinterpret_cast<uint8_t*>(&sm.rgb[piece][lane]) + warp);
    }
    __syncthreads();
    store(ys - kGaussBatch);
}

// ---- Gaussian, r <= 16: banded matrix products on tensor cores -----------------------------
//
// Both passes are products with a banded matrix of the taps, which tensor cores take 16 x 8 x
// 16 at a time (mma.sync m16n8k16: f16 inputs, f32 sums). A block of four warps stages its
// input rows in shared memory, 16 at a time (cp.async, one block of rows ahead); each warp
// owns a strip of 16 output columns and walks down a band of rows in blocks of 16:
//  - horizontal, transposed: H^T[x][y] = sum over k of W[x][k] P^T[k][y], the taps as A
//    (16 outputs x 16 inputs, per k-block of input columns: KB blocks cover 16 + 2r columns)
//    and the pixels as B (16 input columns x 8 rows). A pixel's byte under a zero exponent is
//    the subnormal half v x 2^-24 (no conversion instruction), and the taps go in times 2^12,
//    so the sums come out as H x 2^-12 (sums start from zero: no constant to load);
//  - vertical: V^T[x][y] = sum over k of H^T[x][k] W^T[k][y], the taps again times 2^12. The
//    horizontal results are, as they come out of the tensor core, already laid out as its A
//    operand (a block of 16 rows of H^T is one A fragment), so they stay in registers: a ring
//    of the KB blocks of rows a block of outputs needs, each computed once;
//  - each sum, converted to a half, plus 1024 is rounded to an integer, in the half's low
//    byte; the bytes are joined with the centre's alpha (from the staged rows) and stored.
// 12 products of 16 x 8 x 16 per 256 outputs and channel at KB = 3, where core's order is ~200
// float operations per output. The arithmetic differs from core's: the taps are rounded to
// halves (relative error <= 2^-11 each, so <= 255 x 2^-11 = 0.125 code values per pass), and
// so are the horizontal and the final sums (<= 1/16 each below 256; H x 2^-12 is a normal half
// from H = 1/4 on, and below it a subnormal one is within 2^-12): the sum before rounding is
// within 0.38 of core's, so every byte is within one code value of core's, a flat area (where
// core's sum is the value itself) comes out exactly (0.38 < 0.5), and no sum leaves -0.5 ..
// 255.5 (no clamp).
constexpr int kGaussTcRadiusMax = 16;
constexpr int kGaussTcWarps = 4;        // adjacent strips per block (16 rows of 8 staging threads)
// 20 warps per SM (96 registers): on an H200, 33.4 µs at 4K where 4 blocks (128 registers) took
// 34.6, 6 blocks 44.5, and 8 warps a block 0.6 µs more.
constexpr int kGaussTcMinBlocks = 5;

struct GaussTcParams {
    float w[2 * kGaussTcRadiusMax + 1];   // taps (2 radius + 1) times 2^12, each already a half's value
    int radius;
};

__device__ __forceinline__ uint32_t halfBits(__half2 v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}
__device__ __forceinline__ uint32_t halves(float lo, float hi) { return halfBits(__floats2half2_rn(lo, hi)); }

// Two sums as halves plus 1024: each rounded to an integer, in the half's low byte.
__device__ __forceinline__ uint32_t roundedBytes(float lo, float hi) {
    return halfBits(__hadd2(__floats2half2_rn(lo, hi), __float2half2_rn(1024.0f)));
}

// d = a b + c, one 16 x 8 x 16 product (f16 in, f32 sums).
__device__ __forceinline__ void mma16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1, float c0, float c1, float c2,
                                         float c3) {
#if __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
#else
    __trap();   // never launched: the host runs this kernel only where it was compiled for sm_80 or later
#endif
}

// Two horizontally adjacent pixels as three channel pairs of halves, v x 2^-24 each (a byte
// under a zero exponent is a subnormal half: no conversion instruction).
__device__ __forceinline__ void channelHalves(uint2 px, uint32_t (&b)[3]) {
    const uint32_t rg = __byte_perm(px.x, px.y, 0x5140);   // R0 R1 G0 G1
    const uint32_t bb = __byte_perm(px.x, px.y, 0x0062);   // B0 B1
    b[0] = __byte_perm(rg, 0u, 0x4140);
    b[1] = __byte_perm(rg, 0u, 0x4342);
    b[2] = __byte_perm(bb, 0u, 0x4140);
}

// Input rows staged per block: the 64 columns of its four strips and the windows' margins
// (kFirst = -8 or -16 on either side), a row's words rounded up to 8 mod 32 (a half-warp's
// eight-byte fragment reads, four rows by four lanes, hit distinct banks); three buffers by
// turns, so that the copy into one never meets a warp still reading it (see the turns below).
__host__ __device__ constexpr int gaussTcStride(int columns) { return (columns - 8 + 31) / 32 * 32 + 8; }
constexpr int kGaussTcBuffers = 3;

// 16-byte copy to shared memory (a shared-window address), past L1: the block reads each
// staged word from shared memory.
__device__ __forceinline__ void copyChunkAsync(uint32_t dst, const uint8_t* src) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
#else
    __trap();   // never launched (see mma16816)
#endif
}

template <int KB, class Sink>
__global__ void __launch_bounds__(kGaussTcWarps * 32, kGaussTcMinBlocks)
    gaussTensorKernel(const uint8_t* in, size_t pitch, int w, int h, int bandRows, const __grid_constant__ GaussTcParams p, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    static_assert(KB == 2 || KB == 3, "16 outputs and 2r inputs around them: two k-blocks for r <= 8, three for r <= 16");
    // A window's first input column (row) relative to its first output: -8 puts 8 + 16 + 8
    // inputs in two blocks, -16 puts 16 + 16 + 16 in three.
    constexpr int kFirst = KB == 2 ? -8 : -16;
    constexpr int kCols = 16 * kGaussTcWarps - 2 * kFirst, kThreads = kGaussTcWarps * 32;
    constexpr int kStride = gaussTcStride(kCols);
    __shared__ __align__(16) uint32_t stage[kGaussTcBuffers][16][kStride];

    const int tid = int(threadIdx.x), lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    const int xb = int(blockIdx.x) * 16 * kGaussTcWarps + kFirst;   // the first staged column
    const int x0 = xb - kFirst + 16 * warp;                           // the warp's first output column
    const bool active = x0 < w;                                       // (a warp past the edge still stages)
    const int y0 = int(blockIdx.y) * bandRows, yEnd = min(y0 + bandRows, h);

    // The taps as fragments. Both matrices are bands (the tap depends on input minus output
    // offset only), so each register a lane holds is one of 2 KB + 1 pairs: band[i] holds
    // the taps of offsets s + 2t - g and s + 2t + 1 - g for s = kFirst + 8 (i - 1).
    // Horizontal A (m = output column, k = input column of k-block j, s = kFirst + 16j + k - m
    // at the fragment's first element): {s, s - 8 (m + 8), s + 8 (k + 8), s (both + 8)};
    // vertical B of n-tile q (k = input row of block j, n = output row): {s - 8q, s + 8 - 8q}.
    auto tap = [&](int d) { return d >= -p.radius && d <= p.radius ? p.w[d + p.radius] : 0.0f; };
    uint32_t band[2 * KB + 1];
#pragma unroll
    for (int i = 0; i < 2 * KB + 1; ++i) {
        const int s = kFirst + 8 * (i - 1) + 2 * t - g;
        band[i] = halves(tap(s), tap(s + 1));
    }

    // Staging the 16 rows from r0 (clamped) into a buffer: thread tid copies row tid / 8, the
    // 16-byte chunks tid % 8 + 8k of it (eight lanes: 128 contiguous bytes); where the block's
    // columns cross the picture's edge, a chunk that does is four clamped words.
    static_assert(kThreads == 16 * 8 && kCols % 4 == 0 && kCols / 4 <= 8 * 3, "16 rows of 8 threads, up to 3 chunks each");
    constexpr int kRowChunks = kCols / 4;
    const int stageRow = tid >> 3, firstChunk = tid & 7;
    const bool interior = xb >= 0 && xb + kCols <= w;   // every staged column inside the picture
    const uint32_t stageShared = uint32_t(__cvta_generic_to_shared(&stage[0][stageRow][4 * firstChunk]));
    constexpr uint32_t kBufferBytes = sizeof(stage[0]);
    auto stageRows = [&](int r0, int buffer) {
        const uint8_t* src = in + size_t(clampi(r0 + stageRow, h)) * pitch;
        const uint32_t dst = stageShared + uint32_t(buffer) * kBufferBytes;
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            const int chunk = firstChunk + 8 * k, col = xb + 4 * chunk;
            if (chunk >= kRowChunks) continue;
            if (interior || (col >= 0 && col + 4 <= w)) {
                copyChunkAsync(dst + 128u * uint32_t(k), src + size_t(col) * 4);
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) copyWordAsync(&stage[buffer][stageRow][4 * chunk + i], src + size_t(clampi(col + i, w)) * 4);
            }
        }
        commitAsyncCopies();
    };
    // Horizontal sums of a staged block of rows, as the vertical pass's A fragments (halves).
    // B fragment (q, j, s): row 8q + g, columns 16 warp + 16j + 2t (+1) + 8s of the stage.
    // a[ch][2q] = rows 2t, 2t + 1 of n-tile q at column g, a[ch][2q + 1] the same at column g + 8.
    auto horizontal = [&](int buffer, uint32_t (&a)[3][4]) {
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            const uint32_t* row = &stage[buffer][8 * q + g][16 * warp + 2 * t];
            float acc[3][4];
#pragma unroll
            for (int j = 0; j < KB; ++j) {
                const uint32_t taps[4] = {band[2 * j + 1], band[2 * j], band[2 * j + 2], band[2 * j + 1]};
                uint32_t lo[3], hi[3];
                channelHalves(*reinterpret_cast<const uint2*>(row + 16 * j), lo);
                channelHalves(*reinterpret_cast<const uint2*>(row + 16 * j + 8), hi);
#pragma unroll
                for (int ch = 0; ch < 3; ++ch) {
                    if (j == 0) mma16816(acc[ch], taps, lo[ch], hi[ch], 0.0f, 0.0f, 0.0f, 0.0f);
                    else mma16816(acc[ch], taps, lo[ch], hi[ch], acc[ch][0], acc[ch][1], acc[ch][2], acc[ch][3]);
                }
            }
#pragma unroll
            for (int ch = 0; ch < 3; ++ch) {
                a[ch][2 * q] = halves(acc[ch][0], acc[ch][1]);
                a[ch][2 * q + 1] = halves(acc[ch][2], acc[ch][3]);
            }
        }
    };

    // Block of rows hb starts at row y0 + kFirst + 16 hb, in buffer hb mod 3; the outputs from
    // row y0 + 16 n take blocks n .. n + KB - 1. Each turn stages block hb + 1 and computes hb.
    uint32_t ring[KB][3][4];   // the horizontal sums of the window's blocks of rows, by turns
    const int firstRow = y0 + kFirst;
    // A turn waits for its block's copies, then (past the barrier, so every warp is done with
    // the turn before, the last to read the third buffer) stages the next block while it computes.
    stageRows(firstRow, 0);
#pragma unroll
    for (int hb = 0; hb < KB - 1; ++hb) {
        waitAsyncCopies();
        __syncthreads();
        stageRows(firstRow + 16 * (hb + 1), (hb + 1) % kGaussTcBuffers);
        if (active) horizontal(hb % kGaussTcBuffers, ring[hb]);
    }
    // One turn: the ring's slots as constants (turn = hb - (KB - 1) mod KB), so it stays in registers.
    int y = y0, hb = KB - 1;
    auto step = [&](auto turnConstant) {
        constexpr int turn = decltype(turnConstant)::value;
        waitAsyncCopies();
        __syncthreads();
        stageRows(firstRow + 16 * (hb + 1), (hb + 1) % kGaussTcBuffers);   // past the band: clamped rows, not used
        if (active) {
            horizontal(hb % kGaussTcBuffers, ring[(turn + KB - 1) % KB]);
#pragma unroll
            for (int q = 0; q < 2; ++q) {
                float acc[3][4];
#pragma unroll
                for (int j = 0; j < KB; ++j)
#pragma unroll
                    for (int ch = 0; ch < 3; ++ch) {
                        if (j == 0) mma16816(acc[ch], ring[(turn + j) % KB][ch], band[2 * j + 1 - q], band[2 * j + 2 - q], 0.0f, 0.0f, 0.0f, 0.0f);
                        else mma16816(acc[ch], ring[(turn + j) % KB][ch], band[2 * j + 1 - q], band[2 * j + 2 - q], acc[ch][0], acc[ch][1],
                                      acc[ch][2], acc[ch][3]);
                    }
                // acc[ch][2 half + i]: the sum at column x0 + g + 8 half, row y + 8q + 2t + i. The
                // centre's alpha comes from the staged block holding row y + 8q (the same for the
                // n-tile's eight rows).
                const int yy = y + 8 * q + 2 * t;
                const int staged = y + 8 * q - firstRow;   // in block hb - 1 or hb, still in its buffer
                const uint32_t* alphaRows = &stage[(staged >> 4) % kGaussTcBuffers][(staged & 15) + 2 * t][0];
#pragma unroll
                for (int half = 0; half < 2; ++half) {
                    const int x = x0 + g + 8 * half;
                    const uint32_t r = roundedBytes(acc[0][2 * half], acc[0][2 * half + 1]);
                    const uint32_t gr = roundedBytes(acc[1][2 * half], acc[1][2 * half + 1]);
                    const uint32_t b = roundedBytes(acc[2][2 * half], acc[2][2 * half + 1]);
                    const uint32_t rg = __byte_perm(r, gr, 0x6240);   // R(yy) G(yy) R(yy+1) G(yy+1)
                    const uint32_t top = __byte_perm(rg, __byte_perm(b, alphaRows[x - xb], 0x7000), 0x7610);
                    const uint32_t bottom = __byte_perm(rg, __byte_perm(b, alphaRows[kStride + x - xb], 0x7200), 0x7632);
                    if (x < w) {
                        if (yy < yEnd) out.store(x, yy, top);
                        if (yy + 1 < yEnd) out.store(x, yy + 1, bottom);
                    }
                }
            }
        }
        y += 16;
        ++hb;
        return y >= yEnd;
    };
    for (;;) {
        if (step(std::integral_constant<int, 0>{}) || step(std::integral_constant<int, 1>{})) break;
        if constexpr (KB == 3)
            if (step(std::integral_constant<int, 2>{})) break;
    }
    waitAsyncCopies();   // no copy may land in shared memory after the block has left it
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

__global__ void gaussRowsKernel(const uint8_t* in, size_t pitch, int w, int h, GaussWeights g, float4* tmp, size_t tmpPitch) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    float acc[3] = {0.0f, 0.0f, 0.0f};
    for (int k = 0; k <= 2 * g.radius; ++k) {
        const uint32_t p = pixelAt(in, pitch, clampi(x - g.radius + k, w), y);
        for (int c = 0; c < 3; ++c) acc[c] = __fadd_rn(acc[c], __fmul_rn(g.w[k], byteToFloat(channel(p, c))));
    }
    reinterpret_cast<float4*>(reinterpret_cast<uint8_t*>(tmp) + size_t(y) * tmpPitch)[x] = make_float4(acc[0], acc[1], acc[2], 0.0f);
}

template <class Sink>
__global__ void gaussColumnsKernel(const uint8_t* in, size_t pitch, const float4* tmp, size_t tmpPitch, int w, int h, GaussWeights g, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    float acc[3] = {0.0f, 0.0f, 0.0f};
    for (int k = 0; k <= 2 * g.radius; ++k) {
        const float4 t = reinterpret_cast<const float4*>(reinterpret_cast<const uint8_t*>(tmp) + size_t(clampi(y - g.radius + k, h)) * tmpPitch)[x];
        acc[0] = __fadd_rn(acc[0], __fmul_rn(g.w[k], t.x));
        acc[1] = __fadd_rn(acc[1], __fmul_rn(g.w[k], t.y));
        acc[2] = __fadd_rn(acc[2], __fmul_rn(g.w[k], t.z));
    }
    uint32_t rgba = pixelAt(in, pitch, x, y) & 0xff000000u;
    for (int c = 0; c < 3; ++c) rgba |= uint32_t(fminf(fmaxf(floorf(__fadd_rn(acc[c], 0.5f)), 0.0f), 255.0f)) << (8 * c);
    out.store(x, y, rgba);
}

// ---- Groups of 8 pixels: median, Sobel, focus peaking -----------------------------------------

// These kernels give each thread 8 horizontally adjacent pixels (x0 = 8 (32 blockIdx.x +
// lane)) of a few output rows (2 for the median, kSobelRows for Sobel); a warp covers 256
// pixels of its rows, a block of 32 x 8 threads 256 pixels of 8 times as many rows. Input
// rows are read in 16-byte chunks; the columns either side of a group (x0 - 1 and x0 + 8)
// come from the neighbouring lanes by shuffles (from memory for lanes 0 and 31), clamped at
// the frame's edges like the CPU's clampIndex. Plane pointers and pitches are multiples of
// 16 bytes, so a chunk whose first pixel is inside the row lies inside the row's pitch.
constexpr int kGroup = 8;
constexpr int kMedianRows = 2;
constexpr int kSobelRows = 2;   // measured at 4K: 1 row as fast, 4 rows 13-19% slower (fewer warps resident)
constexpr int kGroupWarps = 8;
const dim3 kGroupBlock(32, kGroupWarps);
constexpr int kWarpStageChunks = 64;   // storeWarpGroups' stage: 256 pixels, 1 KB
dim3 groupGrid(int w, int h, int rowsPerThread) {
    return dim3(unsigned((w + 32 * kGroup - 1) / (32 * kGroup)), unsigned((h + 8 * rowsPerThread - 1) / (8 * rowsPerThread)));
}

// e[1..8] hold the group's values at columns x0 .. x0 + 7, those past the right edge equal
// to the last one inside (loadPixels8; the Sobel kernel's code loads). Fills e[0] and e[9]
// so that e[k] is the value at column clamp(x0 - 1 + k): from the neighbouring lanes, from
// memory (`load(x)` reads column x) at lanes 0 and 31, e[1] or e[8] at the frame's edges.
// Every lane of the warp must call it (shuffles).
template <typename Load>
__device__ __forceinline__ void completeRow(uint32_t e[10], int x0, int w, int lane, Load load) {
    const uint32_t fromLeft = __shfl_up_sync(0xffffffffu, e[8], 1);
    const uint32_t fromRight = __shfl_down_sync(0xffffffffu, e[1], 1);
    if (x0 >= w) return;
    e[0] = x0 == 0 ? e[1] : (lane > 0 ? fromLeft : load(x0 - 1));
    e[9] = x0 + kGroup >= w ? e[8] : (lane < 31 ? fromRight : load(x0 + kGroup));
}

// Eight RGBA pixels of a row from x0 (n of them inside the frame) into e[1..8]; past the
// edge, the last pixel inside again (nothing where n <= 0).
__device__ __forceinline__ void loadPixels8(const uint32_t* row, int x0, int n, uint32_t e[10]) {
    if (n == kGroup) {
        const uint4 a = __ldg(reinterpret_cast<const uint4*>(row + x0)), b = __ldg(reinterpret_cast<const uint4*>(row + x0) + 1);
        e[1] = a.x; e[2] = a.y; e[3] = a.z; e[4] = a.w; e[5] = b.x; e[6] = b.y; e[7] = b.z; e[8] = b.w;
    } else if (n > 0) {
#pragma unroll
        for (int j = 0; j < kGroup; ++j) e[j + 1] = __ldg(row + x0 + min(j, n - 1));
    }
}

// n (1..8) pixels from x0, as two halves of four: 16-byte stores where a half is whole, else
// pixel by pixel with constant indices, so o stays in registers (store4's loop to a run-time
// count would index it dynamically and send every output through local memory).
template <class Sink>
__device__ __forceinline__ void store8(const Sink& out, int x0, int y, const uint32_t o[8], int n) {
    auto half = [&](int x, const uint32_t* v, int m) {
        if (m == 4) {
            out.store4(x, y, v, 4);
        } else {
#pragma unroll
            for (int i = 0; i < 4; ++i)
                if (i < m) out.store(x + i, y, v[i]);
        }
    };
    half(x0, o, min(n, 4));
    if (n > 4) half(x0 + 4, o + 4, n - 4);
}

// ---- Median ----------------------------------------------------------------------------------

// Values up to 255 in the 16-bit lanes of words (a sum of three fits a lane). Hopper has
// 3-way 16x2 min/max as single (DPX) instructions; the middle of three is the sum less both.
// The kernel is bound by the ALU pipe, which runs the min/max, logic and byte permutes
// (Nsight: math-pipe throttle its top stall, the FMA pipe 9% busy): the sums of three are two
// multiply-adds by `one`, a 1 the compiler cannot see (a kernel argument; it would fold a
// constant 1 back into ALU adds), which issue to the FMA pipe beside it.
__device__ __forceinline__ uint32_t sum3(uint32_t a, uint32_t b, uint32_t c, uint32_t one) { return c * one + (a * one + b); }
__device__ __forceinline__ uint32_t middle3(uint32_t a, uint32_t b, uint32_t c, uint32_t one) {
    return sum3(a, b, c, one) - __vimin3_s16x2(a, b, c) - __vimax3_s16x2(a, b, c);
}
struct SortedColumn {
    uint32_t lo, mid, hi;
};
__device__ __forceinline__ SortedColumn sort3(uint32_t a, uint32_t b, uint32_t c, uint32_t one) {
    const uint32_t lo = __vimin3_s16x2(a, b, c), hi = __vimax3_s16x2(a, b, c);
    return {lo, sum3(a, b, c, one) - lo - hi, hi};
}
// The median of nine from three sorted columns: the middle of (the largest low, the middle
// middle, the smallest high), the 3x3 median exactly, as core's median3x3 finds it.
__device__ __forceinline__ uint32_t median9(const SortedColumn& l, const SortedColumn& m, const SortedColumn& r, uint32_t one) {
    return middle3(__vimax3_s16x2(l.lo, m.lo, r.lo), middle3(l.mid, m.mid, r.mid, one), __vimin3_s16x2(l.hi, m.hi, r.hi), one);
}
// One input column's sorts for the thread's two output rows y0, y0 + 1 (input rows y0 - 1 ..
// y0 + 2 in p0..p3): R|B words of each output row, and the G of both in one word (low lane
// row y0's triple, high lane row y0 + 1's), so G costs one sort and one median for two pixels.
struct ColumnSorts {
    SortedColumn rb0, rb1, g;
};
__device__ __forceinline__ ColumnSorts sortColumn(uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3, uint32_t one) {
    const uint32_t rb0 = p0 & 0x00ff00ffu, rb1 = p1 & 0x00ff00ffu, rb2 = p2 & 0x00ff00ffu, rb3 = p3 & 0x00ff00ffu;
    const uint32_t g01 = __byte_perm(p0, p1, 0x0501) & 0x00ff00ffu, g12 = __byte_perm(p1, p2, 0x0501) & 0x00ff00ffu,
                   g23 = __byte_perm(p2, p3, 0x0501) & 0x00ff00ffu;
    return {sort3(rb0, rb1, rb2, one), sort3(rb1, rb2, rb3, one), sort3(g01, g12, g23, one)};
}

// Each column's sort serves the three outputs whose windows hold it; alpha is the centre's,
// as the CPU keeps it. Four blocks per multiprocessor hold ptxas to 64 registers (no spills
// to pitched memory): measured at 4K, 29.4 µs; with a minimum of one block it took 135
// registers (one block per multiprocessor, 46 µs), left free 76-78 (the first version: 32.5 µs).
template <class Sink>
__global__ void __launch_bounds__(256, 4) medianKernel(const uint8_t* in, size_t pitch, int w, int h, uint32_t one, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int lane = int(threadIdx.x);
    const int x0 = kGroup * int(blockIdx.x * 32 + threadIdx.x), y0 = kMedianRows * int(blockIdx.y * blockDim.y + threadIdx.y);
    if (y0 >= h) return;   // the whole warp: its lanes share y0
    const int n = min(kGroup, w - x0);
    uint32_t p[4][10];
    const uint32_t* rows[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        rows[i] = reinterpret_cast<const uint32_t*>(in + size_t(clampi(y0 - 1 + i, h)) * pitch);
        loadPixels8(rows[i], x0, n, p[i]);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) completeRow(p[i], x0, w, lane, [&](int x) { return __ldg(rows[i] + x); });
    if (n <= 0) return;
    ColumnSorts a = sortColumn(p[0][0], p[1][0], p[2][0], p[3][0], one), b = sortColumn(p[0][1], p[1][1], p[2][1], p[3][1], one);
    uint32_t o0[kGroup], o1[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
        const ColumnSorts c = sortColumn(p[0][j + 2], p[1][j + 2], p[2][j + 2], p[3][j + 2], one);
        const uint32_t g = median9(a.g, b.g, c.g, one);
        // R and B from the R|B median, G from its lane of g, alpha from the centre pixel.
        const uint32_t rgb0 = __byte_perm(median9(a.rb0, b.rb0, c.rb0, one), g, 0x3240);
        const uint32_t rgb1 = __byte_perm(median9(a.rb1, b.rb1, c.rb1, one), g, 0x3260);
        o0[j] = rgb0 | (p[1][j + 1] & 0xff000000u);   // byte 3 of an R|B median is 0
        o1[j] = rgb1 | (p[2][j + 1] & 0xff000000u);
        a = b;
        b = c;
    }
    store8(out, x0, y0, o0, n);
    if (y0 + 1 < h) store8(out, x0, y0 + 1, o1, n);
}

// ---- Sobel: edges and focus peaking --------------------------------------------------------

enum class SobelMode { Edges, PeakOpaque, PeakBlend };

struct SobelParams {
    uint32_t maxCode;
    float greyScale;                  // edges: 255 / (4 maxCode), the grey per unit of sqrt(g2)
    const uint32_t* firstSquares;     // edges: sobelEdgeFirstSquare of greys 0..255, then "never" (device)
    uint32_t peakFirst;               // peaking: focusPeakingFirstSquare (past every g2: none)
    uint32_t paint;                   // PeakOpaque: the colour's R, G, B (alpha byte 0)
    const uint32_t* blend;            // PeakBlend: focusPeakingBlend's 3 x 256 bytes (device)
};
constexpr int kBlendWords = 3 * 256 / 4;
constexpr int kFirstSquares = 257;   // greys 0..255 and a sentinel past every square

__device__ __forceinline__ float sqrtApprox(float x) {
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
// 16-bit lanes' minimum, one instruction.
__device__ __forceinline__ uint32_t minU16x2(uint32_t a, uint32_t b) {
    uint32_t r;
    asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

// The CPU's grey is min(255, floor(V + 0.5)) of V = sqrt(g2) norm 255 in double, and it
// is at least k exactly when g2 >= first[k]. A float estimate w of V (conversion, an
// approximate square root and a product: within 1e-6 relative, far under 0.5 absolute)
// leaves two candidates: with k = floor(w) + 1, V + 0.5 lies in [k - 1, k + 1), so the grey
// is k - 1 or k, and one comparison with first[k] (shared memory) decides it exactly.
// No branch, and no dependence on how good the estimate is beyond that half.
__device__ __forceinline__ uint32_t edgeGrey(int32_t g2, float greyScale, const uint32_t* first) {
    const float w = __fmul_rn(sqrtApprox(__int2float_rn(g2)), greyScale);
    // 2^23 + floor(w), rounding down: its low bits are floor(w) (w < 2^23).
    const uint32_t k = min(__float_as_uint(__fadd_rd(w, 8388608.0f)) - 0x4B000000u + 1u, uint32_t(kFirstSquares - 1));
    return k - (uint32_t(g2) < first[k] ? 1u : 0u);   // first[256] is past every square: 255
}

// Integer gradients of 8 pixels by kSobelRows rows per thread: each column's vertical sums (u + 2a + d
// for gx, d - u for gy) serve the three pixels beside it. Squares fit 32 bits up to 12-bit luma.
// Edges: grey by edgeGrey. Peaking: gx^2 + gy^2 at or above the first square paints the
// pixel, with the colour (opaque) or per channel from the blend table in shared memory.
template <class Sink, SobelMode kMode>
__global__ void __launch_bounds__(256) sobelKernel(const uint16_t* luma, size_t lumaPitch, const uint8_t* picture, size_t picturePitch,
                                                   int w, int h, SobelParams sp, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    // The block's table: edges' first squares, or the blend of a semi-transparent colour.
    constexpr int kTableWords = kMode == SobelMode::Edges ? kFirstSquares : (kMode == SobelMode::PeakBlend ? kBlendWords : 1);
    __shared__ uint32_t table[kTableWords];
    if constexpr (kMode != SobelMode::PeakOpaque) {
        const uint32_t* source = kMode == SobelMode::Edges ? sp.firstSquares : sp.blend;
        for (int t = int(threadIdx.y * blockDim.x + threadIdx.x); t < kTableWords; t += int(blockDim.x * blockDim.y)) table[t] = __ldg(source + t);
        __syncthreads();
    }
    const int lane = int(threadIdx.x);
    const int x0 = kGroup * int(blockIdx.x * 32 + threadIdx.x), y0 = kSobelRows * int(blockIdx.y * blockDim.y + threadIdx.y);
    if (y0 >= h) return;   // the whole warp: its lanes share y0
    const int n = min(kGroup, w - x0);
    // Edges store through a stage (storeWarpGroups: 1.6 µs of 23.4 at 4K); peaking does not,
    // as it measured slower so (76 registers instead of 64-70: three blocks per SM, not four).
    constexpr bool kStaged = kMode == SobelMode::Edges;
    __shared__ uint4 stage[kStaged ? kGroupWarps : 1][kWarpStageChunks];
    const int warpX = kGroup * 32 * int(blockIdx.x);
    const bool warpInside = kStaged && warpX + kGroup * 32 <= w;   // every lane's 8 pixels: the whole warp stores through the stage
    const uint16_t* rows[kSobelRows + 2];
    uint4 raw[kSobelRows + 2];
#pragma unroll
    for (int i = 0; i < kSobelRows + 2; ++i) {
        rows[i] = reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(luma) + size_t(clampi(y0 - 1 + i, h)) * lumaPitch);
        if (n == kGroup) {
            raw[i] = __ldg(reinterpret_cast<const uint4*>(rows[i] + x0));
        } else {   // the frame's right edge: past it, the last code inside again
            uint32_t v[kGroup] = {};
#pragma unroll
            for (int j = 0; j < kGroup; ++j)
                if (n > 0) v[j] = __ldg(rows[i] + x0 + min(j, n - 1));
            raw[i] = make_uint4(v[0] | (v[1] << 16), v[2] | (v[3] << 16), v[4] | (v[5] << 16), v[6] | (v[7] << 16));
        }
    }
    uint32_t pixels[kSobelRows][10];
    if constexpr (kMode != SobelMode::Edges) {
#pragma unroll
        for (int r = 0; r < kSobelRows; ++r)
            loadPixels8(reinterpret_cast<const uint32_t*>(picture + size_t(min(y0 + r, h - 1)) * picturePitch), x0, n, pixels[r]);
    }
    // Codes clamped to the depth's top, as the CPU's, two at a time.
    const uint32_t maxPair = sp.maxCode | (sp.maxCode << 16);
    uint32_t c[kSobelRows + 2][10];
#pragma unroll
    for (int i = 0; i < kSobelRows + 2; ++i) {
        const uint32_t words[4] = {raw[i].x, raw[i].y, raw[i].z, raw[i].w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const uint32_t v = minU16x2(words[k], maxPair);
            c[i][1 + 2 * k] = v & 0xffffu;
            c[i][2 + 2 * k] = v >> 16;
        }
        completeRow(c[i], x0, w, lane, [&](int x) { return min(uint32_t(__ldg(rows[i] + x)), sp.maxCode); });
    }
    if (n <= 0) return;
#pragma unroll
    for (int r = 0; r < kSobelRows; ++r) {
        const int y = y0 + r;
        if (y >= h) break;
        int32_t s[10], d[10];
#pragma unroll
        for (int k = 0; k < 10; ++k) {
            s[k] = int32_t(c[r][k]) + 2 * int32_t(c[r + 1][k]) + int32_t(c[r + 2][k]);
            d[k] = int32_t(c[r + 2][k]) - int32_t(c[r][k]);
        }
        uint32_t o[kGroup];
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            const int32_t gx = s[j + 2] - s[j], gy = d[j] + 2 * d[j + 1] + d[j + 2];
            const int32_t g2 = gx * gx + gy * gy;
            if constexpr (kMode == SobelMode::Edges) {
                o[j] = edgeGrey(g2, sp.greyScale, table) * 0x00010101u + 0xff000000u;
            } else {
                uint32_t px = pixels[r][j + 1];
                if (uint32_t(g2) >= sp.peakFirst) {
                    if constexpr (kMode == SobelMode::PeakOpaque) {
                        px = (px & 0xff000000u) | sp.paint;
                    } else {
                        const uint8_t* blend = reinterpret_cast<const uint8_t*>(table);
                        px = (px & 0xff000000u) | uint32_t(blend[px & 0xffu]) | (uint32_t(blend[256 + ((px >> 8) & 0xffu)]) << 8) |
                             (uint32_t(blend[512 + ((px >> 16) & 0xffu)]) << 16);
                    }
                }
                o[j] = px;
            }
        }
        if (warpInside) storeWarpGroups(out, stage[kStaged ? threadIdx.y : 0], warpX, y, o, lane, 32);
        else store8(out, x0, y, o, n);
    }
}

// ---- Zebra, false colour ---------------------------------------------------------------------

// Four luma codes of row y from x (a multiple of 4), clamped to maxCode; n valid.
__device__ __forceinline__ void lumaCodes4(const uint16_t* luma, size_t lumaPitch, int x, int y, int n, int maxCode, int codes[4]) {
    const uint16_t* row = reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(luma) + size_t(y) * lumaPitch) + x;
    if (n == 4) {
        const uint2 q = __ldg(reinterpret_cast<const uint2*>(row));
        codes[0] = int(q.x & 0xffffu); codes[1] = int(q.x >> 16); codes[2] = int(q.y & 0xffffu); codes[3] = int(q.y >> 16);
    } else {
        for (int i = 0; i < 4; ++i) codes[i] = i < n ? int(__ldg(row + i)) : 0;
    }
    for (int i = 0; i < 4; ++i) codes[i] = min(codes[i], maxCode);
}

// Zebra and false colour: four pixels per thread (8-byte luma loads, 16-byte picture loads
// and stores): these kernels only move bytes.
template <class Sink>
__global__ void zebraKernel(const uint16_t* luma, size_t lumaPitch, const uint8_t* picture, size_t picturePitch, int w, int h,
                            const uint32_t* zones, int maxCode, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int x = 4 * int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const int n = min(4, w - x);
    int codes[4];
    lumaCodes4(luma, lumaPitch, x, y, n, maxCode, codes);
    uint32_t px[4];
    const uint32_t* row = reinterpret_cast<const uint32_t*>(picture + size_t(y) * picturePitch) + x;
    if (n == 4) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(row));
        px[0] = q.x; px[1] = q.y; px[2] = q.z; px[3] = q.w;
    } else {
        for (int i = 0; i < 4; ++i) px[i] = i < n ? __ldg(row + i) : 0;
    }
    for (int i = 0; i < 4; ++i) {
        const uint32_t z = __ldg(zones + codes[i]);
        const int xi = x + i;
        if (z == 1 && ((xi + y) & 7) < 4) px[i] &= 0xff000000u;
        else if (z == 2 && ((xi - y) & 7) < 4) px[i] |= 0x00ffffffu;
    }
    out.store4(x, y, px, n);
}

template <class Sink>
__global__ void lookupKernel(const uint16_t* luma, size_t lumaPitch, int w, int h, const uint32_t* lut, int maxCode, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int x = 4 * int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const int n = min(4, w - x);
    int codes[4];
    lumaCodes4(luma, lumaPitch, x, y, n, maxCode, codes);
    const uint32_t v[4] = {__ldg(lut + codes[0]), __ldg(lut + codes[1]), __ldg(lut + codes[2]), __ldg(lut + codes[3])};
    out.store4(x, y, v, n);
}

const dim3 kBlock2d(32, 8);

// The strip kernel's compiled radius classes; a radius in between runs as the next class up
// with zero-padded weights (at most 1.2x the taps of its own radius).
constexpr int kGaussRadiusClasses[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 23, 26, 29, 32};
static_assert(kGaussRadiusClasses[std::size(kGaussRadiusClasses) - 1] == kGaussStripRadiusMax);

// Bands of rows per strip: as many as fit beside the strips in one wave of `slots` blocks,
// each a whole number of batches with the 2R rows above it.
struct GaussBands {
    dim3 grid;
    int rows;
};
GaussBands gaussBands(int radius, int w, int h, int slots) {
    const int strips = (w + kGaussColumns - 1) / kGaussColumns;
    const int bands = std::max(1, slots / strips);
    const int batches = std::max(((h + bands - 1) / bands + 2 * radius + kGaussBatch - 1) / kGaussBatch,
                                 (kGaussBatch + 2 * radius + kGaussBatch - 1) / kGaussBatch);
    const int rows = batches * kGaussBatch - 2 * radius;
    return {dim3(unsigned(strips), unsigned((h + rows - 1) / rows)), rows};
}

template <int R>
cudaError_t prepareGaussClass() {
    // Eight blocks of 24 KB per SM need the largest shared memory carveout; left to the
    // driver, it may pick a smaller one and fit fewer.
    for (const void* kernel : {reinterpret_cast<const void*>(gaussStripKernel<R, PitchedOut>), reinterpret_cast<const void*>(gaussStripKernel<R, SurfaceOut>)})
        if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
            e != cudaSuccess)
            return e;
    return cudaSuccess;
}

template <int R>
cudaError_t enqueueGaussClass(const uint8_t* in, size_t pitch, int w, int h, const std::vector<float>& weights, int multiprocessors,
                              const ImageSink& out, cudaStream_t stream, bool dependent) {
    // Folded and zero-padded: tap d of the class is tap d - (R - r) of the radius r.
    const int r = int(weights.size()) / 2;
    GaussFolded g{};
    for (int d = R - r; d <= R; ++d) g.w[d] = weights[size_t(d - (R - r))];
    return withSink(out, [&](auto sink) {
        const auto kernel = gaussStripKernel<R, decltype(sink)>;
        int perSm = 1;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kGaussThreads, 0) != cudaSuccess) return;
        const GaussBands b = gaussBands(R, w, h, std::max(1, multiprocessors) * std::max(1, perSm));
        launchDependent(dependent, kernel, b.grid, dim3(kGaussThreads), stream, in, pitch, w, h, b.rows, g, sink);
    });
}

// fn(std::integral_constant<int, R>{}) for the class R that runs radius r (1..32).
template <class Fn, size_t... I>
cudaError_t withGaussClass(int r, Fn&& fn, std::index_sequence<I...>) {
    int classRadius = kGaussStripRadiusMax;
    for (int c : kGaussRadiusClasses)
        if (c >= r) { classRadius = c; break; }
    cudaError_t e = cudaErrorInvalidValue;
    ((kGaussRadiusClasses[I] == classRadius ? (e = fn(std::integral_constant<int, kGaussRadiusClasses[I]>{}), 0) : 0), ...);
    return e;
}
template <class Fn>
cudaError_t withGaussClass(int r, Fn&& fn) {
    return withGaussClass(r, std::forward<Fn>(fn), std::make_index_sequence<std::size(kGaussRadiusClasses)>());
}

cudaError_t prepareGaussStrip(int r) {
    return withGaussClass(r, [](auto classRadius) { return prepareGaussClass<decltype(classRadius)::value>(); });
}

// The Gaussian of radius r <= 32 (weights: 2r + 1 taps, symmetric) by the strip kernel.
cudaError_t enqueueGaussStrip(const uint8_t* in, size_t pitch, int w, int h, const std::vector<float>& weights, int multiprocessors,
                              const ImageSink& out, cudaStream_t stream, bool dependent) {
    return withGaussClass(int(weights.size()) / 2, [&](auto classRadius) {
        return enqueueGaussClass<decltype(classRadius)::value>(in, pitch, w, h, weights, multiprocessors, out, stream, dependent);
    });
}

// The tensor-core Gaussian runs where its kernel comes from sm_80 code or later: a GPU that
// runs the compute_75 PTX (compiled just in time) has no mma.sync there, and takes the strip kernel.
bool gaussTensorCompiled() {
    cudaFuncAttributes a{};
    return cudaFuncGetAttributes(&a, gaussTensorKernel<3, PitchedOut>) == cudaSuccess && a.ptxVersion >= 80;
}

// The Gaussian of radius r <= 16 on tensor cores. One wave: the strips times the bands of rows
// fill the resident warps (each band computes KB - 1 blocks of rows above it again).
cudaError_t enqueueGaussTensor(const uint8_t* in, size_t pitch, int w, int h, const std::vector<float>& weights, int multiprocessors,
                               const ImageSink& out, cudaStream_t stream, bool dependent) {
    GaussTcParams p{};
    p.radius = int(weights.size()) / 2;
    for (size_t i = 0; i < weights.size(); ++i) p.w[i] = __half2float(__float2half_rn(weights[i] * 4096.0f));
    const auto launch = [&](auto blocks) {
        return withSink(out, [&](auto sink) {
            const auto kernel = gaussTensorKernel<decltype(blocks)::value, decltype(sink)>;
            int perSm = 1;
            if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kGaussTcWarps * 32, 0) != cudaSuccess) return;
            const int strips = (w + 15) / 16;
            const int bands = std::max(1, std::max(1, multiprocessors) * std::max(1, perSm) * kGaussTcWarps / strips);
            const int rows = ((h + bands - 1) / bands + 15) / 16 * 16;
            const dim3 grid(unsigned((strips + kGaussTcWarps - 1) / kGaussTcWarps), unsigned((h + rows - 1) / rows));
            launchDependent(dependent, kernel, grid, dim3(kGaussTcWarps * 32), stream, in, pitch, w, h, rows, p, sink);
        });
    };
    return p.radius <= 8 ? launch(std::integral_constant<int, 2>{}) : launch(std::integral_constant<int, 3>{});
}

}  // namespace

bool previewNeedsPicture(PreviewFilter f) {
    return f == PreviewFilter::BoxBlur || f == PreviewFilter::Gaussian || f == PreviewFilter::Median3 ||
           f == PreviewFilter::FocusPeaking || f == PreviewFilter::Zebra;
}
bool previewNeedsLuma(PreviewFilter f) {
    return f == PreviewFilter::Edges || f == PreviewFilter::FocusPeaking || f == PreviewFilter::Zebra ||
           f == PreviewFilter::FalseColour;
}

cudaError_t copyImage(const uint8_t* d_src, size_t srcPitch, int width, int height, const ImageSink& out, cudaStream_t stream) {
    return withSink(out, [&](auto sink) {
        copyKernel<<<gridFor(width, height, kBlock2d), kBlock2d, 0, stream>>>(d_src, srcPitch, width, height, sink);
    });
}

Status PreviewFilters::prepare(const ScopeSpec& spec, int width, int height, int bitDepth, Range lumaRange, cudaStream_t stream) {
    const Setup setup{spec.preview, spec.filter, width, height, bitDepth, lumaRange};
    if (prepared_ == setup) return {};
    prepared_.reset();   // set again only once everything below has succeeded
    // Every preview kernel is compiled alike: one stands for all.
    dependentLaunch_ = detail::dependentLaunchSupported(reinterpret_cast<const void*>(lookupKernel<PitchedOut>));
    filter_ = spec.preview;
    width_ = width; height_ = height; bitDepth_ = bitDepth;
    const FilterParams& f = spec.filter;
    const int levels = 1 << bitDepth;
    lut_.clear();
    switch (filter_) {
        case PreviewFilter::BoxBlur: {
            boxRadius_ = std::clamp(f.blurRadius, 0, kMaxBoxRadius);
            if (boxRadius_ > kBoxStripRadiusMax) {
                CS_TRY(d_scratch_.reserve(size_t(width) * size_t(height) * sizeof(uint4)));
                scratchPitch_ = size_t(width) * sizeof(uint4);
            } else {
                int device = 0;
                CS_CUDA_CHECK(cudaGetDevice(&device));
                CS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device));
            }
            break;
        }
        case PreviewFilter::Gaussian: {
            // Core's weights: normalised in double, stored as float; radius max(1, ceil(3 sigma)).
            gaussRadius_ = 0;
            gaussTensor_ = false;
            gaussWeights_.clear();
            const float sigma = f.gaussianSigma;
            if (!std::isfinite(sigma) || sigma <= 0.0f) break;
            const double s = std::min(sigma, kMaxGaussianSigma);
            gaussRadius_ = std::max(1, int(std::ceil(3.0 * s)));
            std::vector<double> wd(size_t(2 * gaussRadius_ + 1));
            double total = 0.0;
            for (int k = -gaussRadius_; k <= gaussRadius_; ++k)
                total += wd[size_t(k + gaussRadius_)] = std::exp(-double(k) * k / (2.0 * s * s));
            for (double v : wd) gaussWeights_.push_back(float(v / total));
            if (gaussRadius_ > kGaussStripRadiusMax) {
                CS_TRY(d_scratch_.reserve(size_t(width) * size_t(height) * sizeof(float4)));
                scratchPitch_ = size_t(width) * sizeof(float4);
            } else {
                int device = 0;
                CS_CUDA_CHECK(cudaGetDevice(&device));
                CS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device));
                gaussTensor_ = gaussRadius_ <= kGaussTcRadiusMax && gaussTensorCompiled();
                if (!gaussTensor_) CS_CUDA_CHECK(prepareGaussStrip(gaussRadius_));
            }
            break;
        }
        case PreviewFilter::Edges:
            // The first square of every grey, by core's own bisection (see edgeGrey).
            if (bitDepth > kMaxSobelDepth) return Status::error("edges preview: luma deeper than 12 bits");
            for (int grey = 0; grey < 256; ++grey) lut_.push_back(uint32_t(sobelEdgeFirstSquare(bitDepth, grey)));
            lut_.push_back(0xffffffffu);   // grey 256: never
            break;
        case PreviewFilter::FocusPeaking: {
            if (bitDepth > kMaxSobelDepth) return Status::error("focus peaking preview: luma deeper than 12 bits");
            peakingFirst_ = uint32_t(focusPeakingFirstSquare(bitDepth, f.peakingThreshold));   // <= 2^29 + 1
            // core's blend table; where each channel's is one value (an opaque colour) the
            // kernel paints that value and needs no table.
            const PeakingBlend blend = focusPeakingBlend(f.peakingColour);
            peakingOpaque_ = true;
            peakingPaint_ = 0;
            for (size_t c = 0; c < 3; ++c) {
                peakingOpaque_ = peakingOpaque_ && std::all_of(blend[c].begin(), blend[c].end(), [&](uint8_t v) { return v == blend[c][0]; });
                peakingPaint_ |= uint32_t(blend[c][0]) << (8 * c);
            }
            if (!peakingOpaque_)
                for (size_t i = 0; i < 3 * 256; i += 4) {
                    const uint8_t* b = &blend[i / 256][i % 256];
                    lut_.push_back(uint32_t(b[0]) | (uint32_t(b[1]) << 8) | (uint32_t(b[2]) << 16) | (uint32_t(b[3]) << 24));
                }
            break;
        }
        case PreviewFilter::Zebra: {
            // Zones by core's own zebra(): code c at x = 8c of a one-row frame of mid grey,
            // where both stripe patterns are "on" ((x +- 0) mod 8 = 0): black = the zebra
            // at or above `ire`, white = the low zebra, grey = untouched.
            RgbaImage grey;
            grey.resize(8 * levels, 1);
            for (size_t i = 0; i < grey.pixels.size(); i += 4) { grey.pixels[i] = grey.pixels[i + 1] = grey.pixels[i + 2] = 128; grey.pixels[i + 3] = 255; }
            LumaPlane plane{8 * levels, 1, bitDepth, lumaRange, {}};
            for (int x = 0; x < 8 * levels; ++x) plane.values.push_back(uint16_t(x / 8));
            RgbaImage zebraOut;
            zebra(grey, plane, f.zebraIre, f.zebraLowIre, zebraOut);
            if (zebraOut.width != 8 * levels) return Status::error("zebra preview: core's zebra() produced no image for the lookup table");
            for (int c = 0; c < levels; ++c) {
                const uint8_t v = zebraOut.at(8 * c, 0)[0];
                lut_.push_back(v == 0 ? 1u : (v == 255 ? 2u : 0u));
            }
            break;
        }
        case PreviewFilter::FalseColour: {
            // Colours by core's own falseColour() over a row holding every code once.
            LumaPlane plane{levels, 1, bitDepth, lumaRange, {}};
            for (int c = 0; c < levels; ++c) plane.values.push_back(uint16_t(c));
            RgbaImage colours;
            falseColour(plane, colours);
            if (colours.width != levels) return Status::error("false colour preview: core's falseColour() produced no image for the lookup table");
            for (int c = 0; c < levels; ++c) {
                const uint8_t* p = colours.at(c, 0);
                lut_.push_back(uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24));
            }
            break;
        }
        case PreviewFilter::None:
        case PreviewFilter::Median3: break;
    }
    if (!lut_.empty() && lut_ != lutUploaded_) {
        CS_TRY(d_lut_.reserve(lut_.size() * sizeof(uint32_t)));
        // Pageable source: the call returns once the table is staged, so lut_ may change after.
        CS_CUDA_CHECK(cudaMemcpyAsync(d_lut_.get(), lut_.data(), lut_.size() * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
        lutUploaded_ = lut_;
    }
    prepared_ = setup;
    return {};
}

cudaError_t PreviewFilters::enqueue(const uint8_t* d_picture, size_t picturePitch, const uint16_t* d_luma, size_t lumaPitch,
                                    const ImageSink& out, cudaStream_t stream) const {
    const int w = width_, h = height_;
    const dim3 grid = gridFor(w, h, kBlock2d);
    const dim3 grid4 = gridFor((w + 3) / 4, h, kBlock2d);   // four pixels per thread
    const int maxCode = (1 << bitDepth_) - 1;
    const uint32_t* table = d_lut_.get<uint32_t>();
    const SobelParams sp{uint32_t(maxCode), float(255.0 / (4.0 * double(maxCode))), table, peakingFirst_, peakingPaint_, table};
    switch (filter_) {
        case PreviewFilter::None: return cudaSuccess;
        case PreviewFilter::BoxBlur:
            if (boxRadius_ == 0) return copyImage(d_picture, picturePitch, w, h, out, stream);
            if (boxRadius_ <= kBoxStripRadiusMax) {
                const BoxParams bp = boxParams(boxRadius_, w, h, multiprocessors_);
                const dim3 strips((unsigned(w) + unsigned(bp.outputs) - 1) / unsigned(bp.outputs), unsigned(bp.bands));
                return withSink(out, [&](auto sink) {
                    launchDependent(dependentLaunch_, boxStripKernel<decltype(sink)>, strips, dim3(kBoxThreads), stream, d_picture, picturePitch, w, h, bp, sink);
                });
            }
            if (const cudaError_t e = launchDependent(dependentLaunch_, boxColumnsKernel, dim3(unsigned(w + 127) / 128), dim3(128), stream, d_picture,
                                                      picturePitch, w, h, boxRadius_, d_scratch_.get<uint4>(), scratchPitch_);
                e != cudaSuccess)
                return e;
            return withSink(out, [&](auto sink) {
                boxRowsKernel<<<unsigned(h + 127) / 128, 128, 0, stream>>>(d_picture, picturePitch, d_scratch_.get<uint4>(),
                                                                            scratchPitch_, w, h, boxRadius_, sink);
            });
        case PreviewFilter::Gaussian: {
            if (gaussRadius_ == 0) return copyImage(d_picture, picturePitch, w, h, out, stream);
            if (gaussTensor_) return enqueueGaussTensor(d_picture, picturePitch, w, h, gaussWeights_, multiprocessors_, out, stream, dependentLaunch_);
            if (gaussRadius_ <= kGaussStripRadiusMax)
                return enqueueGaussStrip(d_picture, picturePitch, w, h, gaussWeights_, multiprocessors_, out, stream, dependentLaunch_);
            GaussWeights gw{};   // the two-pass path's weights (1.5 KB): built only where it runs
            gw.radius = gaussRadius_;
            for (size_t i = 0; i < gaussWeights_.size(); ++i) gw.w[i] = gaussWeights_[i];
            if (const cudaError_t e = launchDependent(dependentLaunch_, gaussRowsKernel, grid, kBlock2d, stream, d_picture, picturePitch, w, h, gw,
                                                      d_scratch_.get<float4>(), scratchPitch_);
                e != cudaSuccess)
                return e;
            return withSink(out, [&](auto sink) {
                gaussColumnsKernel<<<grid, kBlock2d, 0, stream>>>(d_picture, picturePitch, d_scratch_.get<float4>(), scratchPitch_, w, h, gw, sink);
            });
        }
        case PreviewFilter::Median3:
            return withSink(out, [&](auto sink) {
                launchDependent(dependentLaunch_, medianKernel<decltype(sink)>, groupGrid(w, h, kMedianRows), kGroupBlock, stream, d_picture, picturePitch, w, h,
                               1u, sink);
            });
        case PreviewFilter::Edges:
            return withSink(out, [&](auto sink) {
                launchDependent(dependentLaunch_, sobelKernel<decltype(sink), SobelMode::Edges>, groupGrid(w, h, kSobelRows), kGroupBlock, stream, d_luma,
                                lumaPitch, static_cast<const uint8_t*>(nullptr), size_t(0), w, h, sp, sink);
            });
        case PreviewFilter::FocusPeaking:
            return withSink(out, [&](auto sink) {
                const auto kernel = peakingOpaque_ ? sobelKernel<decltype(sink), SobelMode::PeakOpaque> : sobelKernel<decltype(sink), SobelMode::PeakBlend>;
                launchDependent(dependentLaunch_, kernel, groupGrid(w, h, kSobelRows), kGroupBlock, stream, d_luma, lumaPitch, d_picture, picturePitch, w, h, sp,
                                sink);
            });
        case PreviewFilter::Zebra:
            return withSink(out, [&](auto sink) {
                launchDependent(dependentLaunch_, zebraKernel<decltype(sink)>, grid4, kBlock2d, stream, d_luma, lumaPitch, d_picture, picturePitch, w, h,
                                d_lut_.get<uint32_t>(), maxCode, sink);
            });
        case PreviewFilter::FalseColour:
            return withSink(out, [&](auto sink) {
                launchDependent(dependentLaunch_, lookupKernel<decltype(sink)>, grid4, kBlock2d, stream, d_luma, lumaPitch, w, h, d_lut_.get<uint32_t>(),
                                maxCode, sink);
            });
    }
    return cudaErrorInvalidValue;
}

}  // namespace cs::cuda
