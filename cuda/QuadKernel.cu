// The scope pass for Y'CbCr frames, 4:2:0 (yuv420p, yuv420p10, nv12, p010: what decoders
// and NVDEC deliver), 4:2:2 (yuv422p, yuv422p10, uyvy422, yuyv422: ProRes, DNxHR, capture
// cards) and 4:4:4 (yuv444p, yuv444p10): every scope, statistic, the picture and the luma
// plane in one launch, designed for few instructions per pixel and shared-memory atomics
// without conflicts. With nothing to count, a picture kernel of its own (at the end).
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
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <type_traits>

#include "DependentLaunch.cuh"
#include "ScopeDevice.cuh"
#include "ScopeKernelsDetail.h"

namespace cs::cuda::detail {
namespace {

constexpr int kStrip = 16;   // columns per block: 8 lanes x 2 columns
constexpr int kVsCacheBits = 11;
constexpr int kVsCache = 1 << kVsCacheBits;   // vectorscope bins cached per block (16 KB)

// Four channels in canonical order (0 = luma, or a copy of R', 1..3 = the parade's / R'G'B'):
// value = clamp((mul * y + add + kU * (cb - cOffset) + kV * (cr - cOffset)) >> 16, 0, max).
// Equal, modulo 2^32, to core/Color.h's yuvToRgb terms, so the results are identical.
struct ChannelSet {
    int32_t mul[4], add[4], kU[4], kV[4];
};

struct QuadArgs {
    int width, height, rowPairs;
    uint32_t flags;
    int32_t cOffset;
    LegalRange legal;
    int32_t gamutLo, gamutHi;   // EBU R 103 limits on the unclamped 8-bit R'G'B'
    ChannelSet native, eight;
    ScopeOutputs out;
};


// The `bytes`-wide sample at byte `offset` of a row, read through the aligned 32-bit word
// that holds it: no load is narrower than 32 bits (lanes sharing a word are served by one
// transaction). Rows start 16-byte aligned, so the selector depends on the column alone and
// stays out of the row loop.
template <int kBytes>
__device__ __forceinline__ uint32_t sampleAt(const uint8_t* row, size_t offset) {
    if constexpr (kBytes == 4) return load32(row + offset);
    const uint32_t word = load32(row + (offset & ~size_t(3)));
    // One byte permute moves the sample's bytes down and zeroes the rest (selector 4 = a zero byte).
    const uint32_t first = uint32_t(offset & 3);
    const uint32_t selector = kBytes == 1 ? (0x4440u | first) : (0x4400u | first | ((first + 1) << 4));
    return __byte_perm(word, 0u, selector);
}

// A quad reader's sample i of a word: sampleInWord, but bytes by shift and mask (see there).
template <int BPS>
__device__ __forceinline__ uint32_t sampleOfWord(uint32_t word, int i) {
    if constexpr (BPS == 1) return (word >> (8 * i)) & 0xffu;
    return sampleInWord<BPS>(word, i);
}

// What every quad reader shares, by bytes per sample.
template <int BPS>
struct QuadDepth {
    static constexpr bool kDeep = BPS == 2;
    static constexpr int kLevels = kDeep ? 1024 : 256;
    static constexpr int kLog2Levels = kDeep ? 10 : 8;
    // 10-bit: one block per multiprocessor (its 160 KB of counters), 80 registers a thread;
    // 8-bit (32 KB): two, so that the 240 strips of a 4K frame all run at once.
    static constexpr int kThreads = kDeep ? 768 : 384;
    static constexpr int kMinBlocks = kDeep ? 1 : 2;
};

// The planes of a planar or semi-planar frame (semi-planar: cbPlane is the CbCr plane).
struct QuadPlanes {
    const uint8_t* luma;
    size_t lumaPitch;
    const uint8_t* cbPlane;
    size_t cbPitch;
    const uint8_t* crPlane;
    size_t crPitch;
};

// A reader loads one quad (two luma pairs: rows y0, y1, columns x0, x0 + 1, with their
// chroma) and unpacks it into code values: y[0], y[1] of row y0, y[2], y[3] of row y1, and
// the chroma samples of the quad: kChromaSamples = 1 (4:2:0: one shared, in cb[0], cr[0]),
// 2 (4:2:2: one per row) or 4 (4:4:4: one per pixel, in pixel order); sampleOf(p) is
// pixel p's. x0 is even and inside the row; y1 = y0 + 1, or y0 on a last
// odd row. Bits above the depth are ignored (planar 10-bit words are masked, P010's low 6
// bits dropped).

// 4:2:0: SEMI: interleaved CbCr plane; P010: value in the high 10 bits.
template <int BPS, bool SEMI, bool P010>
struct Quad420Reader : QuadDepth<BPS>, QuadPlanes {
    static constexpr int kChromaSamples = 1;

    struct Raw { uint32_t row0, row1, c0, c1; };

    __device__ __forceinline__ void load(int x0, int y0, int y1, Raw& r) const {
        const size_t cy = size_t(y0 >> 1);
        r.row0 = sampleAt<2 * BPS>(luma + size_t(y0) * lumaPitch, size_t(x0) * BPS);   // the pair x0, x0 + 1
        r.row1 = sampleAt<2 * BPS>(luma + size_t(y1) * lumaPitch, size_t(x0) * BPS);
        if constexpr (SEMI) {
            // x0 / 2 Cb,Cr pairs of BPS-byte samples precede this one: byte offset x0 * BPS.
            r.c0 = sampleAt<2 * BPS>(cbPlane + cy * cbPitch, size_t(x0) * BPS);
            r.c1 = 0;
        } else {
            const size_t off = size_t(x0 >> 1) * BPS;
            r.c0 = sampleAt<BPS>(cbPlane + cy * cbPitch, off);
            r.c1 = sampleAt<BPS>(crPlane + cy * crPitch, off);
        }
    }
    __device__ __forceinline__ void unpack(const Raw& r, int32_t (&y)[4], int32_t (&cb)[4], int32_t (&cr)[4]) const {
        if constexpr (BPS == 1) {   // sampleAt gave the pair (or the byte) alone in its word
            y[0] = int32_t(r.row0 & 0xffu); y[1] = int32_t(r.row0 >> 8);
            y[2] = int32_t(r.row1 & 0xffu); y[3] = int32_t(r.row1 >> 8);
            if constexpr (SEMI) { cb[0] = int32_t(r.c0 & 0xffu); cr[0] = int32_t(r.c0 >> 8); }
            else { cb[0] = int32_t(r.c0); cr[0] = int32_t(r.c1); }
        } else {
            auto s = [](uint32_t w, int i) { return int32_t(sampleInWord<2, P010>(w, i)); };
            y[0] = s(r.row0, 0); y[1] = s(r.row0, 1);
            y[2] = s(r.row1, 0); y[3] = s(r.row1, 1);
            if constexpr (SEMI) { cb[0] = s(r.c0, 0); cr[0] = s(r.c0, 1); }
            else { cb[0] = s(r.c0, 0); cr[0] = s(r.c1, 0); }
        }
    }
};

// 4:2:2 planar (yuv422p, yuv422p10: value in the low bits): a chroma sample per row.
template <int BPS>
struct Quad422PlanarReader : QuadDepth<BPS>, QuadPlanes {
    static constexpr int kChromaSamples = 2;

    struct Raw { uint32_t row0, row1, cb0, cr0, cb1, cr1; };

    __device__ __forceinline__ void load(int x0, int y0, int y1, Raw& r) const {
        r.row0 = sampleAt<2 * BPS>(luma + size_t(y0) * lumaPitch, size_t(x0) * BPS);
        r.row1 = sampleAt<2 * BPS>(luma + size_t(y1) * lumaPitch, size_t(x0) * BPS);
        const size_t off = size_t(x0 >> 1) * BPS;
        r.cb0 = sampleAt<BPS>(cbPlane + size_t(y0) * cbPitch, off);
        r.cr0 = sampleAt<BPS>(crPlane + size_t(y0) * crPitch, off);
        r.cb1 = sampleAt<BPS>(cbPlane + size_t(y1) * cbPitch, off);
        r.cr1 = sampleAt<BPS>(crPlane + size_t(y1) * crPitch, off);
    }
    __device__ __forceinline__ void unpack(const Raw& r, int32_t (&y)[4], int32_t (&cb)[4], int32_t (&cr)[4]) const {
        auto s = [](uint32_t w, int i) { return int32_t(sampleOfWord<BPS>(w, i)); };
        y[0] = s(r.row0, 0); y[1] = s(r.row0, 1);
        y[2] = s(r.row1, 0); y[3] = s(r.row1, 1);
        cb[0] = s(r.cb0, 0); cr[0] = s(r.cr0, 0);
        cb[1] = s(r.cb1, 0); cr[1] = s(r.cr1, 0);
    }
};

// 4:2:2 packed (uyvy422, yuyv422): a lane's two columns of a row are one 32-bit word holding
// both lumas and the row's chroma; Y0, U, Y1, V: byte positions in the word.
template <int Y0, int U, int Y1, int V>
struct QuadPackedReader : QuadDepth<1> {
    static constexpr int kChromaSamples = 2;
    const uint8_t* plane;
    size_t pitch;

    struct Raw { uint32_t row0, row1; };

    __device__ __forceinline__ void load(int x0, int y0, int y1, Raw& r) const {
        r.row0 = load32(plane + size_t(y0) * pitch + size_t(x0) * 2);
        r.row1 = load32(plane + size_t(y1) * pitch + size_t(x0) * 2);
    }
    __device__ __forceinline__ void unpack(const Raw& r, int32_t (&y)[4], int32_t (&cb)[4], int32_t (&cr)[4]) const {
        auto byte = [](uint32_t w, int i) { return int32_t(sampleOfWord<1>(w, i)); };
        y[0] = byte(r.row0, Y0); y[1] = byte(r.row0, Y1); y[2] = byte(r.row1, Y0); y[3] = byte(r.row1, Y1);
        cb[0] = byte(r.row0, U); cr[0] = byte(r.row0, V); cb[1] = byte(r.row1, U); cr[1] = byte(r.row1, V);
    }
};

// 4:4:4 planar (yuv444p, yuv444p10: value in the low bits): a chroma sample per pixel.
template <int BPS>
struct Quad444PlanarReader : QuadDepth<BPS>, QuadPlanes {
    static constexpr int kChromaSamples = 4;

    struct Raw { uint32_t row0, row1, cb0, cr0, cb1, cr1; };   // each a pair of columns

    __device__ __forceinline__ void load(int x0, int y0, int y1, Raw& r) const {
        const size_t off = size_t(x0) * BPS;
        r.row0 = sampleAt<2 * BPS>(luma + size_t(y0) * lumaPitch, off);
        r.row1 = sampleAt<2 * BPS>(luma + size_t(y1) * lumaPitch, off);
        r.cb0 = sampleAt<2 * BPS>(cbPlane + size_t(y0) * cbPitch, off);
        r.cr0 = sampleAt<2 * BPS>(crPlane + size_t(y0) * crPitch, off);
        r.cb1 = sampleAt<2 * BPS>(cbPlane + size_t(y1) * cbPitch, off);
        r.cr1 = sampleAt<2 * BPS>(crPlane + size_t(y1) * crPitch, off);
    }
    __device__ __forceinline__ void unpack(const Raw& r, int32_t (&y)[4], int32_t (&cb)[4], int32_t (&cr)[4]) const {
        auto split = [](uint32_t w0, uint32_t w1, int32_t (&v)[4]) {
            v[0] = int32_t(sampleOfWord<BPS>(w0, 0)); v[1] = int32_t(sampleOfWord<BPS>(w0, 1));
            v[2] = int32_t(sampleOfWord<BPS>(w1, 0)); v[3] = int32_t(sampleOfWord<BPS>(w1, 1));
        };
        split(r.row0, r.row1, y);
        split(r.cb0, r.cb1, cb);
        split(r.cr0, r.cr1, cr);
    }
};

template <int kChromaSamples>
__device__ __forceinline__ constexpr int sampleOf(int p) {
    return kChromaSamples == 4 ? p : (kChromaSamples == 2 ? p >> 1 : 0);
}

// A quad's values (v[0], v[1]: row y0; v[2], v[3]: row y0 + 1) into an image of 4-byte (RGBA)
// or 2-byte (luma code) pixels: one store per row; col1 / row1: the second column / row is
// inside the frame.
template <int kBytes>
__device__ __forceinline__ void storeQuad(uint8_t* image, size_t pitch, int x0, int y0, bool col1, bool row1, const uint32_t (&v)[4]) {
    auto put = [&](uint8_t* p, uint32_t first, uint32_t second) {
        if constexpr (kBytes == 4) {
            if (col1) *reinterpret_cast<uint2*>(p) = make_uint2(first, second);
            else *reinterpret_cast<uint32_t*>(p) = first;
        } else {
            if (col1) *reinterpret_cast<uint32_t*>(p) = first | (second << 16);
            else *reinterpret_cast<uint16_t*>(p) = uint16_t(first);
        }
    };
    uint8_t* row = image + size_t(y0) * pitch + size_t(x0) * kBytes;
    put(row, v[0], v[1]);
    if (row1) put(row + pitch, v[2], v[3]);
}

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
            blockStats.legal = blockStats.gamut = 0;
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
    uint32_t uSum = 0, vSum = 0, legalCount = 0, gamutCount = 0;
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
                gamutCount += uint32_t(ok && (mn < a.gamutLo || mx > a.gamutHi));
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
        const unsigned long long legal = warpSum(legalCount), gamut = warpSum(gamutCount);
        if (lane == 0) {
            for (int k = 0; k < 2; ++k) {
                if (mins[k] != INT_MAX) atomicMax(&blockStats.minInv[k + 1], (L - 1) - mins[k]);
                atomicMax(&blockStats.max[k + 1], maxs[k]);
                atomicAdd(&blockStats.sum[k + 1], sums[k]);
            }
            atomicAdd(&blockStats.legal, legal);
            atomicAdd(&blockStats.gamut, gamut);
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

// The picture's RGBA pixels of one quad (the 8-bit set's channels 1..3 = R', G', B'; alpha
// opaque), in the order of its values. core's clamp((t >> 16), 0, 255) of each channel's
// t = mul * y + add + kU * du + kV * dv is byte 2 of max(min(t, 0xffffff), 0), so a channel
// costs a multiply-add and one clamp (no shift), and two byte permutes gather the byte 2s.
template <int kChromaSamples>
__device__ __forceinline__ void quadPixels(const QuadArgs& a, const int32_t (&yv)[4], const int32_t (&cb)[4], const int32_t (&cr)[4],
                                           uint32_t (&px)[4]) {
    const int32_t mul = a.eight.mul[1], add = a.eight.add[1];   // one luma gain and offset (rgbChannels)
    // add + kU (cb - o) + kV (cr - o) = (add - (kU + kV) o) + kU cb + kV cr, modulo 2^32 as ever
    // (the bases are the same for every quad: computed once a thread).
    const ChannelSet& e = a.eight;
    const int32_t o = a.cOffset;
    const int32_t base[3] = {add - (e.kU[1] + e.kV[1]) * o, add - (e.kU[2] + e.kV[2]) * o, add - (e.kU[3] + e.kV[3]) * o};
    int32_t cR[4], cG[4], cB[4];   // per chroma sample
#pragma unroll
    for (int c = 0; c < kChromaSamples; ++c) {
        cR[c] = base[0] + e.kU[1] * cb[c] + e.kV[1] * cr[c];
        cG[c] = base[1] + e.kU[2] * cb[c] + e.kV[2] * cr[c];
        cB[c] = base[2] + e.kU[3] * cb[c] + e.kV[3] * cr[c];
    }
#pragma unroll
    for (int p = 0; p < 4; ++p) {
        const int c = sampleOf<kChromaSamples>(p);
        const int32_t m = mul * yv[p];
        const uint32_t r = uint32_t(__viaddmin_s32_relu(m, cR[c], 0xffffff));   // max(min(m + cR, 0xffffff), 0)
        const uint32_t g = uint32_t(__viaddmin_s32_relu(m, cG[c], 0xffffff));
        const uint32_t b = uint32_t(__viaddmin_s32_relu(m, cB[c], 0xffffff));
        px[p] = __byte_perm(__byte_perm(r, g, 0x0062), b, 0x0610) | 0xff000000u;
    }
}

// The picture (and the luma plane, the lookup preview) of a 4:4:4 frame when nothing is
// counted: the quad kernel's conversion without its counters. A thread converts
// one 2x2 quad per row pair (the chroma terms once per quad) over kPictureRowPairs row
// pairs, all their loads issued first; a warp covers 64 columns, so every load and 8-byte
// store of a row is coalesced.
constexpr int kPictureThreads = 128;
constexpr int kPictureRowPairs = 4;

template <class R>
__global__ void __launch_bounds__(kPictureThreads) quadPictureKernel(const R reader, const QuadArgs a) {
    allowDependentLaunch();   // the preview after the pass may be scheduled once every block has started
    const int W = a.width, H = a.height;
    const int x0 = 2 * int(blockIdx.x * blockDim.x + threadIdx.x);
    const int rp0 = int(blockIdx.y) * kPictureRowPairs;
    if (x0 >= W || rp0 >= a.rowPairs) return;
    const bool col1 = x0 + 1 < W;
    const bool doPicture = a.flags & kScopePicture, doLuma = a.flags & kScopeLuma;
    const uint32_t* previewLut = a.out.d_previewLut;
    const int n = min(kPictureRowPairs, a.rowPairs - rp0);
    typename R::Raw raw[kPictureRowPairs];
#pragma unroll
    for (int k = 0; k < kPictureRowPairs; ++k)
        if (k < n) reader.load(x0, 2 * (rp0 + k), min(2 * (rp0 + k) + 1, H - 1), raw[k]);
#pragma unroll
    for (int k = 0; k < kPictureRowPairs; ++k) {
        if (k >= n) break;
        const int y0 = 2 * (rp0 + k);
        const bool row1 = y0 + 1 < H;
        int32_t yv[4], cb[4], cr[4];
        reader.unpack(raw[k], yv, cb, cr);
        if (doPicture) {
            uint32_t px[4];
            quadPixels<R::kChromaSamples>(a, yv, cb, cr, px);
            storeQuad<4>(a.out.d_picture, a.out.picturePitch, x0, y0, col1, row1, px);
        }
        if (doLuma) {
            const uint32_t codes[4] = {uint32_t(yv[0]), uint32_t(yv[1]), uint32_t(yv[2]), uint32_t(yv[3])};
            storeQuad<2>(reinterpret_cast<uint8_t*>(a.out.d_luma), a.out.lumaPitch, x0, y0, col1, row1, codes);
        }
        if (previewLut) {
            const uint32_t lut[4] = {__ldg(previewLut + yv[0]), __ldg(previewLut + yv[1]), __ldg(previewLut + yv[2]), __ldg(previewLut + yv[3])};
            storeQuad<4>(a.out.d_preview, a.out.previewPitch, x0, y0, col1, row1, lut);
        }
    }
}

// The same for 4:2:0 (what decoders and NVDEC deliver) and 4:2:2, with every load and store
// as wide as a chunk allows: a lane converts chunks of 4 columns x 2 rows (two quads),
// kWideChunks of them a row pair, 128 columns apart, so that each load and store instruction
// of a warp covers one contiguous run of its row (NV12 luma 128 bytes, P010 luma and chroma
// 256, pictures 512: 16 bytes a lane). A warp covers 256 columns of kWideRowPairs row pairs,
// all their loads issued first. Each row's address is computed once; its chunks are
// immediate offsets from it. The loads of a chunk at the right edge stay inside the row's
// pitch (PixelGroups.h's contract: pitches are multiples of 16 bytes); its stores stop at
// the edge. A chunk reader (Wide420, Wide422Planar, WidePacked) says where a row pair's
// samples are and unpacks them as the quad readers do. Measured at 4K on an H200 (picture
// alone, against one quad a thread): NV12 20.1 -> 16.5 µs, yuv420p 21.7 -> 16.8, P010
// 20.8 -> 20.0, uyvy422 18.2 -> 17.4, yuv422p10 27.5 -> 22.2.
constexpr int kWideChunks = 2;
constexpr int kWideRowPairs = 2;   // measured at 4K: 1 and 4 row pairs, 8 warps a block no faster
constexpr int kWideWarps = 4;   // a block: 32 x 4 threads, 256 columns x 8 row pairs
constexpr int kWideColumns = 4 * 32 * kWideChunks;

template <int N>
__device__ __forceinline__ void loadWords(const uint8_t* p, uint32_t (&w)[N]) {
    if constexpr (N == 1) {
        w[0] = __ldg(reinterpret_cast<const uint32_t*>(p));
    } else {
        const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
        w[0] = v.x; w[1] = v.y;
    }
}

// Sample i of those packed in words w (sampleInWord of the word that holds it).
template <int BPS, bool P010 = false, int N>
__device__ __forceinline__ int32_t sampleOfWords(const uint32_t (&w)[N], int i) {
    return int32_t(sampleInWord<BPS, P010>(w[BPS == 1 ? i >> 2 : i >> 1], i));
}

// Two 8-bit samples at p (2-byte aligned) and `extra` bytes on (a multiple of 4), through
// their aligned word (sampleAt).
__device__ __forceinline__ uint32_t bytePairAt(const uint8_t* p, int extra) {
    const uint32_t mis = uint32_t(reinterpret_cast<uintptr_t>(p) & 3);
    return sampleAt<2>(p - mis, mis + uint32_t(extra));
}

// 4:2:0: rows y0, y1 of luma, the row pair's chroma row (CbCr interleaved, or Cb and Cr planes).
template <int BPS, bool SEMI, bool P010>
struct Wide420 {
    static constexpr int kChromaSamples = 1;
    Quad420Reader<BPS, SEMI, P010> rd;
    struct Rows { const uint8_t *l0, *l1, *cb, *cr; };
    struct Chunk { uint32_t row0[BPS], row1[BPS], cb[BPS], cr[BPS]; };   // SEMI: cb = Cb, Cr, Cb, Cr; planar: cb[0], cr[0]

    __device__ __forceinline__ Rows rows(int y0, int y1, int x) const {
        const uint8_t* l0 = rd.luma + size_t(y0) * rd.lumaPitch + size_t(x) * BPS;
        if constexpr (SEMI) return {l0, l0 + size_t(y1 - y0) * rd.lumaPitch, rd.cbPlane + size_t(y0 >> 1) * rd.cbPitch + size_t(x) * BPS, nullptr};
        return {l0, l0 + size_t(y1 - y0) * rd.lumaPitch, rd.cbPlane + size_t(y0 >> 1) * rd.cbPitch + size_t(x >> 1) * BPS,
                rd.crPlane + size_t(y0 >> 1) * rd.crPitch + size_t(x >> 1) * BPS};
    }
    __device__ __forceinline__ void load(const Rows& r, int j, Chunk& c) const {
        loadWords(r.l0 + j * 128 * BPS, c.row0);
        loadWords(r.l1 + j * 128 * BPS, c.row1);
        if constexpr (SEMI) {
            loadWords(r.cb + j * 128 * BPS, c.cb);
        } else if constexpr (BPS == 2) {
            c.cb[0] = load32(r.cb + j * 128);
            c.cr[0] = load32(r.cr + j * 128);
        } else {
            c.cb[0] = bytePairAt(r.cb, j * 64);
            c.cr[0] = bytePairAt(r.cr, j * 64);
        }
    }
    __device__ __forceinline__ int32_t luma(const Chunk& c, int row, int i) const {
        return sampleOfWords<BPS, P010>(row ? c.row1 : c.row0, i);
    }
    __device__ __forceinline__ void chroma(const Chunk& c, int q, int32_t (&cb)[4], int32_t (&cr)[4]) const {
        if constexpr (SEMI) {
            cb[0] = sampleOfWords<BPS, P010>(c.cb, 2 * q);
            cr[0] = sampleOfWords<BPS, P010>(c.cb, 2 * q + 1);
        } else {
            cb[0] = sampleOfWords<BPS>(c.cb, q);
            cr[0] = sampleOfWords<BPS>(c.cr, q);
        }
    }
};

// 4:2:2 planar: a chroma row per luma row, two samples a chunk row.
template <int BPS>
struct Wide422Planar {
    static constexpr int kChromaSamples = 2;
    Quad422PlanarReader<BPS> rd;
    struct Rows { const uint8_t *l0, *l1, *cb0, *cr0, *cb1, *cr1; };
    struct Chunk { uint32_t row0[BPS], row1[BPS], cb0[1], cr0[1], cb1[1], cr1[1]; };   // chroma: two samples a word

    __device__ __forceinline__ Rows rows(int y0, int y1, int x) const {
        const size_t c = size_t(x >> 1) * BPS;
        return {rd.luma + size_t(y0) * rd.lumaPitch + size_t(x) * BPS, rd.luma + size_t(y1) * rd.lumaPitch + size_t(x) * BPS,
                rd.cbPlane + size_t(y0) * rd.cbPitch + c, rd.crPlane + size_t(y0) * rd.crPitch + c,
                rd.cbPlane + size_t(y1) * rd.cbPitch + c, rd.crPlane + size_t(y1) * rd.crPitch + c};
    }
    __device__ __forceinline__ void load(const Rows& r, int j, Chunk& c) const {
        loadWords(r.l0 + j * 128 * BPS, c.row0);
        loadWords(r.l1 + j * 128 * BPS, c.row1);
        auto pair = [&](const uint8_t* p) { return BPS == 2 ? load32(p + j * 128) : bytePairAt(p, j * 64); };
        c.cb0[0] = pair(r.cb0); c.cr0[0] = pair(r.cr0); c.cb1[0] = pair(r.cb1); c.cr1[0] = pair(r.cr1);
    }
    __device__ __forceinline__ int32_t luma(const Chunk& c, int row, int i) const { return sampleOfWords<BPS>(row ? c.row1 : c.row0, i); }
    __device__ __forceinline__ void chroma(const Chunk& c, int q, int32_t (&cb)[4], int32_t (&cr)[4]) const {
        cb[0] = sampleOfWords<BPS>(c.cb0, q); cr[0] = sampleOfWords<BPS>(c.cr0, q);
        cb[1] = sampleOfWords<BPS>(c.cb1, q); cr[1] = sampleOfWords<BPS>(c.cr1, q);
    }
};

// Packed 4:2:2 (uyvy422, yuyv422): a chunk row is 8 bytes, Y0 U Y1 V (in the format's order) twice.
template <int Y0, int U, int Y1, int V>
struct WidePacked {
    static constexpr int kChromaSamples = 2;
    QuadPackedReader<Y0, U, Y1, V> rd;
    struct Rows { const uint8_t *r0, *r1; };
    struct Chunk { uint32_t row0[2], row1[2]; };

    __device__ __forceinline__ Rows rows(int y0, int y1, int x) const {
        return {rd.plane + size_t(y0) * rd.pitch + size_t(x) * 2, rd.plane + size_t(y1) * rd.pitch + size_t(x) * 2};
    }
    __device__ __forceinline__ void load(const Rows& r, int j, Chunk& c) const {
        loadWords(r.r0 + j * 256, c.row0);
        loadWords(r.r1 + j * 256, c.row1);
    }
    static __device__ __forceinline__ int32_t byteOf(uint32_t w, int i) { return int32_t(sampleInWord<1>(w, i)); }
    __device__ __forceinline__ int32_t luma(const Chunk& c, int row, int i) const {
        const uint32_t w = (row ? c.row1 : c.row0)[i >> 1];
        return byteOf(w, i & 1 ? Y1 : Y0);
    }
    __device__ __forceinline__ void chroma(const Chunk& c, int q, int32_t (&cb)[4], int32_t (&cr)[4]) const {
        cb[0] = byteOf(c.row0[q], U); cr[0] = byteOf(c.row0[q], V);
        cb[1] = byteOf(c.row1[q], U); cr[1] = byteOf(c.row1[q], V);
    }
};

// Four pixels of a row at p (n of them inside, 1..4), 4-byte (RGBA) or 2-byte (luma code) pixels.
template <int kBytes>
__device__ __forceinline__ void storeFour(uint8_t* p, int n, const uint32_t (&v)[4]) {
    if (n == 4) {
        if constexpr (kBytes == 4) *reinterpret_cast<uint4*>(p) = make_uint4(v[0], v[1], v[2], v[3]);
        else *reinterpret_cast<uint2*>(p) = make_uint2(v[0] | (v[1] << 16), v[2] | (v[3] << 16));
        return;
    }
#pragma unroll
    for (int i = 0; i < 3; ++i) {
        if (i >= n) break;
        if constexpr (kBytes == 4) reinterpret_cast<uint32_t*>(p)[i] = v[i];
        else reinterpret_cast<uint16_t*>(p)[i] = uint16_t(v[i]);
    }
}

// The chunk reader of a quad reader (void: 4:4:4, one quad a thread).
template <class R> struct WideReaderOf { using type = void; };
template <int BPS, bool SEMI, bool P010> struct WideReaderOf<Quad420Reader<BPS, SEMI, P010>> { using type = Wide420<BPS, SEMI, P010>; };
template <int BPS> struct WideReaderOf<Quad422PlanarReader<BPS>> { using type = Wide422Planar<BPS>; };
template <int Y0, int U, int Y1, int V> struct WideReaderOf<QuadPackedReader<Y0, U, Y1, V>> { using type = WidePacked<Y0, U, Y1, V>; };

template <class C>
__global__ void __launch_bounds__(32 * kWideWarps) pictureWideKernel(const C reader, const QuadArgs a) {
    allowDependentLaunch();   // the preview after the pass may be scheduled once every block has started
    const int W = a.width, H = a.height;
    const int xBase = int(blockIdx.x) * kWideColumns + 4 * int(threadIdx.x);
    const int rp0 = (int(blockIdx.y) * kWideWarps + int(threadIdx.y)) * kWideRowPairs;
    if (xBase >= W || rp0 >= a.rowPairs) return;
    const bool doPicture = a.flags & kScopePicture, doLuma = a.flags & kScopeLuma;
    const uint32_t* previewLut = a.out.d_previewLut;
    const int pairs = min(kWideRowPairs, a.rowPairs - rp0);
    typename C::Chunk raw[kWideRowPairs][kWideChunks];
#pragma unroll
    for (int k = 0; k < kWideRowPairs; ++k) {
        if (k >= pairs) break;
        const int y0 = 2 * (rp0 + k);
        const typename C::Rows rows = reader.rows(y0, min(y0 + 1, H - 1), xBase);
#pragma unroll
        for (int j = 0; j < kWideChunks; ++j)
            if (xBase + j * 128 < W) reader.load(rows, j, raw[k][j]);
    }
#pragma unroll
    for (int k = 0; k < kWideRowPairs; ++k) {
        if (k >= pairs) break;
        const int y0 = 2 * (rp0 + k);
        const bool row1 = y0 + 1 < H;
        // Offsets of the rows, added to an output's base only where it is written: an output
        // not asked for has a null base, and pointer arithmetic on null is undefined. (Integer
        // addresses cast back to pointers made the stores generic, and the kernel slower.)
        const size_t picAt = size_t(y0) * a.out.picturePitch + size_t(xBase) * 4;
        const size_t lumaAt = size_t(y0) * a.out.lumaPitch + size_t(xBase) * 2;
        const size_t previewAt = size_t(y0) * a.out.previewPitch + size_t(xBase) * 4;
#pragma unroll
        for (int j = 0; j < kWideChunks; ++j) {
            if (xBase + j * 128 >= W) break;
            const int n = min(4, W - xBase - j * 128);
            const typename C::Chunk& c = raw[k][j];
            int32_t y[2][4];   // [row][column]
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                y[0][i] = reader.luma(c, 0, i);
                y[1][i] = reader.luma(c, 1, i);
            }
            if (doPicture) {
                uint32_t px[2][4];
#pragma unroll
                for (int q = 0; q < 2; ++q) {
                    int32_t cb[4], cr[4];
                    reader.chroma(c, q, cb, cr);
                    const int32_t yv[4] = {y[0][2 * q], y[0][2 * q + 1], y[1][2 * q], y[1][2 * q + 1]};
                    uint32_t quad[4];
                    quadPixels<C::kChromaSamples>(a, yv, cb, cr, quad);
                    px[0][2 * q] = quad[0]; px[0][2 * q + 1] = quad[1];
                    px[1][2 * q] = quad[2]; px[1][2 * q + 1] = quad[3];
                }
                storeFour<4>(a.out.d_picture + (picAt + j * 512), n, px[0]);
                if (row1) storeFour<4>(a.out.d_picture + (picAt + a.out.picturePitch + j * 512), n, px[1]);
            }
#pragma unroll
            for (int r = 0; r < 2; ++r) {
                if (r == 1 && !row1) break;
                if (doLuma) {
                    const uint32_t codes[4] = {uint32_t(y[r][0]), uint32_t(y[r][1]), uint32_t(y[r][2]), uint32_t(y[r][3])};
                    storeFour<2>(reinterpret_cast<uint8_t*>(a.out.d_luma) + (lumaAt + r * a.out.lumaPitch + j * 256), n, codes);
                }
                if (previewLut) {
                    const uint32_t lut[4] = {__ldg(previewLut + y[r][0]), __ldg(previewLut + y[r][1]), __ldg(previewLut + y[r][2]),
                                             __ldg(previewLut + y[r][3])};
                    storeFour<4>(a.out.d_preview + (previewAt + r * a.out.previewPitch + j * 512), n, lut);
                }
            }
        }
    }
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
    if (!(flags & kCounted)) {   // pictureWideKernel, quadPictureKernel
        const bool wide = formatInfo(format).log2ChromaW == 1;   // 4:2:0, 4:2:2: pictureWideKernel
        const int rowPairsPerBlock = wide ? kWideWarps * kWideRowPairs : kPictureRowPairs;
        s.groupPixels = wide ? 4 : 2;
        s.stripWidth = wide ? kWideColumns : 2 * kPictureThreads;
        s.gridX = (width + s.stripWidth - 1) / s.stripWidth;
        s.gridY = ((height + 1) / 2 + rowPairsPerBlock - 1) / rowPairsPerBlock;
        s.bands = s.gridY;
        return s;
    }
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
    a.gamutLo = -(colour.toRgb8.outMax + 10) / 20;
    a.gamutHi = colour.toRgb8.outMax + (colour.toRgb8.outMax + 10) / 20;
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
    auto run = [&](const auto& reader) -> cudaError_t {
        if (counted) return dispatchQuad(reader, a, set8, shape.gridX, shape.sharedBytes, stream);
        const dim3 grid(unsigned(shape.gridX), unsigned(shape.gridY));
        using R = std::remove_cvref_t<decltype(reader)>;
        if constexpr (std::is_same_v<typename WideReaderOf<R>::type, void>)
            quadPictureKernel<<<grid, kPictureThreads, 0, stream>>>(reader, a);
        else
            pictureWideKernel<<<grid, dim3(32, kWideWarps), 0, stream>>>(typename WideReaderOf<R>::type{reader}, a);
        return cudaGetLastError();
    };
    switch (format) {
        case PixelFormat::Nv12:
            return run(Quad420Reader<1, true, false>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], nullptr, 0}});
        case PixelFormat::P010:
            return run(Quad420Reader<2, true, true>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], nullptr, 0}});
        case PixelFormat::Yuv420p:
            return run(Quad420Reader<1, false, false>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv420p10:
            return run(Quad420Reader<2, false, false>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv422p:
            return run(Quad422PlanarReader<1>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv422p10:
            return run(Quad422PlanarReader<2>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv444p:
            return run(Quad444PlanarReader<1>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv444p10:
            return run(Quad444PlanarReader<2>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Uyvy422: return run(QuadPackedReader<1, 0, 3, 2>{{}, planes.data[0], planes.pitch[0]});
        case PixelFormat::Yuyv422: return run(QuadPackedReader<0, 1, 2, 3>{{}, planes.data[0], planes.pitch[0]});
        default: break;
    }
    return cudaErrorNotSupported;
}

}  // namespace cs::cuda::detail
