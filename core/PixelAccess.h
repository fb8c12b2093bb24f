// Reading one pixel's components in native code values from any supported format.
// CS_HD: compiled for the CPU engine and for CUDA kernels alike (the CUDA engine has
// faster specialised loads, but its reference semantics are these).
#pragma once
#include <cstdint>

#include "Color.h"
#include "Frame.h"

namespace cs {

// Flattened description of a frame for per-pixel access, cheap to pass by value to kernels.
struct PixelSource {
    const uint8_t* p0; const uint8_t* p1; const uint8_t* p2;
    std::ptrdiff_t pitch0, pitch1, pitch2;
    PixelLayout layout;
    int bytesPerSample;       // 1 or 2
    int shift;                // right shift applied to 16-bit words (P010: 6)
    int32_t valueMask;        // (1 << depth) - 1: sampleCode()'s mask
    int log2cw, log2ch;
    int off0, off1, off2, off3;
    int bytesPerPixel;
    bool isRgb;
};

PixelSource makePixelSource(const FrameView& f);

// The one rule for a stored word that holds more than the format's depth (a 10-bit format
// keeps its code in the low 10 bits of a 16-bit word, and a damaged stream or a raw file
// can set the 6 above): the code is the word shifted right by the format's shift with the
// bits above the depth ignored, so it is always 0 .. 2^depth - 1, and every table and
// histogram indexed by it stays in bounds. Every reader of samples applies it, the
// engines' own vectorised loads included (cpu/CpuEngine.cpp, cuda/scope/PixelGroups.h,
// cuda/scope/ScopeDevice.cuh's sampleInWord, cuda/scope/QuadReaders.cuh). 0xFFFF reads as 1023 in
// 10 bits. Such samples are counted by samplesAboveRange() (core/SampleRange.h) and the
// reports warn of them.
CS_HD int32_t sampleCode(uint32_t word, int shift, int32_t valueMask) { return int32_t(word >> shift) & valueMask; }

CS_HD int32_t loadSample(const uint8_t* row, int index, int bytesPerSample, int shift, int32_t valueMask) {
    if (bytesPerSample == 1) return row[index];
    return sampleCode(uint32_t(row[2 * index] | (row[2 * index + 1] << 8)), shift, valueMask);
}

// Y'CbCr components of a Y'CbCr or gray pixel (gray: Cb = Cr = mid level).
struct YuvSample { int32_t y, cb, cr; };
CS_HD YuvSample readYuv(const PixelSource& s, int x, int y, int32_t midLevel) {
    switch (s.layout) {
        case PixelLayout::Planar: {
            const int cx = x >> s.log2cw, cy = y >> s.log2ch;
            return {loadSample(s.p0 + y * s.pitch0, x, s.bytesPerSample, s.shift, s.valueMask),
                    loadSample(s.p1 + cy * s.pitch1, cx, s.bytesPerSample, s.shift, s.valueMask),
                    loadSample(s.p2 + cy * s.pitch2, cx, s.bytesPerSample, s.shift, s.valueMask)};
        }
        case PixelLayout::SemiPlanar: {
            const int cx = x >> 1, cy = y >> 1;
            const uint8_t* c = s.p1 + cy * s.pitch1;
            return {loadSample(s.p0 + y * s.pitch0, x, s.bytesPerSample, s.shift, s.valueMask),
                    loadSample(c, 2 * cx, s.bytesPerSample, s.shift, s.valueMask),
                    loadSample(c, 2 * cx + 1, s.bytesPerSample, s.shift, s.valueMask)};
        }
        case PixelLayout::PackedYuv422: {
            const uint8_t* pair = s.p0 + y * s.pitch0 + (x >> 1) * 4;
            return {pair[(x & 1) ? s.off2 : s.off0], pair[s.off1], pair[s.off3]};
        }
        case PixelLayout::Gray:
            return {loadSample(s.p0 + y * s.pitch0, x, s.bytesPerSample, s.shift, s.valueMask), midLevel, midLevel};
        case PixelLayout::PackedRgb: break;
    }
    return {0, midLevel, midLevel};
}

CS_HD Rgb readRgb(const PixelSource& s, int x, int y) {
    const uint8_t* px = s.p0 + y * s.pitch0 + x * s.bytesPerPixel;
    return {px[s.off0], px[s.off1], px[s.off2]};
}

}  // namespace cs
