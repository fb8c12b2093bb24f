// NAME.qc.png: the per-frame graphs a QCTools user reads, drawn with scope/ScopeRender's
// lines from the frames' QcSeries (QcSeries.h): Y min/avg/max, Cb/Cr average, YDIF, the
// shares out of legal and outside R 103 (with its 1% line), the audio's momentary and
// short-term loudness where the input has audio; under them the events in lanes, one per
// type (named, in the order the types first occur), each event a bar over its frames; then a
// timecode axis (each tick labelled with the first timecode of the bucket it falls on). The
// text is Qt's anti-aliased type (QcFonts.h), scope/BitmapFont's in a process without fonts.
#pragma once
#include <string>
#include <vector>

#include "QcEvents.h"
#include "QcSeries.h"
#include "core/ScopeResults.h"

namespace cs {

// The picture (width 1200) for `events` over `series`; levels: 2^bit depth.
RgbaImage renderQcGraph(const QcSeries& series, const std::vector<QcEvent>& events, int levels, const std::string& title);

// The time axis' ticks: about `count` ticks at bucket starts, each with the frame (an offset
// from the series' first frame) and the timecode it is labelled with.
struct QcGraphTick {
    int64_t frame;
    std::string timecode;
};
std::vector<QcGraphTick> qcGraphTicks(const QcSeries& series, int count);

}  // namespace cs
