// The source thread: opens a source, then reads frames ahead into a bounded queue that
// the GUI thread drains (mpv-style: decode runs ahead, the display picks). Seeks flush
// the queue. The GUI thread is woken through a callback only when something it waits for
// arrives (the first item in an empty queue, the open finishing).
//
// Threading: the Source is touched only by the reader thread after openSource returns.
// mutex_ guards everything below it in the class; the callback runs without the lock.
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

class SourceReader {
public:
    enum class State { Opening, Open, Failed };
    struct Item {
        ReadStatus status = ReadStatus::EndOfStream;
        VideoFrame frame;          // status == Frame
        std::string message;       // status == Error
    };

    // Starts the thread, which opens `input` first. `wake` is called from the reader thread.
    SourceReader(std::string input, OpenOptions options, size_t capacity, std::function<void()> wake);
    ~SourceReader();               // stops the thread and waits for the read in progress
    SourceReader(const SourceReader&) = delete;
    SourceReader& operator=(const SourceReader&) = delete;

    // Asks the thread to stop without waiting (the destructor waits).
    void requestStop();

    State state() const;
    std::string openError() const;
    SourceInfo info() const;

    // The head of the queue without taking it: its status and, for a frame, its pts.
    bool peek(ReadStatus& status, double& pts) const;
    std::optional<Item> pop();
    size_t queued() const;

    // Flushes the queue; the next item is the frame at or just after `seconds`.
    void seek(double seconds);
    std::vector<std::string> takeWarnings();

private:
    void run();

    const std::string input_;
    const OpenOptions options_;
    const size_t capacity_;
    const std::function<void()> wake_;

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    State state_ = State::Opening;
    std::string openError_;
    SourceInfo info_;
    std::deque<Item> queue_;
    std::optional<double> seekTarget_;
    uint64_t seekGeneration_ = 0;   // bumped by seek(): a read that started before is discarded
    bool atEnd_ = false;            // an end or error item is queued: wait for a seek
    bool stop_ = false;
    std::vector<std::string> warnings_;

    std::thread thread_;            // last: starts after every field above is constructed
};

}  // namespace cs
