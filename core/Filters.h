// Filtered previews on the CPU: blur, edges, focus peaking, median, zebra, false colour.
// Each takes the display picture (R'G'B'A 8-bit) and/or the luma plane at native depth
// and writes an RGBA preview the size of the picture. Threaded across rows.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ScopeResults.h"
#include "ScopeSpec.h"
#include "ThreadPool.h"

namespace cs {

// Luma at native depth, one value per pixel, tightly packed (pitch = width).
struct LumaPlane {
    int width = 0, height = 0;
    int bitDepth = 8;
    Range range = Range::Limited;
    std::vector<uint16_t> values;
    Transfer transfer = Transfer::Bt709;   // PQ, HLG: false colour by light (core/HdrFalseColour.h)
};

// The blurs' limits, in every engine: box radii are clamped to kMaxBoxRadius (the sums stay
// within 64 bits: 255 (2r+1)^2 < 2^51), Gaussian sigmas to kMaxGaussianSigma (radius 192:
// beyond it the preview is a flat smear anyway).
constexpr int kMaxBoxRadius = 1 << 20;
constexpr float kMaxGaussianSigma = 64.0f;
constexpr int kMaxGaussianRadius = 192;   // gaussianWeights' radius at kMaxGaussianSigma

// The Gaussian's 2r + 1 taps for `sigma`, in every engine: radius max(1, ceil(3 sigma)) of
// sigma clamped to kMaxGaussianSigma, exp(-k^2 / 2 sigma^2) normalised in double and stored
// as float (symmetric). Empty where sigma is not finite or not positive: the preview is then
// the picture itself.
std::vector<float> gaussianWeights(float sigma);

// Box blur of each colour channel over a (2r+1)^2 window, edges clamped. Running sums:
// the cost per pixel does not depend on r. Rounds to nearest (sum + n/2) / n.
void boxBlur(const RgbaImage& in, int radius, RgbaImage& out, ThreadPool* pool = nullptr);
// Separable Gaussian of each colour channel, radius ceil(3 sigma), edges clamped.
void gaussianBlur(const RgbaImage& in, float sigma, RgbaImage& out, ThreadPool* pool = nullptr);
// 3x3 median of each colour channel, edges clamped.
void median3x3(const RgbaImage& in, RgbaImage& out, ThreadPool* pool = nullptr);
// Sobel gradient magnitude of luma, normalised to full scale, as grey (the edge view).
// Codes are divided by 2^d - 1, so 8- and 10-bit planes of one picture give one image;
// a full-scale step edge gives 255 on both sides of the edge (magnitude 4 full scales / 4).
void sobelEdges(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool = nullptr);
// The edge view's grey (what sobelEdges writes) for a Sobel gx^2 + gy^2 of `g2` in luma at `bitDepth`.
uint8_t sobelEdgeGrey(int64_t g2, int bitDepth);
// The least g2 whose edge grey is at least `grey` (0..255; grey 0: 0). The grey only grows
// with g2, so the grey of g2 is the largest grey whose first square is at most g2: the CUDA
// engine finds it from a float estimate and these, without the double-precision square root.
int64_t sobelEdgeFirstSquare(int bitDepth, int grey);
// The picture with pixels whose Sobel magnitude exceeds `threshold` (0..1 of full scale) painted `colour`
// (blended by the colour's alpha; the default is opaque).
void focusPeaking(const RgbaImage& picture, const LumaPlane& luma, float threshold, uint32_t colour, RgbaImage& out,
                  ThreadPool* pool = nullptr);
// The same with the edges widened to `width` (1..3, core/PeakingWidth.h): a pixel is painted
// when a pixel over the threshold lies within width - 1 of it across and down (in the frame).
void focusPeaking(const RgbaImage& picture, const LumaPlane& luma, float threshold, uint32_t colour, int width, RgbaImage& out,
                  ThreadPool* pool = nullptr);
// The least Sobel gx^2 + gy^2 (of luma at `bitDepth`) whose magnitude exceeds `threshold`:
// focusPeaking paints exactly the pixels at or above it (2 (4 (2^d - 1))^2 + 1: none).
// Shared with the GL picture shader, which paints the same pixels.
int64_t focusPeakingFirstSquare(int bitDepth, float threshold);
// Focus peaking's paint: the byte each old byte 0..255 of channel c (R, G, B) becomes under
// `colour` (RGBA, blended by its alpha): lround(old + (src - old) alpha), in float.
using PeakingBlend = std::array<std::array<uint8_t, 256>, 3>;
PeakingBlend focusPeakingBlend(uint32_t colour);
// The picture with diagonal stripes where luma is at or above `ire` (IRE of the luma's range).
// Stripes run at 45 degrees (down-left to up-right), period 8 px: pixels with
// (x + y) mod 8 < 4 are painted black, the others keep the picture.
void zebra(const RgbaImage& picture, const LumaPlane& luma, float ire, RgbaImage& out, ThreadPool* pool = nullptr);
// Two zebras: as above for luma >= `ire`, and where `lowIre` >= 0, luma in [lowIre, ire)
// (e.g. skin at 70 IRE) gets stripes the other way ((x - y) mod 8 < 4) painted white.
void zebra(const RgbaImage& picture, const LumaPlane& luma, float ire, float lowIre, RgbaImage& out,
           ThreadPool* pool = nullptr);
// Luma mapped to exposure bands (IRE, per codeToIre with the plane's range), each band
// its own colour; the grey bands show the luma itself as grey so the picture stays
// readable. Bands are half-open [lo, hi) except "100 <= IRE" (see falseColourBands):
//     IRE <   0     purple      below black (sub-black codes)
//     0   .. 2.5    blue        crushed black
//     2.5 .. 10     teal        deep shadows
//     10  .. 40     grey        shadows to lower mids
//     40  .. 48     green       middle grey (18% grey card)
//     48  .. 60     grey        upper mids
//     60  .. 70     pink        skin (Caucasian key-lit skin)
//     70  .. 95     light grey  highlights
//     95  .. 100    yellow      near clip (100 IRE itself included)
//     IRE >  100    red         above white (super-white codes)
// For a PQ or HLG plane (luma.transfer): the bands of display light of core/HdrFalseColour.h.
void falseColour(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool = nullptr);

// The false-colour bands, in ascending order, for legends in the UI.
struct FalseColourBand {
    float loIre, hiIre;     // the band is loIre <= IRE < hiIre (the yellow band includes 100)
    uint32_t rgba;          // its colour (grey bands: 0, the luma itself is shown)
    const char* name;       // "below black", "crushed", ... "above white"
};
std::span<const FalseColourBand> falseColourBands();

// The gamut preview: the picture with every pixel whose outside[y * width + x] is set
// (core/Gamut's gamutPixel against ScopeSpec::gamutTarget, written by the engine as it
// counts) painted `colour` (kGamutWarningColour: core/Gamut's gamutPreviewPixel, the rule
// the CUDA engine's gamut pass paints by too); the others unchanged.
void gamutHighlight(const RgbaImage& picture, const uint8_t* outside, uint32_t colour, RgbaImage& out, ThreadPool* pool);

// Dispatches spec.preview (None: `out` is cleared to empty; Gamut needs the engine's outside flags: see gamutHighlight).
void applyPreview(const RgbaImage& picture, const LumaPlane& luma, const ScopeSpec& spec, RgbaImage& out,
                  ThreadPool* pool = nullptr);

}  // namespace cs
