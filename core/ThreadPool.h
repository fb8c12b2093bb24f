// The process's thread budget: one set of worker threads that every pool in the process
// shares, and ThreadPool, a handle on it with a width of its own.
//
// A ThreadPool starts no thread: parallelFor hands its chunks to the process's workers
// (started once, on first use: processThreads() - 1 of them, since the caller works too) and
// the calling thread takes chunks of its own job until none is left, then waits for the
// chunks workers took. So every engine, filter and copier in a process (a 16-tile wall's
// engines, the window's image pool, the CUDA engine's pinned copies) draws on the same
// threads, sized to the machine, rather than each starting a pool of its own; and a call
// never waits on a worker that may be busy elsewhere before it has run what it can itself
// (a nested parallelFor, or one made while every worker is taken, completes on its caller).
//
// Threading: parallelFor may be called from any number of threads at once, on one handle or
// several; the workers take chunks from the jobs in the order they were posted. A chunk's
// function runs on whichever thread takes it: it must touch only what its chunk index owns.
#pragma once
#include <functional>

namespace cs {

class ThreadPool {
public:
    explicit ThreadPool(int width = 0);   // the chunks a parallelFor splits into (0: processThreads())
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return width_; }
    // Calls fn(chunkIndex, begin, end) once for each of `chunks` contiguous pieces of
    // [0, count) (chunks <= 0: one per unit of width), on the caller and the process's
    // workers, and returns when every piece is done.
    void parallelFor(int count, const std::function<void(int chunk, int begin, int end)>& fn, int chunks = 0) const;
    // The chunk count parallelFor uses for `count` items when chunks <= 0.
    int defaultChunks(int count) const { return count < size() ? (count > 0 ? count : 1) : size(); }

    // The process's budget of CPU threads: the workers every pool shares (plus a caller) and
    // the default of software decoders. Set at start-up, before the first parallelFor, by a
    // process that runs beside others on one machine (qc's worker processes each take their
    // share of the run's --threads); n <= 0 restores the default. Later calls change the
    // budget the pools and decoders size from; the workers already started stay.
    static void setProcessThreads(int n);
    static int processThreads();   // the budget: setProcessThreads' n, else the CPUs
    static bool processThreadsSet();   // whether setProcessThreads gave a budget

private:
    int width_;
};

}  // namespace cs
