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

#include "Source.h"

namespace cs {

enum class PatternKind { Bars, Ramp, ZonePlate };

struct PatternSpec {
    PatternKind kind = PatternKind::Bars;
    std::string name;
    int depth = 8;
    int width = 1920;
    int height = 1080;
};

// True for inputs this source handles (they start with "pattern:").
bool isPatternInput(const std::string& input);
// The pattern an input names, or why it names none ("pattern:bars:64x64x64: unknown pattern
// option '64x64x64' (10bit, 8bit or WxH)"); each option at most once, sizes by core/Parse
// from 1x1 to 16384x16384. Syntax only: nothing is allocated.
Result<PatternSpec> parsePatternSpec(const std::string& input);
Result<std::unique_ptr<Source>> openPatternSource(const std::string& input);

}  // namespace cs
