// The legend of the zebra and false-colour previews: a strip along the bottom-left of the
// preview listing each band's colour and IRE range (false colour; for a PQ or HLG frame the
// bands of display light in nits, core/HdrFalseColour.h), or the zebra's level and stripes. Drawn into the exported preview PNG, and into a transparent overlay (premultiplied,
// as scope/ScopeRender's primitives draw into one) that the window lays over its preview.
#pragma once
#include <string>
#include <vector>

#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

// Whether `filter` has a legend (zebra, false colour).
bool previewHasLegend(PreviewFilter filter);

// The legend's entries, in order: a label and a swatch colour (RGBA; 0 for a zebra stripe
// swatch, whose stripes are drawn instead).
struct LegendEntry {
    std::string label;
    uint32_t rgba = 0;
    bool stripes = false;       // zebra: black stripes (or white, `whiteStripes`) over grey
    bool whiteStripes = false;
};
// `transfer`: the frame's (PQ and HLG false colour is by light).
std::vector<LegendEntry> previewLegendEntries(PreviewFilter filter, const FilterParams& params,
                                              Transfer transfer = Transfer::Bt709);

// Draws the legend over `img` (its size picks the text scale: one text pixel per 360 rows);
// nothing for filters without one. Entries wrap onto rows above when the image is narrow.
void drawPreviewLegend(RgbaImage& img, PreviewFilter filter, const FilterParams& params, Transfer transfer = Transfer::Bt709);

}  // namespace cs
