// The latest-frame mailbox and the live reader's plumbing, without a network: at most one
// frame waits, a put replaces it and counts a drop, take waits and times out, close wakes.
#include <gtest/gtest.h>

#include <chrono>
#include <latch>
#include <thread>

#include "decode/FrameMailbox.h"
#include "decode/LiveReader.h"
#include "LiveTestUtil.h"

namespace cs {
namespace {

using namespace std::chrono_literals;

TEST(LatestMailbox, HoldsOnlyTheNewestAndCountsDrops) {
    LatestMailbox<int> box;
    EXPECT_FALSE(box.tryTake().has_value());
    EXPECT_TRUE(box.put(1));     // empty before: a sleeping consumer should be woken
    EXPECT_FALSE(box.put(2));    // replaces 1
    EXPECT_FALSE(box.put(3));    // replaces 2
    EXPECT_EQ(box.dropped(), 2u);
    EXPECT_EQ(box.delivered(), 3u);
    auto taken = box.tryTake();
    ASSERT_TRUE(taken.has_value());
    EXPECT_EQ(*taken, 3);
    EXPECT_FALSE(box.tryTake().has_value());   // nothing older is left behind
    EXPECT_TRUE(box.put(4));
    EXPECT_EQ(box.taken(), 1u);
}

TEST(LatestMailbox, TakeTimesOutWhenEmpty) {
    LatestMailbox<int> box;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(box.take(50ms).has_value());
    EXPECT_GE(std::chrono::steady_clock::now() - start, 45ms);
}

// The consumer is on another thread, about to wait in take() when the put or close comes (the
// latch releases the producer as the consumer calls take): it must be woken, not run into
// its timeout.
TEST(LatestMailbox, TakeWakesOnPutFromAnotherThread) {
    LatestMailbox<int> box;
    std::latch taking(1);
    std::optional<int> taken;
    std::thread consumer([&] {
        taking.count_down();
        taken = box.take(60s);
    });
    taking.wait();
    const auto start = std::chrono::steady_clock::now();
    box.put(7);
    consumer.join();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 30s) << "woken by the put, not by the timeout";
    ASSERT_TRUE(taken.has_value());
    EXPECT_EQ(*taken, 7);
}

TEST(LatestMailbox, CloseWakesWaitersAndRefusesPuts) {
    LatestMailbox<int> box;
    std::latch taking(1);
    std::optional<int> taken = 0;
    std::thread consumer([&] {
        taking.count_down();
        taken = box.take(60s);
    });
    taking.wait();
    const auto start = std::chrono::steady_clock::now();
    box.close();
    consumer.join();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 30s) << "woken by close, not by the timeout";
    EXPECT_FALSE(taken.has_value());
    EXPECT_FALSE(box.put(1));
    EXPECT_FALSE(box.tryTake().has_value());
}

// Every value put is taken, dropped, discarded (waiting at clear or close) or still waiting.
TEST(LatestMailbox, AccountsForEveryValuePut) {
    LatestMailbox<int> box(2);
    for (int i = 0; i < 5; ++i) box.put(i);   // 0, 1, 2 pushed out of the full queue
    ASSERT_TRUE(box.tryTake().has_value());   // 3
    box.put(5);
    box.put(6);                               // pushes 4 out
    auto c = box.counts();
    EXPECT_EQ(c.put, 7u);
    EXPECT_EQ(c.taken, 1u);
    EXPECT_EQ(c.dropped, 4u);
    EXPECT_EQ(c.discarded, 0u);
    EXPECT_EQ(c.waiting, 2u);
    box.clear();                              // 5 and 6: a new connection
    box.put(7);
    box.close();                              // 7 still waiting
    EXPECT_FALSE(box.put(8));                 // refused after close: not counted
    c = box.counts();
    EXPECT_EQ(c.put, 8u);
    EXPECT_EQ(c.discarded, 3u);
    EXPECT_EQ(c.waiting, 0u);
    EXPECT_EQ(c.put, c.taken + c.dropped + c.discarded + c.waiting);
}

TEST(LatestMailbox, ReleasesTheReplacedValue) {
    // A replaced frame is let go at once (an NVDEC surface must not be held).
    LatestMailbox<std::shared_ptr<int>> box;
    auto first = std::make_shared<int>(1);
    std::weak_ptr<int> watch = first;
    box.put(std::move(first));
    box.put(std::make_shared<int>(2));
    EXPECT_TRUE(watch.expired());
}

// A producer far faster than its consumer leaves exactly one frame, the newest: the
// pattern source decodes its 250 frames in well under a second and nobody takes any.
TEST(LiveReader, NoBacklogBehindAConsumerThatTakesNothing) {
    test::Events wakes;
    LiveReader reader("pattern:bars:64x48", LiveReader::Options{}, wakes.poster());
    ASSERT_TRUE(wakes.waitUntil([&] { return reader.state() == LiveState::Ended; }, 60s))
        << liveStateName(reader.state()) << ": " << reader.status().message;
    EXPECT_EQ(reader.framesArrived(), 250u);
    EXPECT_EQ(reader.framesDropped(), 249u);
    auto last = reader.tryTake();
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->sequence, 250u);
    EXPECT_EQ(last->generation, 1u);
    EXPECT_EQ(last->frame.view.width, 64);
    EXPECT_FALSE(reader.tryTake().has_value());
    EXPECT_FALSE(reader.info().live);   // a pattern is not live: it ends rather than reconnects
}

TEST(LiveReader, StateNamesAreTheGuisWords) {
    EXPECT_STREQ(liveStateName(LiveState::Connecting), "connecting");
    EXPECT_STREQ(liveStateName(LiveState::Playing), "playing");
    EXPECT_STREQ(liveStateName(LiveState::Reconnecting), "reconnecting");
    EXPECT_STREQ(liveStateName(LiveState::Failed), "failed");
    EXPECT_STREQ(liveStateName(LiveState::Ended), "ended");
}

TEST(LiveReader, BadSyntaxFailsAtOnceEvenWhenRetrying) {
    LiveReader::Options options;
    options.retryFirstOpen = true;
    test::Events wakes;
    LiveReader reader("rtsp://", options, wakes.poster());
    ASSERT_TRUE(wakes.waitUntil([&] { return reader.state() == LiveState::Failed; }, 30s));
    EXPECT_EQ(reader.status().message, "rtsp://: no host in the URL (rtsp://host:port/...)");
}

TEST(LiveReader, StopsPromptlyWhileWaitingForAStream) {
    // A server that takes the request and never answers: the open waits for the reply (up
    // to 60 s here); the destructor cancels it. The request arriving says the reader waits.
    test::SilentHttpServer server;
    ASSERT_GT(server.port(), 0);
    LiveReader::Options options;
    options.open.liveOpenTimeout = 60.0;
    auto reader = std::make_unique<LiveReader>("http://127.0.0.1:" + std::to_string(server.port()) + "/live", options);
    ASSERT_TRUE(server.awaitRequest(30s)) << "the reader never sent its request";
    EXPECT_EQ(reader->state(), LiveState::Connecting);
    const auto start = std::chrono::steady_clock::now();
    reader.reset();
    // FFmpeg polls the cancel flag about every 0.1 s; well under the open's own 60 s limit.
    EXPECT_LT(test::secondsSince(start), 30.0);
}

}  // namespace
}  // namespace cs

namespace cs {
namespace {

TEST(FramePacer, BurstsArePacedByTimestamp) {
    using namespace std::chrono_literals;
    FramePacer pacer;
    const auto t0 = std::chrono::steady_clock::time_point(100s);
    // Milliseconds after t0 at which the frame is due (timestamps are doubles: compare near).
    auto due = [&](double pts, std::chrono::milliseconds arrival) {
        return std::chrono::duration<double, std::milli>(pacer.due(pts, t0 + arrival) - t0).count();
    };
    // A segment of frames at 25 fps arrives all at once: spread out again (less 1% of the
    // elapsed time, the lead's decay).
    EXPECT_NEAR(due(10.00, 0ms), 0.0, 1e-3);
    EXPECT_NEAR(due(10.04, 1ms), 40.0 - 0.01, 1e-3);
    EXPECT_NEAR(due(10.08, 2ms), 80.0 - 0.02, 1e-3);
    // A late frame is due at once and raises the lead: the frames after it keep its pace.
    EXPECT_NEAR(due(10.12, 500ms), 500.0, 1e-3);
    EXPECT_NEAR(due(10.16, 501ms), 540.0 - 0.01, 1e-3);
    // Ten seconds on, the lead has shrunk by 100 ms: a frame 39 ms early is not held back.
    EXPECT_NEAR(due(20.16, 10501ms), 10501.0, 1e-3);
    // A frame 200 ms ahead of that one's pace is held back those 200 ms (less the decay).
    EXPECT_NEAR(due(20.40, 10541ms), 10541.0 + 200.0 - 0.4, 1e-3);
    // Timestamps jumping far ahead (or back) do not freeze the picture: due now.
    EXPECT_NEAR(due(500.0, 10600ms), 10600.0, 1e-3);
    EXPECT_NEAR(due(500.04, 10601ms), 10640.0 - 0.01, 1e-3);
    EXPECT_NEAR(due(1.0, 10700ms), 10700.0, 1e-3);
}

TEST(BacklogGuard, SaysWhenFramesComeLaterAndLater) {
    using namespace std::chrono_literals;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::time_point(1000s);
    BacklogGuard guard(2.0);
    // In pace (with jitter): nothing to say.
    EXPECT_EQ(guard.behind(0.00, t0 + 100ms), 0.0);
    EXPECT_EQ(guard.behind(0.04, t0 + 150ms), 0.0);
    EXPECT_EQ(guard.behind(0.08, t0 + 180ms), 0.0);
    // Decoding takes 60 ms a frame of 40: each frame 20 ms later. 95 frames on: 1.9 s late.
    double pts = 0.08;
    auto arrival = t0 + 180ms;
    for (int i = 0; i < 95; ++i) {
        pts += 0.04;
        arrival += 60ms;
        EXPECT_EQ(guard.behind(pts, arrival), 0.0) << "frame " << i;
    }
    // Some frames on, past 2 s, it says so.
    double said = 0.0;
    for (int i = 0; i < 10 && said == 0.0; ++i) {
        pts += 0.04;
        arrival += 60ms;
        said = guard.behind(pts, arrival);
    }
    EXPECT_GT(said, 2.0);
    EXPECT_LT(said, 2.05);
}

TEST(BacklogGuard, ASlowSenderClockIsNotABacklog) {
    using namespace std::chrono_literals;
    const auto t0 = std::chrono::steady_clock::time_point(1000s);
    BacklogGuard guard(2.0);
    // The sender's 40 ms frames take 40.1 ms of ours (0.25% slow): after an hour, 9 s.
    for (int64_t i = 0; i < 90000; ++i)
        ASSERT_EQ(guard.behind(double(i) * 0.04, t0 + std::chrono::microseconds(i * 40100)), 0.0) << "frame " << i;
}

TEST(BacklogGuard, TimestampJumpsAreNotABacklog) {
    using namespace std::chrono_literals;
    const auto t0 = std::chrono::steady_clock::time_point(1000s);
    BacklogGuard guard(2.0);
    EXPECT_EQ(guard.behind(50.00, t0), 0.0);
    EXPECT_EQ(guard.behind(50.04, t0 + 40ms), 0.0);
    // A new sender: timestamps start again at 1.4 s. The arrival - pts offset jumps by 48.6 s.
    EXPECT_EQ(guard.behind(1.40, t0 + 80ms), 0.0);
    EXPECT_EQ(guard.behind(1.44, t0 + 120ms), 0.0);
    EXPECT_EQ(guard.behind(1.48, t0 + 160ms), 0.0);
    BacklogGuard off(0.0);
    EXPECT_EQ(off.behind(0.0, t0), 0.0);
    EXPECT_EQ(off.behind(0.0, t0 + 60s), 0.0);
}

}  // namespace
}  // namespace cs
