// The median and Sobel previews (FilterKernelsDetail.h): 8 horizontally adjacent pixels a
// thread, core/Filters.cpp's results exactly: the 3x3 median by integer min/max, Sobel edges
// and focus peaking by integer gradients compared with thresholds core computes in double
// (wider peaking: those marks, then a square dilation that paints).
#include <cuda_runtime.h>

#include "cuda/DependentLaunch.cuh"
#include "FilterDevice.cuh"
#include "FilterKernelsDetail.h"
#include "cuda/Sinks.cuh"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

// These kernels give each thread 8 horizontally adjacent pixels (x0 = 8 (32 blockIdx.x +
// lane)) of a few output rows (2 for the median, kSobelRows for Sobel); a warp covers 256
// pixels of its rows, a block of 32 x 8 threads 256 pixels of 8 times as many rows. Input
// rows are read in 16-byte chunks; the columns either side of a group (x0 - 1 and x0 + 8)
// come from the neighbouring lanes by shuffles (from memory for lanes 0 and 31), clamped at
// the frame's edges like the CPU's clampIndex. Plane pointers and pitches are multiples of
// 16 bytes, so a chunk whose first pixel is inside the row lies inside the row's pitch.
constexpr int kGroup = 8;
constexpr int kMedianRows = 2;
constexpr int kSobelRows = 2;   // 1 row is as fast; 4 rows are slower (more registers, fewer warps resident)
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
// (its top stall is the math pipe's throttle while the FMA pipe idles): the sums of three are two
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
// to pitched memory); left free, ptxas takes 76-135 registers and the kernel loses the warps
// it needs to hide its loads.
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

// PeakMark: 1 where the gradient reaches sp.peakFirst, else 0, one word a pixel (the edges of
// a wide peaking, which peakDilateKernel widens and paints).
enum class SobelMode { Edges, PeakOpaque, PeakBlend, PeakMark };


__device__ __forceinline__ float sqrtApprox(float x) {
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
// 16-bit lanes' minimum: one instruction from sm_90 on (min.u16x2 is an sm_90 instruction),
// the SIMD intrinsic's equal result before.
__device__ __forceinline__ uint32_t minU16x2(uint32_t a, uint32_t b) {
#if __CUDA_ARCH__ >= 900
    uint32_t r;
    asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return __vminu2(a, b);
#endif
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
    constexpr bool kPaints = kMode == SobelMode::PeakOpaque || kMode == SobelMode::PeakBlend;   // reads the picture
    __shared__ uint32_t table[kTableWords];
    if constexpr (kMode == SobelMode::Edges || kMode == SobelMode::PeakBlend) {
        const uint32_t* source = kMode == SobelMode::Edges ? sp.firstSquares : sp.blend;
        for (int t = int(threadIdx.y * blockDim.x + threadIdx.x); t < kTableWords; t += int(blockDim.x * blockDim.y)) table[t] = __ldg(source + t);
        __syncthreads();
    }
    const int lane = int(threadIdx.x);
    const int x0 = kGroup * int(blockIdx.x * 32 + threadIdx.x), y0 = kSobelRows * int(blockIdx.y * blockDim.y + threadIdx.y);
    if (y0 >= h) return;   // the whole warp: its lanes share y0
    const int n = min(kGroup, w - x0);
    // Edges store through a stage (storeWarpGroups: whole sectors written); peaking does not:
    // staged it needs 76 registers instead of 64-70, three blocks per SM instead of four.
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
    if constexpr (kPaints) {
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
            } else if constexpr (kMode == SobelMode::PeakMark) {
                o[j] = uint32_t(g2) >= sp.peakFirst ? 1u : 0u;
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

// ---- Wide focus peaking: the marks dilated (core/PeakingWidth.h) ---------------------------

// The paint of one picture pixel, opaque (sp.paint) or through the blend table (bytes).
template <bool kOpaque>
__device__ __forceinline__ uint32_t peakPaint(uint32_t px, uint32_t paint, const uint8_t* blend) {
    if constexpr (kOpaque) return (px & 0xff000000u) | paint;
    return (px & 0xff000000u) | uint32_t(blend[px & 0xffu]) | (uint32_t(blend[256 + ((px >> 8) & 0xffu)]) << 8) |
           (uint32_t(blend[512 + ((px >> 16) & 0xffu)]) << 16);
}

// A pixel a thread (blocks of kBlock2d, 32 x 8): the block's marks and a margin of
// kMaxPeakReach around them go into shared memory as bytes (0 outside the frame: the square
// is clipped to it), and a pixel is painted where any mark lies within `reach` of it across
// and down, as core's focusPeaking paints it.
constexpr int kMaxPeakReach = 2;   // peakingReach(kMaxPeakingWidth)
template <class Sink, bool kOpaque>
__global__ void __launch_bounds__(256) peakDilateKernel(const uint8_t* marks, size_t marksPitch, const uint8_t* picture, size_t picturePitch,
                                                        int w, int h, int reach, SobelParams sp, Sink out) {
    constexpr int kTileW = 32 + 2 * kMaxPeakReach, kTileH = 8 + 2 * kMaxPeakReach;
    __shared__ uint8_t tile[kTileH][kTileW];
    __shared__ uint32_t table[kOpaque ? 1 : kBlendWords];
    const int t = int(threadIdx.y * blockDim.x + threadIdx.x), threads = int(blockDim.x * blockDim.y);
    if constexpr (!kOpaque)
        for (int i = t; i < kBlendWords; i += threads) table[i] = __ldg(sp.blend + i);
    const int bx = int(blockIdx.x) * 32 - kMaxPeakReach, by = int(blockIdx.y) * 8 - kMaxPeakReach;
    for (int i = t; i < kTileW * kTileH; i += threads) {
        const int x = bx + i % kTileW, y = by + i / kTileW;
        tile[i / kTileW][i % kTileW] =
            x >= 0 && x < w && y >= 0 && y < h ? uint8_t(__ldg(reinterpret_cast<const uint32_t*>(marks + size_t(y) * marksPitch) + x) != 0) : 0;
    }
    __syncthreads();
    const int x = int(blockIdx.x) * 32 + int(threadIdx.x), y = int(blockIdx.y) * 8 + int(threadIdx.y);
    if (x >= w || y >= h) return;
    uint32_t near = 0;
    for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) near |= tile[int(threadIdx.y) + kMaxPeakReach + dy][int(threadIdx.x) + kMaxPeakReach + dx];
    uint32_t px = pixelAt(picture, picturePitch, x, y);
    if (near) px = peakPaint<kOpaque>(px, sp.paint, reinterpret_cast<const uint8_t*>(table));
    out.store(x, y, px);
}

}  // namespace

cudaError_t enqueueMedian(const uint8_t* d_in, size_t pitch, int w, int h, const ImageSink& out, cudaStream_t stream, bool dependent) {
    return withSink(out, [&](auto sink) {
        launchDependent(dependent, medianKernel<decltype(sink)>, groupGrid(w, h, kMedianRows), kGroupBlock, stream, d_in, pitch, w, h, 1u,
                        sink);
    });
}

cudaError_t enqueueSobelEdges(const uint16_t* d_luma, size_t lumaPitch, int w, int h, const SobelParams& sp, const ImageSink& out,
                              cudaStream_t stream, bool dependent) {
    return withSink(out, [&](auto sink) {
        launchDependent(dependent, sobelKernel<decltype(sink), SobelMode::Edges>, groupGrid(w, h, kSobelRows), kGroupBlock, stream, d_luma,
                        lumaPitch, static_cast<const uint8_t*>(nullptr), size_t(0), w, h, sp, sink);
    });
}

cudaError_t enqueueFocusPeaking(const uint16_t* d_luma, size_t lumaPitch, const uint8_t* d_picture, size_t picturePitch, int w, int h,
                                const SobelParams& sp, bool opaque, const ImageSink& out, cudaStream_t stream, bool dependent) {
    return withSink(out, [&](auto sink) {
        const auto kernel = opaque ? sobelKernel<decltype(sink), SobelMode::PeakOpaque> : sobelKernel<decltype(sink), SobelMode::PeakBlend>;
        launchDependent(dependent, kernel, groupGrid(w, h, kSobelRows), kGroupBlock, stream, d_luma, lumaPitch, d_picture, picturePitch, w,
                        h, sp, sink);
    });
}

cudaError_t enqueueWideFocusPeaking(const uint16_t* d_luma, size_t lumaPitch, const uint8_t* d_picture, size_t picturePitch, int w, int h,
                                    const SobelParams& sp, bool opaque, int reach, uint8_t* d_marks, size_t marksPitch, const ImageSink& out,
                                    cudaStream_t stream, bool dependent) {
    if (reach < 1 || reach > kMaxPeakReach) return cudaErrorInvalidValue;
    if (const cudaError_t e = launchDependent(dependent, sobelKernel<PitchedOut, SobelMode::PeakMark>, groupGrid(w, h, kSobelRows), kGroupBlock,
                                              stream, d_luma, lumaPitch, static_cast<const uint8_t*>(nullptr), size_t(0), w, h, sp,
                                              PitchedOut{d_marks, marksPitch});
        e != cudaSuccess)
        return e;
    return withSink(out, [&](auto sink) {
        const auto kernel = opaque ? peakDilateKernel<decltype(sink), true> : peakDilateKernel<decltype(sink), false>;
        kernel<<<gridFor(w, h, kBlock2d), kBlock2d, 0, stream>>>(d_marks, marksPitch, d_picture, picturePitch, w, h, reach, sp, sink);
    });
}

}  // namespace cs::cuda::detail

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::groupFilterKernels() { return reinterpret_cast<const void*>(detail::medianKernel<PitchedOut>); }
