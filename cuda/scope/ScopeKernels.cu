// The general scope pass (every pixel format, any set of scopes): one kernel launch reads
// each pixel of a frame once and counts every scope asked for. scopePass first offers the
// work to the specialised kernels (ScopeKernelsDetail.h); docs/CUDA.md explains the designs.
#include "ScopeKernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <mutex>
#include <utility>
#include <vector>

#include "cuda/DependentLaunch.cuh"
#include "ScopeDevice.cuh"
#include "ScopeKernelsDetail.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

constexpr int kThreads = 256;
// Shared memory for the waveform/parade column counters of one block: 64 KB keeps three
// blocks (with their histograms) resident on a Hopper or Ampere multiprocessor.
constexpr size_t kCounterBudget = 64 * 1024;
constexpr int kMaxStrip = 256;

struct KernelArgs {
    int width, height, levels, log2Levels;
    int strip, log2Strip, rowsPerBand, log2ch;
    uint32_t flags;
    ScopeColour colour;
    LegalRange legal;
    ScopeOutputs out;
};

// A run of equal keys seen by one thread (same bin in consecutive pixels or rows), added
// to its counter in one atomic when the key changes: a flat or solid picture then costs
// almost no atomics at all. Key (12 bits, 0xfff = none) and count (20 bits) share one
// register: counts per run stay below 4 pixels x 16384 rows.
using Run = uint32_t;
constexpr uint32_t kRunNone = 0xfff00000u;

template <typename AddFn>
__device__ __forceinline__ void runAdd(Run& r, int key, uint32_t weight, AddFn add) {
    if (int(r >> 20) == key) { r += weight; return; }
    if (r & 0xfffffu) add(int(r >> 20), r & 0xfffffu);
    r = (uint32_t(key) << 20) | weight;
}
__device__ __forceinline__ int runKey(Run r) { return int(r >> 20); }
__device__ __forceinline__ uint32_t runCount(Run r) { return r & 0xfffffu; }

// The vectorscope's keys (Cr x Cb, up to 20 bits) need a register of their own.
struct WideRun {
    int key;
    uint32_t n;
};
template <typename AddFn>
__device__ __forceinline__ void runAdd(WideRun& r, int key, uint32_t weight, AddFn add) {
    if (key == r.key) { r.n += weight; return; }
    if (r.n) add(r.key, r.n);
    r.key = key;
    r.n = weight;
}

using detail::addBlockStats;
using detail::BlockStats;
using detail::warpAggregatedAdd;
using detail::warpMax;
using detail::warpMin;
using detail::warpSum;

template <class R>
__global__ void __launch_bounds__(kThreads, R::kMinBlocks) scopeKernel(const R reader, const KernelArgs a) {
    detail::allowDependentLaunch();   // the preview after the pass may be scheduled once every block has started
    constexpr int P = R::P, PC = R::PC;
    extern __shared__ __align__(16) uint32_t smem[];
    __shared__ BlockStats blockStats;

    const int W = a.width, H = a.height, L = a.levels, S = a.strip;
    const int G = S / P;                 // threads across the strip
    const int B = kThreads / G;          // rows in flight
    const int g = int(threadIdx.x) % G, b = int(threadIdx.x) / G;
    const int colBase = g * P;           // the thread's first column inside the strip
    const int x0 = int(blockIdx.x) * S + colBase;
    const int yBegin = int(blockIdx.y) * a.rowsPerBand;
    const int yEnd = min(H, yBegin + a.rowsPerBand);

    const bool doWave = a.flags & kScopeWaveform, doParade = a.flags & kScopeParade;
    const bool paradeRgb = a.flags & kScopeParadeRgb, doHist = a.flags & kScopeHistogram, doHistRgb = a.flags & kScopeHistogramRgb;
    const bool doVec = a.flags & kScopeVectorscope, doStats = a.flags & kScopeStats;
    const bool doPicture = a.flags & kScopePicture, doLuma = a.flags & kScopeLuma;
    const bool needRgb8 = !R::kRgb && (doHistRgb || doPicture || (doParade && paradeRgb && !R::kDeep));
    const bool gamutTest = !R::kRgb && !R::kGray && doStats;
    // A histogram is the sum of its waveform's columns: when the block keeps those counts
    // anyway, the luma histogram (and, for 8-bit sources, whose R'G'B' parade holds the very
    // values the R'G'B' histograms count, those too) is summed from them at the end instead
    // of costing atomics per pixel.
    const bool histFromWave = doHist && doWave;
    const bool rgbFromParade = doHistRgb && doParade && paradeRgb && (R::kRgb || !R::kDeep);
    const int paradeSlot = doWave ? 1 : 0;
    const int slots = paradeSlot + (doParade ? 3 : 0);
    const int halfS = S >> 1;

    // Shared: column counters (two 16-bit counts per word: a column holds at most
    // kMaxDimension pixels, so halves never carry), then the luma and R'G'B' histograms.
    uint32_t* colCounts = smem;
    uint32_t* histY = colCounts + size_t(slots) * size_t(L) * size_t(halfS);
    uint32_t* histRgb = histY + (doHist ? L : 0);
    const int sharedWords = slots * L * halfS + (doHist ? L : 0) + (doHistRgb ? 768 : 0);
    {
        uint4* s4 = reinterpret_cast<uint4*>(smem);
        for (int i = int(threadIdx.x); i < sharedWords / 4; i += kThreads) s4[i] = make_uint4(0, 0, 0, 0);
        if (threadIdx.x == 0) {
            for (int c = 0; c < 3; ++c) { blockStats.sum[c] = 0; blockStats.minInv[c] = -1; blockStats.max[c] = -1; }
            blockStats.legal = blockStats.gamut = blockStats.r103 = 0;
        }
    }
    __syncthreads();

    auto colWord = [&](int slot, int level, int col) {
        return colCounts + (size_t(slot) * size_t(L) + size_t(level)) * size_t(halfS) + size_t(col >> 1);
    };
    Run wf[P], pa[3][P], hy = kRunNone, hrgb[3] = {kRunNone, kRunNone, kRunNone};
    WideRun vs[PC];
#pragma unroll
    for (int i = 0; i < P; ++i) { wf[i] = pa[0][i] = pa[1][i] = pa[2][i] = kRunNone; }
#pragma unroll
    for (int k = 0; k < PC; ++k) { vs[k].key = -1; vs[k].n = 0; }

    int yMin = INT_MAX, yMax = -1, uMin = INT_MAX, uMax = -1, vMin = INT_MAX, vMax = -1;
    uint32_t ySum = 0, uSum = 0, vSum = 0, legalCount = 0, gamutCount = 0, r103Count = 0;
    // Per-thread sums stay below 2^32: at most 4 pixels x 16384 rows x 1023.

    const int nValid = min(P, W - x0);
    int y = yBegin + b;
    if (nValid > 0 && y < yEnd) {
        typename R::Group cur, next;
        reader.load(x0, y, cur);
        for (; y < yEnd; y += B) {
            if (y + B < yEnd) reader.load(x0, y + B, next);   // in flight while this row is counted

            int32_t Y[P], CB[PC], CR[PC], R8[P] = {}, G8[P] = {}, B8[P] = {};
            if constexpr (R::kRgb) {
#pragma unroll
                for (int i = 0; i < P; ++i) {
                    const Yuv v = rgbToYuv(a.colour.toYuv, cur.r[i], cur.g[i], cur.b[i]);
                    Y[i] = v.y; CB[i] = v.cb; CR[i] = v.cr;
                    R8[i] = cur.r[i]; G8[i] = cur.g[i]; B8[i] = cur.b[i];
                }
            } else {
#pragma unroll
                for (int i = 0; i < P; ++i) Y[i] = cur.y[i];
#pragma unroll
                for (int k = 0; k < PC; ++k) { CB[k] = cur.cb[k]; CR[k] = cur.cr[k]; }
            }

#pragma unroll
            for (int i = 0; i < P; ++i) {
                if (i >= nValid) break;
                const int k = R::kRgb ? i : (i >> R::LOG2W);
                const int32_t y_ = Y[i], cb = CB[k], cr = CR[k];
                if constexpr (!R::kRgb) {
                    if (needRgb8) {
                        const Rgb p = yuvToRgb(a.colour.toRgb8, y_, cb, cr);
                        R8[i] = p.r; G8[i] = p.g; B8[i] = p.b;
                    }
                }
                if (doHist && !histFromWave) runAdd(hy, y_, 1u, [&](int key, uint32_t n) { atomicAdd(histY + key, n); });
                if (doHistRgb && !rgbFromParade) {
                    runAdd(hrgb[0], R8[i], 1u, [&](int key, uint32_t n) { atomicAdd(histRgb + key, n); });
                    runAdd(hrgb[1], G8[i], 1u, [&](int key, uint32_t n) { atomicAdd(histRgb + 256 + key, n); });
                    runAdd(hrgb[2], B8[i], 1u, [&](int key, uint32_t n) { atomicAdd(histRgb + 512 + key, n); });
                }
                const int col = colBase + i;
                const uint32_t halfShift = uint32_t(i & 1) * 16u;
                if (doWave)
                    runAdd(wf[i], y_, 1u, [&](int key, uint32_t n) { atomicAdd(colWord(0, key, col), n << halfShift); });
                if (doParade) {
                    int32_t c0 = y_, c1 = cb, c2 = cr;
                    if (paradeRgb) {
                        if (R::kRgb || !R::kDeep) {
                            c0 = R8[i]; c1 = G8[i]; c2 = B8[i];
                        } else {
                            const Rgb p = yuvToRgb(a.colour.toRgbNative, y_, cb, cr);
                            c0 = p.r; c1 = p.g; c2 = p.b;
                        }
                    }
                    runAdd(pa[0][i], c0, 1u, [&](int key, uint32_t n) { atomicAdd(colWord(paradeSlot, key, col), n << halfShift); });
                    runAdd(pa[1][i], c1, 1u, [&](int key, uint32_t n) { atomicAdd(colWord(paradeSlot + 1, key, col), n << halfShift); });
                    runAdd(pa[2][i], c2, 1u, [&](int key, uint32_t n) { atomicAdd(colWord(paradeSlot + 2, key, col), n << halfShift); });
                }
                if (doStats) {
                    yMin = min(yMin, y_); yMax = max(yMax, y_); ySum += uint32_t(y_);
                    if (y_ < a.legal.yLo || y_ > a.legal.yHi || cb < a.legal.cLo || cb > a.legal.cHi || cr < a.legal.cLo ||
                        cr > a.legal.cHi)
                        ++legalCount;
                    if (gamutTest && yuvOutOfGamut(a.colour.toRgb8, y_, cb, cr)) ++gamutCount;
                    if (gamutTest && yuvOutsideR103(a.colour.toRgb8, y_, cb, cr)) ++r103Count;
                }
            }

            if (doPicture) {
                uint8_t* row = a.out.d_picture + size_t(y) * a.out.picturePitch + size_t(x0) * 4;
                uint32_t px[P];
#pragma unroll
                for (int i = 0; i < P; ++i)
                    px[i] = uint32_t(R8[i]) | (uint32_t(G8[i]) << 8) | (uint32_t(B8[i]) << 16) | 0xff000000u;
                if (nValid == P) {
                    if constexpr (P == 4) *reinterpret_cast<uint4*>(row) = make_uint4(px[0], px[1], px[2], px[3]);
                    else *reinterpret_cast<uint2*>(row) = make_uint2(px[0], px[1]);
                } else {
                    for (int i = 0; i < nValid; ++i) reinterpret_cast<uint32_t*>(row)[i] = px[i];
                }
            }
            if (doLuma) {
                uint16_t* row = reinterpret_cast<uint16_t*>(reinterpret_cast<uint8_t*>(a.out.d_luma) + size_t(y) * a.out.lumaPitch) + x0;
                if (nValid == P) {
                    if constexpr (P == 4)
                        *reinterpret_cast<uint2*>(row) = make_uint2(uint32_t(Y[0]) | (uint32_t(Y[1]) << 16), uint32_t(Y[2]) | (uint32_t(Y[3]) << 16));
                    else
                        *reinterpret_cast<uint32_t*>(row) = uint32_t(Y[0]) | (uint32_t(Y[1]) << 16);
                } else {
                    for (int i = 0; i < nValid; ++i) row[i] = uint16_t(Y[i]);
                }
            }

            // Chroma: statistics per chroma sample (at the row and column that start it) and
            // the vectorscope, weighted by the pixels the sample covers.
            if ((doVec || doStats) && (y & ((1 << a.log2ch) - 1)) == 0) {
                const int rowsCovered = min(1 << a.log2ch, H - y);
#pragma unroll
                for (int k = 0; k < PC; ++k) {
                    const int xs = x0 + (k << R::LOG2W);
                    if (xs >= W) break;
                    if (doStats) {
                        uMin = min(uMin, CB[k]); uMax = max(uMax, CB[k]); uSum += uint32_t(CB[k]);
                        vMin = min(vMin, CR[k]); vMax = max(vMax, CR[k]); vSum += uint32_t(CR[k]);
                    }
                    if (doVec) {
                        const uint32_t weight = uint32_t(min(1 << R::LOG2W, W - xs) * rowsCovered);
                        runAdd(vs[k], (CR[k] << a.log2Levels) + CB[k], weight,
                               [&](int key, uint32_t n) { atomicAdd(a.out.d_vectorscope + key, n); });
                    }
                }
            }
            cur = next;
        }
    }

    // Final flush of the open runs: lanes holding the same counter (a flat picture) merge
    // their counts in the warp first, then one atomic per distinct counter.
#pragma unroll
    for (int i = 0; i < P; ++i) {
        const int col = colBase + i;
        const uint32_t halfShift = uint32_t(i & 1) * 16u;
        if (doWave) warpAggregatedAdd(runCount(wf[i]) ? colWord(0, runKey(wf[i]), col) : nullptr, runCount(wf[i]) << halfShift);
        if (doParade) {
#pragma unroll
            for (int c = 0; c < 3; ++c)
                warpAggregatedAdd(runCount(pa[c][i]) ? colWord(paradeSlot + c, runKey(pa[c][i]), col) : nullptr,
                                  runCount(pa[c][i]) << halfShift);
        }
    }
    if (doHist && !histFromWave) warpAggregatedAdd(runCount(hy) ? histY + runKey(hy) : nullptr, runCount(hy));
    if (doHistRgb && !rgbFromParade) {
#pragma unroll
        for (int c = 0; c < 3; ++c)
            warpAggregatedAdd(runCount(hrgb[c]) ? histRgb + 256 * c + runKey(hrgb[c]) : nullptr, runCount(hrgb[c]));
    }
    if (doVec) {
#pragma unroll
        for (int k = 0; k < PC; ++k) warpAggregatedAdd(vs[k].n ? a.out.d_vectorscope + vs[k].key : nullptr, vs[k].n);
    }
    if (doStats) {
        const int lane = int(threadIdx.x & 31u);
        const int mins[3] = {warpMin(yMin), warpMin(uMin), warpMin(vMin)};
        const int maxs[3] = {warpMax(yMax), warpMax(uMax), warpMax(vMax)};
        const unsigned long long sums[3] = {warpSum(ySum), warpSum(uSum), warpSum(vSum)};
        const unsigned long long legal = warpSum(legalCount), gamut = warpSum(gamutCount), r103 = warpSum(r103Count);
        if (lane == 0) {
            for (int c = 0; c < 3; ++c) {
                if (mins[c] != INT_MAX) atomicMax(&blockStats.minInv[c], (L - 1) - mins[c]);
                atomicMax(&blockStats.max[c], maxs[c]);
                atomicAdd(&blockStats.sum[c], sums[c]);
            }
            atomicAdd(&blockStats.legal, legal);
            atomicAdd(&blockStats.gamut, gamut);
            atomicAdd(&blockStats.r103, r103);
        }
    }
    __syncthreads();

    // The block's columns are complete (strips span every row): store them, no atomics.
    if (slots > 0) {
        const int total = slots * L * S;
        const int xStrip = int(blockIdx.x) * S;
        for (int i = int(threadIdx.x); i < total; i += kThreads) {
            const int col = i & (S - 1);
            const int rest = i >> a.log2Strip;
            const int level = rest & (L - 1);
            const int slot = rest >> a.log2Levels;
            const int x = xStrip + col;
            if (x >= W) continue;
            const uint32_t word = *colWord(slot, level, col);
            const uint32_t count = (col & 1) ? (word >> 16) : (word & 0xffffu);
            const int channel = (doWave && slot == 0) ? 0 : 1 + slot - paradeSlot;
            a.out.d_columns[columnIndex(L, channel, level, x)] = uint16_t(count);
        }
    }
    // Histograms summed from the block's columns (only columns inside the frame hold counts).
    auto columnSum = [&](int slot, int level) {
        uint32_t sum = 0;
        const uint32_t* words = colWord(slot, level, 0);
        for (int k = 0; k < halfS; ++k) sum += (words[k] & 0xffffu) + (words[k] >> 16);
        return sum;
    };
    if (histFromWave)
        for (int i = int(threadIdx.x); i < L; i += kThreads)
            if (const uint32_t n = columnSum(0, i)) atomicAdd(a.out.d_histY + i, n);
    if (rgbFromParade)
        for (int i = int(threadIdx.x); i < 768; i += kThreads)
            if (const uint32_t n = columnSum(paradeSlot + (i >> 8), i & 255)) atomicAdd(a.out.d_histRgb + i, n);
    if (doHist && !histFromWave) {
        for (int i = int(threadIdx.x); i < L; i += kThreads)
            if (histY[i]) atomicAdd(a.out.d_histY + i, histY[i]);
    }
    if (doHistRgb && !rgbFromParade) {
        for (int i = int(threadIdx.x); i < 768; i += kThreads)
            if (histRgb[i]) atomicAdd(a.out.d_histRgb + i, histRgb[i]);
    }
    if (doStats && threadIdx.x == 0) addBlockStats(blockStats, a.out.d_stats);
}

int log2i(int v) { int l = 0; while ((1 << (l + 1)) <= v) ++l; return l; }
int ceilDiv(int a, int b) { return (a + b - 1) / b; }

template <class R>
cudaError_t launch(const R& reader, const KernelArgs& a, const ScopeLaunchShape& s, cudaStream_t stream) {
    // (The kernel's static shared memory counts too: opt in well before 48 KB of dynamic.)
    if (s.sharedBytes > 32 * 1024)
        if (const cudaError_t e = detail::optInSharedMemory(reinterpret_cast<const void*>(scopeKernel<R>), s.sharedBytes); e != cudaSuccess)
            return e;
    scopeKernel<R><<<dim3(unsigned(s.gridX), unsigned(s.gridY)), kThreads, s.sharedBytes, stream>>>(reader, a);
    return cudaGetLastError();
}

}  // namespace

namespace detail {

// Above 48 KB a kernel must opt in to its dynamic shared memory, per device. The largest
// size set per kernel and device is remembered, so later launches (and graph captures,
// which follow an uncaptured warm-up) make no call.
cudaError_t optInSharedMemory(const void* kernel, size_t bytes) {
    struct OptIn { const void* kernel; int device; size_t bytes; };
    static std::mutex mutex;
    static std::vector<OptIn> done;
    int device = 0;
    if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    const std::lock_guard<std::mutex> lock(mutex);
    for (const OptIn& o : done)
        if (o.kernel == kernel && o.device == device && o.bytes >= bytes) return cudaSuccess;
    if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)); e != cudaSuccess)
        return e;
    for (OptIn& o : done)
        if (o.kernel == kernel && o.device == device) { o.bytes = bytes; return cudaSuccess; }
    done.push_back({kernel, device, bytes});
    return cudaSuccess;
}

size_t maxSharedPerBlock() {
    constexpr int kDevices = 64;
    static std::atomic<size_t> cached[kDevices];
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return 0;
    if (device < kDevices && cached[device].load() != 0) return cached[device].load();
    int optin = 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) return 0;
    // Leave room for the kernels' static shared memory (a few hundred bytes).
    const size_t usable = optin > 1024 ? size_t(optin) - 1024 : 0;
    if (device < kDevices) cached[device].store(usable);
    return usable;
}

}  // namespace detail

ScopeLaunchShape scopeLaunchShape(PixelFormat format, int width, int height, uint32_t flags, int multiprocessors) {
    // (The luma histogram alone takes the luma kernel wherever luma is a plane of its own.)
    if (flags != kScopeHistogram || formatInfo(format).layout == PixelLayout::PackedYuv422) {
        const ScopeLaunchShape q = detail::quadShape(format, width, height, flags);
        if (q.gridX > 0 && q.sharedBytes <= detail::maxSharedPerBlock()) return q;
    }
    ScopeLaunchShape s;
    const int P = groupPixels(format);
    const int L = levelsOf(format);
    const int slots = ((flags & kScopeWaveform) ? 1 : 0) + ((flags & kScopeParade) ? 3 : 0);
    const int sms = multiprocessors > 0 ? multiprocessors : 1;
    s.groupPixels = P;
    int S = P;
    if (slots > 0) {
        // The widest strip whose counters fit, then narrower until every multiprocessor has a strip.
        while (S * 2 <= kMaxStrip && size_t(slots) * size_t(L) * size_t(S * 2) * 2 <= kCounterBudget) S *= 2;
        while (S > P && ceilDiv(width, S) < sms) S /= 2;
        s.bands = 1;
    } else {
        // No per-column counts: wide strips for coalesced rows, and bands of rows for parallelism.
        S = P * 64;
        while (S > P && S / 2 >= width) S /= 2;
        const int rowsInFlight = kThreads / (S / P);
        const int stripsX = ceilDiv(width, S);
        s.bands = std::max(1, std::min(ceilDiv(4 * sms, stripsX), ceilDiv(height, rowsInFlight)));
    }
    s.stripWidth = S;
    s.gridX = ceilDiv(width, S);
    s.gridY = s.bands;
    s.sharedBytes = size_t(slots) * size_t(L) * size_t(S / 2) * 4 + ((flags & kScopeHistogram) ? size_t(L) * 4 : 0) +
                    ((flags & kScopeHistogramRgb) ? 768 * 4 : 0);
    return s;
}

size_t lumaHistogramScratchBytes(PixelFormat format) { return size_t(levelsOf(format)) * sizeof(unsigned long long); }

bool scopePassWritesLookupPreview(PixelFormat format, int width, int height, uint32_t flags) {
    if (flags == kScopeHistogram) return false;
    const ScopeLaunchShape q = detail::quadShape(format, width, height, flags);
    return q.gridX > 0 && q.sharedBytes <= detail::maxSharedPerBlock();
}

bool planesAligned(const PlaneSet& planes, PixelFormat format) {
    const int n = formatInfo(format).planeCount;
    for (int i = 0; i < n; ++i)
        if ((reinterpret_cast<uintptr_t>(planes.data[i]) & 15u) != 0 || (planes.pitch[i] & 15u) != 0) return false;
    return true;
}

cudaError_t scopePass(const PlaneSet& planes, PixelFormat format, int width, int height, const ScopeColour& colour,
                      uint32_t flags, const ScopeOutputs& o, cudaStream_t stream) {
    if (width <= 0 || height <= 0 || format >= PixelFormat::Count || !planesAligned(planes, format))
        return cudaErrorInvalidValue;
    if (((flags & (kScopeWaveform | kScopeParade)) && !o.d_columns) ||
        ((flags & kScopeHistogram) && !o.d_histY) || ((flags & kScopeHistogramRgb) && !o.d_histRgb) || ((flags & kScopeVectorscope) && !o.d_vectorscope) ||
        ((flags & kScopeStats) && !o.d_stats) || ((flags & kScopePicture) && !o.d_picture) ||
        ((flags & kScopeLuma) && !o.d_luma))
        return cudaErrorInvalidValue;
    int device = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;

    const auto& info = formatInfo(format);
    // The specialised kernels first; they decline (cudaErrorNotSupported) what they do not cover.
    if (flags == kScopeHistogram) {
        e = detail::lumaHistogramPass(planes, format, width, height, o.d_histY, o.d_histScratch, stream);
        if (e != cudaErrorNotSupported) return e;
        // The other kernels add to d_histY, which a caller giving scratch has not cleared
        // (RGB sources: the general kernel).
        if (o.d_histScratch)
            if (e = cudaMemsetAsync(o.d_histY, 0, size_t(levelsOf(format)) * sizeof(uint32_t), stream); e != cudaSuccess) return e;
    }
    e = detail::quadPass(planes, format, width, height, colour, flags, o, stream);
    if (e != cudaErrorNotSupported) return e;
    const ScopeLaunchShape shape = scopeLaunchShape(format, width, height, flags, sms);
    KernelArgs a{};
    a.width = width; a.height = height;
    a.levels = 1 << info.bitDepth; a.log2Levels = info.bitDepth;
    a.strip = shape.stripWidth; a.log2Strip = log2i(shape.stripWidth);
    a.rowsPerBand = ceilDiv(height, shape.bands);
    a.log2ch = info.isRgb || info.layout == PixelLayout::Gray ? 0 : info.log2ChromaH;
    a.flags = flags;
    a.colour = colour;
    a.legal = legalRange(info.bitDepth);
    a.out = o;
    // Luma-only work (luma histogram, waveform, luma plane) leaves the chroma planes unread.
    const bool chroma = info.isRgb || (flags & (kScopeHistogramRgb | kScopeParade | kScopeVectorscope | kScopeStats | kScopePicture));
    return visitReader(planes, format, [&](auto reader) {
        reader.loadChroma = chroma;
        return launch(reader, a, shape, stream);
    });
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::scopeKernels() { return reinterpret_cast<const void*>(scopeKernel<Rgb32Reader>); }
