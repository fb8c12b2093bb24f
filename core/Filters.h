// Filtered previews on the CPU: blur, edges, focus peaking, median, zebra, false colour.
// Each takes the display picture (R'G'B'A 8-bit) and/or the luma plane at native depth
// and writes an RGBA preview the size of the picture. Threaded across rows.
#pragma once
#include <cstdint>
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
};

// Box blur of each colour channel over a (2r+1)^2 window, edges clamped. Running sums:
// the cost per pixel does not depend on r. Rounds to nearest (sum + n/2) / n.
void boxBlur(const RgbaImage& in, int radius, RgbaImage& out, ThreadPool* pool = nullptr);
// Separable Gaussian of each colour channel, radius ceil(3 sigma), edges clamped.
void gaussianBlur(const RgbaImage& in, float sigma, RgbaImage& out, ThreadPool* pool = nullptr);
// 3x3 median of each colour channel, edges clamped.
void median3x3(const RgbaImage& in, RgbaImage& out, ThreadPool* pool = nullptr);
// Sobel gradient magnitude of luma, normalised to full scale, as grey (the edge view).
void sobelEdges(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool = nullptr);
// The picture with pixels whose Sobel magnitude exceeds `threshold` (0..1 of full scale) painted `colour`.
void focusPeaking(const RgbaImage& picture, const LumaPlane& luma, float threshold, uint32_t colour, RgbaImage& out,
                  ThreadPool* pool = nullptr);
// The picture with diagonal stripes where luma is at or above `ire` (IRE of the luma's range).
void zebra(const RgbaImage& picture, const LumaPlane& luma, float ire, RgbaImage& out, ThreadPool* pool = nullptr);
// Luma mapped to exposure bands (IRE): under, shadows ... clipped, each band its own colour.
void falseColour(const LumaPlane& luma, RgbaImage& out, ThreadPool* pool = nullptr);

// Dispatches spec.preview (None: `out` is cleared to empty).
void applyPreview(const RgbaImage& picture, const LumaPlane& luma, const ScopeSpec& spec, RgbaImage& out,
                  ThreadPool* pool = nullptr);

}  // namespace cs
