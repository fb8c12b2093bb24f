// The picture kernels of the quad scope pass (QuadReaders.cuh): with nothing to count, the
// picture, the luma plane and the lookup preview of a 4:2:0, 4:2:2 or 4:4:4 Y'CbCr frame, with
// the quad kernel's conversion and none of its counters.
#include <cuda_runtime.h>

#include <type_traits>

#include "cuda/DependentLaunch.cuh"
#include "QuadReaders.cuh"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

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
// samples are and unpacks them as the quad readers do. Against one quad a thread this takes
// the 8-bit 4:2:0 pictures from about 1.9x to 1.5x their memory floor (docs/CUDA.md).
constexpr int kWideChunks = 2;
constexpr int kWideRowPairs = 2;   // 1 or 4 row pairs, or 8 warps a block, are no faster
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

}  // namespace

ScopeLaunchShape quadPictureShape(PixelFormat format, int width, int height) {
    ScopeLaunchShape s;
    const bool wide = formatInfo(format).log2ChromaW == 1;   // 4:2:0, 4:2:2: pictureWideKernel
    const int rowPairsPerBlock = wide ? kWideWarps * kWideRowPairs : kPictureRowPairs;
    s.groupPixels = wide ? 4 : 2;
    s.stripWidth = wide ? kWideColumns : 2 * kPictureThreads;
    s.gridX = (width + s.stripWidth - 1) / s.stripWidth;
    s.gridY = ((height + 1) / 2 + rowPairsPerBlock - 1) / rowPairsPerBlock;
    s.bands = s.gridY;
    return s;
}

cudaError_t quadPicturePass(const PlaneSet& planes, PixelFormat format, const ScopeLaunchShape& shape, const QuadArgs& a,
                            cudaStream_t stream) {
    return withQuadReader(planes, format, [&](const auto& reader) -> cudaError_t {
        const dim3 grid(unsigned(shape.gridX), unsigned(shape.gridY));
        using R = std::remove_cvref_t<decltype(reader)>;
        if constexpr (std::is_same_v<typename WideReaderOf<R>::type, void>)
            quadPictureKernel<<<grid, kPictureThreads, 0, stream>>>(reader, a);
        else
            pictureWideKernel<<<grid, dim3(32, kWideWarps), 0, stream>>>(typename WideReaderOf<R>::type{reader}, a);
        return cudaGetLastError();
    });
}

}  // namespace cs::cuda::detail

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::quadPictureKernels() { return reinterpret_cast<const void*>(detail::quadPictureKernel<detail::Quad444PlanarReader<1>>); }
