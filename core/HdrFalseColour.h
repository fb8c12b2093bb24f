// False colour for PQ and HLG pictures (docs/HDR.md): the luma of each pixel, as the
// luminance of a grey of that signal (core/Hdr.h: ST 2084, or HLG on the 1000 cd/m2
// reference display), mapped to bands of display light. Bands are half-open [lo, hi):
//     <     0.1 cd/m2   purple      black
//     0.1 .. 1          blue        deep shadows
//     1   .. 10         teal        shadows
//     10  .. 100        grey        mid tones (the luma itself, as grey)
//     100 .. 203        green       up to reference white (BT.2408: 203 cd/m2)
//     203 .. 1000       yellow      highlights above reference white
//     1000 .. 4000      orange      above 1000 cd/m2 (a common mastering peak)
//     4000 .. 10000     red         above 4000 cd/m2
//     >= 10000          pink        the PQ peak (HLG: >= 1000, its reference display's peak)
// The engines' false colour preview reads falseColour() (core/Filters.h), which takes these
// bands for a luma plane whose transfer is PQ or HLG; the CUDA engine builds its table from it.
#pragma once
#include <cstdint>
#include <span>

#include "Color.h"

namespace cs {

struct HdrFalseColourBand {
    double loNits, hiNits;   // loNits <= nits < hiNits
    uint32_t rgba;           // its colour (the grey band: 0, the luma itself is shown)
    const char* name;
};
// The bands for the transfer, in ascending order (HLG's top band starts at 1000 cd/m2).
std::span<const HdrFalseColourBand> hdrFalseColourBands(Transfer t);

// RGBA (bytes R, G, B, A) of each luma code 0 .. 2^depth - 1 at the range and transfer.
void hdrFalseColourTable(Transfer t, int bitDepth, Range range, uint32_t* table);

}  // namespace cs
