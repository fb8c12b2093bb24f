// The CIE chromaticity scope's display image: the spectral locus, the BT.709, P3-D65 and
// BT.2020 triangles (labelled; the gamut target's drawn brighter), the source's white
// point, the axes, and the frame's chromaticity counts over them, each bin in its own
// colour. Drawn from ScopeResults::gamut by the CPU engine, by export and by the window.
#pragma once
#include <vector>

#include "Gamut.h"
#include "ScopeResults.h"
#include "ScopeSpec.h"

namespace cs {

// The CIE 1931 2-degree spectral locus, 380..700 nm (the diagram's outline).
const std::vector<Chromaticity>& spectralLocus();

// Into `out`, spec.cieSize square. Counts absent or of the wrong size: the diagram alone.
void renderCieDiagram(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);

}  // namespace cs
