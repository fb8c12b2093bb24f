// The scale of a waveform-style panel (the waveform's, each parade panel's), whole or zoomed
// to a LevelRange (core/ScopeSpec.h, core/ScopeZoom.h), and the words for a zoomed range.
//
// A panel's y runs over its counted codes (code / (2^d - 1), Graticule.h); its labels read
// in the scale's units: code values, IRE (percent of the signal range) or, for PQ and HLG
// sources, nits (HdrGraticule.h). Unzoomed, the panel's graticule is the one Graticule.h and
// HdrGraticule.h describe. Zoomed to [lo, hi], the lines are laid out afresh for the range:
//  - code values and IRE: lines at a step of 1, 2 or 5 times a power of ten, the smallest
//    at least an eighth of the range (code values: a whole number of codes), plus
//    the scale's key levels inside the range (legal limits, mid code, 50 IRE) in their
//    emphasis; every line labelled (labels that would overlap are dropped when drawn);
//  - nits: 1, 2 and 5 times the powers of ten, and 203 cd/m2 (in place of 200), inside the
//    range (only the powers of ten and 203 when that gives more than ten lines, every whole
//    multiple of a power of ten when it gives fewer than three), labelled "0.5", "203", "1.5K".
// Then everything (the user's reference lines included) is mapped by y' = (y - lo) / (hi -
// lo), what falls outside the panel is dropped, and a dim frame closes it.
#pragma once
#include <string>

#include "Graticule.h"
#include "core/Color.h"
#include "core/ScopeSpec.h"

namespace cs {

// What a panel's labels read at a panel y, and back.
struct LevelUnits {
    enum class Kind : uint8_t { Code, Ire, Nits };
    Kind kind = Kind::Code;
    int depth = 8;
    Range range = Range::Limited;               // the scale's range: Full for R'G'B' panels
    Transfer transfer = Transfer::Unspecified;  // Nits: PQ or HLG
    bool limitedCodes = false;                  // Code: an R'G'B' panel labelled in limited-range codes
    double value(double y) const;
    double y(double value) const;
};

// The units of a panel: `sourceRange` the stream's Y'CbCr range, `scaleRange` the panel's
// (Full for R'G'B'), `ycbcrParade` for the Y'CbCr parade (no nits on Cb and Cr).
LevelUnits levelUnits(int depth, Range sourceRange, Range scaleRange, WaveformScale scale, Transfer transfer, bool ycbcrParade);

// A panel's graticule with the user's reference lines, zoomed to `range` (the whole scale:
// the unzoomed graticule, unchanged).
Graticule levelGraticule(int depth, Range sourceRange, Range scaleRange, const ScopeSpec& spec, LevelRange range,
                         Transfer transfer, bool ycbcrParade = false);

// The zoomed scale's lines and labels in the panel's unzoomed y (the layout above, before
// the mapping), and the mapping itself.
Graticule zoomedLevelScale(const LevelUnits& units, LevelRange range);
void applyLevelZoom(Graticule& g, LevelRange range);

// A zoomed range in the panel's units: "64-235", "40-60 IRE", "100-1K nits"; empty for the
// whole scale.
std::string levelRangeText(const LevelUnits& units, LevelRange range);
// The range the waveform (parade: `parade`) of such a source shows, in the units of its first
// panel (the luma one; the RGB overlay's R'G'B'); empty when not zoomed.
std::string levelZoomText(const ScopeSpec& spec, bool parade, ParadeMode paradeMode, int depth, Range sourceRange, Transfer transfer);

// A range zoomed by `factor` (< 1: in) around panel y `anchor`, kept inside the scale; a
// result as wide as the scale is the whole scale. And a range moved by `delta` (of the scale).
LevelRange zoomLevelRange(LevelRange range, double anchor, double factor);
LevelRange panLevelRange(LevelRange range, double delta);

}  // namespace cs
