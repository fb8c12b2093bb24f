// Focus peaking's width (FilterParams::peakingWidth), one rule for every engine (core/Filters'
// focusPeaking, the CUDA peaking kernels, the GL picture shader): the pixels whose Sobel
// magnitude is over the threshold (the edges) are widened by a square dilation. Width w
// paints a pixel when an edge lies within w - 1 pixels of it across and down, that is
// anywhere in the (2w - 1) x (2w - 1) square centred on it, clipped to the frame (pixels
// outside the frame are never edges). Width 1 paints the edges alone; 2 and 3 widen each
// edge by 1 and 2 pixels on every side. A square rather than a disc: at these reaches a
// disc differs by its corners only, and the square is separable (a row pass, a column pass).
#pragma once
#include <algorithm>
#include <string>
#include <string_view>

#include "Status.h"

namespace cs {

constexpr int kMinPeakingWidth = 1, kMaxPeakingWidth = 3;

// How far an edge reaches: the square's half-size, w - 1 (a width outside 1..3 is clamped).
constexpr int peakingReach(int width) { return std::clamp(width, kMinPeakingWidth, kMaxPeakingWidth) - 1; }

// "1", "2" or "3"; the reason otherwise (a phrase after the option's name: "must be ...").
Result<int> parsePeakingWidth(std::string_view text);

}  // namespace cs
