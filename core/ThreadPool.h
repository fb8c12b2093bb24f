// A small fixed pool of worker threads for the CPU engine and filters: parallelFor
// splits [0, count) into contiguous chunks and blocks until every chunk is done.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cs {

class ThreadPool {
public:
    explicit ThreadPool(int threads = 0);   // 0: std::thread::hardware_concurrency()
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return int(workers_.size()) + 1; }   // the caller works too
    // Calls fn(chunkIndex, begin, end) for `chunks` contiguous pieces of [0, count)
    // (chunks <= 0: one per thread). The calling thread runs chunk 0.
    void parallelFor(int count, const std::function<void(int chunk, int begin, int end)>& fn, int chunks = 0);
    // The chunk count parallelFor uses for `count` items when chunks <= 0.
    int defaultChunks(int count) const { return count < size() ? (count > 0 ? count : 1) : size(); }

private:
    void workerLoop();
    // Guarded by mutex_: the current job and its progress.
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int, int, int)>* job_ = nullptr;
    int count_ = 0, chunks_ = 0, nextChunk_ = 0, pending_ = 0;
    unsigned generation_ = 0;
    bool stop_ = false;
    std::vector<std::thread> workers_;
};

}  // namespace cs
