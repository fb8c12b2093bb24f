// The Gaussian preview (FilterKernelsDetail.h): core/Filters.cpp's weights and order of
// rounded float operations (__fmul_rn, __fadd_rn: no multiply-add contracted into an FMA the
// CPU does not do). Radii <= 32 run as one kernel over strips of columns, radii <= 16 on
// tensor cores (within one code value of core's, as that kernel's comment shows), larger
// radii in two passes through scratch memory.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "cuda/DependentLaunch.cuh"
#include "FilterDevice.cuh"
#include "FilterKernelsDetail.h"
#include "cuda/Sinks.cuh"
#include "core/Filters.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

// float(v) for 0 <= v < 2^23, exactly, without the (quarter-rate) integer-to-float unit:
// the bits of 2^23 + v read as a float, minus 2^23.
__device__ __forceinline__ float byteToFloat(uint32_t v) { return __fsub_rn(__uint_as_float(0x4B000000u | v), 8388608.0f); }

struct GaussWeights {
    int radius;
    float w[2 * kMaxGaussianRadius + 1];
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
// at R = 9 where a 32-output one has 12.8 (6% more instructions), but with half the unrolled
// code more instructions issue per cycle, and it comes out slightly faster.
constexpr int kGaussColumns = 32;        // output columns per block: one per lane
constexpr int kGaussBatch = 32;          // rows per batch: one per lane
constexpr int kGaussThreads = 96;        // one warp per channel
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
constexpr int kGaussTcWarps = 4;        // adjacent strips per block (16 rows of 8 staging threads)
// 5 blocks, 20 warps per SM (96 registers): faster than 4 blocks (128 registers), 6 blocks
// or 8 warps a block.
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

// ---- Large radius: two passes through scratch memory -----------------------------------------

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


}  // namespace

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

cudaError_t enqueueGaussTwoPass(const uint8_t* d_in, size_t pitch, int w, int h, const std::vector<float>& weights, float4* d_tmp,
                                size_t tmpPitch, const ImageSink& out, cudaStream_t stream, bool dependent) {
    const dim3 grid = gridFor(w, h, kBlock2d);
    GaussWeights gw{};   // the two-pass path's weights (1.5 KB): built only where it runs
    gw.radius = int(weights.size()) / 2;
    for (size_t i = 0; i < weights.size(); ++i) gw.w[i] = weights[i];
    if (const cudaError_t e = launchDependent(dependent, gaussRowsKernel, grid, kBlock2d, stream, d_in, pitch, w, h, gw, d_tmp, tmpPitch);
        e != cudaSuccess)
        return e;
    return withSink(out, [&](auto sink) {
        gaussColumnsKernel<<<grid, kBlock2d, 0, stream>>>(d_in, pitch, d_tmp, tmpPitch, w, h, gw, sink);
    });
}

}  // namespace cs::cuda::detail

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::gaussianKernels() { return reinterpret_cast<const void*>(detail::gaussRowsKernel); }
