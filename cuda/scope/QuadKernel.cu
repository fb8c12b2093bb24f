// The scope pass for Y'CbCr frames, 4:2:0 (yuv420p, yuv420p10, nv12, p010: what decoders
// and NVDEC deliver), 4:2:2 (yuv422p, yuv422p10, uyvy422, yuyv422: ProRes, DNxHR, capture
// cards) and 4:4:4 (yuv444p, yuv444p10): every scope, statistic, the picture and the luma
// plane in one launch, designed for few instructions per pixel and shared-memory atomics
// without conflicts. With nothing to count, picture kernels of their own (QuadPictureKernels.cu).
//
// Work split. A block owns a strip of 16 columns over every row, so its column counters
// (waveform and parade) are complete at the end and are stored, not added: their shared
// layout is the device buffer's (ColumnCounts.h), so on Hopper the copy engine stores the
// block's counters as one block of memory, draining while the next block counts. A warp's 32
// lanes are 4 groups of 8: lane (g, c) owns columns 2c, 2c+1 of the strip, and each group
// is a "row worker" walking down a band of row pairs, one 2x2 quad per step. A quad has
// one chroma sample (4:2:0), one per row (4:2:2) or one per pixel (4:4:4): the chroma terms
// of the conversions are computed once per sample and serve its pixels.
//
// Conflict-free counting. Each pixel is counted in 4 channels: luma (waveform) and the
// parade's 3 components. Counters live in shared memory as [level][channel][c] words (two
// 16-bit column counts per word: a column holds at most 16384 pixels), so a word's bank
// is channel * 8 + c. At its j-th count of a pixel, group g counts channel (g + j) % 4:
// within one atomic instruction the 4 groups hit 4 different channels, the 8 lanes of a
// group 8 different c, so the 32 lanes always hit 32 different banks, whatever the
// picture (a solid frame is as fast as noise). The rotation is folded into per-lane
// conversion constants, so no lane selects anything per pixel.
//
// For 10-bit sources (and the Y'CbCr parade) the 8-bit R'G'B' of the histograms, the
// picture and the gamut test is a second set of 4 rotated channels (the 4th a copy of R',
// counted into an unused channel, its picture byte replaced by alpha), into
// [bin][channel][c] 32-bit counters. For 8-bit sources with the R'G'B' parade the parade's values are the
// 8-bit R'G'B' themselves, and the histograms are summed from its columns at the end; the
// luma histogram (and the luma statistics) always come from the waveform's columns.
//
// The vectorscope (levels^2 counters) stays in global memory. A worker merges equal
// consecutive chroma samples of its column in a register; a run's count then goes through
// a small shared cache of bins (the first bins a block meets claim its slots: the frequent
// colours of real pictures, whose global counters would otherwise take atomics from every
// block), else straight to the global counter. The cache is added to global memory once.
//
// A lookup preview (false colour: preview pixel = table[luma code]) can be written by the
// same pass, which spares the preview its own launch and the luma plane.
//
// The readers and the pass's arguments are in QuadReaders.cuh, the picture kernels that run
// when nothing is counted in QuadPictureKernels.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <type_traits>

#include "cuda/DependentLaunch.cuh"
#include "QuadReaders.cuh"
#include "ScopeDevice.cuh"
#include "ScopeKernelsDetail.h"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

constexpr int kStrip = 16;   // columns per block: 8 lanes x 2 columns
constexpr int kVsCacheBits = 11;
constexpr int kVsCache = 1 << kVsCacheBits;   // vectorscope bins cached per block (16 KB)

// A value the compiler must keep in a register as computed (no rematerialisation).
__device__ __forceinline__ uint32_t opaque(uint32_t v) {
    asm volatile("" : "+r"(v));
    return v;
}

__device__ __forceinline__ int32_t pick4(const int32_t (&v)[4], int i) {
    return i == 0 ? v[0] : i == 1 ? v[1] : i == 2 ? v[2] : v[3];
}

// kSet8: the second (8-bit R'G'B') channel set is counted; kStats: legal, gamut and chroma
// statistics per pixel; kPicture: the RGBA picture is written.
template <class R, bool kSet8, bool kStats, bool kPicture>
__global__ void __launch_bounds__(R::kThreads, R::kMinBlocks) quadKernel(const R reader, const QuadArgs a) {
    allowDependentLaunch();   // the preview after the pass may be scheduled once every block has started
    constexpr int kThreads = R::kThreads;
    constexpr int L = R::kLevels;
    constexpr int kChromaSamples = R::kChromaSamples;
    constexpr uint32_t kEightOffset = uint32_t(L) * 32u * 4u;   // bytes: the 8-bit set after the columns
    extern __shared__ __align__(16) uint32_t smem[];
    __shared__ BlockStats blockStats;

    const int W = a.width, H = a.height;
    const uint32_t flags = a.flags;
    const int lane = int(threadIdx.x & 31u), g = lane >> 3, c = lane & 7, warp = int(threadIdx.x >> 5);
    const int x0 = int(blockIdx.x) * kStrip + 2 * c;
    const bool col0 = x0 < W, col1 = x0 + 1 < W;
    const int xLoad = col0 ? x0 : 0;

    // This worker's band of row pairs (issue its first loads before clearing shared memory).
    constexpr int kWorkers = (kThreads / 32) * 4;
    const int worker = warp * 4 + g;
    const int rpBegin = int((long long)worker * a.rowPairs / kWorkers);
    const int rpEnd = int((long long)(worker + 1) * a.rowPairs / kWorkers);
    typename R::Raw cur{}, next{};
    if (rpBegin < rpEnd) reader.load(xLoad, 2 * rpBegin, min(2 * rpBegin + 1, H - 1), cur);

    const bool doVec = flags & kScopeVectorscope, doLuma = flags & kScopeLuma;
    const bool doWave = flags & kScopeWaveform, doParade = flags & kScopeParade;
    const uint32_t* previewLut = a.out.d_previewLut;
    // Vectorscope cache: keys (-1 = free), then counts, after the counters.
    constexpr int kWords = L * 32 + (kSet8 ? 256 * 32 : 0);
    int* vsKeys = reinterpret_cast<int*>(smem + kWords);
    uint32_t* vsCounts = smem + kWords + kVsCache;
    {
        uint4* s4 = reinterpret_cast<uint4*>(smem);
        for (int i = int(threadIdx.x); i < kWords / 4; i += kThreads) s4[i] = make_uint4(0, 0, 0, 0);
        if (doVec)
            for (int i = int(threadIdx.x); i < kVsCache; i += kThreads) { vsKeys[i] = -1; vsCounts[i] = 0; }
        if (threadIdx.x == 0) {
            for (int k = 0; k < 3; ++k) { blockStats.sum[k] = 0; blockStats.minInv[k] = -1; blockStats.max[k] = -1; }
            blockStats.legal = blockStats.gamut = blockStats.r103 = 0;
        }
    }

    // Per-lane constants of the rotated channels: position j counts channel (g + j) % 4.
    // (opaque(): computed once and kept, not recomputed from the thread index per pixel.)
    int32_t M[4], A[4], KU[4], KV[4], KU8[4], KV8[4];
    uint32_t off[4];   // shared addresses
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int ch = (g + j) & 3;
        M[j] = pick4(a.native.mul, ch); A[j] = pick4(a.native.add, ch);
        KU[j] = pick4(a.native.kU, ch); KV[j] = pick4(a.native.kV, ch);
        KU8[j] = pick4(a.eight.kU, ch); KV8[j] = pick4(a.eight.kV, ch);
        off[j] = opaque(sharedAddress(smem) + uint32_t(ch * 8 + c) * 4u);   // the lane's word of level 0
    }
    // Picture: the 4 positions' bytes packed in position order, rotated right by
    // (1 - g) % 4 bytes, give canonical channels 1, 2, 3, 0 = R, G, B, (alpha).
    const uint32_t pictureRotate = opaque(uint32_t((1 - g) & 3) * 8u);

    const uint32_t yRange = uint32_t(a.legal.yHi - a.legal.yLo), cRange = uint32_t(a.legal.cHi - a.legal.cLo);
    int uMin = INT_MAX, uMax = -1, vMin = INT_MAX, vMax = -1;
    uint32_t uSum = 0, vSum = 0, legalCount = 0, gamutCount = 0, r103Count = 0;
    int vsKey = -1;
    uint32_t vsCount = 0;
    // A run of `n` samples of vectorscope bin `key`: into the block's cache when the bin has
    // (or can claim) a slot, else into the global counter. (One compare-and-swap reads the
    // slot's key and claims a free slot.)
    auto vsAdd = [&](int key, uint32_t n) {
        const uint32_t slot = (uint32_t(key) * 2654435761u) >> (32 - kVsCacheBits);
        const int old = atomicCAS(vsKeys + slot, -1, key);
        if (old == -1 || old == key) atomicAdd(vsCounts + slot, n);
        else atomicAdd(a.out.d_vectorscope + key, n);
    };
    __syncthreads();

    // One quad; kFull: all four pixels inside the frame (no per-pixel tests).
    auto quad = [&](auto fullTag, int y0, bool row1) {
        constexpr bool kFull = decltype(fullTag)::value;
        int32_t yv[4], cb[4], cr[4];
        reader.unpack(cur, yv, cb, cr);
        // The chroma terms once per chroma sample: one per quad (4:2:0), row (4:2:2) or pixel (4:4:4).
        int32_t C[kChromaSamples][4], C8[kChromaSamples][4] = {};
        [[maybe_unused]] bool chromaIllegal[kChromaSamples];
#pragma unroll
        for (int k = 0; k < kChromaSamples; ++k) {
            const int32_t du = cb[k] - a.cOffset, dv = cr[k] - a.cOffset;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                C[k][j] = A[j] + KU[j] * du + KV[j] * dv;
                if constexpr (kSet8) C8[k][j] = a.eight.add[1] + KU8[j] * du + KV8[j] * dv;
            }
            chromaIllegal[k] = (uint32_t(cb[k] - a.legal.cLo) > cRange) | (uint32_t(cr[k] - a.legal.cLo) > cRange);
        }
        (void)C8;
        const bool valid[4] = {true, col1, row1, col1 && row1};
        [[maybe_unused]] uint32_t px[4];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            const int k = sampleOf<kChromaSamples>(p);   // the pixel's chroma sample
            const bool ok = kFull || valid[p];
            const uint32_t inc = (p & 1) ? 0x10000u : 1u;
            const int32_t y = yv[p];
            int32_t s[4], v[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                s[j] = (M[j] * y + C[k][j]) >> 16;
                v[j] = __vimin_s32_relu(s[j], L - 1);
                if (ok) sharedRed<0>(off[j] + (uint32_t(v[j]) << 7), inc);
            }
            int32_t s8[4], v8[4];
            if constexpr (kSet8) {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    s8[j] = (a.eight.mul[1] * y + C8[k][j]) >> 16;
                    v8[j] = __vimin_s32_relu(s8[j], 255);
                    if (ok) sharedRed<kEightOffset>(off[j] + (uint32_t(v8[j]) << 7), 1u);
                }
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) { s8[j] = s[j]; v8[j] = v[j]; }
            }
            if constexpr (kPicture) {
                const uint32_t lo = __byte_perm(uint32_t(v8[0]), uint32_t(v8[1]), 0x5140);
                const uint32_t hi = __byte_perm(uint32_t(v8[2]), uint32_t(v8[3]), 0x5140);
                const uint32_t packed = __byte_perm(lo, hi, 0x5410);
                px[p] = __funnelshift_r(packed, packed, pictureRotate) | 0xff000000u;   // alpha: channel 0's byte replaced
            }
            if constexpr (kStats) {
                // Channel 0 (a copy of R', or luma 0..255) adds no out-of-gamut pixel of its own.
                const int32_t mn = min(min(s8[0], s8[1]), min(s8[2], s8[3]));
                const int32_t mx = max(max(s8[0], s8[1]), max(s8[2], s8[3]));
                const bool rgbOut = mn < a.gamutLo || mx > a.gamutHi;
                gamutCount += uint32_t(ok && rgbOut);
                // EBU R 103 (core/Color.h's yuvOutsideR103): the 8-bit converter's luma term before
                // the shift (add[1] holds its 1/2 and -yMul * yOffset: the same value modulo 2^32).
                const int32_t yy = a.eight.mul[1] * y + a.eight.add[1];
                r103Count += uint32_t(ok && (rgbOut || yy < a.r103LumaLo || yy > a.r103LumaHi));
                legalCount += uint32_t(ok && ((uint32_t(y - a.legal.yLo) > yRange) || chromaIllegal[k]));
            }
        }
#pragma unroll
        for (int k = 0; k < kChromaSamples; ++k) {
            // Samples of pixels outside the frame (a last odd row or column) are not counted.
            if (kChromaSamples == 2 && k == 1 && !(kFull || row1)) break;
            if (kChromaSamples == 4 && !(kFull || valid[k])) continue;
            if constexpr (kStats) {
                uMin = min(uMin, cb[k]); uMax = max(uMax, cb[k]); uSum += uint32_t(cb[k]);
                vMin = min(vMin, cr[k]); vMax = max(vMax, cr[k]); vSum += uint32_t(cr[k]);
            }
            if (doVec) {
                // The pixels the sample covers: 2 x 2 (4:2:0), 2 x 1 (4:2:2) or 1, fewer at the edges.
                const int key = (cr[k] << R::kLog2Levels) | cb[k];
                const uint32_t across = kFull || col1 ? 2u : 1u;
                const uint32_t weight = kChromaSamples == 4 ? 1u : (kChromaSamples == 2 ? across : across * (kFull || row1 ? 2u : 1u));
                const bool flush = key != vsKey;
                if (flush && vsCount) vsAdd(vsKey, vsCount);
                vsCount = flush ? weight : vsCount + weight;
                vsKey = key;
            }
        }
        const bool in1 = kFull || col1, inRow1 = kFull || row1;
        if constexpr (kPicture) storeQuad<4>(a.out.d_picture, a.out.picturePitch, x0, y0, in1, inRow1, px);
        if (previewLut) {
            const uint32_t lut[4] = {__ldg(previewLut + yv[0]), __ldg(previewLut + yv[1]), __ldg(previewLut + yv[2]), __ldg(previewLut + yv[3])};
            storeQuad<4>(a.out.d_preview, a.out.previewPitch, x0, y0, in1, inRow1, lut);
        }
        if (doLuma) {
            const uint32_t codes[4] = {uint32_t(yv[0]), uint32_t(yv[1]), uint32_t(yv[2]), uint32_t(yv[3])};
            storeQuad<2>(reinterpret_cast<uint8_t*>(a.out.d_luma), a.out.lumaPitch, x0, y0, in1, inRow1, codes);
        }
    };

    for (int rp = rpBegin; rp < rpEnd; ++rp) {
        const int y0 = 2 * rp;
        if (rp + 1 < rpEnd) reader.load(xLoad, y0 + 2, min(y0 + 3, H - 1), next);   // in flight while this quad is counted
        const bool row1 = y0 + 1 < H;
        if (col1 && row1) quad(std::true_type{}, y0, true);
        else if (col0) quad(std::false_type{}, y0, row1);
        cur = next;
    }

    // Open vectorscope runs.
    if (doVec && vsCount) vsAdd(vsKey, vsCount);
    if constexpr (kStats) {
        const int mins[2] = {warpMin(uMin), warpMin(vMin)};
        const int maxs[2] = {warpMax(uMax), warpMax(vMax)};
        const unsigned long long sums[2] = {warpSum(uSum), warpSum(vSum)};
        const unsigned long long legal = warpSum(legalCount), gamut = warpSum(gamutCount), r103 = warpSum(r103Count);
        if (lane == 0) {
            for (int k = 0; k < 2; ++k) {
                if (mins[k] != INT_MAX) atomicMax(&blockStats.minInv[k + 1], (L - 1) - mins[k]);
                atomicMax(&blockStats.max[k + 1], maxs[k]);
                atomicAdd(&blockStats.sum[k + 1], sums[k]);
            }
            atomicAdd(&blockStats.legal, legal);
            atomicAdd(&blockStats.gamut, gamut);
            atomicAdd(&blockStats.r103, r103);
        }
    }
#if __CUDA_ARCH__ >= 900
    // The counters are read next by the copy engine (the async proxy): every thread's shared
    // writes are made visible to it before the barrier.
    if (doWave && doParade) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    __syncthreads();

    // The vectorscope cache, once per block.
    if (doVec)
        for (int i = int(threadIdx.x); i < kVsCache; i += kThreads)
            if (const uint32_t n = vsCounts[i]) atomicAdd(a.out.d_vectorscope + vsKeys[i], n);

    // Columns: complete (the strip spans every row), and already in ColumnCounts.h's layout:
    // the block's counters are its strip's block of d_columns, stored, not added. With every
    // channel wanted the copy engine stores them (Hopper: eight bulk copies, waited for at the
    // end), so the stores drain while this block sums its histograms and the next block on
    // this multiprocessor counts; else the threads store the wanted channels' words.
    uint4* const stripOut = reinterpret_cast<uint4*>(a.out.d_columns + columnIndex(L, 0, 0, int(blockIdx.x) * kStrip));
    const uint4* const counters4 = reinterpret_cast<const uint4*>(smem);
    [[maybe_unused]] bool bulkIssued = false;
    if (doWave && doParade) {
#if __CUDA_ARCH__ >= 900
        constexpr int kCopies = 8;   // one per warp of the first eight (kThreads >= 256)
        if ((threadIdx.x & 31u) == 0 && threadIdx.x < 32u * kCopies) {
            constexpr uint32_t kChunk = uint32_t(L) * 128u / kCopies;
            const uint32_t part = threadIdx.x >> 5;
            bulkStore(reinterpret_cast<uint8_t*>(stripOut) + part * kChunk, sharedAddress(smem) + part * kChunk, kChunk);
            bulkIssued = true;
        }
#else
        for (int i = int(threadIdx.x); i < L * 8; i += kThreads) stripOut[i] = counters4[i];
#endif
    } else if (doWave || doParade) {
        // The wanted channels' 16-byte pieces only (a piece is half of one channel's 8 words
        // of a level): 2 a level for the waveform (channel 0), 6 for the parade (1..3).
        const int first = doWave ? 0 : 2, perLevel = doWave ? 2 : 6;
        for (int p = int(threadIdx.x); p < L * perLevel; p += kThreads) {
            const int level = p / perLevel, i = level * 8 + first + (p - level * perLevel);
            stripOut[i] = counters4[i];
        }
    }
    // Luma histogram and luma statistics from the waveform's columns.
    const bool doHist = flags & kScopeHistogram;
    auto columnSum = [&](int level, int ch) {
        const uint4* w = reinterpret_cast<const uint4*>(smem + level * 32 + ch * 8);
        uint32_t n = 0;
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const uint4 q = w[k];
            n += (q.x & 0xffffu) + (q.x >> 16) + (q.y & 0xffffu) + (q.y >> 16) + (q.z & 0xffffu) + (q.z >> 16) + (q.w & 0xffffu) + (q.w >> 16);
        }
        return n;
    };
    if (doHist || kStats) {
        unsigned long long ySum = 0;
        int yMin = INT_MAX, yMax = -1;
        for (int level = int(threadIdx.x); level < L; level += kThreads) {
            const uint32_t n = columnSum(level, 0);
            if (n == 0) continue;
            if (doHist) atomicAdd(a.out.d_histY + level, n);
            ySum += (unsigned long long)level * n;
            yMin = min(yMin, level);
            yMax = max(yMax, level);
        }
        if constexpr (kStats) {
            const unsigned long long s = warpSum(ySum);
            const int mn = warpMin(yMin), mx = warpMax(yMax);
            if (lane == 0) {
                if (mn != INT_MAX) atomicMax(&blockStats.minInv[0], (L - 1) - mn);
                atomicMax(&blockStats.max[0], mx);
                atomicAdd(&blockStats.sum[0], s);
            }
        }
    }
    // R'G'B' histograms: from the 8-bit set, or from the 8-bit R'G'B' parade's columns.
    if (flags & kScopeHistogramRgb) {
        for (int i = int(threadIdx.x); i < 768; i += kThreads) {
            const int ch = 1 + (i >> 8), bin = i & 255;
            uint32_t n = 0;
            if constexpr (kSet8) {
                const uint4* w = reinterpret_cast<const uint4*>(smem + L * 32 + bin * 32 + ch * 8);
                const uint4 q0 = w[0], q1 = w[1];
                n = q0.x + q0.y + q0.z + q0.w + q1.x + q1.y + q1.z + q1.w;
            } else {
                n = columnSum(bin, ch);
            }
            if (n) atomicAdd(a.out.d_histRgb + (ch - 1) * 256 + bin, n);
        }
    }
    if constexpr (kStats) {
        __syncthreads();
        if (threadIdx.x == 0) addBlockStats(blockStats, a.out.d_stats);
    }
#if __CUDA_ARCH__ >= 900
    if (bulkIssued) bulkStoreWaitRead();   // the counters' shared memory stays until the copy engine has read it
#endif
}

constexpr uint32_t kCounted = kScopeWaveform | kScopeParade | kScopeHistogram | kScopeHistogramRgb | kScopeVectorscope | kScopeStats;

// 4:2:0, 4:2:2 and 4:4:4 Y'CbCr: a 2x2 quad has one chroma sample, one per row or one per pixel.
bool isQuadFormat(PixelFormat f) {
    switch (f) {
        case PixelFormat::Yuv420p: case PixelFormat::Yuv420p10: case PixelFormat::Nv12: case PixelFormat::P010:
        case PixelFormat::Yuv422p: case PixelFormat::Yuv422p10: case PixelFormat::Uyvy422: case PixelFormat::Yuyv422:
        case PixelFormat::Yuv444p: case PixelFormat::Yuv444p10: return true;
        default: return false;
    }
}

// The native set is R'G'B' unless the parade is asked for in Y'CbCr.
bool nativeIsRgb(uint32_t flags) { return !(flags & kScopeParade) || (flags & kScopeParadeRgb); }

bool needsSet8(PixelFormat f, uint32_t flags) {
    const bool deep = bitDepthOf(f) == 10;
    return (deep || !nativeIsRgb(flags)) && (flags & (kScopeHistogramRgb | kScopePicture | kScopeStats));
}

size_t sharedBytesFor(PixelFormat f, uint32_t flags) {
    return size_t(levelsOf(f)) * 32 * 4 + (needsSet8(f, flags) ? 256 * 32 * 4 : 0) +
           ((flags & kScopeVectorscope) ? size_t(kVsCache) * 8 : 0);
}

// Channels 1..3 = R', G', B'. Channel 0 is a copy of R' (the native set overwrites it with
// luma): in the 8-bit set its counts land in the unused channel 0 region and its picture
// byte becomes alpha, so every channel of the set has the same luma gain and offset.
ChannelSet rgbChannels(const YuvToRgb& k) {
    ChannelSet s{};
    const int32_t add = (1 << (kFixedShift - 1)) - k.yMul * k.yOffset;
    s.mul[0] = k.yMul; s.add[0] = add; s.kU[0] = 0; s.kV[0] = k.rCr;
    s.mul[1] = k.yMul; s.add[1] = add; s.kU[1] = 0; s.kV[1] = k.rCr;
    s.mul[2] = k.yMul; s.add[2] = add; s.kU[2] = -k.gCb; s.kV[2] = -k.gCr;
    s.mul[3] = k.yMul; s.add[3] = add; s.kU[3] = k.bCb; s.kV[3] = 0;
    return s;
}

template <class R, bool kSet8, bool kStats, bool kPicture>
cudaError_t launchQuad(const R& reader, const QuadArgs& a, int gridX, size_t shared, cudaStream_t stream) {
    auto kernel = quadKernel<R, kSet8, kStats, kPicture>;
    if (const cudaError_t e = optInSharedMemory(reinterpret_cast<const void*>(kernel), shared); e != cudaSuccess) return e;
    kernel<<<dim3(unsigned(gridX)), R::kThreads, shared, stream>>>(reader, a);
    return cudaGetLastError();
}

template <class R>
cudaError_t dispatchQuad(const R& reader, const QuadArgs& a, bool set8, int gridX, size_t shared, cudaStream_t stream) {
    const bool stats = a.flags & kScopeStats, picture = a.flags & kScopePicture;
    if (set8) {
        if (stats) return picture ? launchQuad<R, true, true, true>(reader, a, gridX, shared, stream)
                                  : launchQuad<R, true, true, false>(reader, a, gridX, shared, stream);
        return picture ? launchQuad<R, true, false, true>(reader, a, gridX, shared, stream)
                       : launchQuad<R, true, false, false>(reader, a, gridX, shared, stream);
    }
    if (stats) return picture ? launchQuad<R, false, true, true>(reader, a, gridX, shared, stream)
                              : launchQuad<R, false, true, false>(reader, a, gridX, shared, stream);
    return picture ? launchQuad<R, false, false, true>(reader, a, gridX, shared, stream)
                   : launchQuad<R, false, false, false>(reader, a, gridX, shared, stream);
}

}  // namespace

ScopeLaunchShape quadShape(PixelFormat format, int width, int height, uint32_t flags) {
    ScopeLaunchShape s;
    s.groupPixels = 4;
    if (!isQuadFormat(format)) return s;
    if (!(flags & kCounted)) return quadPictureShape(format, width, height);   // quadPictureKernel, pictureWideKernel
    s.stripWidth = kStrip;
    s.gridX = (width + kStrip - 1) / kStrip;
    s.gridY = 1;
    s.sharedBytes = sharedBytesFor(format, flags);
    return s;
}

cudaError_t quadPass(const PlaneSet& planes, PixelFormat format, int width, int height, const ScopeColour& colour,
                        uint32_t flags, const ScopeOutputs& o, cudaStream_t stream) {
    if (!isQuadFormat(format)) return cudaErrorNotSupported;
    const bool counted = flags & kCounted;
    if (!counted && !(flags & (kScopePicture | kScopeLuma)) && !o.d_previewLut) return cudaErrorNotSupported;
    const ScopeLaunchShape shape = quadShape(format, width, height, flags);
    if (shape.sharedBytes > maxSharedPerBlock()) return cudaErrorNotSupported;
    const int depth = bitDepthOf(format);
    QuadArgs a{};
    a.width = width; a.height = height; a.rowPairs = (height + 1) / 2;
    a.flags = flags;
    a.cOffset = colour.toRgb8.cOffset;
    a.legal = legalRange(depth);
    const GamutBounds gamut = gamutBounds(colour.toRgb8.outMax);
    a.gamutLo = gamut.lo;
    a.gamutHi = gamut.hi;
    const GamutBounds r103Luma = r103LumaBounds(colour.toRgb8.outMax);
    a.r103LumaLo = r103Luma.lo;
    a.r103LumaHi = r103Luma.hi;
    if (nativeIsRgb(flags)) {
        a.native = rgbChannels(colour.toRgbNative);
    } else {
        a.native = ChannelSet{};
        a.native.mul[1] = 1 << kFixedShift;                                              // Y
        a.native.add[2] = colour.toRgb8.cOffset << kFixedShift; a.native.kU[2] = 1 << kFixedShift;   // Cb
        a.native.add[3] = colour.toRgb8.cOffset << kFixedShift; a.native.kV[3] = 1 << kFixedShift;   // Cr
    }
    a.native.mul[0] = 1 << kFixedShift; a.native.add[0] = 0; a.native.kU[0] = a.native.kV[0] = 0;   // luma
    a.eight = rgbChannels(colour.toRgb8);
    a.out = o;
    const bool set8 = needsSet8(format, flags);
    if (!counted) return quadPicturePass(planes, format, shape, a, stream);
    return withQuadReader(planes, format, [&](const auto& reader) { return dispatchQuad(reader, a, set8, shape.gridX, shape.sharedBytes, stream); });
}

}  // namespace cs::cuda::detail

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::quadKernel() { return reinterpret_cast<const void*>(detail::quadKernel<detail::Quad420Reader<1, false, false>, false, false, false>); }
