// The latest-frame mailbox between a live source's reader thread and the display: it holds
// at most one frame. A new frame replaces one not yet taken (counted as dropped), so the
// display always gets the newest frame and latency never builds up behind a slow consumer.
// Holding one means an NVDEC surface is kept only until the next frame arrives or the
// display takes it.
//
// Threading: every method may be called from any thread; one mutex guards the slot and the
// counts. A replaced frame is released after the lock is let go (freeing a frame may
// return a decoder surface, which should not happen under our lock).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>

#include "decode/Source.h"

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
    // Leaves `value` as the one waiting. True when none was waiting (a waiting consumer is
    // woken either way; true says a consumer that sleeps until told should be told). After
    // close() the value is dropped and false is returned.
    bool put(T value) {
        std::optional<T> replaced;
        bool wasEmpty;
        {
            std::lock_guard lock(mutex_);
            if (closed_) return false;
            ++put_;
            wasEmpty = !slot_.has_value();
            if (!wasEmpty) {
                ++dropped_;
                replaced = std::move(slot_);
            }
            slot_ = std::move(value);
        }
        ready_.notify_all();
        return wasEmpty;   // `replaced` is released here, outside the lock
    }

    // The waiting value, waiting up to `timeout` for one; nullopt on timeout or after close().
    template <typename Rep, typename Period>
    std::optional<T> take(std::chrono::duration<Rep, Period> timeout) {
        std::unique_lock lock(mutex_);
        ready_.wait_for(lock, timeout, [&] { return slot_.has_value() || closed_; });
        return takeLocked();
    }

    std::optional<T> tryTake() {
        std::lock_guard lock(mutex_);
        return takeLocked();
    }

    // Drops a waiting value without counting it (a new connection, a closed display).
    void clear() {
        std::optional<T> released;
        std::lock_guard lock(mutex_);
        released = std::move(slot_);
        slot_.reset();
    }

    // Wakes every waiting take(); from now on takes return nullopt and puts are refused.
    void close() {
        std::optional<T> released;
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
            released = std::move(slot_);
            slot_.reset();
        }
        ready_.notify_all();
    }

    bool hasValue() const {
        std::lock_guard lock(mutex_);
        return slot_.has_value();
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

private:
    std::optional<T> takeLocked() {
        if (!slot_) return std::nullopt;
        std::optional<T> value = std::move(slot_);
        slot_.reset();
        ++taken_;
        return value;
    }

    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::optional<T> slot_;     // guarded by mutex_, as is everything below
    bool closed_ = false;
    uint64_t put_ = 0;
    uint64_t dropped_ = 0;
    uint64_t taken_ = 0;
};

using FrameMailbox = LatestMailbox<LiveFrame>;

}  // namespace cs
