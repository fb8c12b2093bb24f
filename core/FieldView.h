// One field of a frame on its own: the view of its lines alone, half the frame's height, so
// that an interlaced picture is seen (and measured) one field at a time. Like a region
// (core/FrameRegion.h) it only moves pointers: each plane starts at the field's first line
// and its pitch doubles, so host and device frames alike, and both engines, take it as any
// other frame. A 4:2:0 frame's chroma rows alternate between the fields as its lines do
// (interlaced 4:2:0 samples each field's chroma from that field's lines), so the field's
// chroma is every other chroma row from the same parity.
#pragma once
#include <cstdint>
#include <string>

#include "Frame.h"
#include "Status.h"

namespace cs {

enum class Field : uint8_t { Top, Bottom };

const char* fieldName(Field f);   // "top field", "bottom field"

// The field's height: the frame's lines of that parity ((h + 1) / 2 top, h / 2 bottom),
// fewer where a 4:2:0 frame's chroma rows of that parity run out first (an odd number of
// lines a field, such as 486-line NTSC: the bottom field's last line has no chroma row).
int fieldHeight(PixelFormat format, int frameHeight, Field f);

// The view of `frame`'s field: an error naming the field and the frame when the frame is
// invalid or has fewer than two lines. An untagged frame's assumed primaries stay those of
// the whole frame's height (effectivePrimaries).
Result<FrameView> fieldView(const FrameView& frame, Field f);

// A frame row's field, and its row in that field; and back (the frame row of a field's row).
inline Field fieldOfRow(int frameRow) { return (frameRow & 1) ? Field::Bottom : Field::Top; }
inline int fieldRow(int frameRow) { return frameRow >> 1; }
inline int frameRow(int fieldRow, Field f) { return 2 * fieldRow + (f == Field::Bottom ? 1 : 0); }

// Which field the stream shows first, from its FFmpeg field order ("tff", "bff", "tb", "bt";
// SourceInfo::fieldOrder): top for "tff" and "bt" (bottom coded first, top shown first), and
// for a progressive or unstated order; bottom for "bff" and "tb".
Field firstField(const std::string& fieldOrder);

}  // namespace cs
