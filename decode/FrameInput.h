// A source read frame after frame by a consumer that handles each in turn (cudascope export):
// `next()` gives a frame, the end or an error, and the events on the way come with it.
//
// Files and test patterns are read straight from their Source, every frame in order.
// Live inputs (isLiveInput: streams and cameras) are read through a LiveReader, with the
// window's rules: a stream that stalls, breaks off or falls too far behind is opened afresh
// with backoff; a first open that fails is final unless the input waits for a sender (UDP,
// RTP, SDP, RTSP listen, SRT listener), which is waited for. On top of that:
//   - Timeout: next() gives up (TimedOut) when no picture has come for `timeout` seconds,
//     whether the stream never started or did not come back.
//   - Restarts: a reconnect, or timestamps that go back or leap ahead of the clock within a
//     connection (a sender restarted before the stall limit), mark the first frame after it
//     (`discontinuity`), add a warning and a record to summary().restarts. Timestamps are
//     kept rising across restarts (StreamTimeline); `sourcePts` keeps the stream's own.
//   - Keeping up: by default the consumer gets the newest frame and those it had no time
//     for are dropped (counted); with `allFrames` every frame waits in a bounded backlog
//     (the oldest dropped when it is full), with a warning when it starts to fill.
//   - State changes ("waiting for stream", "receiving data, waiting for a keyframe",
//     "receiving pictures", a loss) go to `notice` as they happen: for stderr, not the report.
//
// Threading: a FrameInput is driven by one thread (the consumer's). The live one owns the
// LiveReader, whose thread owns the source; frames come through its mailbox.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/Status.h"
#include "Source.h"

namespace cs {

struct InputFrame {
    VideoFrame frame;
    // Files: decode order from 0. Live: arrival order from 0 over the whole run, across
    // reconnects; a gap is frames dropped to keep up.
    int64_t index = 0;
    double pts = 0.0;           // seconds; live: rising across restarts (see StreamTimeline)
    double sourcePts = 0.0;     // the stream's own timestamp (frame.view.pts)
    bool discontinuity = false; // live: the first frame after the stream restarted
    // The source's timecode of the frame (frame.timecode) where it has one, else the elapsed
    // time `pts` written as a timecode, marked TimecodeSource::Elapsed.
    FrameTimecode timecode;
};

enum class InputStatus { Frame, End, Error, TimedOut };

struct InputResult {
    InputStatus status = InputStatus::Error;
    std::string message;        // Error, TimedOut: one sentence naming the input and the reason
};

struct InputRestart {
    int64_t index = 0;          // the first frame after the restart
    double pts = 0.0;           // its pts on the kept timeline
    double sourcePts = 0.0;     // its own timestamp
    double sourcePtsBefore = 0.0;   // the own timestamp of the last frame read before it
    double gapSeconds = 0.0;    // from when that frame was due (StreamTimeline) to this one's arrival
    std::string reason;         // why: the loss the reader reported, or the timestamp jump
    uint64_t droppedFrames = 0; // frames dropped from this restart to the next one (or now)
};

struct InputSummary {
    bool live = false;
    uint64_t framesArrived = 0; // live: frames the stream delivered (taken or dropped)
    uint64_t droppedFrames = 0; // live: frames dropped to keep up (never given to the consumer)
    std::vector<InputRestart> restarts;
};

struct FrameInputOptions {
    OpenOptions open;           // live: `dataArriving` is the reader's own; `cancel` set ends next() (End)
    double timeout = 30.0;      // live: seconds without a picture before next() gives up
    bool allFrames = false;     // live: every frame, through a bounded backlog
    size_t backlogFrames = 100; // allFrames: at most this many frames wait...
    size_t backlogBytes = size_t(512) << 20;   // ...and at most this much memory (host frames)
    // Live: called on the consumer's thread with "<input>: <state>" when the state changes.
    std::function<void(const std::string&)> notice;
};

class FrameInput {
public:
    virtual ~FrameInput() = default;
    // Blocks until a frame, the end or an error (live: or the timeout).
    virtual InputResult next(InputFrame& out) = 0;
    // Warnings since the last call: damage, restarts, falling behind.
    virtual std::vector<std::string> takeWarnings() = 0;
    // The open source's properties (live: follows the stream; only `input` and `live` are
    // set until the first picture).
    virtual SourceInfo info() const = 0;
    virtual InputSummary summary() const = 0;
};

// Files and patterns: opened here (errors as openSource's). Live inputs: the reader starts,
// and this returns once the first open has an outcome where that open is final (an error
// then, in one sentence), at once where the input waits for a sender.
Result<std::unique_ptr<FrameInput>> openFrameInput(const std::string& input, const FrameInputOptions& options);
// A source opened elsewhere (a file from memory: decode/MemoryInput.h), read as a file is:
// every frame in order.
std::unique_ptr<FrameInput> frameInputOf(std::unique_ptr<Source> source);

// One rising timeline over a live stream whose own timestamps restart. The first run keeps
// the stream's timestamps. A new connection (`generation`), timestamps that go back, or
// that leap ahead of the arrival clock by more than `jumpSeconds` start a new run, placed
// after the last frame by the time that passed from when that frame was due to the new
// frame's arrival (at least one frame): the outage shows as a gap, and pts never go back.
// When a frame is due is its timestamp plus the run's own delay: the least `arrival - pts`
// seen in the run, allowed to grow by BacklogGuard::kClockDrift of the time that passes (a
// sender's clock slower than ours). So a last frame that came late (a demuxer holds a
// frame until the next one starts, and the next one is the restarted sender's) still
// counts from when it was due.
class StreamTimeline {
public:
    static constexpr double kJumpSeconds = 1.0;   // as BacklogGuard's (LiveReader.h)
    explicit StreamTimeline(double jumpSeconds = kJumpSeconds) : jumpSeconds_(jumpSeconds) {}

    struct Placed {
        double pts = 0.0;
        bool discontinuity = false;
        bool reconnected = false;   // the discontinuity is a new connection
        std::string jump;           // otherwise what the timestamps did ("went back from 5.200 s to 1.400 s")
        double gap = 0.0;           // a discontinuity: seconds from when the last frame was due to this one
    };
    // `arrival`: seconds on a steady clock; `frameDuration`: 1 / frame rate (0: unknown).
    Placed place(double sourcePts, double arrival, uint64_t generation, double frameDuration);

    double lastSourcePts() const { return lastSource_; }

private:
    double jumpSeconds_;
    bool started_ = false;
    uint64_t generation_ = 0;
    double lastSource_ = 0.0, lastPts_ = 0.0, lastArrival_ = 0.0, offset_ = 0.0;
    double delay_ = 0.0;            // the run's own delay: least arrival - pts (with drift)
};

}  // namespace cs
