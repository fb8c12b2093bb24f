// analysis/Alarms: blackdetect's and freezedetect's defaults and decisions (analysis/DetectRules.h), the
// MAFD, the duration rule.
#include <gtest/gtest.h>

#include "analysis/Alarms.h"
#include "analysis/SignalStats.h"

using namespace cs;

TEST(Alarms, RulesAreQcsAndFFmpegsDefaults) {
    const AlarmRules r;
    EXPECT_EQ(r.black.pixelThreshold, 0.10);
    EXPECT_EQ(r.black.pictureRatio, 0.98);
    EXPECT_EQ(r.black.duration, 2.0);
    EXPECT_NEAR(r.freeze.noise, 0.001, 1e-15);
    EXPECT_EQ(r.freeze.duration, 2.0);
    // The boundaries: blackdetect's ratio is reached at equality, freezedetect's noise too.
    EXPECT_TRUE(pictureIsBlack(0.98, 0.98));
    EXPECT_FALSE(pictureIsBlack(0.9799, 0.98));
    EXPECT_TRUE(frameIsFrozen(0.001, 0.001));
    EXPECT_FALSE(frameIsFrozen(0.0011, 0.001));
}

TEST(Alarms, BlackThresholdIsBlackdetects) {
    // vf_blackdetect: limited 16 + 0.1 * 219 = 37.9 -> 37 at 8 bits, (64 + 87.6) -> 151 at 10;
    // full 0.1 * 255 = 25.5 -> 25, 0.1 * 1023 = 102.3 -> 102.
    EXPECT_EQ(blackThresholdFor(0.10, 8, false), 37);
    EXPECT_EQ(blackThresholdFor(0.10, 10, false), 151);
    EXPECT_EQ(blackThresholdFor(0.10, 8, true), 25);
    EXPECT_EQ(blackThresholdFor(0.10, 10, true), 102);
    EXPECT_EQ(blackThresholdFor(0.50, 10, true), 511);   // 511.5: over 2^depth - 1, not 255 x 4 (510)
}

TEST(Alarms, ShareAtOrBelowCountsTheThresholdBin) {
    std::vector<uint32_t> h(256, 0);
    h[37] = 98;
    h[38] = 2;
    EXPECT_DOUBLE_EQ(shareAtOrBelow(h, 37), 0.98);
    EXPECT_DOUBLE_EQ(shareAtOrBelow(h, 36), 0.0);
    EXPECT_DOUBLE_EQ(shareAtOrBelow(std::vector<uint32_t>(256, 0), 37), 0.0);
}

TEST(Alarms, MafdOfLumaOverFullScale) {
    Frame a(PixelFormat::Yuv420p, 16, 8), b(PixelFormat::Yuv420p, 16, 8);
    a.fill(100, 128, 128);
    b.fill(100, 128, 128);
    EXPECT_DOUBLE_EQ(*lumaMafd(a.view(), b.view()), 0.0);
    b.setPixel(3, 2, 151, 128, 128);   // one sample 51 codes away: 51 / 256 / 128 pixels (freezedetect: over 2^depth)
    EXPECT_NEAR(*lumaMafd(a.view(), b.view()), 51.0 / 256.0 / 128.0, 1e-12);
    Frame c(PixelFormat::Yuv420p10, 16, 8), d(PixelFormat::Yuv420p10, 16, 8);
    c.fill(64, 512, 512);
    d.fill(1023, 512, 512);
    EXPECT_NEAR(*lumaMafd(c.view(), d.view()), (1023.0 - 64.0) / 1024.0, 1e-12);
    EXPECT_FALSE(lumaMafd(a.view(), c.view()));   // formats differ
}

TEST(Alarms, BlackNeedsItsDuration) {
    AlarmTracker t;
    std::vector<AlarmEvent> ev;
    AlarmMeasure black;
    black.blackShare = 0.99;
    for (int i = 0; i < 60; ++i) t.frame(i / 30.0, black, ev);   // 1.97 s of black
    EXPECT_TRUE(ev.empty());
    EXPECT_FALSE(t.active(AlarmKind::Black));
    t.frame(2.0, black, ev);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_TRUE(ev[0].start);
    EXPECT_EQ(ev[0].kind, AlarmKind::Black);
    EXPECT_DOUBLE_EQ(ev[0].since, 0.0);
    EXPECT_EQ(t.activeText(), "black");
    AlarmMeasure picture;
    picture.blackShare = 0.5;
    t.frame(2.5, picture, ev);
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_FALSE(ev[1].start);
    EXPECT_FALSE(t.anyActive());
}

TEST(Alarms, FrozenFromMafdAndNotFromMotion) {
    AlarmTracker t;
    std::vector<AlarmEvent> ev;
    AlarmMeasure moving;
    moving.mafd = 0.02;
    for (int i = 0; i < 200; ++i) t.frame(i / 30.0, moving, ev);
    EXPECT_TRUE(ev.empty());
    AlarmMeasure still;
    still.mafd = 0.0005;
    for (int i = 200; i < 300; ++i) t.frame(i / 30.0, still, ev);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind, AlarmKind::Frozen);
    EXPECT_NEAR(ev[0].since, 200 / 30.0, 1e-9);
    // No previous frame: the freeze rule is not decided either way.
    AlarmMeasure first;
    t.frame(11.0, first, ev);
    EXPECT_TRUE(t.active(AlarmKind::Frozen));
}

TEST(Alarms, SignalAndRestart) {
    AlarmTracker t;
    std::vector<AlarmEvent> ev;
    t.signal(1.0, true, "udp://x: no data for 2 s", ev);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].detail, "udp://x: no data for 2 s");
    AlarmMeasure black;
    black.blackShare = 1.0;
    t.frame(1.0, black, ev);
    t.frame(3.5, black, ev);
    EXPECT_TRUE(t.active(AlarmKind::Black));
    t.restart(4.0, ev);
    EXPECT_FALSE(t.active(AlarmKind::Black));
    EXPECT_TRUE(t.active(AlarmKind::Signal));   // the signal is the reader's, not the picture's
    t.signal(5.0, false, "", ev);
    EXPECT_FALSE(t.anyActive());
}
