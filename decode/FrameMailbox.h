// The mailbox between a live source's reader thread and its consumer. With a capacity of one
// (the default: the display) it is a latest-frame mailbox: a new frame replaces one not yet
// taken (counted as dropped), so the display always gets the newest frame and latency never
// builds up behind a slow consumer; holding one means an NVDEC surface is kept only until the
// next frame arrives or the display takes it. With a larger capacity (an export that wants
// every frame) it is a bounded queue: frames wait in arrival order, and when it is full the
// oldest is dropped (and counted), so a consumer that falls behind stays at most `capacity`
// frames behind and memory stays bounded.
//
// Every value accepted by put() is accounted for: taken, dropped (replaced, or pushed out of a
// full queue), discarded (still waiting at clear() or close()) or waiting now, so
// put = taken + dropped + discarded + waiting (counts(), one snapshot under the lock).
//
// Threading: every method may be called from any thread; one mutex guards the queue and the
// counts. Dropped values are released after the lock is let go (freeing a frame may return a
// decoder surface, which should not happen under our lock).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "Source.h"

namespace cs {

// A frame as the live reader hands it over.
struct LiveFrame {
    VideoFrame frame;
    // When the decoder handed the frame to the reader thread. Latency on screen is the time
    // the display shows it minus this.
    std::chrono::steady_clock::time_point arrival;
    uint64_t sequence = 0;      // 1, 2, 3... in arrival order over the reader's life (gaps: dropped frames)
    uint64_t generation = 0;    // which connection it came from: 1 for the first, +1 per reconnect
};

template <typename T>
class LatestMailbox {
public:
    explicit LatestMailbox(size_t capacity = 1) : capacity_(capacity < 1 ? 1 : capacity) {}

    // How many values may wait (at least 1). Lowering it drops the oldest beyond it.
    void setCapacity(size_t capacity) {
        std::vector<T> released;
        std::lock_guard lock(mutex_);
        capacity_ = capacity < 1 ? 1 : capacity;
        trimLocked(capacity_, released);
    }

    // Leaves `value` as the newest waiting; when `capacity` values wait already, the oldest is
    // dropped. True when none was waiting (a waiting consumer is woken either way; true says a
    // consumer that sleeps until told should be told). After close() the value is dropped and
    // false is returned.
    bool put(T value) {
        std::vector<T> released;
        bool wasEmpty;
        {
            std::lock_guard lock(mutex_);
            if (closed_) return false;
            ++put_;
            wasEmpty = queue_.empty();
            trimLocked(capacity_ - 1, released);
            queue_.push_back(std::move(value));
        }
        ready_.notify_all();
        return wasEmpty;   // `released` is let go here, outside the lock
    }

    // The oldest waiting value, waiting up to `timeout` for one; nullopt on timeout or after close().
    template <typename Rep, typename Period>
    std::optional<T> take(std::chrono::duration<Rep, Period> timeout) {
        std::unique_lock lock(mutex_);
        ready_.wait_for(lock, timeout, [&] { return !queue_.empty() || closed_; });
        return takeLocked();
    }

    std::optional<T> tryTake() {
        std::lock_guard lock(mutex_);
        return takeLocked();
    }

    // Drops every waiting value (a new connection, a closed display); they count as discarded.
    void clear() {
        std::deque<T> released;
        std::lock_guard lock(mutex_);
        discarded_ += queue_.size();
        released.swap(queue_);
    }

    // Wakes every waiting take(); from now on takes return nullopt and puts are refused.
    void close() {
        std::deque<T> released;
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
            discarded_ += queue_.size();
            released.swap(queue_);
        }
        ready_.notify_all();
    }

    bool hasValue() const {
        std::lock_guard lock(mutex_);
        return !queue_.empty();
    }
    size_t size() const {   // values waiting now
        std::lock_guard lock(mutex_);
        return queue_.size();
    }
    size_t capacity() const {
        std::lock_guard lock(mutex_);
        return capacity_;
    }
    uint64_t dropped() const {
        std::lock_guard lock(mutex_);
        return dropped_;
    }
    uint64_t delivered() const {   // put() calls accepted
        std::lock_guard lock(mutex_);
        return put_;
    }
    uint64_t taken() const {
        std::lock_guard lock(mutex_);
        return taken_;
    }
    uint64_t discarded() const {   // waiting at clear() or close()
        std::lock_guard lock(mutex_);
        return discarded_;
    }
    struct Counts {
        uint64_t put = 0, taken = 0, dropped = 0, discarded = 0, waiting = 0;   // put = the other four's sum
    };
    Counts counts() const {
        std::lock_guard lock(mutex_);
        return {put_, taken_, dropped_, discarded_, uint64_t(queue_.size())};
    }

private:
    // Drops the oldest until at most `keep` wait; they go to `released`, freed by the caller
    // after the lock.
    void trimLocked(size_t keep, std::vector<T>& released) {
        while (queue_.size() > keep) {
            released.push_back(std::move(queue_.front()));
            queue_.pop_front();
            ++dropped_;
        }
    }

    std::optional<T> takeLocked() {
        if (queue_.empty()) return std::nullopt;
        std::optional<T> value = std::move(queue_.front());
        queue_.pop_front();
        ++taken_;
        return value;
    }

    mutable std::mutex mutex_;
    std::condition_variable ready_;
    size_t capacity_;           // guarded by mutex_, as is everything below
    std::deque<T> queue_;       // oldest first
    bool closed_ = false;
    uint64_t put_ = 0;
    uint64_t dropped_ = 0;
    uint64_t taken_ = 0;
    uint64_t discarded_ = 0;
};

using FrameMailbox = LatestMailbox<LiveFrame>;

}  // namespace cs
