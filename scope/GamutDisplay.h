// The gamut displays' image (core/GamutDisplay.h): the graticule of the display in its mode
// (Diamond and Split Diamond: the 0..100% R'G'B' outlines and EBU R 103's -5%..105% dashed;
// Arrowhead: the composite limits and the luma limits, R 103's dashed; Lightning: the 75% and
// 100% colour bar targets and R 103's luma limits dashed), labelled, and the frame's counts
// over it. Drawn from ScopeResults::gamutDisplay on the host by the CPU engine, the CUDA engine,
// export and the window alike, so every engine's image is the same for the same counts.
#pragma once
#include <utility>

#include "core/GamutDisplay.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

// Where the display's plane lies in an image `size` square: a header line on top, the plot
// below, each count bin spread over the plot pixels it covers.
struct GamutDisplayLayout {
    int size = 0, textScale = 1, charH = 8;
    int x0 = 0, y0 = 0, plotW = 1, plotH = 1;
    GamutDisplayAxes axes{};
    // The image pixel (centre) of display coordinates (u right, v up).
    std::pair<double, double> toPixel(double u, double v) const {
        return {x0 + (u - axes.uMin) / (axes.uMax - axes.uMin) * plotW - 0.5,
                y0 + (axes.vMax - v) / (axes.vMax - axes.vMin) * plotH - 0.5};
    }
};
GamutDisplayLayout gamutDisplayLayout(int size, GamutDisplay mode);

// The 75% and 100% colour bars' Y', Pb, Pr under `m` (white, yellow, cyan, green, magenta, red,
// blue, black), the Lightning's targets.
struct BarTarget { const char* name; double y, pb, pr; };
std::vector<BarTarget> lightningTargets(Matrix m, double amplitude);

// Into `out`, spec.gamutDisplaySize square (64..8192). Counts absent or of the wrong size: the
// graticule alone. Mode None: an empty image.
void renderGamutDisplay(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);

}  // namespace cs
