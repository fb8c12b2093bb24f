// Listening (audio/Listen.h): the channel choice and BS.775 downmix with known values, the
// audio clock's mapping to the frame on screen, and what the feed sends to the sink measured
// on tones made with the ffmpeg CLI (level, frequency, where it starts).
#include <gtest/gtest.h>

#include <cmath>

#include "AudioTestUtil.h"
#include "audio/Listen.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

namespace cs::audio::test {
namespace {

// One sample frame of each channel through the matrix: {left, right}.
std::pair<float, float> mixOne(const ChannelLayoutInfo& layout, ListenChoice choice, std::vector<float> in, float gain = 1.0f) {
    std::vector<const float*> planes;
    for (const float& v : in) planes.push_back(&v);
    float out[2];
    mixToStereo(planes.data(), 1, listenMatrix(layout, choice), gain, out);
    return {out[0], out[1]};
}

TEST(Listen, DownmixOf51IsBs775WithoutTheLfe) {
    const ChannelLayoutInfo l = layoutOf(AV_CH_LAYOUT_5POINT1);   // L R C LFE Ls Rs
    // L 0.5, C 0.25: Lo = 0.5 + 0.7071 * 0.25, Ro = 0.7071 * 0.25.
    auto [lo, ro] = mixOne(l, {}, {0.5f, 0.0f, 0.25f, 0.0f, 0.0f, 0.0f});
    EXPECT_NEAR(lo, 0.676777f, 1e-5);
    EXPECT_NEAR(ro, 0.176777f, 1e-5);
    // The LFE at full scale changes nothing.
    auto [lo2, ro2] = mixOne(l, {}, {0.5f, 0.0f, 0.25f, 1.0f, 0.0f, 0.0f});
    EXPECT_EQ(lo2, lo);
    EXPECT_EQ(ro2, ro);
    // Each surround goes to its own side at -3 dB.
    auto [ls, rs] = mixOne(l, {}, {0.0f, 0.0f, 0.0f, 0.0f, 0.4f, 0.2f});
    EXPECT_NEAR(ls, 0.4f * 0.70710678f, 1e-6);
    EXPECT_NEAR(rs, 0.2f * 0.70710678f, 1e-6);
    // The example: L 1, R 0, C 0.5: Lo = 1.354 clipped to full scale, Ro = 0.354.
    auto [lo3, ro3] = mixOne(l, {}, {1.0f, 0.0f, 0.5f, 0.0f, 0.0f, 0.0f});
    EXPECT_EQ(lo3, 1.0f);
    EXPECT_NEAR(ro3, 0.353553f, 1e-5);
}

TEST(Listen, PairsAndSoloPickTheirChannels) {
    const ChannelLayoutInfo l = layoutOf(AV_CH_LAYOUT_5POINT1);
    const std::vector<float> in{0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    auto [a, b] = mixOne(l, {ListenMode::Pair, 2}, in);   // 3-4: C and the LFE
    EXPECT_EQ(a, 0.3f);
    EXPECT_EQ(b, 0.4f);
    for (int c = 0; c < 6; ++c) {   // solo: exactly that channel, on both sides
        auto [x, y] = mixOne(l, {ListenMode::Solo, c}, in);
        EXPECT_EQ(x, in[size_t(c)]) << c;
        EXPECT_EQ(y, in[size_t(c)]) << c;
        const StereoMatrix m = listenMatrix(l, {ListenMode::Solo, c});
        for (int k = 0; k < 6; ++k) EXPECT_EQ(m.left[size_t(k)] != 0.0f, k == c) << c << " " << k;
    }
    // Mono: the downmix is the channel on both sides at full level; the gain scales.
    auto [m1, m2] = mixOne(layoutOf(AV_CH_LAYOUT_MONO), {}, {0.5f}, 0.5f);
    EXPECT_EQ(m1, 0.25f);
    EXPECT_EQ(m2, 0.25f);
    // A choice the stream does not have is the downmix.
    EXPECT_EQ(fitListenChoice({ListenMode::Pair, 2}, 2), ListenChoice{});
    EXPECT_EQ(fitListenChoice({ListenMode::Solo, 1}, 2), (ListenChoice{ListenMode::Solo, 1}));
}

TEST(Listen, ChoicesByNameAndInTheMenu) {
    EXPECT_EQ(listenChoiceName({ListenMode::Pair, 2}), "pair:3");
    EXPECT_EQ(parseListenChoice("pair:3"), (ListenChoice{ListenMode::Pair, 2}));
    EXPECT_EQ(parseListenChoice("solo:16"), (ListenChoice{ListenMode::Solo, 15}));
    EXPECT_EQ(parseListenChoice("downmix"), ListenChoice{});
    for (const char* bad : {"pair:2", "solo:0", "solo:17", "pair:", "solo:1x", "stereo", ""}) EXPECT_FALSE(parseListenChoice(bad)) << bad;
    const auto options = listenOptions(layoutOf(AV_CH_LAYOUT_5POINT1));
    ASSERT_EQ(options.size(), 1u + 3u + 6u);
    EXPECT_EQ(options[0].text, "Downmix (L R C Ls Rs, no LFE)");
    EXPECT_EQ(options[2].text, "3-4 (C LFE)");
    EXPECT_EQ(options[4].text, "1 L solo");
}

TEST(Listen, ClockMapsThePlayedPositionToTheFrameOnScreen) {
    // Sound started at 10 s, 0.5 s played, 20 ms still ahead of the ear: 10.48 s is heard.
    EXPECT_DOUBLE_EQ(heardPosition(10.0, 0.5, 0.02), 10.48);
    EXPECT_DOUBLE_EQ(heardPosition(10.0, 0.01, 0.02), 10.0);   // nothing heard yet: the start
    EXPECT_EQ(frameAtPosition(10.48, 0.0, 25.0), 262);         // 10.48 s is frame 262 (10.48 .. 10.52)
    EXPECT_EQ(frameAtPosition(10.52, 0.0, 25.0), 263);         // on a boundary: the frame that starts there
    EXPECT_EQ(frameAtPosition(10.5199, 0.0, 25.0), 262);
    EXPECT_EQ(frameAtPosition(-0.01, 0.0, 25.0), -1);
    // 29.97 fps from a first pts of 1.001 s: frame 30 starts at 1.001 + 30 * 1001 / 30000 = 2.002 s.
    EXPECT_EQ(frameAtPosition(2.002, 1.001, 30000.0 / 1001.0), 30);
    EXPECT_EQ(frameAtPosition(2.0019, 1.001, 30000.0 / 1001.0), 29);
}

struct Measured {
    double rms[2] = {0, 0};
    double hz = 0;              // from the left side's upward zero crossings
    int64_t firstSound = -1;    // the first frame with |left| > 0.01
};

Measured measure(const std::vector<float>& stereo, int rate) {
    Measured m;
    const size_t n = stereo.size() / 2;
    int64_t firstUp = -1, lastUp = -1, ups = 0;
    for (size_t i = 0; i < n; ++i) {
        m.rms[0] += double(stereo[2 * i]) * stereo[2 * i];
        m.rms[1] += double(stereo[2 * i + 1]) * stereo[2 * i + 1];
        if (m.firstSound < 0 && std::fabs(stereo[2 * i]) > 0.01f) m.firstSound = int64_t(i);
        if (i > 0 && stereo[2 * (i - 1)] < 0 && stereo[2 * i] >= 0) {
            if (firstUp < 0) firstUp = int64_t(i);
            lastUp = int64_t(i);
            ++ups;
        }
    }
    for (double& r : m.rms) r = std::sqrt(r / double(n));
    if (ups > 1) m.hz = double(ups - 1) * rate / double(lastUp - firstUp);
    return m;
}

std::vector<float> produceAll(ListenFeed& feed, size_t chunk = 1000) {
    std::vector<float> out, buf(2 * chunk);
    while (size_t n = feed.produce(buf.data(), chunk)) out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(2 * n));
    return out;
}

TEST(ListenFeed, AToneComesOutAtItsLevelAndFrequency) {
    TempDir dir;
    const std::string clip = dir.file("tone.wav");
    // 1 s: L a 1 kHz sine at 0.5, R silent.
    ASSERT_TRUE(runFfmpeg("-f lavfi -i \"aevalsrc=exprs=0.5*sin(2*PI*1000*t)|0:s=48000:d=1\" -c:a pcm_f32le " + clip));
    auto feed = ListenFeed::open(clip);
    ASSERT_TRUE(feed.ok()) << feed.message();
    ASSERT_TRUE((*feed)->start(0.0));
    std::vector<float> out = produceAll(**feed);
    EXPECT_EQ(out.size(), 2u * 48000u);
    Measured m = measure(out, 48000);
    EXPECT_NEAR(m.rms[0], 0.5 / std::sqrt(2.0), 1e-3);   // -9.03 dBFS RMS
    EXPECT_LT(m.rms[1], 1e-6);
    EXPECT_NEAR(m.hz, 1000.0, 0.5);
    // Solo R: silence on both sides; at half gain solo L: half the level on both.
    (*feed)->setChoice({ListenMode::Solo, 0});
    (*feed)->setGain(0.5f);
    ASSERT_TRUE((*feed)->start(0.0));
    m = measure(produceAll(**feed), 48000);
    EXPECT_NEAR(m.rms[0], 0.25 / std::sqrt(2.0), 1e-3);
    EXPECT_NEAR(m.rms[1], 0.25 / std::sqrt(2.0), 1e-3);
}

TEST(ListenFeed, StartsAtTheSampleOfThePictureTime) {
    TempDir dir;
    const std::string clip = dir.file("burst.wav");
    // 5.1, silent until 1 s, then a 1 kHz tone at 0.5 in C only.
    ASSERT_TRUE(runFfmpeg("-f lavfi -i \"aevalsrc=exprs=0|0|if(gte(t\\,1)\\,0.5*sin(2*PI*1000*t)\\,0)|0|0|0:s=48000:d=2:c=5.1\" "
                          "-c:a pcm_f32le " + clip));
    auto feed = ListenFeed::open(clip);
    ASSERT_TRUE(feed.ok()) << feed.message();
    ASSERT_TRUE((*feed)->start(0.5));
    EXPECT_DOUBLE_EQ((*feed)->startPts(), 0.5);
    const std::vector<float> out = produceAll(**feed, 777);
    EXPECT_EQ(out.size(), 2u * 72000u);   // 0.5 .. 2 s
    // The tone begins 0.5 s (24000 samples) in; its first sample is sin(0) = 0, the next
    // above 0.01 a sample or two on.
    Measured m = measure(std::vector<float>(out.begin() + 2 * 24000, out.end()), 48000);
    EXPECT_EQ(measure(out, 48000).firstSound, 24000 + m.firstSound);
    EXPECT_LE(m.firstSound, 2);
    // C to both sides at -3 dB.
    EXPECT_NEAR(m.rms[0], 0.5 * 0.70710678 / std::sqrt(2.0), 1e-3);
    EXPECT_NEAR(m.rms[1], m.rms[0], 1e-6);
    EXPECT_NEAR(m.hz, 1000.0, 0.5);
}

}  // namespace
}  // namespace cs::audio::test
