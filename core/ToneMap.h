// The viewer's display transform for PQ and HLG pictures on an SDR display ("Tone Map HDR
// to SDR", docs/HDR.md "Viewing HDR on an SDR display"). The scopes, the picker and every
// export measure the signal itself; only the picture shown goes through this.
//
// One mapping, computed here on the host and transcribed line for line into the viewer's
// shader (resources/shaders/ycbcr.frag, toneMapRgb), which tests/ui compare pixel by pixel:
//  1. R'G'B' at the native depth from Y'CbCr through the stream's matrix and range
//     (makeYuvToRgb(m, r, d, d), the conversion the HDR light levels use), E' = code / (2^d - 1);
//  2. display light in cd/m2 per component: PQ, the ST 2084 EOTF; HLG, the BT.2100 inverse
//     OETF then the OOTF of the 1000 cd/m2 reference display (1000 * Ys^0.2 * E, Ys the
//     BT.2100 luminance of the scene light);
//  3. the BT.2390 EETF (Hermite knee in the PQ domain, no black lift) from a 1000 cd/m2
//     source peak to a 203 cd/m2 target peak, applied to max(R, G, B) and the three
//     components scaled by the same ratio (hue and saturation kept, and no component
//     leaves the target's range);
//  4. SDR relative light = cd/m2 / 203: SDR display white shows HDR reference white
//     (BT.2408), so diffuse white and skin sit where an SDR grade puts them;
//  5. the source primaries (BT.2020 for PQ and HLG as tagged) to BT.709 by a 3x3 matrix in
//     linear light, each component clipped to 0..1;
//  6. the BT.1886 inverse EOTF (gamma 2.4, black 0) to display R'G'B', 8 bits rounded.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "Color.h"

namespace cs {

// The source peak assumed (the usual mastering peak; HLG's reference display).
constexpr double kToneMapSourcePeakNits = 1000.0;
// The target peak: SDR display white stands for HDR reference white.
constexpr double kToneMapSdrWhiteNits = 203.0;
// The SDR display's gamma (BT.1886 with zero black).
constexpr double kToneMapDisplayGamma = 2.4;

// The parameters of the mapping for one transfer and one set of source primaries (what
// the shader gets as uniforms).
struct ToneMap {
    Transfer transfer = Transfer::Pq;   // Pq or Hlg
    double sourcePeakPq = 0.0;          // ST 2084 signal of the source peak
    double maxLum = 0.0;                // the target peak's PQ signal over sourcePeakPq
    double kneeStart = 0.0;             // BT.2390 KS = 1.5 maxLum - 0.5
    double gamut[9] = {};               // linear source RGB -> linear BT.709 RGB (rows R, G, B)
};

// `source`: the primaries in effect (core/Gamut.h effectivePrimaries); Unspecified is BT.709.
ToneMap makeToneMap(Transfer t, Primaries source);

// The BT.2390 EETF on a luminance in cd/m2 (inputs above the source peak give the target peak).
double toneMapEetfNits(const ToneMap& tm, double nits);

// Non-linear HDR R'G'B' (0..1) to display R'G'B' of an SDR BT.709 display (0..1).
std::array<double, 3> toneMapRgb(const ToneMap& tm, double r, double g, double b);

// One Y'CbCr pixel at native depth to 8-bit display R'G'B': `native` is
// makeYuvToRgb(matrix, range, depth, depth).
Rgb toneMapPixel(const ToneMap& tm, const YuvToRgb& native, int32_t y, int32_t cb, int32_t cr);

// 8-bit R'G'B' codes (an RGBA picture: the CUDA engine's, or the CPU engine's for RGB and
// semi-planar frames) to 8-bit display R'G'B': E' = code / 255 (coarser than the native depth).
Rgb toneMapCode8(const ToneMap& tm, int32_t r, int32_t g, int32_t b);

// toneMapCode8 for whole RGBA pictures (the wall's tiles, which have no shader): the
// per-code steps taken once into tables, so a PQ pixel costs a few lookups and a 3x3
// matrix (an HLG pixel adds its OOTF and EETF), each giving toneMapCode8's bytes.
struct ToneMapTable {
    ToneMap tm;
    std::array<double, 256> light{};   // PQ: cd/m2 of each code; HLG: relative scene light
    std::array<double, 256> scale{};   // PQ: the EETF's ratio when that code is the peak, over 203
    std::array<double, 256> rise{};    // the least linear light shown as each display code (0: 0)
};
ToneMapTable makeToneMapTable(const ToneMap& tm);
// `pixels` RGBA pixels (bytes R, G, B, A) mapped in place; alpha kept.
void toneMapRgba(const ToneMapTable& table, uint8_t* rgba, size_t pixels);

}  // namespace cs
