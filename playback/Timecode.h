// Timecode for the window: frame numbers from presentation times, the timecode shown for a
// frame (the source's where it has one, else the elapsed time: timecode/Timecode.h), and the
// seek target of a typed timecode (Go to timecode). Qt-free.
#pragma once
#include <cstdint>
#include <string>

#include "core/Status.h"
#include "decode/Source.h"
#include "timecode/Timecode.h"

namespace cs {

// Frame number of a time: round(seconds * fps); fps <= 0 counts at 25.
int64_t frameNumberAt(double seconds, double fps);
// The elapsed time as HH:MM:SS:FF (non-drop-frame, FF counting to the rounded rate: 29.97
// counts 0..29; timecode/Timecode.h's elapsedTimecode). Negative times clamp to zero.
std::string timecode(double seconds, double fps);

// What the window shows for a frame: its source timecode, or with `elapsed` (or where the
// source has none) the elapsed time, marked TimecodeSource::Elapsed.
FrameTimecode shownTimecode(const VideoFrame& frame, double fps, bool elapsed = false);

// Go to timecode: the presentation time of the frame labelled `text`, counted from a frame
// whose timecode (`reference`, as shown) and time are known (the current frame, so a break
// earlier in the file does not matter). `duration` 0: unknown (no end check). Errors name the
// input and the reason ("10:00:99:00: minutes and seconds run from 00 to 59", "11:00:00:00
// is after the end (10:00:39:24)").
Result<double> timecodeSeekTarget(const std::string& text, const FrameTimecode& reference, double referencePts,
                                  double fps, double duration);

}  // namespace cs
