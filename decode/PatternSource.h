// Built-in test patterns as a Source: "pattern:bars", "pattern:ramp", "pattern:zoneplate",
// with optional ":10bit" and ":WxH" in any order. 25 fps, 10 s (250 frames), seekable,
// BT.709 limited range (tagged). Frames are AVFrames like a decoder's, so every consumer
// sees one kind of VideoFrame.
//
// bars: SMPTE RP 219 HD colour bars, yuv422p / yuv422p10le, every boundary on an even x.
// ramp: luma rising left to right through every code value 0 .. 2^d-1, yuv420p / yuv420p10le.
// zoneplate: a circular zone plate in luma whose phase advances with time, yuv420p / yuv420p10le.
#pragma once
#include <memory>
#include <string>

#include "decode/Source.h"

namespace cs {

// True for inputs this source handles (they start with "pattern:").
bool isPatternInput(const std::string& input);
Result<std::unique_ptr<Source>> openPatternSource(const std::string& input);

}  // namespace cs
