// Internal to cs_cuda: what the quad scope pass (QuadKernel.cu: every scope, statistic and
// the picture of a 4:2:0, 4:2:2 or 4:4:4 Y'CbCr frame in one launch) and its picture kernels
// (QuadPictureKernels.cu: the picture, luma plane and lookup preview when nothing is counted)
// share: the pass's arguments and the readers that load a 2x2 quad of each format and unpack
// it into code values.
#pragma once
#include <cuda_runtime.h>

#include "ScopeDevice.cuh"
#include "ScopeKernelsDetail.h"

namespace cs::cuda::detail {

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
    int32_t gamutLo, gamutHi;   // gamutBounds of the unclamped 8-bit R'G'B'
    int32_t r103LumaLo, r103LumaHi;   // r103LumaBounds of the 8-bit converter's fixed-point luma term
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

// fn(reader) with the quad reader of the frame's format (planes as PlaneSet holds them);
// cudaErrorNotSupported for a format that has none.
template <class Fn>
cudaError_t withQuadReader(const PlaneSet& planes, PixelFormat format, Fn&& fn) {
    switch (format) {
        case PixelFormat::Nv12:
            return fn(Quad420Reader<1, true, false>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], nullptr, 0}});
        case PixelFormat::P010:
            return fn(Quad420Reader<2, true, true>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], nullptr, 0}});
        case PixelFormat::Yuv420p:
            return fn(Quad420Reader<1, false, false>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv420p10:
            return fn(Quad420Reader<2, false, false>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv422p:
            return fn(Quad422PlanarReader<1>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv422p10:
            return fn(Quad422PlanarReader<2>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv444p:
            return fn(Quad444PlanarReader<1>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Yuv444p10:
            return fn(Quad444PlanarReader<2>{{}, {planes.data[0], planes.pitch[0], planes.data[1], planes.pitch[1], planes.data[2], planes.pitch[2]}});
        case PixelFormat::Uyvy422: return fn(QuadPackedReader<1, 0, 3, 2>{{}, planes.data[0], planes.pitch[0]});
        case PixelFormat::Yuyv422: return fn(QuadPackedReader<0, 1, 2, 3>{{}, planes.data[0], planes.pitch[0]});
        default: break;
    }
    return cudaErrorNotSupported;
}

// The picture kernels (QuadPictureKernels.cu), for a pass with nothing to count: their launch
// shape (as quadShape reports it), and the launch.
ScopeLaunchShape quadPictureShape(PixelFormat format, int width, int height);
cudaError_t quadPicturePass(const PlaneSet& planes, PixelFormat format, const ScopeLaunchShape& shape, const QuadArgs& a,
                            cudaStream_t stream);

}  // namespace cs::cuda::detail
