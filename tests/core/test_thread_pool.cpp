// The process's thread budget (core/ThreadPool.h): every pool is a handle on one set of
// workers, so N engines in a process start no threads of their own; chunks still run once
// each, over exactly their ranges; a parallelFor nested in another, or posted while every
// worker is taken, completes on its caller.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/Engine.h"
#include "core/ThreadPool.h"
#include "cpu/CpuEngine.h"
#include "tests/common/ReferenceScopes.h"

using namespace cs;

namespace {

int threadsInProcess() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
    ADD_FAILURE() << "/proc/self/status has no Threads: line";
    return -1;
}

}  // namespace

TEST(ThreadPool, EveryChunkRunsOnceOverItsRange) {
    ThreadPool::setProcessThreads(4);
    const ThreadPool pool(3);
    EXPECT_EQ(pool.size(), 3);
    std::mutex lock;
    std::vector<std::pair<int, int>> ranges(7, {-1, -1});
    std::vector<int> runs(7, 0);
    pool.parallelFor(103, [&](int chunk, int begin, int end) {
        const std::lock_guard guard(lock);
        ++runs[size_t(chunk)];
        ranges[size_t(chunk)] = {begin, end};
    }, 7);
    EXPECT_EQ(runs, std::vector<int>(7, 1));
    // Contiguous pieces of [0, 103), in chunk order, as chunk c = [103c/7, 103(c+1)/7).
    for (int c = 0; c < 7; ++c) {
        EXPECT_EQ(ranges[size_t(c)].first, 103 * c / 7) << c;
        EXPECT_EQ(ranges[size_t(c)].second, 103 * (c + 1) / 7) << c;
    }
    ThreadPool::setProcessThreads(0);
}

TEST(ThreadPool, WidthDefaultsToTheProcessBudget) {
    ThreadPool::setProcessThreads(0);
    EXPECT_FALSE(ThreadPool::processThreadsSet());
    EXPECT_EQ(ThreadPool().size(), int(std::max(1u, std::thread::hardware_concurrency())));
    ThreadPool::setProcessThreads(5);
    EXPECT_TRUE(ThreadPool::processThreadsSet());
    EXPECT_EQ(ThreadPool::processThreads(), 5);
    EXPECT_EQ(ThreadPool().size(), 5);
    EXPECT_EQ(ThreadPool(2).size(), 2);
    ThreadPool::setProcessThreads(0);
}

// Sixteen CPU engines (a 16-tile wall's) measuring at once from sixteen threads start no
// thread beyond the process's workers: the budget's threads less the callers' own.
TEST(ThreadPool, ManyEnginesShareTheProcessWorkers) {
    ThreadPool::setProcessThreads(4);
    // A thread started and joined first, so that a runtime's own helper (ThreadSanitizer starts
    // one with the process's first thread) is counted before, not as the pool's.
    std::thread([] {}).join();
    const int before = threadsInProcess();
    std::mt19937 rng(3);
    const cs::testing::Components c = cs::testing::randomComponents(PixelFormat::Yuv420p, 64, 36, rng);
    const Frame frame = cs::testing::buildFrame(PixelFormat::Yuv420p, c, {});
    std::vector<std::unique_ptr<Engine>> engines;
    for (int i = 0; i < 16; ++i) engines.push_back(makeCpuEngine());
    ScopeSpec spec;
    ScopeResults reference;
    ASSERT_TRUE(makeCpuEngine(1)->process(frame.view(), spec, reference).ok());

    std::vector<ScopeResults> results(engines.size());
    std::vector<std::thread> callers;
    std::atomic<int> failures{0};
    for (size_t i = 0; i < engines.size(); ++i)
        callers.emplace_back([&, i] {
            for (int k = 0; k < 4; ++k)
                if (!engines[i]->process(frame.view(), spec, results[i]).ok()) ++failures;
        });
    for (auto& t : callers) t.join();
    EXPECT_EQ(failures.load(), 0);
    // What stays is at most the budget's 3 workers (the callers have ended): no engine has
    // threads of its own.
    EXPECT_LE(threadsInProcess() - before, 3);
    for (const ScopeResults& r : results) {
        EXPECT_EQ(r.waveform, reference.waveform);
        EXPECT_EQ(r.vectorscope, reference.vectorscope);
        EXPECT_EQ(r.picture.pixels, reference.picture.pixels);
    }
    ThreadPool::setProcessThreads(0);
}

// A chunk that runs a parallelFor of its own, with every worker inside the outer job:
// the inner jobs complete on their callers.
TEST(ThreadPool, NestedCallsComplete) {
    ThreadPool::setProcessThreads(3);
    const ThreadPool pool(8);
    std::atomic<long> sum{0};
    pool.parallelFor(8, [&](int, int begin, int end) {
        for (int i = begin; i < end; ++i)
            pool.parallelFor(100, [&](int, int b, int e) {
                for (int k = b; k < e; ++k) sum += k;
            });
    });
    EXPECT_EQ(sum.load(), 8L * (99 * 100 / 2));
    ThreadPool::setProcessThreads(0);
}
