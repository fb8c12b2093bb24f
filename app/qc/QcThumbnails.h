// Pictures of qc's events' first frames, for NAME.qc.html and NAME.qc.pdf. qc keeps no frame
// while it measures (each is dropped once measured), so they are read again when the pass is
// done: the input opened a second time and decoded in software (FFmpeg's threads; not worth an
// NVDEC session), reading on to the next first frame when it is near (within 2 s) and
// seeking to it by its time otherwise; each frame reduced to at most 160 x 90 and turned to
// R'G'B' by engine/Thumbnailer.h. At most kQcThumbnails frames, the events' first ones in
// order; the events after them are named by frame and timecode only, and the note says so.
// An R'G'B' gamut event (out_of_gamut) also gets the Diamond display (core/GamutDisplay.h) of
// its first frame at full resolution, kQcDiamondSize square, counted by the CPU engine.
// Runs on a thread of its own (app/qc/QcRun.h) with its own source and engine; the events it
// is given must not change until it returns.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "QcEvents.h"
#include "core/ScopeResults.h"

namespace cs {

inline constexpr int kQcThumbnails = 50;
inline constexpr int kQcThumbnailWidth = 160, kQcThumbnailHeight = 90;
inline constexpr int kQcDiamondSize = 160;

struct QcThumbnails {
    std::map<int64_t, RgbaImage> pictures;   // by frame index
    std::string note;                        // why some events have none; "" when all have one
    std::map<int64_t, RgbaImage> diamonds;   // the Diamond of out_of_gamut events' first frames, by frame index
};

// The pictures of `events`' first frames of `input`; `stop` (may be null) ends the reading early.
QcThumbnails qcThumbnails(const std::string& input, const std::vector<QcEvent>& events, const std::atomic<bool>* stop);

}  // namespace cs
