// EBU Tech 3342 (v4), "Loudness Range: a measure to supplement EBU R 128 loudness
// normalisation": its test signals (stereo 1 kHz sines, level in dBFS as peak amplitude),
// and the loudness range each must read, within +-1 LU.
#include <gtest/gtest.h>

#include "AudioTestUtil.h"
#include "audio/ChannelLayout.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

namespace cs::audio::test {
namespace {

double lraOf(const std::vector<double>& levels, double seconds = 20) {
    Signal s(2);
    for (double l : levels) s.sine(seconds, l);
    auto m = AudioMeter::make(48000, layoutOf(AV_CH_LAYOUT_STEREO));
    EXPECT_TRUE(m.ok());
    feed(**m, s, 4800);
    return (*m)->summary().range;
}

TEST(Tech3342, Case1Minus20ThenMinus30Is10) { EXPECT_NEAR(lraOf({-20, -30}), 10, 1); }
TEST(Tech3342, Case2Minus20ThenMinus15Is5) { EXPECT_NEAR(lraOf({-20, -15}), 5, 1); }
TEST(Tech3342, Case3Minus40ThenMinus20Is20) { EXPECT_NEAR(lraOf({-40, -20}), 20, 1); }
TEST(Tech3342, Case4FiveStepsIs15) { EXPECT_NEAR(lraOf({-50, -35, -20, -35, -50}), 15, 1); }

}  // namespace
}  // namespace cs::audio::test
