// The CIE chromaticity scope's display image: the spectral locus, the BT.709, P3-D65 and
// BT.2020 triangles (labelled; the gamut target's drawn brighter), the source's white
// point, the axes, and the frame's chromaticity counts over them, each bin in its own
// colour. Drawn from ScopeResults::gamut by the CPU engine, by export and by the window.
#pragma once
#include <string>
#include <vector>

#include "core/Gamut.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

// The CIE 1931 2-degree spectral locus, 380..700 nm (the diagram's outline).
const std::vector<Chromaticity>& spectralLocus();

// A display colour for a chromaticity (the diagram's counts are drawn in it): its BT.709 RGB at
// full brightness, desaturated into gamut, sRGB-encoded; `c.y` above 0.
void cieChromaticityColour(Chromaticity c, uint8_t rgb[3]);

// The diagram's header for an image `width` pixels wide with text at `textScale`: the longest
// of its forms that fits inside the image's 4-pixel margins, from "CIE 1931 xy  BT.2020 source
// outside BT.709: 12.34%" through shorter ones (the diagram's name, then the source, then the
// words go first) down to "12.34%" (or "xy" / "u'v'" before anything is measured), which fits
// the smallest scope (64 pixels).
std::string cieHeader(const GamutResults& g, CieMode mode, int width, int textScale);

// Into `out`, spec.cieSize square. Counts absent or of the wrong size: the diagram alone.
void renderCieDiagram(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);

}  // namespace cs
