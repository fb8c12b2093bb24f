// FrameInput: a Source or a LiveReader read frame by frame (see FrameInput.h).
#include "FrameInput.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <thread>
#include <utility>

#include "LiveInput.h"
#include "LiveReader.h"

namespace cs {
namespace {

using Clock = std::chrono::steady_clock;

// How often a live next() looks at the reader's state while no frame comes.
constexpr auto kPoll = std::chrono::milliseconds(100);

std::string secondsText(double s, int decimals = 1) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*f s", decimals, s);
    return text;
}

double clockSeconds(Clock::time_point t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); }

// "<input>: <reason>" -> "<reason>", for quoting the reader's sentences inside our own.
std::string withoutInput(const std::string& input, const std::string& message) {
    if (message.rfind(input + ": ", 0) == 0) return message.substr(input.size() + 2);
    return message;
}

// Files and test patterns: the Source as it is, every frame in order.
class SourceFrameInput final : public FrameInput {
public:
    explicit SourceFrameInput(std::unique_ptr<Source> source) : source_(std::move(source)) {}

    InputResult next(InputFrame& out) override {
        out = InputFrame{};
        const ReadResult r = source_->read(out.frame);
        if (r.status == ReadStatus::EndOfStream) return {InputStatus::End, {}};
        if (r.status == ReadStatus::Error) return {InputStatus::Error, r.message};
        out.index = index_++;
        out.pts = out.sourcePts = out.frame.view.pts;
        out.timecode = timecodeOrElapsed(out.frame.timecode, out.pts, source_->info().frameRate);
        return {InputStatus::Frame, {}};
    }
    std::vector<std::string> takeWarnings() override { return source_->takeWarnings(); }
    SourceInfo info() const override { return source_->info(); }
    InputSummary summary() const override { return {}; }

private:
    std::unique_ptr<Source> source_;
    int64_t index_ = 0;
};

// Live inputs through a LiveReader.
class LiveFrameInput final : public FrameInput {
public:
    LiveFrameInput(const LiveInput& parsed, const FrameInputOptions& options)
        : input_(parsed.input),
          options_(options),
          retryFirstOpen_(parsed.waitsForSender),
          timeline_(parsed.paced ? std::chrono::duration<double>(FramePacer::kMaxWait).count()
                                 : StreamTimeline::kJumpSeconds),
          start_(Clock::now()),
          reader_(parsed.input, readerOptions(parsed, options)) {}

    // Where the first open is final, waits for its outcome (up to the timeout): an error
    // then is the caller's error, in one sentence.
    Status awaitFirstOpen() {
        if (retryFirstOpen_) {
            noticeState(reader_.status());
            return {};
        }
        for (;;) {
            const LiveStatus s = reader_.status();
            if (s.state == LiveState::Failed) return Status::error(s.message);
            // Connecting is not told: a refused connection stays one line, the error.
            if (s.state != LiveState::Connecting || s.receivingData) noticeState(s);
            if (s.state != LiveState::Connecting || secondsSince(start_) > options_.timeout || stopped()) return {};
            std::this_thread::sleep_for(kPoll);
        }
    }

    InputResult next(InputFrame& out) override {
        out = InputFrame{};
        for (;;) {
            std::optional<LiveFrame> taken = reader_.take(kPoll);
            collectReaderWarnings();
            const LiveStatus status = reader_.status();
            if (taken) {
                deliver(std::move(*taken), out);
                noticeState(status);
                return {InputStatus::Frame, {}};
            }
            noticeState(status);
            if (status.state == LiveState::Failed) return finish({InputStatus::Error, status.message});
            if (status.state == LiveState::Ended || stopped()) return finish({InputStatus::End, {}});
            const Clock::time_point since = lastArrival_ ? *lastArrival_ : start_;
            if (secondsSince(since) > options_.timeout) return finish({InputStatus::TimedOut, timeoutMessage(status)});
        }
    }

    // The caller's stop (OpenOptions::cancel, e.g. Ctrl-C): next() ends within kPoll.
    bool stopped() const { return options_.open.cancel && options_.open.cancel->load(); }

    std::vector<std::string> takeWarnings() override {
        collectReaderWarnings();
        return std::exchange(warnings_, {});
    }

    SourceInfo info() const override {
        if (reader_.hasInfo()) return reader_.info();
        SourceInfo info;
        info.input = input_;
        info.live = true;
        return info;
    }

    InputSummary summary() const override {
        InputSummary s;
        s.live = true;
        s.framesArrived = reader_.framesArrived();
        s.droppedFrames = reader_.framesDropped();
        s.restarts = restarts_;
        for (size_t i = 0; i < s.restarts.size(); ++i) {
            const uint64_t until = i + 1 < restartDrops_.size() ? restartDrops_[i + 1] : s.droppedFrames;
            s.restarts[i].droppedFrames = until - restartDrops_[i];
        }
        return s;
    }

private:
    static LiveReader::Options readerOptions(const LiveInput& parsed, const FrameInputOptions& options) {
        LiveReader::Options r;
        r.open = options.open;
        r.retryFirstOpen = parsed.waitsForSender;
        // A stream joined between keyframes: the open waits for one as long as we would.
        r.open.liveFirstPictureTimeout = std::max(r.open.liveFirstPictureTimeout, options.timeout + 1.0);
        if (options.allFrames) {
            r.queueFrames = std::max<size_t>(1, options.backlogFrames);
            r.queueBytes = options.backlogBytes;
        }
        return r;
    }

    static double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

    void deliver(LiveFrame live, InputFrame& out) {
        const double sourcePts = live.frame.view.pts;
        const double frameRate = reader_.info().frameRate;
        const double before = timeline_.lastSourcePts();
        const StreamTimeline::Placed placed =
            timeline_.place(sourcePts, clockSeconds(live.arrival), live.generation, frameRate > 0 ? 1.0 / frameRate : 0.0);
        out.index = int64_t(live.sequence) - 1;
        out.pts = placed.pts;
        out.sourcePts = sourcePts;
        out.discontinuity = placed.discontinuity;
        if (placed.discontinuity) {
            InputRestart r;
            r.index = out.index;
            r.pts = placed.pts;
            r.sourcePts = sourcePts;
            r.sourcePtsBefore = before;
            r.gapSeconds = placed.gap;
            if (placed.reconnected) {
                const std::string loss = reader_.status().lastLoss;
                r.reason = loss.empty() ? "reconnected" : "reconnected after: " + withoutInput(input_, loss);
            } else {
                r.reason = "the timestamps " + placed.jump + " (the sender restarted?)";
            }
            warnings_.push_back(input_ + ": the stream restarted at frame " + std::to_string(out.index) + ", " +
                                secondsText(r.gapSeconds) + " after the last picture was due (" + r.reason +
                                "); pts continue from " + secondsText(placed.pts, 3) + " (its own " +
                                secondsText(sourcePts, 3) + ")");
            restarts_.push_back(std::move(r));
            restartDrops_.push_back(reader_.framesDropped());
        }
        out.frame = std::move(live.frame);
        out.timecode = timecodeOrElapsed(out.frame.timecode, out.pts, frameRate);
        lastArrival_ = live.arrival;
        noticeBacklog();
    }

    // Falling behind. Newest-frame mode: one warning when frames are first dropped. Every
    // frame: a warning when the backlog is half full, and how many were dropped once it
    // empties again.
    void noticeBacklog() {
        const uint64_t dropped = reader_.framesDropped();
        if (!options_.allFrames) {
            if (dropped > 0 && !warnedDrops_) {
                warnedDrops_ = true;
                warnings_.push_back(input_ + ": the stream is faster than the export: the newest frame is taken and "
                                    "the others are dropped (counted in the report; --all-frames keeps every frame)");
            }
            return;
        }
        const size_t waiting = reader_.framesWaiting();
        const size_t capacity = reader_.queueCapacity();
        if (!behind_ && 2 * waiting >= capacity && capacity > 1) {
            behind_ = true;
            droppedWhenBehind_ = dropped;
            warnings_.push_back(input_ + ": the export falls behind the stream: " + std::to_string(waiting) +
                                " frames waiting; beyond " + std::to_string(capacity) + " the oldest are dropped");
        } else if (behind_ && waiting == 0) {
            flushBehind();
        }
    }

    void flushBehind() {
        if (!behind_) return;
        behind_ = false;
        const uint64_t lost = reader_.framesDropped() - droppedWhenBehind_;
        if (lost > 0)
            warnings_.push_back(input_ + ": " + std::to_string(lost) +
                                " frames dropped while the export was behind the stream (the backlog was full)");
    }

    InputResult finish(InputResult r) {
        flushBehind();
        return r;
    }

    void collectReaderWarnings() {
        for (auto& w : reader_.takeWarnings()) warnings_.push_back(std::move(w));
    }

    // The state in words, told once per change; a loss with the reader's reason.
    void noticeState(const LiveStatus& s) {
        std::string state;
        switch (s.state) {
            case LiveState::Connecting:
            case LiveState::Reconnecting:
                state = s.receivingData ? "receiving data, waiting for a keyframe" : "waiting for stream";
                break;
            case LiveState::Playing: state = "receiving pictures"; break;
            case LiveState::Ended: state = "the stream ended"; break;
            case LiveState::Failed: return;   // an error, said by the caller
        }
        if (state == lastState_) return;
        std::string text = state;
        if (s.state == LiveState::Reconnecting && lastState_ == "receiving pictures" && !s.lastLoss.empty())
            text = "stream lost (" + withoutInput(input_, s.lastLoss) + "); " + state;
        lastState_ = std::move(state);
        if (options_.notice) options_.notice(input_ + ": " + text);
    }

    std::string timeoutMessage(const LiveStatus& s) const {
        const std::string limit = secondsText(options_.timeout);
        if (s.receivingData)
            return input_ + ": data arrives, but no picture could be decoded within " + limit + " (no keyframe came)";
        if (lastArrival_) {
            std::string m = input_ + ": the stream did not come back within " + limit;
            if (!s.lastLoss.empty()) m += " (lost: " + withoutInput(input_, s.lastLoss) + ")";
            return m;
        }
        if (retryFirstOpen_) return input_ + ": no stream arrived within " + limit + " (is anything sending to this address?)";
        std::string m = input_ + ": no stream within " + limit;
        if (!s.message.empty()) m += " (" + withoutInput(input_, s.message) + ")";
        return m;
    }

    const std::string input_;
    const FrameInputOptions options_;
    const bool retryFirstOpen_;
    StreamTimeline timeline_;
    const Clock::time_point start_;
    std::optional<Clock::time_point> lastArrival_;   // of the last frame given out
    std::vector<std::string> warnings_;
    std::vector<InputRestart> restarts_;
    std::vector<uint64_t> restartDrops_;   // reader's dropped count at each restart
    std::string lastState_;                // the state last told to `notice`
    bool warnedDrops_ = false;
    bool behind_ = false;
    uint64_t droppedWhenBehind_ = 0;
    LiveReader reader_;                    // last: its thread starts once everything above exists
};

}  // namespace

StreamTimeline::Placed StreamTimeline::place(double sourcePts, double arrival, uint64_t generation,
                                             double frameDuration) {
    Placed p;
    if (started_) {
        const double advance = sourcePts - lastSource_;
        const double elapsed = arrival - lastArrival_;
        if (generation != generation_) {
            p.discontinuity = p.reconnected = true;
        } else if (advance < 0.0) {
            p.discontinuity = true;
            p.jump = "went back from " + secondsText(lastSource_, 3) + " to " + secondsText(sourcePts, 3);
        } else if (advance - elapsed > jumpSeconds_) {
            p.discontinuity = true;
            p.jump = "leapt from " + secondsText(lastSource_, 3) + " to " + secondsText(sourcePts, 3) + " in " +
                     secondsText(elapsed, 3);
        }
        if (p.discontinuity) {
            const double lastDue = lastSource_ + delay_;
            p.gap = std::max(arrival - lastDue, frameDuration > 0.0 ? frameDuration : 0.04);
            offset_ = lastPts_ + p.gap - sourcePts;
        }
    }
    const double delay = arrival - sourcePts;
    if (!started_ || p.discontinuity) delay_ = delay;   // a new run: its own delay afresh
    else delay_ = std::min(delay, delay_ + (arrival - lastArrival_) * BacklogGuard::kClockDrift);
    started_ = true;
    p.pts = sourcePts + offset_;
    generation_ = generation;
    lastSource_ = sourcePts;
    lastArrival_ = arrival;
    lastPts_ = p.pts;
    return p;
}

std::unique_ptr<FrameInput> frameInputOf(std::unique_ptr<Source> source) {
    return std::make_unique<SourceFrameInput>(std::move(source));
}

Result<std::unique_ptr<FrameInput>> openFrameInput(const std::string& input, const FrameInputOptions& options) {
    if (!isLiveInput(input)) {
        auto opened = openSource(input, options.open);
        if (!opened) return opened.status();
        return std::unique_ptr<FrameInput>(std::make_unique<SourceFrameInput>(std::move(opened.value())));
    }
    auto parsed = parseLiveInput(input);
    if (!parsed) return parsed.status();
    auto live = std::make_unique<LiveFrameInput>(parsed.value(), options);
    if (Status s = live->awaitFirstOpen(); !s) return s;
    return std::unique_ptr<FrameInput>(std::move(live));
}

}  // namespace cs
