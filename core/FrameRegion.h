// A region of a frame measured on its own: the scopes of a rectangle of the picture (or of
// one line, a region one line high) are the scopes of a view of the frame whose plane
// pointers start at the region's corner, with the region's size and the frame's pitches.
// Both engines take pitched planes, so they measure a region without a change of their own
// and agree on it exactly as they do on whole frames; the picture and the preview still
// show the whole frame (playback/EngineHost runs them on the frame, the scopes on the view).
#pragma once
#include <string>

#include "Frame.h"
#include "Status.h"

namespace cs {

struct FrameRegion {
    int x = 0, y = 0, width = 0, height = 0;   // frame pixels, top-left corner and size
    bool operator==(const FrameRegion&) const = default;
};

std::string regionName(const FrameRegion& r);   // "640x360 at (320,180)"

// The region grown to the format's chroma grid, so that a chroma sample is never split: the
// left edge down to an even column for 4:2:x formats (packed 4:2:2 pairs included), the top
// edge down to an even row for 4:2:0, the right and bottom edges up likewise but never past
// the frame's own edge (a frame of odd size ends on a half chroma sample, and so may the
// region). One line (height 1) is not grown: a view one row high reads the chroma row of
// that line (y >> 1 for 4:2:0) at any y, so a line's waveform is that line's alone. The
// result covers the region asked for; it is clipped to the frame first.
FrameRegion snapRegion(const FrameRegion& r, PixelFormat format, int frameWidth, int frameHeight);

// The view of `frame`'s region after snapRegion: host and device frames alike (only the
// pointers move). An error naming the region and the frame when the region is empty or
// lies outside the frame. An untagged frame's assumed primaries are those of the whole
// frame's size (effectivePrimaries), not of the region's.
Result<FrameView> regionView(const FrameView& frame, const FrameRegion& region);

}  // namespace cs
