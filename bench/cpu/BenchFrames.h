// Frames the CPU benchmark measures: synthetic content made in-process (a zone plate,
// uniform random noise) and, optionally, one frame decoded from a clip. Each is one
// AVFrame, which FFmpeg's filters read, plus a cs::FrameView over the same planes for
// cudascope's engine, so both sides read the very same bytes.
#pragma once
#include <string>
#include <string_view>

#include "AvHandles.h"
#include "core/Frame.h"
#include "core/Status.h"

namespace cs::bench {

enum class Content { ZonePlate, Noise };
std::string_view contentName(Content c);   // "zone plate", "noise"

struct BenchFrame {
    FramePtr frame;          // owns the planes
    FrameView view;          // points into `frame`
    std::string content;     // "zone plate", "noise", "clip <file name>"
};

// A BT.709 limited-range yuv420p (bitDepth 8) or yuv420p10le (bitDepth 10) frame.
Result<BenchFrame> makeSyntheticFrame(Content content, int width, int height, int bitDepth);

// The first video frame of `path`, decoded in software. yuv420p and yuv420p10le
// frames are used as decoded; other formats are converted to the one of those two
// whose depth covers the source's (swscale), since those are what this bench compares.
Result<BenchFrame> decodeClipFrame(const std::string& path);

}  // namespace cs::bench
