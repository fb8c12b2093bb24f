// qc's sample-exact audio detectors on signals made here: silence as FFmpeg's silencedetect
// defines it (every channel under -60 dB for 2 s), a silent channel beside live ones, and
// clipping (runs of full-scale samples).
#include <gtest/gtest.h>

#include "AudioTestUtil.h"
#include "audio/AudioDetectors.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

namespace cs::audio::test {
namespace {

std::vector<AudioEvent> detect(const Signal& s, AudioDetectRules rules = {}, size_t block = 1920) {
    AVChannelLayout l{};
    av_channel_layout_default(&l, int(s.planes.size()));
    AudioDetectors d(rules, s.rate, describeLayout(l));
    std::vector<const float*> planes(s.planes.size());
    int64_t frame = 0;
    for (size_t done = 0; done < s.frames(); done += block, ++frame) {
        const size_t n = std::min(block, s.frames() - done);
        for (size_t c = 0; c < planes.size(); ++c) planes[c] = s.planes[c].data() + done;
        d.setFrame(frame);
        d.add(planes.data(), int64_t(done), n);
    }
    d.finish();
    return d.takeEvents();
}

TEST(Silence, TwoSecondsUnderMinus60DbIsAnEvent) {
    Signal s(2);
    s.sine(1, -20);
    s.silence(3);
    s.sine(1, -20);
    const auto events = detect(s);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].type, "silence");
    EXPECT_EQ(events[0].start, 48000);     // the sine's last sample is above -60 dB
    EXPECT_EQ(events[0].end, 4 * 48000 + 1);   // the next sine starts at 0: one more quiet sample
    EXPECT_EQ(events[0].firstFrame, 25);   // the 40 ms block that starts at 1.0 s
    EXPECT_EQ(events[0].lastFrame, 100);   // the block that starts at 4.0 s
}

TEST(Silence, ShorterThanTheDurationIsNot) {
    Signal s(2);
    s.sine(1, -20);
    s.silence(1.9);
    s.sine(1, -20);
    EXPECT_TRUE(detect(s).empty());
}

TEST(Silence, NoiseJustUnderTheThresholdIsSilence) {
    Signal quiet(1), loud(1);
    quiet.sine(3, -60.5, 440);
    loud.sine(3, -59.5, 440);
    EXPECT_EQ(detect(quiet).size(), 1u);
    EXPECT_TRUE(detect(loud).empty());
}

TEST(Silence, TrailingSilenceEndsAtTheEnd) {
    Signal s(2);
    s.sine(1, -20);
    s.silence(2.5);
    const auto events = detect(s);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].end, int64_t(3.5 * 48000));
}

TEST(SilentChannel, OneChannelDroppedWhileTheOtherPlays) {
    Signal s(2);
    s.sine(1, -20);
    Signal left(2);
    left.sine(3, -20, 1000, {0});   // R silent for 3 s
    for (auto c = 0; c < 2; ++c) s.planes[size_t(c)].insert(s.planes[size_t(c)].end(), left.planes[size_t(c)].begin(), left.planes[size_t(c)].end());
    s.sine(1, -20);
    const auto events = detect(s);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].type, "silent_channel");
    EXPECT_EQ(events[0].channel, 1);
    EXPECT_EQ(events[0].label, "R");
    EXPECT_NEAR(double(events[0].start) / 48000, 1.0, 0.001);
    EXPECT_NEAR(double(events[0].end) / 48000, 4.0, 0.001);
}

TEST(SilentChannel, SilenceOfEveryChannelIsNotASilentChannel) {
    Signal s(2);
    s.sine(1, -20);
    s.silence(3);
    for (const auto& e : detect(s)) EXPECT_NE(e.type, "silent_channel");
}

TEST(Clipping, RunsOfFullScaleSamplesMergeIntoOneEvent) {
    Signal s(2);
    s.sine(1, -20);
    s.sine(0.5, +6);   // twice full scale: clipped below
    s.sine(2, -20);
    for (auto& p : s.planes)
        for (float& x : p) x = std::clamp(x, -1.0f, 1.0f);
    const auto events = detect(s);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].type, "clipping");
    EXPECT_NEAR(double(events[0].start) / 48000, 1.0, 0.001);
    EXPECT_NEAR(double(events[0].end) / 48000, 1.5, 0.001);
    EXPECT_EQ(events[0].runs, 2 * 2 * 500);   // two channels, a positive and a negative crest per 1 kHz cycle
    EXPECT_GT(events[0].samples, 20000);
}

TEST(Clipping, TwoFullScaleSamplesAreNotARun) {
    Signal s(1);
    s.sine(1, -20);
    s.planes[0][1000] = s.planes[0][1001] = 1.0f;
    EXPECT_TRUE(detect(s).empty());
    s.planes[0][1002] = 1.0f;
    const auto events = detect(s);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].start, 1000);
    EXPECT_EQ(events[0].end, 1003);
}

}  // namespace
}  // namespace cs::audio::test
