// Timecode and frame numbers from presentation times, for the transport bar and file names.
#pragma once
#include <cstdint>
#include <string>

namespace cs {

// Frame number of a time: round(seconds * fps); fps <= 0 counts at 25.
int64_t frameNumberAt(double seconds, double fps);
// HH:MM:SS:FF (non-drop-frame, FF counting to the rounded rate: 29.97 counts 0..29).
// Negative times clamp to zero.
std::string timecode(double seconds, double fps);

}  // namespace cs
