// Preview filter kernels (see FilterKernels.h). Each mirrors core/Filters.cpp operation for
// operation: integer sums are exact, and float/double arithmetic uses the explicitly rounded
// intrinsics (__fmul_rn, __fadd_rn, ...) so that no multiply-add is contracted into an FMA
// the CPU does not do. Blurs of radius <= 32 run as one kernel over strips of columns;
// larger radii take a two-pass path through scratch memory.
#include "FilterKernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "Sinks.cuh"
#include "core/Filters.h"

namespace cs::cuda {
namespace {

constexpr int kTileRadiusMax = 32;   // radii up to this use the tile kernels
constexpr int kMaxBoxRadius = 1 << 20;
constexpr float kMaxGaussianSigma = 64.0f;
constexpr int kMaxGaussRadius = 192;

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
// warp takes one row and each lane slides the horizontal window along 8 outputs. Reads: each input pixel
// once as it enters the vertical window and once as it leaves (the L2 keeps it), plus the
// window of the block's first row.
constexpr int kBoxThreads = 256;   // columns of vertical sums per block
constexpr int kBoxBlocksPerSm = 4;  // the register budget: 64 per thread
constexpr int kBoxBatch = 8;       // rows per exchange through shared memory
constexpr int kBoxSegment = 8;     // outputs a thread slides over along a row
static_assert(kBoxThreads / 32 == kBoxBatch, "one warp per row of a batch");
static_assert(kBoxThreads / kBoxSegment <= 32 * 8 / kBoxSegment && kBoxThreads / kBoxSegment <= 32, "a row's segments fit one warp");

// R, G and B of a pixel (or a sum of pixels) in one 64-bit word, 21 bits each (R at bit 0,
// G at 21, B at 42): a window sum of at most 65 x 65 pixels of 255 plus n/2 stays below
// 2^21, so one 64-bit add or subtract does all three channels without carries between them.
__device__ __forceinline__ unsigned long long packChannels(uint32_t px) {
    const uint32_t lo = (px & 0xffu) | ((px & 0xff00u) << 13);
    const uint32_t hi = ((px >> 16) & 0xffu) << 10;
    return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// (sum + n/2) / n for the box's n = (2r+1)^2: the n/2 rides in the initial sums, and the
// division is a multiply-high and a shift, exact for sums below 2^31 (magic = ceil(2^(32+s)
// / n) with s = floor(log2 n); n is odd and > 1, so magic < 2^32).
struct BoxParams {
    int r;
    int outputs;                // output columns per block: 256 - 2 ceil4(r), a multiple of 8
    int rows;                   // rows per block, a multiple of 8
    unsigned long long half3;   // n/2 in each of the three channels
    uint32_t magic, shift;
};
BoxParams boxParams(int r, int w, int h, int multiprocessors) {
    const uint64_t n = uint64_t(2 * r + 1) * uint64_t(2 * r + 1), half = n / 2;
    uint32_t s = 0;
    while ((uint64_t(2) << s) <= n) ++s;
    BoxParams p;
    p.r = r;
    p.outputs = kBoxThreads - 2 * ((r + 3) / 4 * 4);
    // As many bands as fit beside the strips in one wave, at least 16 rows each (the first
    // row's window is read whole: short bands would read it too often).
    const int strips = (w + p.outputs - 1) / p.outputs;
    const int bands = std::max(1, kBoxBlocksPerSm * std::max(1, multiprocessors) / strips);
    p.rows = std::max(16, (h + bands - 1) / bands + 7) / 8 * 8;
    p.half3 = half | (half << 21) | (half << 42);
    p.magic = uint32_t(((uint64_t(1) << (32 + s)) + n - 1) / n);
    p.shift = s;
    return p;
}
__device__ __forceinline__ uint32_t boxMean(unsigned long long s, const BoxParams& p) {
    const uint32_t lo = uint32_t(s), hi = uint32_t(s >> 32);
    const uint32_t red = __umulhi(lo & 0x1fffffu, p.magic) >> p.shift;
    const uint32_t green = __umulhi(__funnelshift_r(lo, hi, 21) & 0x1fffffu, p.magic) >> p.shift;
    const uint32_t blue = __umulhi(hi >> 10, p.magic) >> p.shift;
    return red | (green << 8) | (blue << 16);
}
// Shared slot of vertical-sum column c: one pad word per 8, so that the 32 lanes reading
// 8-column segments hit different banks.
__device__ __forceinline__ int boxSlot(int c) { return c + (c >> 3); }

template <class Sink>
__global__ void __launch_bounds__(kBoxThreads, kBoxBlocksPerSm) boxStripKernel(const uint8_t* in, size_t pitch, int w, int h, BoxParams p, Sink out) {
    __shared__ unsigned long long vsRows[kBoxBatch][kBoxThreads + kBoxThreads / 8];
    const int r = p.r, tid = int(threadIdx.x);
    const int x0 = int(blockIdx.x) * p.outputs, y0 = int(blockIdx.y) * p.rows, yEnd = min(y0 + p.rows, h);
    // This thread's column: vertical-sum index tid is image column x0 - r + tid (clamped:
    // replicated edges, as the CPU's clamped window).
    const uint32_t* column = reinterpret_cast<const uint32_t*>(in) + clampi(x0 - r + tid, w);
    auto at = [&](int y) { return __ldg(reinterpret_cast<const uint32_t*>(reinterpret_cast<const uint8_t*>(column) + size_t(clampi(y, h)) * pitch)); };
    unsigned long long vs = 0;
#pragma unroll 8
    for (int k = -r; k <= r; ++k) vs += packChannels(at(y0 + k));

    const int warp = tid >> 5, lane = tid & 31, segments = p.outputs / kBoxSegment;
    // The pixels entering and leaving the vertical window over a batch, loaded one batch
    // ahead: the next batch's loads are in flight while this one is summed.
    uint32_t nextEnter[kBoxBatch], nextLeave[kBoxBatch];
    auto loadBatch = [&](int yb) {
#pragma unroll
        for (int i = 0; i < kBoxBatch; ++i) { nextEnter[i] = at(yb + i + r + 1); nextLeave[i] = at(yb + i - r); }
    };
    loadBatch(y0);
    for (int yb = y0; yb < yEnd; yb += kBoxBatch) {
        // Vertical sums of rows yb .. yb+7 into shared memory, sliding down.
        uint32_t enter[kBoxBatch], leave[kBoxBatch];
#pragma unroll
        for (int i = 0; i < kBoxBatch; ++i) { enter[i] = nextEnter[i]; leave[i] = nextLeave[i]; }
        if (yb + kBoxBatch < yEnd) loadBatch(yb + kBoxBatch);
#pragma unroll
        for (int i = 0; i < kBoxBatch; ++i) {
            vsRows[i][boxSlot(tid)] = vs;
            vs = vs + packChannels(enter[i]) - packChannels(leave[i]);
        }
        __syncthreads();
        // Warp i: row yb + i; lane g: outputs x0 + 8g .. x0 + 8g + 7, whose windows span
        // vertical sums 8g .. 8g + 2r + 7. Each lane (all 32: windows reach into the lanes
        // right of the last output) sums its own 8; with 2r + 1 = 8 whole + part, a window
        // starts as the sums of `whole` lanes from its own (shuffles) plus `part` single
        // sums, and slides with one shared read per step (the leaving sum is its own).
        const int y = yb + warp;
        if (y < yEnd) {   // the same for the whole warp
            const int c0 = lane * kBoxSegment, x = x0 + c0;
            const unsigned long long* v = vsRows[warp];
            unsigned long long own[kBoxSegment], segment = 0;
#pragma unroll
            for (int j = 0; j < kBoxSegment; ++j) { own[j] = v[boxSlot(c0 + j)]; segment += own[j]; }
            const int whole = (2 * r + 1) / kBoxSegment, part = (2 * r + 1) % kBoxSegment;
            unsigned long long s = p.half3;
            for (int i = 0; i < whole; ++i) s += __shfl_down_sync(0xffffffffu, segment, unsigned(i));
            if (lane < segments && x < w) {
                const int enter = c0 + whole * kBoxSegment;   // first sum past the whole lanes
                for (int k = 0; k < part; ++k) s += v[boxSlot(enter + k)];
                const int n = min(kBoxSegment, w - x);
                uint32_t alpha[kBoxSegment];
                const uint32_t* src = reinterpret_cast<const uint32_t*>(in + size_t(y) * pitch) + x;
                if (n == kBoxSegment) {
                    const uint4 a = __ldg(reinterpret_cast<const uint4*>(src)), b = __ldg(reinterpret_cast<const uint4*>(src) + 1);
                    alpha[0] = a.x; alpha[1] = a.y; alpha[2] = a.z; alpha[3] = a.w; alpha[4] = b.x; alpha[5] = b.y; alpha[6] = b.z; alpha[7] = b.w;
                } else {
                    for (int j = 0; j < kBoxSegment; ++j) alpha[j] = j < n ? __ldg(src + j) : 0u;
                }
                uint32_t o[kBoxSegment];
#pragma unroll
                for (int j = 0; j < kBoxSegment; ++j) {
                    o[j] = boxMean(s, p) | (alpha[j] & 0xff000000u);   // the centre's alpha, as the CPU keeps it
                    if (j < kBoxSegment - 1) s = s + v[boxSlot(enter + part + j)] - own[j];
                }
                out.store4(x, y, o, min(n, 4));
                if (n > 4) out.store4(x + 4, y, o + 4, n - 4);
            }
        }
        __syncthreads();
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

// ---- Blurs of large radius: two passes through scratch memory ------------------------------

// Box, vertical sums per column (one thread slides down a whole column; the start window is
// counted in closed form, as the CPU does, so the cost does not grow with r).
__global__ void boxColumnsKernel(const uint8_t* in, size_t pitch, int w, int h, int r, uint4* sums, size_t sumsPitch) {
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

// ---- Median ----------------------------------------------------------------------------------

// The median of nine in each 16-bit lane of nine words (values up to 255, so a sum of three
// fits a lane): sort each row of three with 3-way min and max (the middle is the sum less
// both), then the median is the middle of (the largest row minimum, the middle row middle,
// the smallest row maximum). That is the 3x3 median exactly (rows, then columns sorted:
// the anti-diagonal's middle), as core's exchange network finds it; the median of nine is
// unique, so every channel comes out identical. 3-way 16x2 min/max are single Hopper (DPX)
// instructions; per-byte __vminu4 / __vmaxu4 were emulated with about seven each.
__device__ __forceinline__ uint32_t middle3(uint32_t a, uint32_t b, uint32_t c) {
    return a + b + c - __vimin3_s16x2(a, b, c) - __vimax3_s16x2(a, b, c);
}
__device__ __forceinline__ uint32_t median9Lanes(const uint32_t v[9]) {
    uint32_t lo[3], mid[3], hi[3];
#pragma unroll
    for (int r = 0; r < 3; ++r) {
        lo[r] = __vimin3_s16x2(v[3 * r], v[3 * r + 1], v[3 * r + 2]);
        hi[r] = __vimax3_s16x2(v[3 * r], v[3 * r + 1], v[3 * r + 2]);
        mid[r] = v[3 * r] + v[3 * r + 1] + v[3 * r + 2] - lo[r] - hi[r];
    }
    return middle3(__vimax3_s16x2(lo[0], lo[1], lo[2]), middle3(mid[0], mid[1], mid[2]), __vimin3_s16x2(hi[0], hi[1], hi[2]));
}
// Packed RGBA: R and B in one word's lanes, G and A in another's.
__device__ __forceinline__ uint32_t median9(const uint32_t p[9]) {
    uint32_t rb[9], ga[9];
#pragma unroll
    for (int i = 0; i < 9; ++i) { rb[i] = p[i] & 0x00ff00ffu; ga[i] = (p[i] >> 8) & 0x00ff00ffu; }
    return median9Lanes(rb) | (median9Lanes(ga) << 8);
}

template <class Sink>
__global__ void medianKernel(const uint8_t* in, size_t pitch, int w, int h, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    uint32_t px[9];
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) px[j * 3 + i] = pixelAt(in, pitch, clampi(x - 1 + i, w), clampi(y - 1 + j, h));
    const uint32_t alpha = px[4] & 0xff000000u;   // the centre's alpha, as the CPU keeps it
    out.store(x, y, (median9(px) & 0x00ffffffu) | alpha);
}

// ---- Sobel: edges and focus peaking --------------------------------------------------------

struct SobelParams {
    int32_t maxCode;
    double norm;            // 1 / (4 * maxCode)
    double threshold;       // peaking
    uint32_t colour;        // peaking, RGBA
    float alpha;            // peaking: colour's alpha / 255
};

template <class Sink, bool kPeaking>
__global__ void sobelKernel(const uint16_t* luma, size_t lumaPitch, const uint8_t* picture, size_t picturePitch, int w, int h,
                            SobelParams sp, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const int xl = clampi(x - 1, w), xr = clampi(x + 1, w);
    const uint16_t* rows[3];
    for (int j = 0; j < 3; ++j)
        rows[j] = reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(luma) + size_t(clampi(y - 1 + j, h)) * lumaPitch);
    auto p = [&](int row, int col) { return min(int32_t(__ldg(rows[row] + col)), sp.maxCode); };
    const int32_t gx = (p(0, xr) + 2 * p(1, xr) + p(2, xr)) - (p(0, xl) + 2 * p(1, xl) + p(2, xl));
    const int32_t gy = (p(2, xl) + 2 * p(2, x) + p(2, xr)) - (p(0, xl) + 2 * p(0, x) + p(0, xr));
    const double m = __dmul_rn(sqrt(__dadd_rn(__dmul_rn(double(gx), double(gx)), __dmul_rn(double(gy), double(gy)))), sp.norm);
    if constexpr (!kPeaking) {
        const uint32_t v = uint32_t(fmin(255.0, floor(__dadd_rn(__dmul_rn(m, 255.0), 0.5))));
        out.store(x, y, v | (v << 8) | (v << 16) | 0xff000000u);
    } else {
        uint32_t px = pixelAt(picture, picturePitch, x, y);
        if (m > sp.threshold) {
            uint32_t blended = px & 0xff000000u;
            for (int c = 0; c < 3; ++c) {
                const float src = float((sp.colour >> (8 * c)) & 0xffu), dst = float(channel(px, c));
                blended |= uint32_t(lroundf(__fadd_rn(dst, __fmul_rn(__fsub_rn(src, dst), sp.alpha)))) << (8 * c);
            }
            px = blended;
        }
        out.store(x, y, px);
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
                              const ImageSink& out, cudaStream_t stream) {
    // Folded and zero-padded: tap d of the class is tap d - (R - r) of the radius r.
    const int r = int(weights.size()) / 2;
    GaussFolded g{};
    for (int d = R - r; d <= R; ++d) g.w[d] = weights[size_t(d - (R - r))];
    return withSink(out, [&](auto sink) {
        const auto kernel = gaussStripKernel<R, decltype(sink)>;
        int perSm = 1;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kGaussThreads, 0) != cudaSuccess) return;
        const GaussBands b = gaussBands(R, w, h, std::max(1, multiprocessors) * std::max(1, perSm));
        kernel<<<b.grid, kGaussThreads, 0, stream>>>(in, pitch, w, h, b.rows, g, sink);
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
                              const ImageSink& out, cudaStream_t stream) {
    return withGaussClass(int(weights.size()) / 2, [&](auto classRadius) {
        return enqueueGaussClass<decltype(classRadius)::value>(in, pitch, w, h, weights, multiprocessors, out, stream);
    });
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
    filter_ = spec.preview;
    width_ = width; height_ = height; bitDepth_ = bitDepth;
    const FilterParams& f = spec.filter;
    const int levels = 1 << bitDepth;
    lut_.clear();
    switch (filter_) {
        case PreviewFilter::BoxBlur: {
            boxRadius_ = std::clamp(f.blurRadius, 0, kMaxBoxRadius);
            if (boxRadius_ > kTileRadiusMax) {
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
                CS_CUDA_CHECK(prepareGaussStrip(gaussRadius_));
            }
            break;
        }
        case PreviewFilter::FocusPeaking:
            peakingThreshold_ = f.peakingThreshold;
            peakingColour_ = f.peakingColour;
            break;
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
        case PreviewFilter::Edges:
        case PreviewFilter::Median3: break;
    }
    if (!lut_.empty() && lut_ != lutUploaded_) {
        CS_TRY(d_lut_.reserve(lut_.size() * sizeof(uint32_t)));
        // Pageable source: the call returns once the table is staged, so lut_ may change after.
        CS_CUDA_CHECK(cudaMemcpyAsync(d_lut_.get(), lut_.data(), lut_.size() * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
        lutUploaded_ = lut_;
    }
    return {};
}

cudaError_t PreviewFilters::enqueue(const uint8_t* d_picture, size_t picturePitch, const uint16_t* d_luma, size_t lumaPitch,
                                    const ImageSink& out, cudaStream_t stream) const {
    const int w = width_, h = height_;
    const dim3 grid = gridFor(w, h, kBlock2d);
    const dim3 grid4 = gridFor((w + 3) / 4, h, kBlock2d);   // four pixels per thread
    const int maxCode = (1 << bitDepth_) - 1;
    GaussWeights gw{};
    gw.radius = gaussRadius_;
    for (size_t i = 0; i < gaussWeights_.size(); ++i) gw.w[i] = gaussWeights_[i];
    SobelParams sp{maxCode, 1.0 / (4.0 * double(maxCode)), double(peakingThreshold_), peakingColour_,
                   float(peakingColour_ >> 24) / 255.0f};
    switch (filter_) {
        case PreviewFilter::None: return cudaSuccess;
        case PreviewFilter::BoxBlur:
            if (boxRadius_ == 0) return copyImage(d_picture, picturePitch, w, h, out, stream);
            if (boxRadius_ <= kTileRadiusMax) {
                const BoxParams bp = boxParams(boxRadius_, w, h, multiprocessors_);
                const dim3 strips((unsigned(w) + unsigned(bp.outputs) - 1) / unsigned(bp.outputs), (unsigned(h) + unsigned(bp.rows) - 1) / unsigned(bp.rows));
                return withSink(out, [&](auto sink) { boxStripKernel<<<strips, kBoxThreads, 0, stream>>>(d_picture, picturePitch, w, h, bp, sink); });
            }
            boxColumnsKernel<<<unsigned(w + 127) / 128, 128, 0, stream>>>(d_picture, picturePitch, w, h, boxRadius_,
                                                                           d_scratch_.get<uint4>(), scratchPitch_);
            return withSink(out, [&](auto sink) {
                boxRowsKernel<<<unsigned(h + 127) / 128, 128, 0, stream>>>(d_picture, picturePitch, d_scratch_.get<uint4>(),
                                                                            scratchPitch_, w, h, boxRadius_, sink);
            });
        case PreviewFilter::Gaussian:
            if (gaussRadius_ == 0) return copyImage(d_picture, picturePitch, w, h, out, stream);
            if (gaussRadius_ <= kGaussStripRadiusMax) return enqueueGaussStrip(d_picture, picturePitch, w, h, gaussWeights_, multiprocessors_, out, stream);
            gaussRowsKernel<<<grid, kBlock2d, 0, stream>>>(d_picture, picturePitch, w, h, gw, d_scratch_.get<float4>(), scratchPitch_);
            return withSink(out, [&](auto sink) {
                gaussColumnsKernel<<<grid, kBlock2d, 0, stream>>>(d_picture, picturePitch, d_scratch_.get<float4>(), scratchPitch_, w, h, gw, sink);
            });
        case PreviewFilter::Median3:
            return withSink(out, [&](auto sink) { medianKernel<<<grid, kBlock2d, 0, stream>>>(d_picture, picturePitch, w, h, sink); });
        case PreviewFilter::Edges:
            return withSink(out, [&](auto sink) {
                sobelKernel<decltype(sink), false><<<grid, kBlock2d, 0, stream>>>(d_luma, lumaPitch, nullptr, 0, w, h, sp, sink);
            });
        case PreviewFilter::FocusPeaking:
            return withSink(out, [&](auto sink) {
                sobelKernel<decltype(sink), true><<<grid, kBlock2d, 0, stream>>>(d_luma, lumaPitch, d_picture, picturePitch, w, h, sp, sink);
            });
        case PreviewFilter::Zebra:
            return withSink(out, [&](auto sink) {
                zebraKernel<<<grid4, kBlock2d, 0, stream>>>(d_luma, lumaPitch, d_picture, picturePitch, w, h, d_lut_.get<uint32_t>(), maxCode, sink);
            });
        case PreviewFilter::FalseColour:
            return withSink(out, [&](auto sink) {
                lookupKernel<<<grid4, kBlock2d, 0, stream>>>(d_luma, lumaPitch, w, h, d_lut_.get<uint32_t>(), maxCode, sink);
            });
    }
    return cudaErrorInvalidValue;
}

}  // namespace cs::cuda
