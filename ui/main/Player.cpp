// The player's clock, transport and frame selection (see Player.h).
#include "Player.h"

#include <algorithm>
#include <cmath>

#include "playback/Timecode.h"

namespace cs {
namespace {
// Frames decoded ahead. Small: 4K frames are large, and NVDEC frames are decoder surfaces, of
// which a source lends kDeviceFrameBudget (decode/Source.h): the queue's, the step cache's and
// the current frame's (the one the engine reads) fit in it, as the assertion below checks.
// NVDEC's 8 cover the decoder's restart at a loop wrap (about 60 ms for 4K H.264: at 60 fps
// 4 frames run out before the first frame of the next pass is decoded).
constexpr size_t kQueueFrames = 6, kQueueDeviceFrames = 8;
// A frame is due when its time is at most this far in the future (timer granularity).
constexpr double kDueSlack = 0.002;
// Playing with an empty queue (decoder behind) for longer than this re-ties the clock to the
// next frame instead of racing to catch up.
constexpr double kStarvedReanchor = 0.25;
// The step cache: at most this many frames, and about this much memory of host frames; NVDEC
// frames hold decoder surfaces (the queue's 8 and the current frame's are taken already).
constexpr size_t kStepFrames = 16, kStepDeviceFrames = 4;
static_assert(kQueueDeviceFrames + kStepDeviceFrames + 1 <= size_t(kDeviceFrameBudget), "the window's NVDEC frames exceed the budget");
constexpr double kStepBytes = 256.0 * 1024 * 1024;
}  // namespace

Player::Player(QObject* parent) : QObject(parent) {
    timer_.setSingleShot(true);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, [this] { tick(); });
    reverseTimer_.setTimerType(Qt::PreciseTimer);
    connect(&reverseTimer_, &QTimer::timeout, this, [this] { reverseTick(); });
}

Player::~Player() {
    timer_.stop();
    for (auto* r : {pending_.get(), reader_.get()})
        if (r) r->requestStop();
    for (auto* r : {pendingLive_.get(), live_.get()})
        if (r) r->requestStop();
    pending_.reset();
    reader_.reset();
    pendingLive_.reset();
    live_.reset();
    for (auto& f : retiring_) f.wait();
}

std::function<void()> Player::wakeCall() {
    // The wake-up is a queued call: it runs on the GUI thread, and is dropped if the
    // player is gone by then. Queued by name, the call event is made and delivered inside Qt
    // and carries nothing of ours across the threads: a functor built here would be written
    // on the reader's thread and read on the GUI thread, ordered only by the locks of Qt's
    // event queue, which ThreadSanitizer cannot see (Qt is not instrumented).
    return [this] { QMetaObject::invokeMethod(this, "onWake", Qt::QueuedConnection); };
}

template <typename Reader>
void Player::retire(std::unique_ptr<Reader> reader) {
    if (!reader) return;
    reader->requestStop();
    // A read blocked on a slow network must not freeze the window: wait for it elsewhere.
    retiring_.erase(std::remove_if(retiring_.begin(), retiring_.end(),
                                   [](std::future<void>& f) {
                                       return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
                                   }),
                    retiring_.end());
    retiring_.push_back(std::async(std::launch::async, [r = std::move(reader)]() mutable { r.reset(); }));
}

void Player::open(const std::string& input, const OpenOptions& options) {
    retire(std::move(pending_));
    retire(std::move(pendingLive_));
    pendingInput_ = input;
    if (isLiveInput(input)) {
        // Cameras and streams: the live reader keeps only the newest frame and reconnects.
        LiveReader::Options live;
        live.open = options;
        pendingLive_ = std::make_unique<LiveReader>(input, live, wakeCall());
        return;
    }
    const size_t capacity = options.hwdec == HwDecode::None ? kQueueFrames : kQueueDeviceFrames;
    pending_ = std::make_unique<SourceReader>(input, options, capacity, wakeCall(), prepare_);
}

void Player::close() {
    pause();
    retire(std::move(pending_));
    retire(std::move(reader_));
    retire(std::move(pendingLive_));
    retire(std::move(live_));
    info_ = {};
    input_.clear();
    current_ = {};
    currentPrepared_.reset();
    hasFrame_ = false;
    clearSteps();
}

void Player::prepareAgain() {
    if (reader_) reader_->prepareAgain();
}

std::string Player::liveStatusText() const {
    const LiveReader* r = pendingLive_ ? pendingLive_.get() : live_.get();
    if (!r) return {};
    const LiveStatus st = r->status();
    if (st.receivingData) return "receiving data, waiting for a keyframe";
    if (st.state == LiveState::Reconnecting)
        return "reconnecting (attempt " + std::to_string(st.attempt) + ")";
    return liveStateName(st.state);
}

int64_t Player::currentFrameNumber() const { return frameNumberAt(currentPts(), frameRate()); }

double Player::frameRate() const {
    if (info_.frameRate > 0) return info_.frameRate;
    if (observedDuration_ > 0) return 1.0 / observedDuration_;
    return 25.0;
}

double Player::presentedFps() const {
    if (presentTimes_.size() < 2) return 0.0;
    const double span = std::chrono::duration<double>(presentTimes_.back() - presentTimes_.front()).count();
    return span > 0 ? double(presentTimes_.size() - 1) / span : 0.0;
}

void Player::adoptPending(const SourceInfo& info) {
    const bool wasPlaying = playing_;
    input_ = std::exchange(pendingInput_, {});
    info_ = info;
    haveFirstPts_ = false;
    observedDuration_ = 0.0;
    dropped_ = presented_ = 0;
    counts_ = {};
    presentTimes_.clear();
    endReached_ = false;
    seekLast_ = {};
    clearSteps();
    {
        const double frameBytes = double(std::max(info.width, 1)) * double(std::max(info.height, 1)) * 2.0 *
                                  double(formatInfo(info.format).bytesPerSample);
        const size_t byMemory = size_t(std::clamp(kStepBytes / frameBytes, 4.0, double(kStepFrames)));
        steps_.limit = byMemory;
    }
    presentNext_ = !wasPlaying;
    awaitingFirst_ = true;
    anchored_ = false;
    liveState_ = LiveState::Playing;
    emit opened();
}

void Player::onWake() {
    if (pending_) {
        switch (pending_->state()) {
            case SourceReader::State::Opening: break;
            case SourceReader::State::Failed: {
                const QString message = QString::fromStdString(pending_->openError());
                const QString input = QString::fromStdString(pendingInput_);
                retire(std::move(pending_));
                pendingInput_.clear();
                emit openFailed(input, message);
                break;
            }
            case SourceReader::State::Open:
                retire(std::move(reader_));
                retire(std::move(live_));
                reader_ = std::move(pending_);
                reader_->setLoop(loop_);
                adoptPending(reader_->info());
                break;
        }
    }
    if (pendingLive_) {
        const LiveStatus status = pendingLive_->status();
        if (status.state == LiveState::Failed) {
            const QString input = QString::fromStdString(pendingInput_);
            retire(std::move(pendingLive_));
            pendingInput_.clear();
            emit openFailed(input, QString::fromStdString(status.message));
        } else if (pendingLive_->hasInfo()) {
            retire(std::move(reader_));
            retire(std::move(live_));
            live_ = std::move(pendingLive_);
            adoptPending(live_->info());
        }
    }
    if (live_) {
        serviceLive();
        return;
    }
    if (!reader_) return;
    for (const auto& w : reader_->takeWarnings()) emit warning(QString::fromStdString(w));
    service();
}

// A live source is shown as it arrives: the newest frame, never a backlog (the mailbox keeps
// one frame; the ones it replaced are the dropped frames). Paused, the picture holds and a
// step shows the next arrival. Connection trouble is reported, and the reader reconnects.
void Player::serviceLive() {
    for (const auto& w : live_->takeWarnings()) emit warning(QString::fromStdString(w));
    const LiveStatus status = live_->status();
    if (status.state != liveState_) {
        liveState_ = status.state;
        switch (status.state) {
            case LiveState::Reconnecting: emit warning(QString::fromStdString(status.message)); break;
            case LiveState::Failed:
                pause();
                emit sourceError(QString::fromStdString(status.message));
                break;
            case LiveState::Ended:
                endReached_ = true;
                pause();
                emit endOfStream();
                break;
            default: break;
        }
    }
    if (live_->hasInfo()) info_ = live_->info();   // size and format follow the stream
    std::optional<LiveFrame> f;
    if (playing_ || presentNext_) f = live_->tryTake();
    const FrameMailbox::Counts c = live_->frameCounts();   // after the take: it is counted as taken
    counts_.delivered = int64_t(c.put);
    counts_.replaced = int64_t(c.dropped + c.discarded);
    counts_.waiting = int64_t(c.waiting);
    dropped_ = int64_t(c.dropped);
    if (f) {
        presentNext_ = false;
        ++counts_.shown;
        present(std::move(f->frame));
    }
}

void Player::service() {
    if (!reader_) return;
    if (seekLast_.active) {
        serviceSeekToLast();
        return;
    }
    if (steps_.filling) {
        serviceStepFill();
        return;
    }
    if (presentNext_) {
        auto item = takeItem();
        if (item && item->wrap && loop_) item = takeItem();   // looping on: the start follows
        if (!item) return;   // a wake-up follows the frame's arrival
        presentNext_ = false;
        if (item->status == ReadStatus::Frame) {
            keepStepped(item->frame);
            presentItem(std::move(*item));
        } else {
            handleEndOrError(*item);
        }
    }
    if (playing_) tick();
}

void Player::tick() {
    timer_.stop();
    if (!playing_ || !reader_ || seekLast_.active) return;
    ReadStatus status{};
    double pts = 0.0;
    bool wrap = false;
    if (!anchored_) {
        // Starting (or restarting after a seek): the first frame to arrive is shown now.
        auto item = takeItem();
        if (item && item->wrap && loop_) item = takeItem();
        if (!item) return;
        if (item->status != ReadStatus::Frame) {
            handleEndOrError(*item);
            return;
        }
        presentItem(std::move(*item));
        anchor();
    }
    followHeard();
    double now = mediaNow();
    std::optional<SourceReader::Item> chosen;
    while (reader_->peek(status, pts, &wrap)) {
        if (status != ReadStatus::Frame) {
            if (chosen) break;   // show the last frame first; the end is handled on the next tick
            if (wrap && loop_) {
                // Looping: the reader went on from the start. The next pass keeps the clock:
                // its first frame is due one frame after this pass's last, not "now" after a stall.
                reader_->pop();
                wrapPending_ = true;
                wrapDue_ = currentPts() + frameDuration();
                continue;
            }
            if (hasFrame_ && now < currentPts() + frameDuration() - kDueSlack) {
                // The last frame still has its time on screen: come back then.
                scheduleTick((currentPts() + frameDuration() - now) / speed_);
                return;
            }
            auto end = reader_->pop();
            handleEndOrError(*end);
            return;
        }
        if (wrapPending_) {
            // From here on the clock reads the new pass's timestamps.
            anchorPts_ += pts - wrapDue_;
            now += pts - wrapDue_;
            wrapPending_ = false;
            if (atListeningSpeed()) emit clockStarted(pts);   // the sound goes on from the new pass's start
        }
        if (pts > now + kDueSlack) break;
        auto item = takeItem();
        if (chosen) {   // a due frame overtaken by a later due one: never shown
            ++dropped_;
            ++counts_.late;
        }
        chosen = std::move(item);
        if (everyFrame_) break;   // the next due frame is shown on the next tick, not dropped
    }
    if (chosen) {
        const bool starved = !reader_->peek(status, pts);
        const double late = now - chosen->frame.view.pts;
        presentItem(std::move(*chosen));
        // Every frame: one that comes late starts the clock again at it, so the next ones are
        // not all due at once.
        // Following the sound, the picture catches up by dropping frames instead.
        if ((starved && late > kStarvedReanchor && !followsSound_) || (everyFrame_ && late > frameDuration())) anchor();
    }
    if (reader_->peek(status, pts)) {
        if (status == ReadStatus::Frame) scheduleTick((pts - mediaNow()) / speed_);
        else scheduleTick((currentPts() + frameDuration() - mediaNow()) / speed_);
    } else {
        // The decoder is behind: its wake-up comes when a frame is queued; poll as a fallback.
        scheduleTick(0.05);
    }
}

void Player::handleEndOrError(SourceReader::Item& item) {
    endReached_ = true;
    if (item.status == ReadStatus::Error) {
        pause();
        emit sourceError(QString::fromStdString(item.message));
        return;
    }
    if (playing_ && loop_ && canSeek()) {
        requestSeek(0.0);
        return;
    }
    pause();
    emit endOfStream();
}

std::optional<SourceReader::Item> Player::takeItem() {
    auto item = reader_->pop();
    if (item && item->status == ReadStatus::Frame) ++counts_.delivered;
    return item;
}

void Player::presentItem(SourceReader::Item&& item) {
    ++counts_.shown;
    if (!item.prepared) item.prepared = reader_->awaitPrepared(item.serial);
    present(std::move(item.frame), std::move(item.prepared));
}

void Player::present(VideoFrame&& frame, std::shared_ptr<PreparedScopes> prepared) {
    if (hasFrame_) {
        const double delta = frame.view.pts - current_.view.pts;
        if (delta > 0 && delta < 1.0) observedDuration_ = delta;
    }
    current_ = std::move(frame);
    currentPrepared_ = std::move(prepared);
    hasFrame_ = true;
    awaitingFirst_ = false;
    if (!haveFirstPts_) {
        firstPts_ = current_.view.pts;
        haveFirstPts_ = true;
    }
    ++presented_;
    const auto now = Clock::now();
    presentTimes_.push_back(now);
    while (presentTimes_.size() > 2 && now - presentTimes_.front() > std::chrono::seconds(1)) presentTimes_.pop_front();
    emit frameChanged();
}

void Player::requestSeek(double seconds) {
    if (!reader_) return;
    reader_->seek(std::max(0.0, seconds));
    endReached_ = false;
    wrapPending_ = false;
    if (seekLast_.haveLast) ++counts_.skipped;   // the frame held on the way to the end
    seekLast_ = {};
    awaitingFirst_ = true;
    if (playing_) {
        anchored_ = false;
        presentNext_ = false;
        followsSound_ = false;
        emit clockInterrupted();
    } else {
        presentNext_ = true;
    }
}

double Player::mediaNow() const {
    return anchorPts_ + std::chrono::duration<double>(Clock::now() - anchorWall_).count() * speed_;
}

void Player::anchor() {
    anchorPts_ = currentPts();
    anchorWall_ = Clock::now();
    anchored_ = true;
    wrapPending_ = false;   // the clock starts afresh from the frame shown
    followsSound_ = false;
    if (atListeningSpeed()) emit clockStarted(anchorPts_);
}

void Player::followHeard() {
    followsSound_ = false;
    if (!heardClock_ || !atListeningSpeed() || wrapPending_) return;
    if (const std::optional<double> heard = heardClock_()) {
        // The monotonic clock goes on from the sound's time, so a sound that stops hands
        // the picture back to it without a jump.
        anchorPts_ = *heard;
        anchorWall_ = Clock::now();
        followsSound_ = true;
    }
}

void Player::scheduleTick(double seconds) {
    const int ms = int(std::clamp(seconds, 0.0, 0.5) * 1000.0);
    timer_.start(ms);
}

void Player::play() {
    if ((!reader_ && !live_) || (playing_ && !reverse_)) return;
    stopReverse();
    if (endReached_ && canSeek()) requestSeek(0.0);
    else if (reader_ && (steps_.filling || (stepCacheIndex() >= 0 && stepCacheIndex() + 1 < int(steps_.frames.size()))))
        requestSeek(currentPts() + 0.5 * frameDuration());   // the reader's queue is elsewhere: go on from here
    clearSteps();
    playing_ = true;
    anchored_ = false;
    presentNext_ = false;
    emit playingChanged(true);
    if (live_) serviceLive();
    else service();
}

void Player::pause() {
    timer_.stop();
    stopReverse();
    if (!playing_) return;
    playing_ = false;
    // Stopped before the first frame after an open or a seek was shown: it is shown when it
    // comes, rather than leaving the picture of before.
    if (awaitingFirst_) presentNext_ = true;
    emit playingChanged(false);
}

void Player::togglePlay() {
    if (playing_ || reverse_) pause();
    else play();
}

void Player::stepForward() {
    if (!reader_ && !live_) return;
    pause();
    if (live_) {
        presentNext_ = true;
        serviceLive();
        return;
    }
    if (steps_.filling) {
        steps_.target += frameDuration();   // counted into the fill under way
        return;
    }
    if (const int i = stepCacheIndex(); i >= 0 && i + 1 < int(steps_.frames.size())) {
        present(VideoFrame(steps_.frames[size_t(i) + 1]));
        return;
    }
    if (endReached_ || seekLast_.active) return;
    presentNext_ = true;
    service();
}

void Player::stepBack() {
    if (!canSeek() || !hasFrame_) return;
    if (!reverse_) pause();
    const double d = frameDuration();
    const double from = steps_.filling ? steps_.target : currentPts();
    const double first = haveFirstPts_ ? firstPts_ : 0.0;
    if (from <= first + 0.5 * d) {   // already on (or bound for) the first frame
        if (reverse_) pause();
        return;
    }
    const double target = from - d;
    if (steps_.filling) {
        // A step pressed while the fill is read: counted, not lost.
        if (target >= steps_.from - 0.5 * d) {
            steps_.target = target;
            return;
        }
    } else if (const int i = stepCacheIndex(); i > 0) {
        present(VideoFrame(steps_.frames[size_t(i) - 1]));
        return;
    }
    startStepFill(target);
}

void Player::startStepFill(double target) {
    const double d = frameDuration();
    const double first = haveFirstPts_ ? firstPts_ : 0.0;
    steps_.frames.clear();
    steps_.filling = true;
    steps_.target = target;
    steps_.from = std::max(first, target - double(steps_.limit - 1) * d);
    // Seeking lands at or after the time: half a frame before the window's first frame lands on
    // it even when timestamps jitter.
    requestSeek(std::max(0.0, steps_.from - 0.5 * d));
    presentNext_ = false;
    service();
}

void Player::serviceStepFill() {
    const double d = frameDuration();
    while (auto item = takeItem()) {
        if (item->wrap) continue;
        if (item->status != ReadStatus::Frame) {
            // The window ended early (a short or damaged file): land on the last frame read
            // (counted as skipped already; shown again from the cache).
            steps_.filling = false;
            if (steps_.frames.empty()) handleEndOrError(*item);
            else present(VideoFrame(steps_.frames.back()));
            return;
        }
        keepStepped(item->frame);
        if (item->frame.view.pts >= steps_.target - 0.5 * d) {
            steps_.filling = false;
            ++counts_.shown;
            present(std::move(item->frame));
            return;
        }
        ++counts_.skipped;   // on the way to the target (kept in the step cache)
    }
}

void Player::keepStepped(const VideoFrame& frame) {
    // Only a run of consecutive frames: a frame that does not follow the last one starts anew.
    if (!steps_.frames.empty() && !steps_.filling) {
        const double gap = frame.view.pts - steps_.frames.back().view.pts;
        if (gap <= 0.0 || gap > 1.5 * frameDuration()) steps_.frames.clear();
    }
    if (steps_.frames.empty() && !steps_.filling) return;   // no cache: ordinary steps keep nothing
    steps_.frames.push_back(frame);
    const size_t limit = frame.onDevice ? std::min(steps_.limit, kStepDeviceFrames) : steps_.limit;
    while (steps_.frames.size() > limit) steps_.frames.pop_front();
}

int Player::stepCacheIndex() const {
    if (!hasFrame_) return -1;
    const double half = 0.5 * frameDuration();
    for (size_t i = 0; i < steps_.frames.size(); ++i)
        if (std::abs(steps_.frames[i].view.pts - currentPts()) < half) return int(i);
    return -1;
}

void Player::clearSteps() {
    steps_.frames.clear();
    steps_.filling = false;
}

void Player::playReverse(double speed) {
    if (!canSeek() || !hasFrame_) return;
    if (playing_) pause();
    reverse_ = true;
    reverseSpeed_ = std::clamp(speed, 0.25, 4.0);
    reverseTimer_.start(std::max(1, int(std::lround(1000.0 * frameDuration() / reverseSpeed_))));
    emit playingChanged(true);
    reverseTick();
}

void Player::stopReverse() {
    if (!reverse_) return;
    reverse_ = false;
    reverseTimer_.stop();
    emit playingChanged(playing_);
}

void Player::reverseTick() {
    if (!reverse_) return;
    // A fill under way (the cache ran out): wait for it rather than count more steps.
    if (steps_.filling) return;
    stepBack();
}

void Player::seekTo(double seconds) {
    if (!canSeek()) return;
    clearSteps();
    requestSeek(seconds);
    service();
}

void Player::goToStart() { seekTo(0.0); }

void Player::goToEnd() {
    if (!canSeek()) return;
    pause();
    clearSteps();
    // The source seeks to "at or after": land a little before the end and read to the last frame.
    endReached_ = false;
    presentNext_ = false;
    anchored_ = false;
    wrapPending_ = false;
    if (seekLast_.haveLast) ++counts_.skipped;   // the frame held on the way to the end
    seekLast_ = {};
    seekLast_.active = true;
    seekLast_.target = std::max(0.0, info_.duration - 1.0);
    reader_->seek(seekLast_.target);
    service();
}

void Player::serviceSeekToLast() {
    while (auto item = takeItem()) {
        if (item->status == ReadStatus::Frame) {
            if (seekLast_.haveLast) ++counts_.skipped;   // on the way to the last frame
            seekLast_.last = std::move(item->frame);
            seekLast_.haveLast = true;
            continue;
        }
        if (seekLast_.haveLast) {
            VideoFrame last = std::move(seekLast_.last);
            seekLast_ = {};
            endReached_ = true;   // the reader sits at its end now
            ++counts_.shown;
            present(std::move(last));
            if (item->status == ReadStatus::Error) emit sourceError(QString::fromStdString(item->message));
            return;
        }
        if (item->status == ReadStatus::Error || seekLast_.attempt >= 4 || seekLast_.target <= 0.0) {
            // Nothing before the end: show the start instead (the duration was wrong).
            const bool error = item->status == ReadStatus::Error;
            seekLast_ = {};
            requestSeek(0.0);
            if (error) emit sourceError(QString::fromStdString(item->message));
            service();
            return;
        }
        ++seekLast_.attempt;
        seekLast_.target = std::max(0.0, seekLast_.target - double(1 << seekLast_.attempt));
        reader_->seek(seekLast_.target);
    }
}

void Player::setSpeed(double speed) {
    speed = std::clamp(speed, 0.25, 4.0);
    if (speed == speed_) return;
    if (anchored_) {
        anchorPts_ = mediaNow();
        anchorWall_ = Clock::now();
    }
    speed_ = speed;
    emit speedChanged(speed_);
    if (playing_) tick();
}

void Player::setLoop(bool loop) {
    loop_ = loop;
    if (reader_) reader_->setLoop(loop);
}

}  // namespace cs
