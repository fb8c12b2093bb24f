// Where one pixel's values lie on the scope images: the picked pixel and the pins marked on
// the waveform (its column, at its luma code), the parade (its column in each component's
// panel, at that component's code) and the vectorscope (its Cb, Cr point). Image coordinates
// (pixel centres) of an image of the given size as scope/ScopeRender lays it out, which the
// CUDA engine's trace textures follow too (render/Layout.h's tracePlacement), so a view
// draws them over either engine's scope the same way.
#pragma once
#include <array>
#include <optional>
#include <vector>

#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

struct ScopeMarker {
    double x = 0, y = 0;
    int label = 0;   // the pin's number drawn beside the marker (1 for the first); 0: none
};

// The pixel's values in the results' codes: `column` among the results' columns (the
// frame's, or the region's: 0 at its left edge), `components` Y', Cb, Cr at the results'
// depth and R'G'B' full range at that depth (the R'G'B' parade's codes).
struct MarkedPixel {
    int column = 0;
    int luma = 0, cb = 0, cr = 0;
    int r = 0, g = 0, b = 0;
};

// The waveform, as its mode lays it out: luma, one marker; the R'G'B' overlay, three in its
// one panel (R', G', B', in that order); YRGB, one a panel (Y', R', G', B'). The R'G'B'
// markers need results whose parade was counted in R'G'B' (countedSpec makes it so for
// those modes). None for a column outside the results, none for a code outside
// spec.waveformRange.
std::vector<ScopeMarker> waveformMarkers(const ScopeResults& results, const ScopeSpec& spec, int imageWidth, int imageHeight,
                                         const MarkedPixel& p);
// The parade: one marker a panel (R', G', B' or Y', Cb, Cr, as results.paradeMode); none
// for a column outside the results, none on a panel whose code is outside `zoom` (the
// spec's paradeRange).
std::vector<ScopeMarker> paradeMarkers(const ScopeResults& results, int imageWidth, int imageHeight, const MarkedPixel& p,
                                       LevelRange zoom = LevelRange{});
// The vectorscope (square, `size` a side, spec's zoom): none where the point is cropped.
std::optional<ScopeMarker> vectorscopeMarker(const ScopeResults& results, const ScopeSpec& spec, int size, const MarkedPixel& p);

}  // namespace cs
