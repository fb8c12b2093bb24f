// The CUDA scope pass, shaped like CUB's device-wide primitives: explicit stream, pitched
// input planes, device pointers named d_..., colour coefficients passed as kernel
// parameters. One launch reads every pixel of a frame once and produces, as asked:
// waveform and parade columns, luma and R'G'B' histograms, the vectorscope, statistics,
// the RGBA picture and the luma plane for previews (docs/CUDA.md explains the design).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "ColumnCounts.h"
#include "PixelGroups.h"
#include "core/Color.h"
#include "core/PixelFormat.h"

namespace cs::cuda {

// Statistics accumulated by atomics. Every field starts at zero (one memset per frame):
// minima are kept as (levels-1) - min, so that "max of the inverted value" needs no
// +infinity start.
struct DeviceStats {
    unsigned long long ySum, uSum, vSum, outOfLegal, outOfGamut, outOfR103;
    int yMinInv, yMax, uMinInv, uMax, vMinInv, vMax;
};

// What to compute.
enum ScopeFlags : uint32_t {
    kScopeWaveform = 1u << 0,
    kScopeParade = 1u << 1,
    kScopeParadeRgb = 1u << 2,     // parade of R'G'B' at native depth (else Y, Cb, Cr)
    kScopeHistogram = 1u << 3,     // luma at native depth
    kScopeHistogramRgb = 1u << 8,  // R'G'B' at 8 bits
    kScopeVectorscope = 1u << 4,
    kScopeStats = 1u << 5,
    kScopePicture = 1u << 6,       // RGBA 8-bit picture
    kScopeLuma = 1u << 7,          // luma plane at native depth (uint16), for previews
};

// Conversions resolved on the host from the frame's matrix and range (core/Color.h).
struct ScopeColour {
    YuvToRgb toRgb8;       // Y'CbCr -> R'G'B' 8-bit (histograms, picture, gamut test)
    YuvToRgb toRgbNative;  // Y'CbCr -> R'G'B' at the source depth (RGB parade)
    RgbToYuv toYuv;        // R'G'B' -> Y'CbCr (RGB sources)
};

// Device outputs; pointers for work not asked for may be null. d_histY has `levels` bins, d_histRgb 3 x 256
// (R, G, B); d_columns holds the waveform and parade counts, columnCountsSize(levels, width)
// 16-bit counts laid out as ColumnCounts.h says (16-bit: half-size counts halve the pass's
// largest write, 31 MB instead of 63 at 4K 10-bit); d_vectorscope levels x levels [Cr][Cb];
// the picture and luma plane are pitched (bytes).
struct ScopeOutputs {
    uint16_t* d_columns = nullptr;
    uint32_t* d_histY = nullptr;
    uint32_t* d_histRgb = nullptr;
    uint32_t* d_vectorscope = nullptr;
    DeviceStats* d_stats = nullptr;
    uint8_t* d_picture = nullptr;   // RGBA rows
    size_t picturePitch = 0;
    uint16_t* d_luma = nullptr;
    size_t lumaPitch = 0;
    // Optional, the luma histogram alone (flags == kScopeHistogram) only: scratch memory of
    // lumaHistogramScratchBytes(format) bytes (8-byte aligned: a 64-bit word per bin), zero
    // before its first use (the pass leaves it zero again). With it the pass writes d_histY
    // whole: d_histY needs no clearing.
    uint32_t* d_histScratch = nullptr;
    // Optional lookup preview (false colour), written by the pass when
    // scopePassWritesLookupPreview() says so: preview pixel = d_previewLut[luma code], RGBA.
    const uint32_t* d_previewLut = nullptr;
    uint8_t* d_preview = nullptr;
    size_t previewPitch = 0;
};

// How the pass will be launched for a frame (strip width, grid, shared memory): exposed
// for the benchmarks and docs; scopePass computes it itself.
struct ScopeLaunchShape {
    int groupPixels = 2;    // P: pixels a thread reads per load
    int stripWidth = 0;     // S: columns per block
    int bands = 1;          // row bands (only when no column counts are kept)
    int gridX = 0, gridY = 0;
    size_t sharedBytes = 0;
};
ScopeLaunchShape scopeLaunchShape(PixelFormat format, int width, int height, uint32_t flags, int multiprocessors);

// Accumulators that must be zero before the pass: d_histY (unless d_histScratch is given
// for the luma histogram alone), d_histRgb, d_vectorscope and d_stats (the waveform and
// parade are written whole by the pass, no clearing needed).
//
// Enqueues the pass on `stream`. `planes` must satisfy PixelGroups.h's alignment contract
// (planesAligned). Returns the launch error, if any.
cudaError_t scopePass(const PlaneSet& planes, PixelFormat format, int width, int height, const ScopeColour& colour,
                      uint32_t flags, const ScopeOutputs& outputs, cudaStream_t stream);

// Bytes of ScopeOutputs::d_histScratch for a format's luma histogram.
size_t lumaHistogramScratchBytes(PixelFormat format);

// True when scopePass, for this format and these flags on the current device, runs the 4:2:0
// kernel, which writes ScopeOutputs' lookup preview when one is given (else no preview is written).
bool scopePassWritesLookupPreview(PixelFormat format, int width, int height, uint32_t flags);

// True when every plane pointer and pitch the format uses is a multiple of 16 bytes.
bool planesAligned(const PlaneSet& planes, PixelFormat format);

}  // namespace cs::cuda
