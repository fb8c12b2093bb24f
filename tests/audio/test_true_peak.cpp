// audio/TruePeak against libebur128's own true peak (EBUR128_MODE_TRUE_PEAK) on the same
// samples: the same interpolator, so the same readings to float rounding, at 44.1, 48, 96 kHz
// and in pieces of any size.
#include <gtest/gtest.h>

#include <ebur128.h>

#include <random>

#include "AudioTestUtil.h"
#include "audio/TruePeak.h"

namespace cs::audio::test {
namespace {

void compareWithLibebur128(int rate, int channels, size_t piece) {
    std::mt19937 rng(uint32_t(rate + channels));
    std::normal_distribution<float> noise(0.0f, 0.2f);
    const size_t frames = size_t(rate) * 2;
    std::vector<std::vector<float>> planes(static_cast<size_t>(channels), std::vector<float>(frames));
    for (auto& p : planes)
        for (float& x : p) x = std::clamp(noise(rng), -1.0f, 1.0f);
    Signal tone(channels, rate);   // and an inter-sample crest: a quarter-rate sine off its crests
    tone.sine(0.1, -3.0, rate / 4.0, {}, M_PI / 4);
    for (int c = 0; c < channels; ++c)
        std::copy(tone.planes[size_t(c)].begin(), tone.planes[size_t(c)].end(), planes[size_t(c)].begin() + ptrdiff_t(frames / 2));

    ebur128_state* st = ebur128_init(unsigned(channels), static_cast<unsigned long>(rate), EBUR128_MODE_TRUE_PEAK);
    ASSERT_NE(st, nullptr);
    std::vector<float> interleaved(frames * size_t(channels));
    for (size_t i = 0; i < frames; ++i)
        for (int c = 0; c < channels; ++c) interleaved[i * size_t(channels) + size_t(c)] = planes[size_t(c)][i];
    ebur128_add_frames_float(st, interleaved.data(), frames);

    TruePeak ours(channels, rate);
    std::vector<double> sp(size_t(channels), 0.0), tp(size_t(channels), 0.0);
    std::vector<const float*> at(static_cast<size_t>(channels));
    for (size_t done = 0; done < frames; done += piece) {
        for (int c = 0; c < channels; ++c) at[size_t(c)] = planes[size_t(c)].data() + done;
        ours.add(at.data(), std::min(piece, frames - done), sp.data(), tp.data());
    }
    for (int c = 0; c < channels; ++c) {
        double theirs = 0, theirsSample = 0;
        ebur128_true_peak(st, unsigned(c), &theirs);
        ebur128_sample_peak(st, unsigned(c), &theirsSample);
        EXPECT_NEAR(amplitudeToDb(tp[size_t(c)]), amplitudeToDb(std::max(theirs, theirsSample)), 0.001) << "channel " << c;
        EXPECT_DOUBLE_EQ(sp[size_t(c)], theirsSample);
    }
    ebur128_destroy(&st);
}

TEST(TruePeak, EqualsLibebur128At48k) { compareWithLibebur128(48000, 2, 1920); }
TEST(TruePeak, EqualsLibebur128At44k1InOddPieces) { compareWithLibebur128(44100, 6, 333); }
TEST(TruePeak, EqualsLibebur128At96k) { compareWithLibebur128(96000, 2, 4096); }

}  // namespace
}  // namespace cs::audio::test
