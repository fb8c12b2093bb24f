// The source thread: opens a source, then reads frames ahead into a bounded queue that
// the GUI thread drains (mpv-style: decode runs ahead, the display picks). Seeks flush
// the queue. The GUI thread is woken through a callback only when something it waits for
// arrives (the first item in an empty queue, the open finishing). Looping, the reader
// reads on from the start by itself at the end of a seekable source: a wrap item (an end
// item with `wrap` set) marks where the next pass begins, with its frames queued behind it.
//
// With a `prepare` function, a second thread (the preparer) runs it on the queued frames in
// order, ahead of their presentation, and attaches what it returns to their items: the CPU
// engine's scopes for each frame (playback/EngineHost.h), computed while the GUI thread draws the
// frame before. Bounded: the preparer works on the first 3 queued frames only, and a seek
// flush leaves it nothing to do (a preparation in flight is discarded when it ends). A frame
// that is the very picture prepared last, with the same settings (a still source), is left
// unprepared: its scopes are those already shown (ui/main/MainWindow does not process it again).
//
// Threading: the Source is touched only by the reader thread after openSource returns.
// mutex_ guards everything below it in the class; the callbacks run without the lock.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "decode/Source.h"

namespace cs {

struct PreparedScopes;   // playback/EngineHost.h

class SourceReader {
public:
    // Runs on the preparer thread, one frame at a time; returns null to leave the frame to
    // the GUI thread. Must not call back into the reader.
    using Prepare = std::function<std::shared_ptr<PreparedScopes>(const VideoFrame&)>;
    enum class State { Opening, Open, Failed };
    struct Item {
        ReadStatus status = ReadStatus::EndOfStream;
        VideoFrame frame;          // status == Frame
        std::string message;       // status == Error
        bool wrap = false;         // status == EndOfStream: the source went on from its start (looping); frames follow
        uint64_t serial = 0;       // queue order, from 1
        std::shared_ptr<PreparedScopes> prepared;   // the preparer's result, null until it has one
    };

    // Starts the thread, which opens `input` first. `wake` is called from the reader thread.
    SourceReader(std::string input, OpenOptions options, size_t capacity, std::function<void()> wake,
                 Prepare prepare = {});
    ~SourceReader();               // stops the threads and waits for the read (and preparation) in progress
    SourceReader(const SourceReader&) = delete;
    SourceReader& operator=(const SourceReader&) = delete;

    // Asks the thread to stop without waiting (the destructor waits).
    void requestStop();

    State state() const;
    std::string openError() const;
    SourceInfo info() const;

    // The head of the queue without taking it: its status and, for a frame, its pts (and
    // whether an end item is a wrap).
    bool peek(ReadStatus& status, double& pts, bool* wrap = nullptr) const;
    std::optional<Item> pop();
    size_t queued() const;

    // Flushes the queue; the next item is the frame at or just after `seconds`.
    void seek(double seconds);
    // At the end of a seekable source, read on from its start (queueing a wrap item) instead
    // of stopping at an end item.
    void setLoop(bool loop);

    // Queued frames that carry a preparation.
    size_t preparedQueued() const;
    // What the preparations depend on changed: the queued frames are prepared again (a
    // preparation in flight is not attached).
    void prepareAgain();
    // An item taken from the queue while the preparer was working on its frame: waits for that
    // preparation (finishing it is quicker than starting again) and returns it; null at once
    // when the preparer is not on that frame.
    std::shared_ptr<PreparedScopes> awaitPrepared(uint64_t serial);
    std::vector<std::string> takeWarnings();

private:
    void run();
    void prepareAhead();
    Item* nextToPrepare();   // under mutex_

    const std::string input_;
    const OpenOptions options_;
    const size_t capacity_;
    const std::function<void()> wake_;
    const Prepare prepare_;

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    State state_ = State::Opening;
    std::string openError_;
    SourceInfo info_;
    std::deque<Item> queue_;
    std::optional<double> seekTarget_;
    uint64_t seekGeneration_ = 0;   // bumped by seek(): a read that started before is discarded
    bool atEnd_ = false;            // an end or error item is queued: wait for a seek
    bool loop_ = false;
    bool stop_ = false;
    std::vector<std::string> warnings_;
    uint64_t nextSerial_ = 1;
    uint64_t preparedUpTo_ = 0;     // the preparer has taken every frame up to this serial
    uint64_t preparing_ = 0;        // the serial it works on (0: none)
    uint64_t prepareGeneration_ = 0;   // bumped by prepareAgain(): a preparation that started before is not attached
    struct Finished {
        uint64_t serial = 0;
        std::shared_ptr<PreparedScopes> prepared;
    } finished_;                    // the last preparation whose item had left the queue (for awaitPrepared)
    // The picture prepared last (identity only) and under which prepareGeneration_: a still
    // source (a pattern) queues one shared picture again and again; it is prepared once.
    std::weak_ptr<AVFrame> lastPreparedFrame_;
    uint64_t lastPreparedGeneration_ = 0;

    std::thread thread_;            // last: start after every field above is constructed
    std::thread preparer_;
};

}  // namespace cs
