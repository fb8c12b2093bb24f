// Samples above the format's range: a 10-bit format keeps each code in the low 10 bits of a
// 16-bit word, and a damaged stream (FFmpeg's H.264 10-bit decoder leaves words up to 14376
// in damaged frames) or a raw file can set the bits above. Every reader takes such a word by
// one rule, core/PixelAccess.h's sampleCode (the bits above the depth ignored); this counts
// them per frame, and AboveRangeRuns turns the counts into one warning per run of
// consecutive frames that have any, for export's report.json and qc's NAME.qc.json.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "Frame.h"

namespace cs {

// True for the formats whose stored words can exceed the depth: 16-bit words with the code
// in the low bits (yuv420p10le, yuv422p10le, yuv444p10le, gray10le). 8-bit formats cannot,
// nor can P010 (the code is the word's high 10 bits), which is all NVDEC gives.
bool canExceedRange(PixelFormat f);

// The samples of a frame in host memory (every plane) whose stored word is above
// 2^depth - 1. std::nullopt for a frame in device memory of a format that can exceed its
// range (not counted); 0 for the other formats wherever they are.
std::optional<int64_t> samplesAboveRange(const FrameView& frame);

// The warnings for runs of consecutive frames with samples above the range: one per run,
// given when the run ends (a frame without any, or finish()): "frames F to L: N samples
// above the 10-bit range (codes over 1023; read with the bits above the depth ignored)".
class AboveRangeRuns {
public:
    // The frame `index`'s count (frames in order). A warning when it ends a run.
    std::optional<std::string> frame(int64_t index, int64_t count, int bitDepth);
    // The warning of a run still open at the end.
    std::optional<std::string> finish();

private:
    bool open_ = false;
    int64_t first_ = 0, last_ = 0, samples_ = 0;
    int bitDepth_ = 10;
};

}  // namespace cs
