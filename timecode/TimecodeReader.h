// A stream's timecode frame by frame: what the frames carry (SEI, GOP headers) where they
// carry it, counted on by presentation time between carried values (a GOP header comes once
// per GOP) and from the container's start timecode where the frames carry none; and the
// breaks in a carried timecode (a jump or a repeat). docs/TIMECODE.md.
//
// Threading: a TimecodeReader or TimecodeBreaks is used by one thread at a time (the source's
// reading thread; qc's thread).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "timecode/Timecode.h"

struct AVFrame;

namespace cs {

// The container's start timecode as the demuxer found it (decode/ reads the tags).
struct ContainerTimecode {
    std::string text;                          // "10:00:00:00"; empty: none
    TimecodeSource source = TimecodeSource::None;
};

class TimecodeReader {
public:
    // `rate`: the video stream's frame rate; `codecSource`: what S12M side data is called for
    // this codec (H264Sei, HevcSei, FrameSei). A container timecode that cannot be read at the
    // rate is left out with a problem (takeProblems).
    TimecodeReader(TimecodeRate rate, TimecodeSource codecSource, const ContainerTimecode& container);

    // The timecode of a decoded frame at `pts` seconds from the stream's start, frames in
    // presentation order. `gopLags`: the decoder reorders (AVCodecContext::has_b_frames > 0);
    // FFmpeg's MPEG-2 decoder then puts a GOP header's timecode on the frame it outputs while
    // decoding that header's packet, which is the frame before the GOP's first one (except
    // for the first frame after an open or a seek, which nothing precedes), so the value is
    // kept for the next frame.
    FrameTimecode read(const AVFrame& frame, double pts, bool gopLags = false);
    // After a seek: counting starts again from the next carried value (or the container's).
    void restart() {
        anchor_.reset();
        pendingGop_.reset();
        first_ = true;
    }

    // The container's start timecode, where it had one (known() false otherwise).
    const FrameTimecode& container() const { return container_; }
    // Problems since the last call: values that could not be read (one sentence each, once per kind).
    std::vector<std::string> takeProblems();

private:
    struct Anchor {
        FrameTimecode at;
        double pts = 0.0;
    };
    FrameTimecode countedFrom(const FrameTimecode& base, double basePts, double pts) const;
    void problem(const std::string& text);

    TimecodeRate rate_;
    TimecodeSource codecSource_;
    FrameTimecode container_;
    std::optional<Anchor> anchor_;     // the last carried value and its frame's time
    std::optional<FrameTimecode> pendingGop_;   // a GOP timecode that names the next frame (gopLags)
    bool first_ = true;                // no frame read since the open or the last restart
    std::vector<std::string> problems_;
    bool warnedSmpte_ = false, warnedGop_ = false;
};

// A jump or a repeat in a carried timecode: the frame's value is not the one after the
// previous frame's.
struct TimecodeBreak {
    Timecode expected;   // the previous frame's value plus one
    Timecode found;
    bool repeat = false; // found equals the previous frame's value (or goes back)
};

class TimecodeBreaks {
public:
    // Each frame in presentation order. Only values a frame carries are checked, against the
    // previous frame's value plus one (a value counted on from an earlier carried one cannot
    // break, but moves the expectation on); a frame without a timecode forgets nothing.
    std::optional<TimecodeBreak> next(const FrameTimecode& frame);

private:
    std::optional<Timecode> previous_;
};

}  // namespace cs
