#include "ThreadPool.h"

#include <algorithm>

namespace cs {

ThreadPool::ThreadPool(int threads) {
    if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::parallelFor(int count, const std::function<void(int, int, int)>& fn, int chunks) {
    if (count <= 0) return;
    if (chunks <= 0) chunks = defaultChunks(count);
    chunks = std::min(chunks, count);
    if (chunks == 1 || workers_.empty()) {
        for (int c = 0; c < chunks; ++c) fn(c, int(int64_t(count) * c / chunks), int(int64_t(count) * (c + 1) / chunks));
        return;
    }
    std::unique_lock lock(mutex_);
    job_ = &fn;
    count_ = count;
    chunks_ = chunks;
    nextChunk_ = 0;
    pending_ = chunks;
    ++generation_;
    wake_.notify_all();
    // The caller takes chunks too, so a pool of N threads keeps N cores busy.
    while (nextChunk_ < chunks_) {
        const int c = nextChunk_++;
        lock.unlock();
        fn(c, int(int64_t(count) * c / chunks), int(int64_t(count) * (c + 1) / chunks));
        lock.lock();
        --pending_;
    }
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
}

void ThreadPool::workerLoop() {
    unsigned seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || (generation_ != seen && job_ && nextChunk_ < chunks_); });
        if (stop_) return;
        seen = generation_;
        while (job_ && nextChunk_ < chunks_) {
            const int c = nextChunk_++;
            const auto* fn = job_;
            const int count = count_, chunks = chunks_;
            lock.unlock();
            (*fn)(c, int(int64_t(count) * c / chunks), int(int64_t(count) * (c + 1) / chunks));
            lock.lock();
            if (--pending_ == 0) done_.notify_all();
        }
    }
}

}  // namespace cs
