// EBU Tech 3342 (v4), "Loudness Range: a measure to supplement EBU R 128 loudness
// normalisation": its test signals (stereo 1 kHz sines, level in dBFS as peak amplitude),
// and the loudness range each must read, within +-1 LU.
#include <gtest/gtest.h>

#include <ebur128.h>

#include <random>

#include "AudioTestUtil.h"
#include "audio/ChannelLayout.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

#include <cmath>

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

// The meter's range (from its own short-term values, audio/AudioMeter.h) against libebur128's
// EBUR128_MODE_LRA on the same samples: noise stepping through levels, 44.1 kHz, 5.1.
TEST(Tech3342, EqualsLibebur128sRange) {
    const int rate = 44100;
    Signal s(6, rate);
    std::mt19937 rng(3);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    for (double level : {-20.0, -34.0, -26.0, -45.0, -18.0, -30.0}) {
        const size_t start = s.frames(), n = size_t(7.3 * rate);
        for (auto& p : s.planes) p.resize(start + n);
        const float a = float(std::pow(10.0, level / 20.0));
        for (auto& p : s.planes)
            for (size_t i = start; i < start + n; ++i) p[i] = a * noise(rng);
    }
    const ChannelLayoutInfo layout = layoutOf(AV_CH_LAYOUT_5POINT1);
    auto m = AudioMeter::make(rate, layout);
    ASSERT_TRUE(m.ok());
    feed(**m, s, 1764);
    ebur128_state* st = ebur128_init(6, rate, EBUR128_MODE_LRA | EBUR128_MODE_HISTOGRAM);
    ASSERT_NE(st, nullptr);   // its default map for 6 channels is 5.1 with the LFE unused
    std::vector<float> interleaved(s.frames() * 6);
    for (size_t i = 0; i < s.frames(); ++i)
        for (size_t c = 0; c < 6; ++c) interleaved[i * 6 + c] = s.planes[c][i];
    ebur128_add_frames_float(st, interleaved.data(), s.frames());
    double theirs = 0;
    ebur128_loudness_range(st, &theirs);
    ebur128_destroy(&st);
    EXPECT_GT(theirs, 5.0);
    EXPECT_NEAR((*m)->summary().range, theirs, 0.1);
}

}  // namespace
}  // namespace cs::audio::test
