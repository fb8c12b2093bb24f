// What export reads, without a network: the mailbox as a bounded queue (every frame in order,
// the oldest dropped when full), LiveReader with a queue over a test pattern, the timeline
// that keeps pts rising across restarts, and FrameInput over a file source.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "LiveTestUtil.h"
#include "decode/FrameInput.h"
#include "decode/FrameMailbox.h"
#include "decode/LiveReader.h"

namespace cs {
namespace {

using namespace std::chrono_literals;

TEST(BoundedMailbox, KeepsEveryValueInOrderUpToItsCapacity) {
    LatestMailbox<int> box(4);
    EXPECT_EQ(box.capacity(), 4u);
    EXPECT_TRUE(box.put(1));
    EXPECT_FALSE(box.put(2));
    EXPECT_FALSE(box.put(3));
    EXPECT_EQ(box.size(), 3u);
    EXPECT_EQ(box.dropped(), 0u);
    EXPECT_EQ(*box.tryTake(), 1);
    EXPECT_EQ(*box.tryTake(), 2);
    EXPECT_EQ(*box.tryTake(), 3);
    EXPECT_FALSE(box.tryTake().has_value());
}

TEST(BoundedMailbox, DropsTheOldestWhenFull) {
    LatestMailbox<int> box(3);
    for (int i = 1; i <= 7; ++i) box.put(i);
    EXPECT_EQ(box.dropped(), 4u);   // 1..4 made room for 5..7
    EXPECT_EQ(box.delivered(), 7u);
    EXPECT_EQ(*box.tryTake(), 5);
    EXPECT_EQ(*box.tryTake(), 6);
    EXPECT_EQ(*box.tryTake(), 7);
}

TEST(BoundedMailbox, LoweringTheCapacityDropsTheOldestAndReleasesThem) {
    LatestMailbox<std::shared_ptr<int>> box(5);
    auto first = std::make_shared<int>(1);
    std::weak_ptr<int> watch = first;
    box.put(std::move(first));
    for (int i = 2; i <= 5; ++i) box.put(std::make_shared<int>(i));
    box.setCapacity(2);
    EXPECT_TRUE(watch.expired());
    EXPECT_EQ(box.size(), 2u);
    EXPECT_EQ(box.dropped(), 3u);
    EXPECT_EQ(**box.tryTake(), 4);
    box.setCapacity(0);   // at least one always fits
    EXPECT_EQ(box.capacity(), 1u);
}

// The pattern decodes its 250 frames far faster than anyone takes them.
TEST(LiveReaderQueue, KeepsEveryFrameWhenTheQueueHoldsThem) {
    LiveReader::Options options;
    options.queueFrames = 300;
    LiveReader reader("pattern:bars:64x48", options);
    ASSERT_TRUE(test::waitUntil([&] { return reader.state() == LiveState::Ended; }, 20s))
        << liveStateName(reader.state()) << ": " << reader.status().message;
    EXPECT_EQ(reader.framesDropped(), 0u);
    EXPECT_EQ(reader.framesWaiting(), 250u);
    for (uint64_t expected = 1; expected <= 250; ++expected) {
        auto f = reader.tryTake();
        ASSERT_TRUE(f.has_value()) << expected;
        EXPECT_EQ(f->sequence, expected);
        EXPECT_NEAR(f->frame.view.pts, double(expected - 1) / 25.0, 1e-9);
    }
}

TEST(LiveReaderQueue, AFullQueueDropsTheOldest) {
    LiveReader::Options options;
    options.queueFrames = 100;
    LiveReader reader("pattern:bars:64x48", options);
    ASSERT_TRUE(test::waitUntil([&] { return reader.state() == LiveState::Ended; }, 20s));
    EXPECT_EQ(reader.framesDropped(), 150u);
    EXPECT_EQ(reader.queueCapacity(), 100u);
    auto first = reader.tryTake();
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->sequence, 151u);   // the newest 100 wait
}

TEST(LiveReaderQueue, AByteLimitBoundsTheQueue) {
    LiveReader::Options options;
    options.queueFrames = 100;
    options.queueBytes = 1;   // less than a frame: one still waits
    LiveReader reader("pattern:bars:64x48", options);
    ASSERT_TRUE(test::waitUntil([&] { return reader.state() == LiveState::Ended; }, 20s));
    EXPECT_EQ(reader.queueCapacity(), 1u);
    EXPECT_EQ(reader.framesWaiting(), 1u);
    EXPECT_EQ(reader.framesDropped(), 249u);
}

TEST(StreamTimeline, TheFirstRunKeepsTheStreamsTimestamps) {
    StreamTimeline t;
    for (int i = 0; i < 5; ++i) {
        const auto p = t.place(3.0 + i * 0.04, 100.0 + i * 0.04, 1, 0.04);
        EXPECT_DOUBLE_EQ(p.pts, 3.0 + i * 0.04);
        EXPECT_FALSE(p.discontinuity);
    }
}

TEST(StreamTimeline, ANewConnectionContinuesAfterTheLastFrameByTheTimeThatPassed) {
    StreamTimeline t;
    t.place(5.0, 100.0, 1, 0.04);
    const auto p = t.place(1.4, 103.5, 2, 0.04);   // reconnected 3.5 s later, its own clock from 1.4 s
    EXPECT_TRUE(p.discontinuity);
    EXPECT_TRUE(p.reconnected);
    EXPECT_DOUBLE_EQ(p.pts, 8.5);
    const auto q = t.place(1.44, 103.54, 2, 0.04);
    EXPECT_FALSE(q.discontinuity);
    EXPECT_NEAR(q.pts, 8.54, 1e-9);
}

TEST(StreamTimeline, TimestampsThatGoBackAreARestart) {
    StreamTimeline t;
    t.place(10.0, 50.0, 1, 0.04);
    const auto p = t.place(0.0, 50.01, 1, 0.04);   // the same connection, a new sender
    EXPECT_TRUE(p.discontinuity);
    EXPECT_FALSE(p.reconnected);
    EXPECT_NE(p.jump.find("went back from 10.000 s to 0.000 s"), std::string::npos) << p.jump;
    EXPECT_DOUBLE_EQ(p.pts, 10.04);   // at least a frame on, never back
}

TEST(StreamTimeline, TimestampsThatLeapAheadOfTheClockAreARestart) {
    StreamTimeline t;
    t.place(1.0, 20.0, 1, 0.04);
    const auto p = t.place(900.0, 20.5, 1, 0.04);
    EXPECT_TRUE(p.discontinuity);
    EXPECT_NE(p.jump.find("leapt from 1.000 s to 900.000 s"), std::string::npos) << p.jump;
    EXPECT_DOUBLE_EQ(p.pts, 1.5);
}

TEST(StreamTimeline, ALastFrameThatCameLateCountsFromWhenItWasDue) {
    // MPEG-TS: the demuxer holds a frame until the next one starts. The sender dies after
    // 1.08 s and is back 2 s later: frame 1.08 comes out with the new sender's first.
    StreamTimeline t;
    t.place(1.00, 10.00, 1, 0.04);
    t.place(1.04, 10.04, 1, 0.04);
    EXPECT_FALSE(t.place(1.08, 12.00, 1, 0.04).discontinuity);
    const auto p = t.place(0.0, 12.05, 1, 0.04);
    EXPECT_TRUE(p.discontinuity);
    EXPECT_NEAR(p.gap, 12.05 - 10.08, 0.02);   // the frame was due at 10.08 (the drift allowance: 10 ms)
    EXPECT_NEAR(p.pts, 1.08 + 1.97, 0.02);
}

TEST(StreamTimeline, LateFramesAndGapsWithTheClockAreNotRestarts) {
    StreamTimeline t;
    t.place(1.0, 20.0, 1, 0.04);
    EXPECT_FALSE(t.place(1.04, 21.5, 1, 0.04).discontinuity);   // came late (a network hiccup)
    EXPECT_FALSE(t.place(1.08, 21.5, 1, 0.04).discontinuity);   // then in a burst
    EXPECT_FALSE(t.place(2.5, 22.9, 1, 0.04).discontinuity);    // a gap in both: frames not sent
    EXPECT_DOUBLE_EQ(t.place(2.54, 22.94, 1, 0.04).pts, 2.54);
}

TEST(FrameInput, AFileIsReadAsItIsWithoutLiveEvents) {
    FrameInputOptions options;
    auto opened = openFrameInput("pattern:ramp:64x48", options);
    ASSERT_TRUE(opened) << opened.message();
    FrameInput& input = *opened.value();
    for (int i = 0; i < 30; ++i) {
        InputFrame f;
        ASSERT_EQ(input.next(f).status, InputStatus::Frame);
        EXPECT_EQ(f.index, i);
        EXPECT_DOUBLE_EQ(f.pts, f.sourcePts);
        EXPECT_NEAR(f.pts, i / 25.0, 1e-9);
        EXPECT_FALSE(f.discontinuity);
    }
    EXPECT_FALSE(input.summary().live);
    EXPECT_EQ(input.info().width, 64);
}

TEST(FrameInput, ABadLiveInputIsAnErrorAtOnce) {
    auto opened = openFrameInput("v4l2:/dev/video0?size=big", FrameInputOptions{});
    ASSERT_FALSE(opened);
    EXPECT_NE(opened.message().find("size must be WxH"), std::string::npos) << opened.message();
}

}  // namespace
}  // namespace cs
