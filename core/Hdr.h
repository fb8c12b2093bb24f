// HDR light levels (PQ and HLG): the per-frame MaxCLL / FALL contributions of CTA-861.3,
// the luminance of each code value, and the nits scales of the scopes (docs/HDR.md).
//
// One rule for every engine: each pixel's R'G'B' comes from its native-depth Y'CbCr (the
// chroma sample that covers it) through the stream's matrix and range with the fixed-point
// conversion of core/Color.h at the native depth (makeYuvToRgb(m, r, d, d)), and the pixel
// is counted once under the code of max(R', G', B'). The frame's light levels are then read
// from that histogram with a table of the luminance of each code, summed in code order, so
// the CPU and the CUDA engine, which only count, give the very same numbers by construction.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "Color.h"

namespace cs {

// BT.2100 HLG reference display: nominal peak luminance and system gamma.
constexpr double kHlgPeakNits = 1000.0;
constexpr double kHlgSystemGamma = 1.2;
// BT.2408 HDR reference white (graphics white, and the HLG 75% signal on a 1000-nit display).
constexpr double kHdrReferenceWhiteNits = 203.0;
// The thresholds of the report's shares of bright pixels.
constexpr std::array<double, 3> kHdrShareNits = {203.0, 1000.0, 4000.0};

// True for the transfers measured in nits (PQ, HLG).
constexpr bool isHdr(Transfer t) { return t == Transfer::Pq || t == Transfer::Hlg; }

// Display luminance (cd/m2) of a non-linear signal E' in 0..1 taken as a grey (R'=G'=B'):
//  PQ:  the ST 2084 EOTF;
//  HLG: the BT.2100 inverse OETF (scene light) then the OOTF of a 1000 cd/m2 display with
//       system gamma 1.2: 1000 * E^1.2 (no black lift, Lb = 0).
double hdrSignalToNits(Transfer t, double signal01);
// Its inverse (signal 0..1 for a luminance); nits beyond the transfer's peak give 1.
double hdrNitsToSignal(Transfer t, double nits);
// HLG: the scene-light share (0..1) of a signal, and back (BT.2100 inverse OETF / OETF).
double hlgSceneToSignal(double scene01);

// The luminance of each R'G'B' code 0..levels-1 (full range: E' = code / (levels - 1)).
std::vector<double> hdrNitsTable(Transfer t, int levels);

// The code of max(R', G', B') (clamped, native depth) of one Y'CbCr pixel: `k` is
// makeYuvToRgb(matrix, range, depth, depth). Every engine counts this.
CS_HD int32_t hdrMaxCode(const YuvToRgb& k, int32_t y, int32_t cb, int32_t cr) {
    const Rgb c = yuvToRgb(k, y, cb, cr);
    const int32_t m = c.r > c.g ? c.r : c.g;
    return m > c.b ? m : c.b;
}

// One frame's light levels.
struct HdrStats {
    bool measured = false;          // the frame's transfer is PQ or HLG and the spec asked
    Transfer transfer = Transfer::Unspecified;
    std::vector<uint32_t> maxCodes; // levels: pixels by the code of max(R', G', B')
    double maxNits = 0.0;           // the brightest pixel's max(R,G,B) luminance (MaxCLL contribution)
    double avgNits = 0.0;           // its frame average (FALL)
    std::array<double, 3> above{};  // shares of pixels brighter than kHdrShareNits
};

// Fills maxNits, avgNits and above from maxCodes (sums in code order, in double).
void finishHdrStats(HdrStats& s);

}  // namespace cs
