// The decoder beside the picture and the per-frame timeline, on clips made with the ffmpeg
// CLI: streams listed, each video frame's interval holding its own audio, and bad audio
// (a late start, a layout change, damaged packets) read on with a warning naming its time.
#include <gtest/gtest.h>

#include <fstream>

#include "AudioTestUtil.h"
#include "audio/AudioTimeline.h"

namespace cs::audio::test {
namespace {

bool anyContains(const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

// A 2 s 25 fps picture with stereo audio that is silent until `toneAt` seconds, then a
// 1 kHz tone at -6 dBFS.
std::string burstClip(const TempDir& dir, double toneAt, const std::string& extra = "") {
    const std::string path = dir.file("burst.mkv");
    const std::string expr = "if(gte(t\\," + std::to_string(toneAt) + ")\\,0.5*sin(2*PI*1000*t)\\,0)";
    EXPECT_TRUE(runFfmpeg("-f lavfi -i testsrc=size=64x48:rate=25:duration=2 " + extra + " -f lavfi -i \"aevalsrc=exprs=" + expr +
                          "|" + expr + ":s=48000:d=2\" -map 0:v -map 1:a -c:v mpeg4 -c:a pcm_s16le " + path));
    return path;
}

TEST(AudioTimeline, ToneStartingAtAFrameShowsInThatFrame) {
    TempDir dir;
    const std::string clip = burstClip(dir, 1.0);   // frame 25 at 25 fps
    auto t = AudioTimeline::open(clip, {});
    ASSERT_TRUE(t.ok()) << t.message();
    AudioTimeline& tl = **t;
    EXPECT_EQ(tl.info().sampleRate, 48000);
    EXPECT_EQ(tl.info().layout.labels, (std::vector<std::string>{"L", "R"}));
    for (int64_t i = 0; i < 50; ++i) {
        const IntervalLevels l = tl.measure(i, double(i) / 25, double(i + 1) / 25);
        ASSERT_EQ(l.samples, 1920) << "frame " << i;
        if (i < 25) {
            EXPECT_EQ(l.samplePeak[0], 0.0) << "frame " << i;
        } else {
            EXPECT_NEAR(amplitudeToDb(l.samplePeak[0]), -6.02, 0.05) << "frame " << i;
            EXPECT_NEAR(amplitudeToDb(l.truePeak[1]), -6.02, 0.1) << "frame " << i;
        }
    }
    tl.finish();
    EXPECT_TRUE(tl.takeWarnings().empty());
}

TEST(AudioTimeline, SeekReadsOnFromThere) {
    TempDir dir;
    const std::string clip = burstClip(dir, 1.0);
    auto t = AudioTimeline::open(clip, {});
    ASSERT_TRUE(t.ok()) << t.message();
    EXPECT_EQ((*t)->measure(0, 0.0, 0.04).samplePeak[0], 0.0);
    ASSERT_TRUE((*t)->seek(1.6).ok());
    const IntervalLevels l = (*t)->measure(40, 1.6, 1.64);
    EXPECT_EQ(l.samples, 1920);
    EXPECT_NEAR(amplitudeToDb(l.samplePeak[0]), -6.02, 0.05);
    EXPECT_EQ((*t)->pairSamples().size(), 1920u);   // under kPairPoints: every sample pair
    ASSERT_TRUE((*t)->seek(0.2).ok());              // back before the tone
    EXPECT_EQ((*t)->measure(5, 0.2, 0.24).samplePeak[0], 0.0);
    EXPECT_TRUE((*t)->takeWarnings().empty());
}

TEST(AudioTimeline, LateAudioLeavesTheFirstFramesWithoutAudioAndWarns) {
    TempDir dir;
    const std::string clip = burstClip(dir, 0.0, "-itsoffset 0.5");
    auto t = AudioTimeline::open(clip, {});
    ASSERT_TRUE(t.ok()) << t.message();
    AudioTimeline& tl = **t;
    EXPECT_EQ(tl.measure(0, 0.0, 0.04).samples, 0);
    EXPECT_EQ(tl.measure(11, 0.44, 0.48).samples, 0);
    const IntervalLevels at = tl.measure(12, 0.48, 0.52);   // audio from 0.5 s: half this frame
    EXPECT_EQ(at.samples, 960);
    EXPECT_GT(tl.measure(13, 0.52, 0.56).samplePeak[0], 0.4);
    const auto w = tl.takeWarnings();
    EXPECT_TRUE(anyContains(w, "audio at 0.500 s: the audio starts 0.500 s after the picture")) << joined(w);
}

TEST(AudioSource, ListsEveryAudioStream) {
    TempDir dir;
    const std::string path = dir.file("two.mkv");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i testsrc=size=64x48:rate=25:duration=1 -f lavfi -i sine=f=440:d=1:sample_rate=44100 "
                          "-f lavfi -i sine=f=1000:d=1:sample_rate=48000 -map 0:v -map 1:a -map 2:a -c:v mpeg4 "
                          "-c:a:0 aac -ac:a:0 2 -c:a:1 pcm_s24le -filter:a:1 \"pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0\" "
                          "-metadata:s:a:0 language=eng -metadata:s:a:1 language=fre " + path));
    auto list = listAudioStreams(path);
    ASSERT_TRUE(list.ok()) << list.message();
    ASSERT_EQ(list->size(), 2u);
    const AudioStreamInfo& a = (*list)[0];
    const AudioStreamInfo& b = (*list)[1];
    EXPECT_EQ(a.index, 1);
    EXPECT_EQ(a.codec, "aac");
    EXPECT_EQ(a.sampleRate, 44100);
    EXPECT_EQ(a.layout.name, "stereo");
    EXPECT_EQ(a.bitDepth, 0);   // lossy
    EXPECT_EQ(a.language, "eng");
    EXPECT_EQ(b.codec, "pcm_s24le");
    EXPECT_EQ(b.sampleRate, 48000);
    EXPECT_EQ(b.layout.name, "5.1 (assumed)");   // Matroska's PCM carries a count only
    EXPECT_EQ(b.layout.labels, (std::vector<std::string>{"L", "R", "C", "LFE", "Ls", "Rs"}));
    EXPECT_EQ(b.bitDepth, 24);
    EXPECT_EQ(b.language, "fre");
}

TEST(AudioSource, NoAudioIsAnErrorNamingTheInput) {
    TempDir dir;
    const std::string path = dir.file("silent.mkv");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i testsrc=size=64x48:rate=25:duration=1 -c:v mpeg4 " + path));
    auto s = AudioSource::open(path);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), path + ": has no audio stream");
    auto missing = AudioSource::open(dir.file("nope.wav"));
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.message().find("nope.wav: cannot be opened"), std::string::npos) << missing.message();
}

TEST(AudioSource, MoreThanSixteenChannelsIsRefused) {
    TempDir dir;
    const std::string path = dir.file("many.wav");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i sine=d=0.2 -af \"pan=24c|c0=c0\" -c:a pcm_s16le " + path));
    auto s = AudioSource::open(path);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("has 24 channels; cudascope meters 1 to 16"), std::string::npos) << s.message();
}

TEST(AudioSource, SixteenChannelPcmIsRead) {
    TempDir dir;
    const std::string path = dir.file("sixteen.wav");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i sine=d=0.5:sample_rate=48000 -af \"pan=16c|c15=c0\" -c:a pcm_s24le " + path));
    auto t = AudioTimeline::open(path, {});
    ASSERT_TRUE(t.ok()) << t.message();
    const IntervalLevels l = (*t)->measure(0, 0.0, 0.5);
    ASSERT_EQ(l.samplePeak.size(), 16u);
    EXPECT_EQ(l.samplePeak[0], 0.0);
    EXPECT_NEAR(amplitudeToDb(l.samplePeak[15]), -18.06, 0.05);   // the sine source's 1/8
}

TEST(AudioSource, LayoutChangeMidStreamIsConvertedAndWarned) {
    TempDir dir;
    const std::string a = dir.file("a.ts"), b = dir.file("b.ts");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i sine=f=1000:d=2:sample_rate=48000 -ac 2 -c:a aac -f mpegts " + a));
    ASSERT_TRUE(runFfmpeg("-f lavfi -i sine=f=1000:d=2:sample_rate=48000 -af \"pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0\" "
                          "-c:a aac -output_ts_offset 2 -f mpegts " + b));
    auto t = AudioTimeline::open("concat:" + a + "|" + b, {});
    ASSERT_TRUE(t.ok()) << t.message();
    AudioTimeline& tl = **t;
    double peakAfter = 0;
    for (int64_t i = 0; i < 100; ++i) {
        const IntervalLevels l = tl.measure(i, i * 0.04, (i + 1) * 0.04);
        ASSERT_EQ(l.samplePeak.size(), 2u);
        if (i > 60 && i < 90) peakAfter = std::max(peakAfter, l.samplePeak[0]);
    }
    tl.finish();
    EXPECT_GT(peakAfter, 0.05);   // the 5.1 part is heard, downmixed to stereo
    const auto w = tl.takeWarnings();
    EXPECT_TRUE(anyContains(w, "channel layout changed from stereo to 5.1(side); converted to stereo") ||
                anyContains(w, "channel layout changed from stereo to 5.1; converted to stereo"))
        << joined(w);
}

TEST(AudioSource, DamagedPacketsAreWarningsAndReadingGoesOn) {
    TempDir dir;
    const std::string path = dir.file("damaged.ts");
    ASSERT_TRUE(runFfmpeg("-f lavfi -i sine=f=1000:d=4:sample_rate=48000 -ac 2 -c:a mp2 -f mpegts " + path));
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(0, std::ios::end);
        const auto size = int64_t(f.tellg());
        for (int64_t at = size / 3; at < size / 3 + 188 * 40; at += 188) {   // payloads of 40 TS packets
            f.seekp(at + 20);
            const std::string junk(150, '\x5a');
            f.write(junk.data(), std::streamsize(junk.size()));
        }
    }
    auto t = AudioTimeline::open(path, {});
    ASSERT_TRUE(t.ok()) << t.message();
    int64_t samples = 0;
    for (int64_t i = 0; i < 100; ++i) samples += (*t)->measure(i, i * 0.04, (i + 1) * 0.04).samples;
    (*t)->finish();
    const auto w = (*t)->takeWarnings();
    EXPECT_FALSE(w.empty());
    EXPECT_TRUE(anyContains(w, ": audio at ")) << joined(w);
    EXPECT_GT(samples, 48000 * 3);   // what was not damaged is read
}

}  // namespace
}  // namespace cs::audio::test
