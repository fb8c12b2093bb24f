// A frame's small picture: the frame reduced to a small size (core/FrameReduce.h on the host;
// CudaEngine::downscaleToHost for a frame in GPU memory, the same rule) and turned to R'G'B'A
// by a one-thread CPU engine of its own (the picture only: no statistics, the engine that
// measured the frame did those). For a flight recorder's thumbnails (playback/FlightRecorder.h,
// one a second, so their cost is that of a 160 x 90 picture a second) and qc's pictures of its
// events' first frames (app/qc/QcThumbnails.h).
//
// Threading: one thread at a time (the one presenting or reading the frames).
#pragma once
#include <memory>

#include "core/Engine.h"
#include "core/Frame.h"
#include "core/ScopeResults.h"
#include "core/Status.h"

namespace cs {

class CudaEngine;

class Thumbnailer {
public:
    Thumbnailer();
    ~Thumbnailer();
    // `frame` within width x height (its aspect kept) into `out`; `cuda` reduces device frames.
    Status picture(const FrameView& frame, CudaEngine* cuda, int width, int height, RgbaImage& out);

private:
    std::unique_ptr<Engine> cpu_;
    Frame reduced_;
    ScopeResults results_;
};

}  // namespace cs
