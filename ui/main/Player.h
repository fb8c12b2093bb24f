// The player: owns the source thread (SourceReader) and decides, on the GUI thread,
// which frame is "now": against the stream's timestamps on a monotonic clock while
// playing (late frames are dropped and counted), or exactly the next/previous/sought
// frame while paused. Each new current frame is announced once through frameChanged;
// the receiver runs the engine on it, so the picture and every scope share the frame.
// Looping, the reader goes on from the start by itself; the clock continues across its
// wrap item (no seek, no re-anchoring).
//
// Stepping back: a long-GOP file decodes from its keyframe to reach the frame before, which
// takes seconds. One back step seeks a window of frames before the target and keeps the
// frames decoded on the way (the step cache: consecutive frames, bounded by count and by
// memory, fewer for NVDEC frames, which hold decoder surfaces); further back steps and
// forward steps inside it are immediate. Steps pressed while a fill is under way are counted
// into its target, not lost. The reader's queue always continues right after the cache's
// last frame; playing, seeking or opening empties the cache.
//
// Reverse play (J): back steps at the playback rate, from the cache, refilled as it runs out.
//
// Every frame a reader hands the player is counted once (frameCounts()): shown, dropped as late
// (a later frame was due too: the display keeps time), replaced (live: the mailbox had a newer
// one), skipped (read through on the way to a seek's or a step's target) or, live, still waiting
// in the mailbox: delivered = shown + late + replaced + skipped + waiting, at any moment. A file
// recorded by the window (setEveryFrame) shows every frame instead of dropping late ones: the
// clock starts again at a frame that comes late, so the recording holds every frame.
//
// Listening (ui/audio/AudioOutput.h): playing forward at 1x, a heard clock (setHeardClock) paces
// the picture while it reads: each tick the clock's anchor is set to the media time heard, so
// the frame presented is the one whose interval holds the sound at the ear; late frames are
// dropped to catch up with the sound, which is never moved to wait for the picture.
// clockStarted tells where the clock (re)starts (play, after a seek, a loop's new pass),
// clockInterrupted that it stopped for a seek while playing.
//
// Threading: every method runs on the GUI thread. The reader threads (SourceReader for
// files and patterns, decode/LiveReader for cameras and streams) only queue frames and post
// a wake-up (a queued call) to this object.
#pragma once
#include <QObject>
#include <QTimer>

#include <chrono>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "playback/SourceReader.h"
#include "decode/LiveReader.h"

namespace cs {

class Player : public QObject {
    Q_OBJECT
public:
    explicit Player(QObject* parent = nullptr);
    ~Player() override;

    // Opens in the background; `opened` or `openFailed` follows. The current source keeps
    // playing until the new one has opened, and stays when it fails to.
    void open(const std::string& input, const OpenOptions& options);
    void close();

    bool hasSource() const { return reader_ || live_; }
    bool isOpening() const { return pending_ || pendingLive_; }
    // A live source's connection, as words for the status bar ("" for files and patterns).
    std::string liveStatusText() const;
    const std::string& input() const { return input_; }
    const std::string& openingInput() const { return pendingInput_; }
    const SourceInfo& info() const { return info_; }
    bool canSeek() const { return reader_ && info_.seekable; }

    // What the file and pattern readers run on each queued frame ahead of its presentation
    // (SourceReader::Prepare): for the sources opened after this call.
    void setFramePreparer(SourceReader::Prepare prepare) { prepare_ = std::move(prepare); }
    // The queued frames' preparations are out of date (the settings they used changed).
    void prepareAgain();
    // Queued frames that carry a preparation; items queued (frames, and an end or wrap).
    size_t framesPreparedAhead() const { return reader_ ? reader_->preparedQueued() : 0; }
    size_t itemsQueued() const { return reader_ ? reader_->queued() : 0; }

    bool hasFrame() const { return hasFrame_; }
    const VideoFrame& currentFrame() const { return current_; }
    // The current frame's preparation, once (null when it had none or it was taken).
    std::shared_ptr<PreparedScopes> takePrepared() { return std::move(currentPrepared_); }
    double currentPts() const { return current_.view.pts; }
    int64_t currentFrameNumber() const;
    double frameRate() const;        // the stream's, or observed, or 25
    double frameDuration() const { return 1.0 / frameRate(); }

    bool isPlaying() const { return playing_; }
    double speed() const { return speed_; }
    bool loops() const { return loop_; }
    bool atEnd() const { return endReached_; }
    int64_t droppedFrames() const { return dropped_; }
    int64_t presentedFrames() const { return presented_; }   // frames shown, again from the step cache included
    struct FrameCounts {
        int64_t delivered = 0;   // files: frames taken from the reader's queue; live: frames that arrived in the mailbox
        int64_t shown = 0;       // delivered frames that became the current frame
        int64_t late = 0, replaced = 0, skipped = 0;
        int64_t waiting = 0;     // live: in the mailbox now
        int64_t dropped() const { return late + replaced; }   // what playback lost (the status bar's "dropped")
    };
    // Since the source opened (live: the reader's counts at the last service).
    FrameCounts frameCounts() const { return counts_; }
    // Files and patterns: show every frame, none dropped as late (a recording of the window).
    void setEveryFrame(bool every) { everyFrame_ = every; }
    bool everyFrame() const { return everyFrame_; }
    double presentedFps() const;     // frames presented over the last second

    // The media time heard, or nothing while no sound runs (AudioOutput::heard).
    using HeardClock = std::function<std::optional<double>()>;
    void setHeardClock(HeardClock clock) { heardClock_ = std::move(clock); }
    // Playing forward at 1x (not recording every frame): the speed the sound is heard at.
    bool atListeningSpeed() const { return playing_ && !reverse_ && speed_ == 1.0 && !everyFrame_; }
    // Whether the last tick paced the picture by the heard clock.
    bool followsSound() const { return followsSound_; }

public slots:
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBack();
    void seekTo(double seconds);
    void goToStart();
    void goToEnd();
    void setSpeed(double speed);     // 0.25 .. 4
    void setLoop(bool loop);
    // Reverse play at `speed` (back steps at the frame rate times speed); pause() stops it.
    void playReverse(double speed);

public:
    bool isPlayingReverse() const { return reverse_; }
    double reverseSpeed() const { return reverseSpeed_; }
    // Frames kept for stepping back (see the top of this file), and whether a fill is under way.
    size_t stepCacheFrames() const { return steps_.frames.size(); }
    bool stepFillPending() const { return steps_.filling; }

signals:
    void opened();
    void openFailed(const QString& input, const QString& message);
    void frameChanged();
    void playingChanged(bool playing);
    void speedChanged(double speed);
    void sourceError(const QString& message);
    void warning(const QString& message);
    void endOfStream();
    void clockStarted(double pts);   // playing: the clock starts at this frame's time
    void clockInterrupted();         // playing: a seek; the clock waits for the sought frame

private:
    using Clock = std::chrono::steady_clock;

    std::function<void()> wakeCall();
    template <typename Reader>
    void retire(std::unique_ptr<Reader> reader);
    void adoptPending(const SourceInfo& info);
    Q_INVOKABLE void onWake();   // queued by name from the readers' threads (wakeCall)
    void serviceLive();
    void service();
    void tick();
    void serviceSeekToLast();
    void handleEndOrError(SourceReader::Item& item);
    void present(VideoFrame&& frame, std::shared_ptr<PreparedScopes> prepared = {});
    void presentItem(SourceReader::Item&& item);
    std::optional<SourceReader::Item> takeItem();   // reader_->pop(), counting the frames delivered
    void requestSeek(double seconds);
    double mediaNow() const;
    void anchor();
    void followHeard();
    void scheduleTick(double seconds);
    void clearSteps();
    void startStepFill(double target);
    void serviceStepFill();
    int stepCacheIndex() const;      // the current frame's place in the cache, -1 when not in it
    void keepStepped(const VideoFrame& frame);
    void reverseTick();
    void stopReverse();

    // Files and patterns: a read-ahead queue with seeking. Cameras and streams
    // (isLiveInput): decode/LiveReader's latest-frame mailbox with reconnection.
    std::unique_ptr<SourceReader> reader_, pending_;
    std::unique_ptr<LiveReader> live_, pendingLive_;
    LiveState liveState_ = LiveState::Playing;
    std::string input_, pendingInput_;
    std::vector<std::future<void>> retiring_;   // readers being stopped off the GUI thread
    SourceReader::Prepare prepare_;
    SourceInfo info_;

    VideoFrame current_;
    std::shared_ptr<PreparedScopes> currentPrepared_;
    bool hasFrame_ = false;
    double firstPts_ = 0.0;
    bool haveFirstPts_ = false;
    double observedDuration_ = 0.0;

    bool playing_ = false;
    double speed_ = 1.0;
    bool loop_ = false;
    bool presentNext_ = false;      // paused: show the next frame that arrives (open, seek, step)
    // The picture is from before the last open or seek: the next frame to arrive replaces it,
    // also when playing stops before that frame came (pause() hands it to presentNext_).
    bool awaitingFirst_ = false;
    bool anchored_ = false;         // playing: the clock is tied to a presented frame
    bool endReached_ = false;       // the reader delivered its end (or an error): it waits for a seek
    double anchorPts_ = 0.0;
    Clock::time_point anchorWall_;
    bool wrapPending_ = false;      // looping: a wrap was taken; the next frame moves the clock to the new pass
    double wrapDue_ = 0.0;          // when (on the old pass's clock) the new pass's first frame is due

    struct SeekToLast {
        bool active = false;
        int attempt = 0;
        double target = 0.0;
        VideoFrame last;
        bool haveLast = false;
    } seekLast_;

    struct StepCache {
        std::deque<VideoFrame> frames;   // consecutive frames in pts order
        size_t limit = 8;
        bool filling = false;            // a seek for a window before `target` is being read
        double target = 0.0;             // filling: the pts to land on
        double from = 0.0;               // filling: the window's first frame
    } steps_;
    bool reverse_ = false;
    double reverseSpeed_ = 1.0;
    QTimer reverseTimer_;

    int64_t dropped_ = 0, presented_ = 0;
    FrameCounts counts_;
    bool everyFrame_ = false;
    std::deque<Clock::time_point> presentTimes_;
    HeardClock heardClock_;
    bool followsSound_ = false;
    QTimer timer_;
};

}  // namespace cs
