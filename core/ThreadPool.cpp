#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace cs {
namespace {

std::atomic<int> gBudget{0};   // 0: the CPUs

int cpus() { return int(std::max(1u, std::thread::hardware_concurrency())); }

// One parallelFor call. Lives on its caller's stack; posted in Workers::jobs_ while it has
// chunks to hand out, and waited for by its caller until `pending` is 0.
struct Job {
    const std::function<void(int, int, int)>* fn;
    int count, chunks;
    int next = 0;      // guarded by Workers::mutex_: the next chunk to hand out
    int pending;       // guarded by Workers::mutex_: chunks not yet finished
    void run(int c) const { (*fn)(c, int(int64_t(count) * c / chunks), int(int64_t(count) * (c + 1) / chunks)); }
};

// The process's workers. Created on first use and never destroyed (threads blocked on its
// condition variable at exit cost nothing, and no static destructor can then race a thread
// still posting work).
class Workers {
public:
    static Workers& get() {
        static Workers* const workers = new Workers;
        return *workers;
    }

    void run(Job& job) {
        std::unique_lock lock(mutex_);
        grow(std::max(1, ThreadPool::processThreads()) - 1);
        jobs_.push_back(&job);
        // One wake-up per chunk a worker can take (the caller takes one itself), not every
        // worker: a copy in 8 pieces on a 64-core machine wakes 7 threads, not 63 that would
        // queue on mutex_ to find nothing left.
        for (int i = 1; i < job.chunks; ++i) wake_.notify_one();
        // The caller runs its own chunks first: it never waits on a worker for work it could do.
        while (job.next < job.chunks) {
            const int c = job.next++;
            if (job.next == job.chunks) unpost(job);
            lock.unlock();
            job.run(c);
            lock.lock();
            --job.pending;
        }
        done_.wait(lock, [&] { return job.pending == 0; });
    }

private:
    // Guarded by mutex_: threads_, jobs_ (jobs with chunks left to hand out) and every posted
    // Job's next and pending.
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> threads_;
    std::deque<Job*> jobs_;

    void grow(int workers) {   // mutex_ held
        while (int(threads_.size()) < workers) threads_.emplace_back([this] { workerLoop(); });
    }

    void unpost(Job& job) {   // mutex_ held
        jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    }

    void workerLoop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return !jobs_.empty(); });
            Job& job = *jobs_.front();
            const int c = job.next++;
            if (job.next == job.chunks) unpost(job);
            lock.unlock();
            job.run(c);
            lock.lock();
            if (--job.pending == 0) done_.notify_all();
        }
    }
};

}  // namespace

ThreadPool::ThreadPool(int width) : width_(width > 0 ? width : processThreads()) {}

void ThreadPool::setProcessThreads(int n) { gBudget.store(std::max(0, n)); }
int ThreadPool::processThreads() {
    const int n = gBudget.load();
    return n > 0 ? n : cpus();
}
bool ThreadPool::processThreadsSet() { return gBudget.load() > 0; }

void ThreadPool::parallelFor(int count, const std::function<void(int, int, int)>& fn, int chunks) const {
    if (count <= 0) return;
    if (chunks <= 0) chunks = defaultChunks(count);
    chunks = std::min(chunks, count);
    Job job{&fn, count, chunks, 0, chunks};
    if (chunks == 1 || processThreads() == 1) {
        for (int c = 0; c < chunks; ++c) job.run(c);
        return;
    }
    Workers::get().run(job);
}

}  // namespace cs
