// Vectorised pixel readers for the CUDA scope pass: each reads a group of P horizontally
// adjacent pixels of one row with 32- or 64-bit loads (never byte by byte) and unpacks
// them into native code values. The semantics are core/PixelAccess.h's readYuv/readRgb;
// CS_HD so that the host tests (tests/cuda/test_pixel_groups.cpp) check every format
// against PixelAccess without a GPU.
//
// Alignment contract (the engine guarantees it, copying misaligned device frames first):
// plane pointers and pitches are multiples of 16 bytes and x0 is a multiple of P, so each
// load is naturally aligned. The last group of a row may read past the row's end, but
// never past the row's pitch, which is a multiple of the load width.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/Color.h"
#include "core/PixelFormat.h"

namespace cs::cuda {

CS_HD uint32_t load32(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(reinterpret_cast<const unsigned int*>(p));
#else
    uint32_t v; std::memcpy(&v, p, 4); return v;
#endif
}
// A 16-bit sample (or a pair of 8-bit ones) is read on the device through the aligned 32-bit
// word that holds it, then shifted down: no load is narrower than 32 bits, and the lanes that
// share a word are served by one transaction. p is 2-byte aligned, so the sample never
// straddles two words.
CS_HD uint32_t load16(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    return (__ldg(reinterpret_cast<const unsigned int*>(a & ~uintptr_t(3))) >> (8 * uint32_t(a & 3))) & 0xffffu;
#else
    uint16_t v; std::memcpy(&v, p, 2); return v;
#endif
}
CS_HD void load64(const uint8_t* p, uint32_t& lo, uint32_t& hi) {
#if defined(__CUDA_ARCH__)
    const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
    lo = v.x; hi = v.y;
#else
    std::memcpy(&lo, p, 4); std::memcpy(&hi, p + 4, 4);
#endif
}
CS_HD int32_t byteOf(uint32_t w, int i) { return int32_t((w >> (8 * i)) & 0xffu); }

// The planes of a frame as the kernels see them.
struct PlaneSet {
    const uint8_t* data[3];
    size_t pitch[3];
};

// P pixels of Y'CbCr: luma per pixel, chroma per chroma sample (PC = P >> log2 chroma width).
template <int P, int PC>
struct YuvGroup { int32_t y[P]; int32_t cb[PC]; int32_t cr[PC]; };
template <int P>
struct RgbGroup { int32_t r[P]; int32_t g[P]; int32_t b[P]; };

// yuv420p/422p/444p (8-bit, BPS 1) and their 10-bit forms (BPS 2, value in the low bits).
// Gray8/Gray10 use it with the chroma planes absent (kGray): Cb = Cr = mid level.
template <int BPS, int LOG2CW, bool GRAY = false>
struct PlanarReader {
    static constexpr int P = BPS == 1 ? 4 : 2;
    static constexpr int LOG2W = LOG2CW;
    static constexpr int PC = P >> LOG2CW;
    static constexpr bool kRgb = false, kGray = GRAY, kDeep = BPS == 2;
    // Blocks per multiprocessor the kernel is compiled for (a register budget): the 8-bit
    // 4:4:4 reader carries more state and gets two, to avoid spilling.
    static constexpr int kMinBlocks = (BPS == 1 && LOG2CW == 0 && !GRAY) ? 2 : 3;
    using Group = YuvGroup<P, PC>;
    PlaneSet planes;
    int log2ch;
    int32_t valueMask;   // (1 << depth) - 1: bits above the depth are ignored, never indexed
    int32_t mid;
    bool loadChroma = true;   // false: chroma is not needed (left as mid level, planes unread)

    CS_HD void load(int x0, int y, Group& g) const {
        const uint8_t* py = planes.data[0] + size_t(y) * planes.pitch[0];
        const uint32_t w = load32(py + x0 * BPS);
        if constexpr (BPS == 1) {
            for (int i = 0; i < 4; ++i) g.y[i] = byteOf(w, i);
        } else {
            g.y[0] = int32_t(w & 0xffffu) & valueMask;
            g.y[1] = int32_t(w >> 16) & valueMask;
        }
        if (GRAY || !loadChroma) {
            for (int k = 0; k < PC; ++k) { g.cb[k] = mid; g.cr[k] = mid; }
        } else {
            const int cy = y >> log2ch, cx0 = x0 >> LOG2CW;
            const uint8_t* pu = planes.data[1] + size_t(cy) * planes.pitch[1] + cx0 * BPS;
            const uint8_t* pv = planes.data[2] + size_t(cy) * planes.pitch[2] + cx0 * BPS;
            constexpr int bytes = PC * BPS;   // 2 or 4
            const uint32_t u = bytes == 4 ? load32(pu) : load16(pu);
            const uint32_t v = bytes == 4 ? load32(pv) : load16(pv);
            if constexpr (BPS == 1) {
                for (int k = 0; k < PC; ++k) { g.cb[k] = byteOf(u, k); g.cr[k] = byteOf(v, k); }
            } else {
                for (int k = 0; k < PC; ++k) {
                    g.cb[k] = int32_t((u >> (16 * k)) & 0xffffu) & valueMask;
                    g.cr[k] = int32_t((v >> (16 * k)) & 0xffffu) & valueMask;
                }
            }
        }
    }
};

// nv12 (BPS 1) and p010 (BPS 2, value in the high 10 bits): Y plane + interleaved CbCr.
template <int BPS>
struct SemiPlanarReader {
    static constexpr int P = BPS == 1 ? 4 : 2;
    static constexpr int LOG2W = 1;
    static constexpr int PC = P / 2;
    static constexpr bool kRgb = false, kGray = false, kDeep = BPS == 2;
    static constexpr int kMinBlocks = 3;
    using Group = YuvGroup<P, PC>;
    PlaneSet planes;
    int log2ch;          // 1
    int32_t valueMask;
    int32_t mid;
    bool loadChroma = true;

    CS_HD void load(int x0, int y, Group& g) const {
        const uint8_t* py = planes.data[0] + size_t(y) * planes.pitch[0];
        const uint8_t* pc = planes.data[1] + size_t(y >> 1) * planes.pitch[1] + x0 * BPS;   // (x0/2) pairs of 2 samples
        const uint32_t w = load32(py + x0 * BPS);
        const uint32_t c = loadChroma ? load32(pc) : (BPS == 1 ? 0x80808080u : 0x80008000u);
        if constexpr (BPS == 1) {
            for (int i = 0; i < 4; ++i) g.y[i] = byteOf(w, i);
            g.cb[0] = byteOf(c, 0); g.cr[0] = byteOf(c, 1);
            g.cb[1] = byteOf(c, 2); g.cr[1] = byteOf(c, 3);
        } else {
            g.y[0] = int32_t((w & 0xffffu) >> kP010Shift);
            g.y[1] = int32_t(w >> (16 + kP010Shift));
            g.cb[0] = int32_t((c & 0xffffu) >> kP010Shift);
            g.cr[0] = int32_t(c >> (16 + kP010Shift));
        }
    }
};

// uyvy422 / yuyv422: one 32-bit word holds two pixels (Y0, Cb, Y1, Cr at the format's offsets).
struct Packed422Reader {
    static constexpr int P = 2;
    static constexpr int LOG2W = 1;
    static constexpr int PC = 1;
    static constexpr bool kRgb = false, kGray = false, kDeep = false;
    static constexpr int kMinBlocks = 3;
    using Group = YuvGroup<2, 1>;
    PlaneSet planes;
    int log2ch;          // 0
    int32_t valueMask;
    int32_t mid;
    int offY0, offCb, offY1, offCr;
    bool loadChroma = true;   // one word holds luma and chroma: nothing to skip

    CS_HD void load(int x0, int y, Group& g) const {
        const uint32_t w = load32(planes.data[0] + size_t(y) * planes.pitch[0] + x0 * 2);
        g.y[0] = byteOf(w, offY0); g.y[1] = byteOf(w, offY1);
        g.cb[0] = byteOf(w, offCb); g.cr[0] = byteOf(w, offCr);
    }
};

// What the R'G'B' readers share: P pixels a group, the byte offsets of R, G and B.
template <int kPixels, int kBlocks>
struct RgbReaderBase {
    static constexpr int P = kPixels;
    static constexpr int LOG2W = 0;
    static constexpr int PC = kPixels;
    static constexpr bool kRgb = true, kGray = false, kDeep = false;
    static constexpr int kMinBlocks = kBlocks;
    using Group = RgbGroup<kPixels>;
    PlaneSet planes;
    int log2ch;
    int32_t valueMask;
    int32_t mid;
    int offR, offG, offB;
    bool loadChroma = true;   // R'G'B': every component is needed for luma
};

// rgb24 / bgr24: four pixels are 12 bytes, read as three 32-bit words.
struct Rgb24Reader : RgbReaderBase<4, 2> {
    CS_HD void load(int x0, int y, Group& g) const {
        const uint8_t* p = planes.data[0] + size_t(y) * planes.pitch[0] + x0 * 3;
        const uint32_t w[3] = {load32(p), load32(p + 4), load32(p + 8)};
        for (int i = 0; i < 4; ++i) {
            const int r = 3 * i + offR, gg = 3 * i + offG, b = 3 * i + offB;
            g.r[i] = byteOf(w[r >> 2], r & 3);
            g.g[i] = byteOf(w[gg >> 2], gg & 3);
            g.b[i] = byteOf(w[b >> 2], b & 3);
        }
    }
};

// rgba / bgra / argb: two pixels in one 64-bit load (alpha ignored).
struct Rgb32Reader : RgbReaderBase<2, 3> {
    CS_HD void load(int x0, int y, Group& g) const {
        uint32_t w[2];
        load64(planes.data[0] + size_t(y) * planes.pitch[0] + x0 * 4, w[0], w[1]);
        for (int i = 0; i < 2; ++i) {
            g.r[i] = byteOf(w[i], offR); g.g[i] = byteOf(w[i], offG); g.b[i] = byteOf(w[i], offB);
        }
    }
};

// Calls fn(reader) with the reader for `format` (which must be a valid format: Count falls
// back to the yuv420p reader, callers check first) and returns what fn returns.
template <typename Fn>
decltype(auto) visitReader(const PlaneSet& planes, PixelFormat format, Fn&& fn) {
    const auto& info = formatInfo(format < PixelFormat::Count ? format : PixelFormat::Yuv420p);
    const int32_t mask = (1 << info.bitDepth) - 1, mid = 1 << (info.bitDepth - 1);
    const int l2ch = info.log2ChromaH;
    const int* off = info.offset;
    switch (format) {
        case PixelFormat::Yuv422p:
        case PixelFormat::Yuv420p: return fn(PlanarReader<1, 1>{planes, l2ch, mask, mid});
        case PixelFormat::Yuv444p: return fn(PlanarReader<1, 0>{planes, 0, mask, mid});
        case PixelFormat::Yuv420p10:
        case PixelFormat::Yuv422p10: return fn(PlanarReader<2, 1>{planes, l2ch, mask, mid});
        case PixelFormat::Yuv444p10: return fn(PlanarReader<2, 0>{planes, 0, mask, mid});
        case PixelFormat::Nv12: return fn(SemiPlanarReader<1>{planes, 1, mask, mid});
        case PixelFormat::P010: return fn(SemiPlanarReader<2>{planes, 1, mask, mid});
        case PixelFormat::Uyvy422:
        case PixelFormat::Yuyv422: return fn(Packed422Reader{planes, 0, mask, mid, off[0], off[1], off[2], off[3]});
        case PixelFormat::Rgb24:
        case PixelFormat::Bgr24: return fn(Rgb24Reader{{planes, 0, mask, mid, off[0], off[1], off[2]}});
        case PixelFormat::Rgba:
        case PixelFormat::Bgra:
        case PixelFormat::Argb: return fn(Rgb32Reader{{planes, 0, mask, mid, off[0], off[1], off[2]}});
        case PixelFormat::Gray8: return fn(PlanarReader<1, 0, true>{planes, 0, mask, mid});
        case PixelFormat::Gray10: return fn(PlanarReader<2, 0, true>{planes, 0, mask, mid});
        case PixelFormat::Count: break;
    }
    return fn(PlanarReader<1, 1>{planes, l2ch, mask, mid});
}

// Pixels per group of a format's reader (the strip width and the load width follow it).
inline int groupPixels(PixelFormat f) {
    const auto& info = formatInfo(f);
    switch (info.layout) {
        case PixelLayout::Planar:
        case PixelLayout::SemiPlanar:
        case PixelLayout::Gray: return info.bytesPerSample == 1 ? 4 : 2;
        case PixelLayout::PackedYuv422: return 2;
        case PixelLayout::PackedRgb: return info.bytesPerPixel == 3 ? 4 : 2;
    }
    return 2;
}

}  // namespace cs::cuda
