// Reference lines over the waveform and parade (ScopeStyle.h's ReferenceLines): the text
// users type for them (window and CLI alike), and their place on a scale.
//
// Text: a comma list of levels, at most ReferenceLines::kMax, none twice, or "none":
//   5%, 95%      percent of the signal range (IRE), 0 to 109
//   16:8         an 8-bit code value (scaled to the source's depth: 64 at 10 bits), 0 to 255
//   64:10        a 10-bit code value (scaled to the source's depth: 16 at 8 bits), 0 to 1023
//   502          a code value at the source's depth, 0 to 65535
// Numbers are digits with a decimal point and at most two decimals ("2.5%"); no signs or spaces.
#pragma once
#include <string>
#include <string_view>

#include "Graticule.h"
#include "core/ScopeStyle.h"
#include "core/Status.h"

namespace cs {

// The lines, or the reason (a phrase after the option's name: "must be ...").
Result<ReferenceLines> parseReferenceLines(std::string_view text);
// The text that parses back to `lines` ("none" for none).
std::string referenceLinesText(const ReferenceLines& lines);

// A level as IRE (percent of the signal range) of a source at `depth` and `range`.
double referenceIre(const ReferenceLevel& level, int depth, Range range);
// The level's label: "5%", "16", "940" (codes at the source's depth).
std::string referenceLabel(const ReferenceLevel& level, int depth, Range range);

// Adds the lines to a waveform-style graticule (Emphasis::Reference, labelled at the right
// end inside the plot). `sourceRange`: the stream's Y'CbCr range, which places the levels;
// `scaleRange`: the range of the scale the graticule draws (Full for R'G'B' panels), so a
// 16:8 line sits at 0% of an R'G'B' panel as it does at code 16 of the luma waveform.
void addReferenceLines(Graticule& g, const ReferenceLines& lines, int depth, Range sourceRange, Range scaleRange);

}  // namespace cs
