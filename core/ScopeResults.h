// What an engine fills for one frame: raw counts at native depth, statistics, and
// display images. Buffers are reused between frames (resized, not reallocated).
#pragma once
#include <cstdint>
#include <vector>

#include "Color.h"
#include "Gamut.h"
#include "GamutDisplay.h"
#include "Hdr.h"
#include "PixelFormat.h"
#include "ScopeSpec.h"

namespace cs {

struct RgbaImage {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;    // width*height*4 bytes, rows top to bottom, R,G,B,A
    void resize(int w, int h) { width = w; height = h; pixels.assign(size_t(w) * size_t(h) * 4, 0); }
    bool empty() const { return width == 0 || height == 0; }
    uint8_t* at(int x, int y) { return pixels.data() + (size_t(y) * size_t(width) + size_t(x)) * 4; }
    const uint8_t* at(int x, int y) const { return pixels.data() + (size_t(y) * size_t(width) + size_t(x)) * 4; }
};

// Statistics as FFmpeg's signalstats defines them: each plane at its own resolution
// (chroma planes are subsampled), values in native code values.
struct ChannelStats { int32_t min = 0, max = 0; double avg = 0.0; };
struct FrameStats {
    ChannelStats y, u, v;
    double outOfLegal = 0.0;   // share of pixels with Y outside 16..235 or Cb/Cr outside 16..240 (scaled to depth), as signalstats BRNG / pixels
    double outOfGamut = 0.0;   // share of pixels whose R'G'B' falls outside EBU R 103's -5%..105% before clamping
    double outOfR103 = 0.0;    // share of pixels outside EBU R 103's limits: R'G'B' -5%..105% or luma -1%..103% (core/Color.h's yuvOutsideR103)
};

struct ScopeResults {
    int width = 0, height = 0;
    int bitDepth = 8;
    int levels = 256;               // 2^bitDepth: bins of histY, waveform, parade, vectorscope
    ColorInfo color;                // the matrix/range actually used (tags + override)
    PixelFormat format = PixelFormat::Yuv420p;

    // Raw counts. Every pixel of the frame is counted once in each (chroma taken from
    // the chroma sample that covers the pixel), so each sums to width*height
    // (the parade: each component).
    std::vector<uint32_t> histY;            // levels
    std::vector<uint32_t> histR, histG, histB;   // 256 each: R'G'B' full range, 8-bit
    std::vector<uint32_t> waveform;         // levels x width, index [level * width + x]
    std::vector<uint32_t> parade;           // 3 x levels x width, index [(c * levels + level) * width + x]
    ParadeMode paradeMode = ParadeMode::Rgb;
    std::vector<uint32_t> vectorscope;      // levels x levels, index [cr * levels + cb]
    FrameStats stats;
    HdrStats hdr;                   // PQ and HLG frames (ScopeSpec::hdr): light levels, core/Hdr.h
    GamutResults gamut;             // ScopeSpec::cie: chromaticity counts, share outside the target
    GamutDisplayResults gamutDisplay;   // ScopeSpec::gamutDisplay: its counts (core/GamutDisplay.h)

    // Display images (only when ScopeSpec::displayImages).
    RgbaImage picture, preview, histogramImage, waveformImage, paradeImage, vectorscopeImage;
    RgbaImage cieImage;             // ScopeSpec::cie (scope/CieDiagram.h)
    RgbaImage gamutDisplayImage;    // ScopeSpec::gamutDisplay (scope/GamutDisplay.h)
};

}  // namespace cs
