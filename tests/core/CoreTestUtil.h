// Helpers shared by the core tests (core_tests is compiled as unity sources, where file-local
// copies of one helper would collide): an 8-bit R'G'B' colour, and scope results and plot
// sizes for the renderers' tests.
#pragma once

#include "core/Color.h"
#include "core/ScopeResults.h"
#include "scope/Graticule.h"

namespace cs::testing {

// An 8-bit R'G'B' colour (0-255 per channel).
struct Rgb8 {
    int r, g, b;
};

// Empty scope results of a width x height frame at `depth` bits, limited-range BT.709.
inline ScopeResults makeResults(int width, int height, int depth) {
    ScopeResults r;
    r.width = width;
    r.height = height;
    r.bitDepth = depth;
    r.levels = 1 << depth;
    r.color.matrix = Matrix::Bt709;
    r.color.range = Range::Limited;
    return r;
}

// The scope height whose waveform plot, `width` wide, has exactly `rows` rows (0: none found).
inline int heightForPlotRows(int width, int rows) {
    for (int h = rows; h < rows + 200; ++h)
        if (waveformPlotRect(width, h).height == rows) return h;
    return 0;
}

}  // namespace cs::testing
