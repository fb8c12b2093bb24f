// The live reader: a thread that owns a live Source, reads it as fast as it delivers, stamps
// each frame with its arrival time and leaves it in a latest-frame mailbox (FrameMailbox.h),
// so the display always shows the newest frame and never a backlog. When the stream fails,
// stalls or ends it says "reconnecting" and opens the input again, after 0.25 s, then 0.5,
// 1, 2, 4, 4... s, until the stream returns; a first open that fails is final (the user gets
// the error at once) unless Options::retryFirstOpen.
//
// A decoder slower than the stream would let a backlog grow where the mailbox cannot drop it
// (socket and demuxer buffers): past Options::maxBacklogSeconds the reader reconnects, which
// drops it. HLS, whose frames come a segment at a time, is paced by its timestamps; other
// inputs are handed over the moment they decode.
//
// States: Connecting (first open) -> Playing <-> Reconnecting; Failed (the first open
// failed, or the input cannot be parsed); Ended (a remote file, not live, reached its end).
// While an open receives packets but has no picture yet (joined between keyframes),
// status().receivingData says so.
//
// An export that wants every frame sets Options::queueFrames: frames then wait in a bounded
// queue instead of replacing each other (the oldest dropped, and counted, when it is full).
//
// Threading: the Source is touched only by the reader thread. mutex_ guards the status,
// info and warnings; the mailbox has its own lock. `wake` is called on the reader thread
// (never under a lock) when a frame lands in an empty mailbox, when the state changes and
// when warnings arrive: post a queued call to the GUI thread from it, nothing more.
// The destructor cancels any blocking call (OpenOptions::cancel; FFmpeg polls it about
// every 0.1 s) and joins.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "FrameMailbox.h"
#include "Source.h"

namespace cs {

enum class LiveState { Connecting, Playing, Reconnecting, Failed, Ended };

// "connecting", "playing", "reconnecting", "failed", "ended"
const char* liveStateName(LiveState state);

struct LiveStatus {
    LiveState state = LiveState::Connecting;
    // Reconnecting: why the stream was lost, or why the last attempt failed. Failed: the
    // error. One sentence naming the input. Empty while connecting or playing.
    std::string message;
    int attempt = 0;            // Reconnecting: attempts since the stream was lost
    double retryIn = 0.0;       // Reconnecting: seconds from `since` to the next attempt
    std::chrono::steady_clock::time_point since;   // when this state (or attempt) began
    uint64_t reconnects = 0;    // times the stream came back
    // Connecting or Reconnecting: the open in progress receives packets but has decoded no
    // picture yet (a stream joined between keyframes waits for the next one).
    bool receivingData = false;
    // Why the stream was last lost (one sentence naming the input); kept once it is back.
    std::string lastLoss;
};

// Pacing for sources whose frames come in bursts (HLS: a whole segment at once). Each frame
// is due at its timestamp plus a lead: the latest any frame has come relative to its
// timestamp (the first of a burst), shrinking by 1% of the time that passes so that latency
// the network once added is given back. Frames of a burst are so spread out again; a late
// frame is due at once and raises the lead. A frame due further ahead than kMaxWait (the
// timestamps jumped) restarts the reckoning instead of freezing the picture.
class FramePacer {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr Clock::duration kMaxWait = std::chrono::seconds(10);
    static constexpr int kDecayDivisor = 100;
    // When the frame with timestamp `pts` (seconds), decoded at `arrival`, should be shown
    // (at `arrival` or later).
    Clock::time_point due(double pts, Clock::time_point arrival);

private:
    bool started_ = false;
    Clock::duration lead_{};
    Clock::time_point lastArrival_{};
};

// Decoding slower than the stream shows as frames coming later and later against their
// timestamps (the backlog waits in socket and demuxer buffers, where the mailbox cannot drop
// it). behind() says by how much once that exceeds the limit (0 otherwise): the reader then
// opens the stream afresh. A sudden jump of more than kJumpSeconds between two frames is a
// timestamp discontinuity, not a backlog, and restarts the reckoning. A sender's clock that
// runs slow against ours (up to kClockDrift, 0.5%) is not a backlog either.
class BacklogGuard {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr double kJumpSeconds = 1.0;
    static constexpr double kClockDrift = 0.005;
    explicit BacklogGuard(double limitSeconds) : limit_(limitSeconds) {}
    double behind(double pts, Clock::time_point arrival);

private:
    double limit_;
    bool started_ = false;
    double best_ = 0.0;   // the smallest arrival - pts seen (allowing for drift): the stream's own delay
    double last_ = 0.0;
    double lastArrival_ = 0.0;
};

class LiveReader {
public:
    struct Options {
        OpenOptions open;               // `cancel` is the reader's own; any given is ignored
        bool retryFirstOpen = false;    // keep trying when the first open fails (waiting for a stream)
        double firstRetryDelay = 0.25;  // seconds; doubles per failed attempt
        double maxRetryDelay = 4.0;
        // Frames this much later than the stream's pace (decoding too slow) make the reader
        // open the stream afresh rather than fall further behind. 0: never. Not for HLS.
        double maxBacklogSeconds = 2.0;
        // Frames that may wait for the consumer. 1 (a display): only the newest waits and a
        // newer one replaces it. More (an export that keeps every frame): they wait in order,
        // and when the queue is full the oldest is dropped, so memory stays bounded. Host
        // frames are further limited to queueBytes in all (0: no limit by size); device
        // (NVDEC) frames to kMaxQueuedDeviceFrames, the decoder surfaces to spare.
        size_t queueFrames = 1;
        size_t queueBytes = 0;
    };
    static constexpr size_t kMaxQueuedDeviceFrames = 6;
    // The queue, the frame being decoded and the consumer's frame within a source's NVDEC budget.
    static_assert(kMaxQueuedDeviceFrames + 2 <= size_t(kDeviceFrameBudget), "the live queue's NVDEC frames exceed the budget");

    // Starts the thread, which opens `input` at once.
    LiveReader(std::string input, Options options, std::function<void()> wake = {});
    ~LiveReader();
    LiveReader(const LiveReader&) = delete;
    LiveReader& operator=(const LiveReader&) = delete;

    const std::string& input() const { return input_; }
    LiveStatus status() const;
    LiveState state() const;
    // The open source's info (size and format follow the stream), with hasInfo() false until
    // the first open succeeds. A live source has info.live set and info.seekable false.
    SourceInfo info() const;
    bool hasInfo() const;

    // The newest frame not yet taken: waits up to `timeout`; nullopt when none came (or the
    // reader stopped). tryTake never waits. Drop the frame you took as soon as the next one
    // is shown (an NVDEC frame is a decoder surface).
    std::optional<LiveFrame> take(std::chrono::milliseconds timeout) { return mailbox_.take(timeout); }
    std::optional<LiveFrame> tryTake() { return mailbox_.tryTake(); }

    uint64_t framesArrived() const { return mailbox_.delivered(); }
    uint64_t framesDropped() const { return mailbox_.dropped(); }   // replaced, or pushed out of a full queue, untaken
    // One snapshot of the mailbox's counts: arrived (put) = taken + dropped + discarded (waiting
    // when the reader stopped) + waiting.
    FrameMailbox::Counts frameCounts() const { return mailbox_.counts(); }
    size_t framesWaiting() const { return mailbox_.size(); }
    size_t queueCapacity() const { return mailbox_.capacity(); }   // frames that may wait now (Options::queueFrames, bounded)

    // Warnings from the source (damage, size changes) since the last call.
    std::vector<std::string> takeWarnings();

    // Stops the thread without waiting (the destructor waits).
    void requestStop();

private:
    void run();
    bool readUntilLost(Source& source, uint64_t generation, uint64_t& sequence, std::string& why);
    void setStatus(LiveState state, std::string message, int attempt = 0, double retryIn = 0.0);
    bool sleepFor(double seconds);   // false when stopped meanwhile
    bool sleepUntil(std::chrono::steady_clock::time_point when);
    void collectWarnings(Source& source);
    size_t capacityFor(const VideoFrame& frame) const;
    void wake();

    const std::string input_;
    Options options_;
    const std::function<void()> wake_;
    std::atomic<bool> stop_{false};     // also OpenOptions::cancel for the source
    // OpenOptions::dataArriving of the open in progress: set by the source's interrupt callback
    // (reader thread), read by status() from any thread.
    std::atomic<bool> dataArriving_{false};
    bool paced_ = false;                // reader thread only: frames come in bursts (HLS), pace them

    FrameMailbox mailbox_;

    mutable std::mutex mutex_;
    std::condition_variable stopped_;   // wakes a backoff sleep
    LiveStatus status_;                 // guarded by mutex_
    SourceInfo info_;                   // guarded by mutex_
    bool hasInfo_ = false;              // guarded by mutex_
    std::vector<std::string> warnings_; // guarded by mutex_
    size_t droppedWarnings_ = 0;        // guarded by mutex_

    std::thread thread_;                // last: starts after every field above is constructed
};

}  // namespace cs
