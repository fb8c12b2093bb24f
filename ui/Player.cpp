// The player's clock, transport and frame selection (see Player.h).
#include "Player.h"

#include <algorithm>
#include <cmath>

#include "Timecode.h"

namespace cs {
namespace {
// Frames decoded ahead. Small: NVDEC frames hold decoder surfaces, and 4K frames are large.
constexpr size_t kQueueFrames = 6;
// A frame is due when its time is at most this far in the future (timer granularity).
constexpr double kDueSlack = 0.002;
// Playing with an empty queue (decoder behind) for longer than this re-ties the clock to the
// next frame instead of racing to catch up.
constexpr double kStarvedReanchor = 0.25;
}  // namespace

Player::Player(QObject* parent) : QObject(parent) {
    timer_.setSingleShot(true);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, [this] { tick(); });
}

Player::~Player() {
    timer_.stop();
    if (pending_) pending_->requestStop();
    if (reader_) reader_->requestStop();
    pending_.reset();
    reader_.reset();
    for (auto& f : retiring_) f.wait();
}

std::unique_ptr<SourceReader> Player::makeReader(const std::string& input, const OpenOptions& options) {
    // The wake-up is a queued call: it runs on the GUI thread, and is dropped if the
    // player is gone by then.
    return std::make_unique<SourceReader>(input, options, kQueueFrames, [this] {
        QMetaObject::invokeMethod(this, [this] { onWake(); }, Qt::QueuedConnection);
    });
}

void Player::retire(std::unique_ptr<SourceReader> reader) {
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
    pendingInput_ = input;
    pending_ = makeReader(input, options);
}

void Player::close() {
    pause();
    retire(std::move(pending_));
    retire(std::move(reader_));
    info_ = {};
    input_.clear();
    current_ = {};
    hasFrame_ = false;
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
            case SourceReader::State::Open: {
                const bool wasPlaying = playing_;
                retire(std::move(reader_));
                reader_ = std::move(pending_);
                input_ = std::exchange(pendingInput_, {});
                info_ = reader_->info();
                haveFirstPts_ = false;
                observedDuration_ = 0.0;
                dropped_ = presented_ = 0;
                presentTimes_.clear();
                endReached_ = false;
                seekLast_ = {};
                presentNext_ = !wasPlaying;
                anchored_ = false;
                emit opened();
                break;
            }
        }
    }
    if (!reader_) return;
    for (const auto& w : reader_->takeWarnings()) emit warning(QString::fromStdString(w));
    service();
}

void Player::service() {
    if (!reader_) return;
    if (seekLast_.active) {
        serviceSeekToLast();
        return;
    }
    if (presentNext_) {
        auto item = reader_->pop();
        if (!item) return;   // a wake-up follows the frame's arrival
        presentNext_ = false;
        if (item->status == ReadStatus::Frame) present(std::move(item->frame));
        else handleEndOrError(*item);
    }
    if (playing_) tick();
}

void Player::tick() {
    timer_.stop();
    if (!playing_ || !reader_ || seekLast_.active) return;
    ReadStatus status{};
    double pts = 0.0;
    if (!anchored_) {
        // Starting (or restarting after a seek): the first frame to arrive is shown now.
        auto item = reader_->pop();
        if (!item) return;
        if (item->status != ReadStatus::Frame) {
            handleEndOrError(*item);
            return;
        }
        present(std::move(item->frame));
        anchor();
    }
    if (info_.live) {
        tickLive();
        return;
    }
    const double now = mediaNow();
    std::optional<VideoFrame> chosen;
    while (reader_->peek(status, pts)) {
        if (status != ReadStatus::Frame) {
            if (chosen) break;   // show the last frame first; the end is handled on the next tick
            if (hasFrame_ && now < currentPts() + frameDuration() - kDueSlack) {
                // The last frame still has its time on screen: come back then.
                scheduleTick((currentPts() + frameDuration() - now) / speed_);
                return;
            }
            auto end = reader_->pop();
            handleEndOrError(*end);
            return;
        }
        if (pts > now + kDueSlack) break;
        auto item = reader_->pop();
        if (chosen) ++dropped_;   // a due frame overtaken by a later due one: never shown
        chosen = std::move(item->frame);
    }
    if (chosen) {
        const bool starved = !reader_->peek(status, pts);
        const double late = now - chosen->view.pts;
        present(std::move(*chosen));
        if (starved && late > kStarvedReanchor) anchor();
    }
    if (reader_->peek(status, pts)) {
        if (status == ReadStatus::Frame) scheduleTick((pts - mediaNow()) / speed_);
        else scheduleTick((currentPts() + frameDuration() - mediaNow()) / speed_);
    } else {
        // The decoder is behind: its wake-up comes when a frame is queued; poll as a fallback.
        scheduleTick(0.05);
    }
}

// A live source is shown as it arrives: the newest frame now, never a backlog (the others
// queued meanwhile are dropped and counted). Its timestamps follow the sender's clock.
void Player::tickLive() {
    std::optional<VideoFrame> newest;
    ReadStatus status{};
    double pts = 0.0;
    while (reader_->peek(status, pts)) {
        auto item = reader_->pop();
        if (item->status != ReadStatus::Frame) {
            if (newest) present(std::move(*newest));
            handleEndOrError(*item);
            return;
        }
        if (newest) ++dropped_;
        newest = std::move(item->frame);
    }
    if (newest) present(std::move(*newest));
    scheduleTick(0.05);   // arrivals wake the player; this only keeps it ticking if one is missed
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

void Player::present(VideoFrame&& frame) {
    if (hasFrame_) {
        const double delta = frame.view.pts - current_.view.pts;
        if (delta > 0 && delta < 1.0) observedDuration_ = delta;
    }
    current_ = std::move(frame);
    hasFrame_ = true;
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
    seekLast_ = {};
    if (playing_) {
        anchored_ = false;
        presentNext_ = false;
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
}

void Player::scheduleTick(double seconds) {
    const int ms = int(std::clamp(seconds, 0.0, 0.5) * 1000.0);
    timer_.start(ms);
}

void Player::play() {
    if (!reader_ || playing_) return;
    if (endReached_ && canSeek()) requestSeek(0.0);
    playing_ = true;
    anchored_ = false;
    presentNext_ = false;
    emit playingChanged(true);
    service();
}

void Player::pause() {
    timer_.stop();
    if (!playing_) return;
    playing_ = false;
    emit playingChanged(false);
}

void Player::togglePlay() {
    if (playing_) pause();
    else play();
}

void Player::stepForward() {
    if (!reader_) return;
    pause();
    if (endReached_ || seekLast_.active) return;
    presentNext_ = true;
    service();
}

void Player::stepBack() {
    if (!canSeek() || !hasFrame_) return;
    pause();
    const double d = frameDuration();
    if (haveFirstPts_ && currentPts() <= firstPts_ + 0.5 * d) return;   // already on the first frame
    // Seeking lands at or after the target: half a frame before the previous frame's time
    // lands on it even when timestamps jitter.
    requestSeek(currentPts() - 1.5 * d);
    service();
}

void Player::seekTo(double seconds) {
    if (!canSeek()) return;
    requestSeek(seconds);
    service();
}

void Player::goToStart() { seekTo(0.0); }

void Player::goToEnd() {
    if (!canSeek()) return;
    pause();
    // The source seeks to "at or after": land a little before the end and read to the last frame.
    endReached_ = false;
    presentNext_ = false;
    anchored_ = false;
    seekLast_ = {};
    seekLast_.active = true;
    seekLast_.target = std::max(0.0, info_.duration - 1.0);
    reader_->seek(seekLast_.target);
    service();
}

void Player::serviceSeekToLast() {
    while (auto item = reader_->pop()) {
        if (item->status == ReadStatus::Frame) {
            seekLast_.last = std::move(item->frame);
            seekLast_.haveLast = true;
            continue;
        }
        if (seekLast_.haveLast) {
            VideoFrame last = std::move(seekLast_.last);
            seekLast_ = {};
            endReached_ = true;   // the reader sits at its end now
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

void Player::setLoop(bool loop) { loop_ = loop; }

}  // namespace cs
