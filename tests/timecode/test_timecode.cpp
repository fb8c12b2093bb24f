// Source timecode: labels written and read by libavutil, drop-frame across minute boundaries,
// SMPTE 12M words (H.264/HEVC time-code SEI as FFmpeg exports them) and MPEG-2 GOP words,
// the per-frame reader on AVFrames with side data attached, and breaks.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/timecode.h>
}

#include "timecode/Timecode.h"
#include "timecode/TimecodeReader.h"

using namespace cs;

namespace {

const TimecodeRate k25{25, 1};
const TimecodeRate k2997{30000, 1001};
const TimecodeRate k5994{60000, 1001};

Timecode parsed(const char* text, TimecodeRate rate) {
    auto t = parseTimecode(text, rate);
    EXPECT_TRUE(t.ok()) << t.message();
    return t ? *t : Timecode{};
}

struct FrameFree {
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
using Frame = std::unique_ptr<AVFrame, FrameFree>;

Frame frameWithSmpte(uint32_t word) {
    Frame f(av_frame_alloc());
    AVFrameSideData* sd = av_frame_new_side_data(f.get(), AV_FRAME_DATA_S12M_TIMECODE, 4 * sizeof(uint32_t));
    EXPECT_NE(sd, nullptr);
    const uint32_t words[4] = {1, word, 0, 0};
    std::memcpy(sd->data, words, sizeof words);
    return f;
}

Frame frameWithGop(int64_t gop) {
    Frame f(av_frame_alloc());
    AVFrameSideData* sd = av_frame_new_side_data(f.get(), AV_FRAME_DATA_GOP_TIMECODE, sizeof(int64_t));
    EXPECT_NE(sd, nullptr);
    std::memcpy(sd->data, &gop, sizeof gop);
    return f;
}

Frame plainFrame() { return Frame(av_frame_alloc()); }

}  // namespace

TEST(Timecode, ParsesAndWritesNonDropFrame) {
    const Timecode t = parsed("10:00:00:00", k25);
    EXPECT_EQ(t.fps, 25);
    EXPECT_FALSE(t.dropFrame);
    EXPECT_EQ(t.frames, 10 * 3600 * 25);
    EXPECT_EQ(t.text(), "10:00:00:00");
    EXPECT_EQ(t.plus(1).text(), "10:00:00:01");
    EXPECT_EQ(t.plus(25 * 60 + 24).text(), "10:01:00:24");
    EXPECT_EQ(t.plus(-1).text(), "09:59:59:24");
}

TEST(Timecode, DropFrameSkipsTwoLabelsAMinuteButEveryTenth) {
    const Timecode t = parsed("01:00:59;29", k2997);
    EXPECT_TRUE(t.dropFrame);
    EXPECT_EQ(t.text(), "01:00:59;29");
    EXPECT_EQ(t.plus(1).text(), "01:01:00;02");            // ;00 and ;01 do not exist at 01:01
    EXPECT_EQ(parsed("01:09:59;29", k2997).plus(1).text(), "01:10:00;00");   // every tenth minute keeps them
    // One hour of drop-frame is 107892 frames (30 * 3600 - 108 skipped), as libavutil counts it.
    EXPECT_EQ(parsed("01:00:00;00", k2997).frames - parsed("00:00:00;00", k2997).frames, 107892);
    EXPECT_EQ(parsed("01:00:00;00", k2997).plus(1800).text(), "01:01:00;02");
    // 59.94: four labels a minute.
    EXPECT_EQ(parsed("00:00:59;59", k5994).plus(1).text(), "00:01:00;04");
}

TEST(Timecode, WrapsAtTwentyFourHours) {
    EXPECT_EQ(parsed("23:59:59:24", k25).plus(1).text(), "00:00:00:00");
    EXPECT_EQ(parsed("23:59:59;29", k2997).plus(1).text(), "00:00:00;00");
    EXPECT_EQ(parsed("00:00:00:00", k25).framesPerDay(), 25 * 86400);
    EXPECT_EQ(parsed("00:00:00;00", k2997).framesPerDay(), 2589408);
}

TEST(Timecode, BadLabelsNameTheInputAndTheReason) {
    struct Case {
        const char* text;
        TimecodeRate rate;
        const char* reason;
    } cases[] = {
        {"10:00:00", k25, "not a timecode"},
        {"10:00:00:0a", k25, "not a timecode"},
        {"1:00:00:00", k25, "not a timecode"},
        {"10:00:00:25", k25, "frames run from 00 to 24"},
        {"10:60:00:00", k25, "minutes and seconds"},
        {"24:00:00:00", k25, "hours run from 00 to 23"},
        {"10:00:00;00", k25, "drop-frame timecode needs"},
        {"01:01:00;01", k2997, "drop-frame timecode skips this label"},
        {"10:00:00:00", TimecodeRate{}, "frame rate is unknown"},
    };
    for (const Case& c : cases) {
        auto t = parseTimecode(c.text, c.rate);
        ASSERT_FALSE(t.ok()) << c.text;
        EXPECT_EQ(t.message().rfind(c.text, 0), 0u) << t.message();
        EXPECT_NE(t.message().find(c.reason), std::string::npos) << t.message();
    }
    // The drop-frame separators libavutil accepts.
    EXPECT_EQ(parsed("01:00:00.00", k2997).text(), "01:00:00;00");
    EXPECT_EQ(parsed("01:00:00,00", k2997).text(), "01:00:00;00");
}

TEST(Timecode, SmpteWordsAsFFmpegWritesThem) {
    // av_timecode_get_smpte is what FFmpeg's encoders and decoders put in S12M side data.
    EXPECT_EQ(timecodeFromSmpte(av_timecode_get_smpte(AVRational{25, 1}, 0, 10, 0, 0, 0), k25)->text(), "10:00:00:00");
    EXPECT_EQ(timecodeFromSmpte(av_timecode_get_smpte(AVRational{30000, 1001}, 1, 1, 1, 0, 2), k2997)->text(),
              "01:01:00;02");
    // 50 fps: the word counts frame pairs, the field bit the odd one.
    EXPECT_EQ(timecodeFromSmpte(av_timecode_get_smpte(AVRational{50, 1}, 0, 0, 0, 1, 37), TimecodeRate{50, 1})->text(),
              "00:00:01:37");
    // Bit 30 at 25 fps is no drop-frame flag.
    const uint32_t flagged = av_timecode_get_smpte(AVRational{25, 1}, 0, 10, 0, 0, 3) | (1u << 30);
    EXPECT_EQ(timecodeFromSmpte(flagged, k25)->text(), "10:00:00:03");
}

TEST(Timecode, GopWords) {
    // The 25 bits of an MPEG-2 GOP header: drop flag, hours, minutes, marker, seconds, frames.
    const int64_t gop = (int64_t(10) << 19) | (int64_t(0) << 13) | (1 << 12) | (int64_t(5) << 6) | 7;
    EXPECT_EQ(timecodeFromGop(gop, k25)->text(), "10:00:05:07");
    const int64_t dropGop = (int64_t(1) << 24) | (int64_t(1) << 19) | (int64_t(1) << 13) | (1 << 12) | 2;
    EXPECT_EQ(timecodeFromGop(dropGop, k2997)->text(), "01:01:00;02");
}

TEST(Timecode, ElapsedFallback) {
    EXPECT_EQ(elapsedTimecode(0.0, 25.0).text(), "00:00:00:00");
    EXPECT_EQ(elapsedTimecode(3661.0 + 5.0 / 25.0, 25.0).text(), "01:01:01:05");
    EXPECT_EQ(elapsedTimecode(-1.0, 25.0).text(), "00:00:00:00");
    EXPECT_EQ(elapsedTimecode(10.0, 0.0).text(), "00:00:10:00");   // unknown rate: 25
    FrameTimecode none;
    const FrameTimecode e = timecodeOrElapsed(none, 4.0 + 2.0 / 25, 25.0);
    EXPECT_EQ(e.source, TimecodeSource::Elapsed);
    EXPECT_EQ(e.text(), "00:00:04:02");
    EXPECT_EQ(timecodeRateOf(29.97), k2997);
    EXPECT_EQ(timecodeRateOf(25.0), k25);
}

TEST(TimecodeReader, SeiSideDataOnEachFrame) {
    // No encoder in this FFmpeg writes H.264 time-code SEI, so the frames get the side data the
    // h264 decoder attaches (AV_FRAME_DATA_S12M_TIMECODE) directly.
    TimecodeReader reader(k25, TimecodeSource::H264Sei, {});
    const Frame f = frameWithSmpte(av_timecode_get_smpte(AVRational{25, 1}, 0, 10, 0, 0, 0));
    const FrameTimecode t = reader.read(*f, 0.0);
    EXPECT_EQ(t.source, TimecodeSource::H264Sei);
    EXPECT_TRUE(t.carried);
    EXPECT_EQ(t.text(), "10:00:00:00");
    // A frame without it counts on from the last carried value by its time.
    const FrameTimecode next = reader.read(*plainFrame(), 0.08);
    EXPECT_FALSE(next.carried);
    EXPECT_EQ(next.source, TimecodeSource::H264Sei);
    EXPECT_EQ(next.text(), "10:00:00:02");
}

TEST(TimecodeReader, GopCountsOnBetweenHeadersAndBack) {
    TimecodeReader reader(k2997, TimecodeSource::FrameSei, {});
    const int64_t gop = (int64_t(1) << 24) | (int64_t(1) << 19) | (int64_t(0) << 13) | (1 << 12) | (int64_t(59) << 6) | 28;
    const double frame = 1001.0 / 30000.0;
    EXPECT_EQ(reader.read(*frameWithGop(gop), 10 * frame).text(), "01:00:59;28");
    EXPECT_EQ(reader.read(*plainFrame(), 8 * frame).text(), "01:00:59;26");   // a B-frame shown before it
    EXPECT_EQ(reader.read(*plainFrame(), 12 * frame).text(), "01:01:00;02");
}

TEST(TimecodeReader, ReorderingMpeg2DecoderPutsTheGopTimecodeOnTheFrameBefore) {
    // FFmpeg 5.1's MPEG-2 decoder with reordering (has_b_frames) attaches a GOP header's
    // timecode to the frame it outputs while decoding the header's packet: the first frame
    // after an open or seek is the GOP's own (nothing came before it), later ones are the
    // frame before the next GOP's first (as ffprobe -show_frames shows on a clip made with
    // -timecode 10:00:00:00 -g 12: 10:00:00:12 on the 12th frame).
    TimecodeReader reader(k25, TimecodeSource::FrameSei, {});
    const int64_t gop0 = (int64_t(10) << 19) | (1 << 12);              // 10:00:00:00
    const int64_t gop12 = (int64_t(10) << 19) | (1 << 12) | 12;        // 10:00:00:12
    EXPECT_EQ(reader.read(*frameWithGop(gop0), 0.0, true).text(), "10:00:00:00");
    for (int i = 1; i < 11; ++i) reader.read(*plainFrame(), i / 25.0, true);
    const FrameTimecode before = reader.read(*frameWithGop(gop12), 11 / 25.0, true);
    EXPECT_EQ(before.text(), "10:00:00:11");
    EXPECT_FALSE(before.carried);
    const FrameTimecode first = reader.read(*plainFrame(), 12 / 25.0, true);
    EXPECT_EQ(first.text(), "10:00:00:12");
    EXPECT_TRUE(first.carried);
    // After a seek the first frame's GOP timecode is its own again.
    reader.restart();
    EXPECT_EQ(reader.read(*frameWithGop(gop12), 12 / 25.0, true).text(), "10:00:00:12");
}

TEST(TimecodeReader, ContainerStartCountedByTime) {
    TimecodeReader reader(k25, TimecodeSource::H264Sei, {"10:00:00:00", TimecodeSource::MovTmcd});
    EXPECT_EQ(reader.container().source, TimecodeSource::MovTmcd);
    const FrameTimecode t = reader.read(*plainFrame(), 4.0 + 2.0 / 25);
    EXPECT_EQ(t.source, TimecodeSource::MovTmcd);
    EXPECT_FALSE(t.carried);
    EXPECT_EQ(t.text(), "10:00:04:02");
    // A container timecode that cannot be read at the rate is left out, with a problem.
    TimecodeReader bad(k25, TimecodeSource::H264Sei, {"10:00:00;00", TimecodeSource::Mxf});
    EXPECT_FALSE(bad.container().known());
    const auto problems = bad.takeProblems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("mxf timecode component"), std::string::npos) << problems[0];
    EXPECT_FALSE(bad.read(*plainFrame(), 0.0).known());
}

TEST(TimecodeBreaks, JumpAndRepeat) {
    TimecodeBreaks breaks;
    const auto carried = [](const char* text) { return FrameTimecode{parsed(text, k25), TimecodeSource::Mpeg2Gop, true}; };
    const auto counted = [](const char* text) { return FrameTimecode{parsed(text, k25), TimecodeSource::Mpeg2Gop, false}; };
    EXPECT_FALSE(breaks.next(carried("10:00:00:00")));
    EXPECT_FALSE(breaks.next(counted("10:00:00:01")));
    EXPECT_FALSE(breaks.next(carried("10:00:00:02")));
    const auto jump = breaks.next(carried("11:00:00:00"));
    ASSERT_TRUE(jump);
    EXPECT_EQ(jump->expected.text(), "10:00:00:03");
    EXPECT_EQ(jump->found.text(), "11:00:00:00");
    EXPECT_FALSE(jump->repeat);
    const auto repeat = breaks.next(carried("11:00:00:00"));
    ASSERT_TRUE(repeat);
    EXPECT_TRUE(repeat->repeat);
    EXPECT_EQ(repeat->expected.text(), "11:00:00:01");
    // Counted values never break (they follow from the carried ones), and elapsed time is not checked.
    EXPECT_FALSE(breaks.next(counted("12:00:00:00")));
    EXPECT_FALSE(breaks.next(FrameTimecode{parsed("00:00:00:00", k25), TimecodeSource::Elapsed, false}));
}
