// Focus peaking's colour as users name it (window and CLI alike): a few named colours or
// six hex digits, to FilterParams::peakingColour (RGBA, bytes R,G,B,A, opaque).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "Status.h"

namespace cs {

struct NamedColour {
    const char* name;
    uint32_t rgba;
};
// red (the default), yellow, green, cyan, blue, magenta, white.
const std::array<NamedColour, 7>& peakingColours();

// A name of peakingColours() or RRGGBB (hex, either case); the reason otherwise (a phrase
// after the option's name: "must be ...").
Result<uint32_t> parsePeakingColour(std::string_view text);
// The name, or RRGGBB for a colour without one: parses back to the colour (alpha aside).
std::string peakingColourText(uint32_t rgba);

}  // namespace cs
