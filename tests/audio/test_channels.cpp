// Channel labels from FFmpeg's layouts, and the BS.1770-4 channel weights through libebur128:
// the LFE left out, the surrounds (+-90..120 degrees) +1.5 dB, the rears (+-135) 0 dB.
#include <gtest/gtest.h>

#include "AudioTestUtil.h"
#include "audio/ChannelLayout.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

namespace cs::audio::test {
namespace {

using Labels = std::vector<std::string>;

TEST(ChannelLayout, BroadcastLabels) {
    const ChannelLayoutInfo mono = layoutOf(AV_CH_LAYOUT_MONO), stereo = layoutOf(AV_CH_LAYOUT_STEREO),
                            s51 = layoutOf(AV_CH_LAYOUT_5POINT1), s51b = layoutOf(AV_CH_LAYOUT_5POINT1_BACK),
                            s71 = layoutOf(AV_CH_LAYOUT_7POINT1);
    EXPECT_EQ(mono.labels, Labels{"M"});
    EXPECT_EQ(stereo.labels, (Labels{"L", "R"}));
    EXPECT_EQ(s51.labels, (Labels{"L", "R", "C", "LFE", "Ls", "Rs"}));
    EXPECT_EQ(s51b.labels, (Labels{"L", "R", "C", "LFE", "Ls", "Rs"}));
    EXPECT_EQ(s71.labels, (Labels{"L", "R", "C", "LFE", "Lrs", "Rrs", "Lss", "Rss"}));
    EXPECT_EQ(s51.name, "5.1(side)");
    EXPECT_EQ(s51.pairLeft, 0);
    EXPECT_EQ(s51.pairRight, 1);
}

TEST(ChannelLayout, DiscreteChannelsAreNumbered) {
    AVChannelLayout l{};
    av_channel_layout_default(&l, 16);
    l.order = AV_CHANNEL_ORDER_UNSPEC;   // 16-channel PCM with no positions
    const ChannelLayoutInfo info = describeLayout(l);
    ASSERT_EQ(info.channels(), 16);
    EXPECT_EQ(info.labels.front(), "1");
    EXPECT_EQ(info.labels.back(), "16");
    EXPECT_EQ(info.pairLeft, 0);
    EXPECT_EQ(info.pairRight, 1);
}

double integrated(const ChannelLayoutInfo& info, std::vector<int> channels, double dbfs) {
    Signal s(info.channels());
    s.sine(10, dbfs, 1000, std::move(channels));
    auto m = AudioMeter::make(48000, info);
    EXPECT_TRUE(m.ok());
    feed(**m, s);
    return (*m)->summary().integrated;
}

TEST(ChannelWeights, LfeIsLeftOut) {
    const ChannelLayoutInfo info = layoutOf(AV_CH_LAYOUT_5POINT1);
    // L and R at -23 dBFS read -23 LUFS, with or without a loud LFE.
    Signal s(6);
    s.sine(10, -23, 1000, {0, 1});
    Signal lfe(6);
    lfe.sine(10, -3, 60, {3});
    for (size_t i = 0; i < s.frames(); ++i) s.planes[3][i] = lfe.planes[3][i];
    auto m = AudioMeter::make(48000, info);
    ASSERT_TRUE(m.ok());
    feed(**m, s);
    EXPECT_NEAR((*m)->summary().integrated, -23.0, 0.1);
    // The LFE alone is below the absolute gate: nothing measured.
    EXPECT_LT(integrated(info, {3}, -3), -70);
}

TEST(ChannelWeights, SurroundsAreOnePointFiveDbUp) {
    const ChannelLayoutInfo info = layoutOf(AV_CH_LAYOUT_5POINT1);
    const double left = integrated(info, {0}, -20), ls = integrated(info, {4}, -20), rs = integrated(info, {5}, -20);
    EXPECT_NEAR(left, -20 - 3.01, 0.1);          // one channel of a sine: half the power of two
    EXPECT_NEAR(ls - left, 10 * std::log10(1.41), 0.02);
    EXPECT_NEAR(rs - left, 10 * std::log10(1.41), 0.02);
    // The same in 5.1 with FFmpeg's back channels.
    EXPECT_NEAR(integrated(layoutOf(AV_CH_LAYOUT_5POINT1_BACK), {4}, -20) - left, 1.49, 0.02);
}

TEST(ChannelWeights, SevenOneSidesWeightedRearsNot) {
    const ChannelLayoutInfo info = layoutOf(AV_CH_LAYOUT_7POINT1);   // L R C LFE BL BR SL SR
    const double left = integrated(info, {0}, -20);
    EXPECT_NEAR(integrated(info, {6}, -20) - left, 1.49, 0.02);   // side: +-90 degrees
    EXPECT_NEAR(integrated(info, {4}, -20) - left, 0.0, 0.02);    // back: +-135 degrees
}

}  // namespace
}  // namespace cs::audio::test
