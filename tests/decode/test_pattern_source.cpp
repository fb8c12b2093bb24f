// Test patterns: SMPTE RP 219 bars land on the standard's code values at known pixel
// positions (8 and 10 bit), their geometry matches FFmpeg's smptehdbars, the ramp covers
// every code value, the zone plate moves, and parsing, end of stream and seeking behave.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "DecodeTestUtil.h"
#include "core/PixelAccess.h"
#include "decode/PatternSource.h"

namespace cs {
namespace {

using test::openOrFail;

struct ExpectedSample {
    int x, y;
    int Y, Cb, Cr;
    const char* what;
};

YuvSample sampleAt(const FrameView& v, int x, int y) { return readYuv(makePixelSource(v), x, y, v.levels() / 2); }

void expectSamples(const FrameView& v, const std::vector<ExpectedSample>& expected) {
    for (const auto& e : expected) {
        const YuvSample s = sampleAt(v, e.x, e.y);
        EXPECT_EQ(s.y, e.Y) << e.what << " Y at (" << e.x << "," << e.y << ")";
        EXPECT_EQ(s.cb, e.Cb) << e.what << " Cb at (" << e.x << "," << e.y << ")";
        EXPECT_EQ(s.cr, e.Cr) << e.what << " Cr at (" << e.x << "," << e.y << ")";
    }
}

VideoFrame firstFrame(Source& source) {
    VideoFrame frame;
    EXPECT_EQ(source.read(frame).status, ReadStatus::Frame);
    return frame;
}

TEST(PatternBars, InfoDescribesHdBars) {
    auto source = openOrFail("pattern:bars");
    ASSERT_TRUE(source);
    const SourceInfo& info = source->info();
    EXPECT_EQ(info.width, 1920);
    EXPECT_EQ(info.height, 1080);
    EXPECT_EQ(info.format, PixelFormat::Yuv422p);
    EXPECT_EQ(info.sourcePixFmt, "yuv422p");
    EXPECT_EQ(info.container, "pattern");
    EXPECT_DOUBLE_EQ(info.frameRate, 25.0);
    EXPECT_DOUBLE_EQ(info.duration, 10.0);
    EXPECT_EQ(info.frameCount, 250);
    EXPECT_TRUE(info.seekable);
    EXPECT_FALSE(info.live);
    EXPECT_EQ(info.color.matrix, Matrix::Bt709);
    EXPECT_EQ(info.color.range, Range::Limited);
    EXPECT_EQ(info.color.transfer, Transfer::Bt709);
    EXPECT_TRUE(info.color.matrixTagged);
    EXPECT_TRUE(info.color.rangeTagged);
}

// 8-bit values: the 75% bars as RP 219 / FFmpeg's rainbowhd table give them, the others
// computed by hand from BT.709 (e.g. 100% cyan: Y = 16 + 219 * 0.7874 = 188.4).
TEST(PatternBars, EightBitCodeValuesAtKnownPositions) {
    auto source = openOrFail("pattern:bars");
    ASSERT_TRUE(source);
    const VideoFrame f = firstFrame(*source);
    ASSERT_TRUE(f.view.valid());
    EXPECT_EQ(f.view.format, PixelFormat::Yuv422p);
    const int top = 300, row2 = 660, row3 = 750, bottom = 1000;
    expectSamples(f.view, {
        {100, top, 104, 128, 128, "40% grey left panel"},
        {239, top, 104, 128, 128, "last pixel of the left panel"},
        {240, top, 180, 128, 128, "75% white, first pixel"},
        {343, top, 180, 128, 128, "75% white"},
        {445, top, 180, 128, 128, "75% white, last pixel"},
        {446, top, 168, 44, 136, "75% yellow, first pixel"},
        {549, top, 168, 44, 136, "75% yellow"},
        {755, top, 145, 147, 44, "75% cyan"},
        {961, top, 133, 63, 52, "75% green"},
        {1167, top, 63, 193, 204, "75% magenta"},
        {1373, top, 51, 109, 212, "75% red"},
        {1579, top, 28, 212, 120, "75% blue"},
        {1681, top, 28, 212, 120, "75% blue, last pixel"},
        {1682, top, 104, 128, 128, "40% grey right panel"},
        {1919, 629, 104, 128, 128, "bottom right of pattern 1"},
        {100, row2, 188, 154, 16, "100% cyan"},
        {300, row2, 61, 103, 157, "+I"},
        {1000, row2, 180, 128, 128, "75% white"},
        {1800, row2, 32, 240, 118, "100% blue"},
        {100, row3, 219, 16, 138, "100% yellow"},
        {300, row3, 35, 174, 152, "+Q"},
        {446, row3, 16, 128, 128, "ramp start (0%)"},
        {1681, row3, 235, 128, 128, "ramp end (100%)"},
        {1800, row3, 63, 102, 240, "100% red"},
        {100, bottom, 49, 128, 128, "15% grey"},
        {300, bottom, 16, 128, 128, "0% black"},
        {700, bottom, 235, 128, 128, "100% white"},
        {1000, bottom, 16, 128, 128, "0% black"},
        {1133, bottom, 16, 128, 128, "0% black before the PLUGE"},
        {1134, bottom, 12, 128, 128, "-2% first pixel"},
        {1201, bottom, 12, 128, 128, "-2% last pixel"},
        {1202, bottom, 16, 128, 128, "0%"},
        {1270, bottom, 20, 128, 128, "+2%"},
        {1337, bottom, 20, 128, 128, "+2% last pixel"},
        {1380, bottom, 16, 128, 128, "0%"},
        {1406, bottom, 25, 128, 128, "+4%"},
        {1473, bottom, 25, 128, 128, "+4% last pixel"},
        {1474, bottom, 16, 128, 128, "0% black after the PLUGE"},
        {1681, bottom, 16, 128, 128, "0% black, last pixel"},
        {1682, bottom, 49, 128, 128, "15% grey right"},
        {1919, 1079, 49, 128, 128, "bottom right corner"},
    });
}

// 10-bit values straight from SMPTE RP 219-2's tables (Y'CbCr, BT.709).
TEST(PatternBars, TenBitCodeValuesAtKnownPositions) {
    auto source = openOrFail("pattern:bars:10bit");
    ASSERT_TRUE(source);
    EXPECT_EQ(source->info().format, PixelFormat::Yuv422p10);
    EXPECT_EQ(source->info().sourcePixFmt, "yuv422p10le");
    const VideoFrame f = firstFrame(*source);
    ASSERT_TRUE(f.view.valid());
    EXPECT_EQ(f.view.format, PixelFormat::Yuv422p10);
    const int top = 300, row2 = 660, row3 = 750, bottom = 1000;
    expectSamples(f.view, {
        {100, top, 414, 512, 512, "40% grey"},
        {343, top, 721, 512, 512, "75% white"},
        {549, top, 674, 176, 543, "75% yellow"},
        {755, top, 581, 589, 176, "75% cyan"},
        {961, top, 534, 253, 207, "75% green"},
        {1167, top, 251, 771, 817, "75% magenta"},
        {1373, top, 204, 435, 848, "75% red"},
        {1579, top, 111, 848, 481, "75% blue"},
        {1800, top, 414, 512, 512, "40% grey right"},
        {100, row2, 754, 615, 64, "100% cyan"},
        {300, row2, 245, 412, 629, "+I"},
        {1000, row2, 721, 512, 512, "75% white"},
        {1800, row2, 127, 960, 471, "100% blue"},
        {100, row3, 877, 64, 553, "100% yellow"},
        {300, row3, 141, 697, 606, "+Q"},
        {446, row3, 64, 512, 512, "ramp start"},
        {1681, row3, 940, 512, 512, "ramp end"},
        {1800, row3, 250, 409, 960, "100% red"},
        {100, bottom, 195, 512, 512, "15% grey"},
        {300, bottom, 64, 512, 512, "0% black"},
        {700, bottom, 940, 512, 512, "100% white"},
        {1150, bottom, 46, 512, 512, "-2%"},
        {1230, bottom, 64, 512, 512, "0%"},
        {1300, bottom, 82, 512, 512, "+2%"},
        {1440, bottom, 99, 512, 512, "+4%"},
        {1600, bottom, 64, 512, 512, "0% black"},
        {1800, bottom, 195, 512, 512, "15% grey right"},
    });
}

// Every chroma sample of the 4:2:2 bars belongs to exactly one bar: no sample straddles
// two colours (all boundaries on even x), at 1920 and at scaled sizes.
TEST(PatternBars, ChromaSamplesNeverStraddleABoundary) {
    for (const char* input : {"pattern:bars:10bit", "pattern:bars:1280x720:10bit", "pattern:bars:10bit:1921x1081",
                              "pattern:bars:3840x2160:10bit"}) {
        SCOPED_TRACE(input);
        auto source = openOrFail(input);
        ASSERT_TRUE(source);
        const VideoFrame f = firstFrame(*source);
        const FrameView& v = f.view;
        const PixelSource ps = makePixelSource(v);
        for (int y : {10, v.height * 7 / 12 - 1}) {
            for (int x = 0; x + 1 < v.width; x += 2) {
                // Both luma samples under one chroma sample carry the same bar.
                EXPECT_EQ(readYuv(ps, x, y, 512).y, readYuv(ps, x + 1, y, 512).y) << "x " << x;
            }
        }
    }
}

// The top pattern, the bottom row and the cyan/blue and yellow/red panels are built like
// FFmpeg's smptehdbars (whose 8-bit values agree with ours there): compare every pixel
// outside the I/Q cells and the ramp, where the two generators deliberately differ
// (FFmpeg uses approximate I/Q values and a 0..255 ramp; RP 219 a 0%..100% one).
TEST(PatternBars, GeometryMatchesFfmpegSmptehdbars) {
    test::TempDir dir;
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1920, 1080}, {1280, 720}, {320, 240}, {1922, 1082}}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
        const std::string raw = dir.file("bars.yuv");
        ASSERT_TRUE(test::runFfmpeg("-f lavfi -i smptehdbars=s=" + std::to_string(w) + "x" + std::to_string(h) +
                                    ",format=yuv422p -frames:v 1 -f rawvideo " + raw));
        const auto reference = test::readFile(raw);
        auto source = openOrFail("pattern:bars:" + std::to_string(w) + "x" + std::to_string(h));
        ASSERT_TRUE(source);
        const VideoFrame f = firstFrame(*source);
        const auto ours = test::packFrame(f.view, "yuv422p");
        ASSERT_EQ(ours.size(), reference.size());
        const int d = ((w / 8) + 1) & ~1, c = ((((w + 3) / 4 * 3) / 7) + 1) & ~1;
        const int rowsTop = h * 7 / 12, rowsMiddle = h / 12;
        const int cw = (w + 1) / 2;
        size_t mismatches = 0;
        for (int plane = 0; plane < 3; ++plane) {
            const int pw = plane == 0 ? w : cw;
            const size_t offset = plane == 0 ? 0 : size_t(w) * h + size_t(plane - 1) * cw * h;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < pw; ++x) {
                    const int lumaX = plane == 0 ? x : 2 * x;
                    const bool iRow = y >= rowsTop && y < rowsTop + rowsMiddle;
                    const bool qRow = y >= rowsTop + rowsMiddle && y < rowsTop + 2 * rowsMiddle;
                    if (iRow && lumaX >= d && lumaX < d + c) continue;       // +I cell
                    if (qRow && lumaX >= d && lumaX < d + 7 * c) continue;   // +Q cell and ramp
                    const size_t i = offset + size_t(y) * pw + x;
                    if (ours[i] != reference[i] && ++mismatches < 10)
                        ADD_FAILURE() << "plane " << plane << " (" << x << "," << y << "): ours " << int(ours[i])
                                      << ", smptehdbars " << int(reference[i]);
                }
        }
        EXPECT_EQ(mismatches, 0u);
    }
}

TEST(PatternRamp, CoversEveryCodeValue) {
    for (int depth : {8, 10}) {
        SCOPED_TRACE(depth);
        auto source = openOrFail(depth == 8 ? "pattern:ramp" : "pattern:ramp:10bit");
        ASSERT_TRUE(source);
        EXPECT_EQ(source->info().format, depth == 8 ? PixelFormat::Yuv420p : PixelFormat::Yuv420p10);
        const VideoFrame f = firstFrame(*source);
        const FrameView& v = f.view;
        const int levels = 1 << depth;
        for (int y : {0, 539, 1079}) {
            std::set<int> seen;
            int previous = -1;
            for (int x = 0; x < v.width; ++x) {
                const YuvSample s = sampleAt(v, x, y);
                EXPECT_GE(s.y, previous) << "luma falls at x " << x;
                previous = s.y;
                seen.insert(s.y);
                if (x % 97 == 0) {
                    EXPECT_EQ(s.cb, levels / 2);
                    EXPECT_EQ(s.cr, levels / 2);
                }
            }
            EXPECT_EQ(int(seen.size()), levels) << "row " << y;
            EXPECT_EQ(*seen.begin(), 0);
            EXPECT_EQ(*seen.rbegin(), levels - 1);
        }
        // Known positions: x * levels / 1920.
        EXPECT_EQ(sampleAt(v, 960, 5).y, levels / 2);
        EXPECT_EQ(sampleAt(v, 1919, 5).y, levels - 1);
    }
}

TEST(PatternZonePlate, IsAZonePlateThatMoves) {
    auto source = openOrFail("pattern:zoneplate:320x240");
    ASSERT_TRUE(source);
    const VideoFrame f0 = firstFrame(*source);
    const VideoFrame f1 = firstFrame(*source);
    EXPECT_EQ(f0.view.format, PixelFormat::Yuv420p);
    // Centre: phase 0 -> white; everything within black..white; chroma neutral.
    EXPECT_EQ(sampleAt(f0.view, 160, 120).y, 235);
    int lo = 255, hi = 0, changed = 0;
    for (int y = 0; y < 240; ++y)
        for (int x = 0; x < 320; ++x) {
            const YuvSample s = sampleAt(f0.view, x, y);
            lo = std::min(lo, s.y);
            hi = std::max(hi, s.y);
            EXPECT_EQ(s.cb, 128);
            changed += s.y != sampleAt(f1.view, x, y).y;
        }
    EXPECT_EQ(lo, 16);
    EXPECT_EQ(hi, 235);
    EXPECT_GT(changed, 320 * 240 / 2) << "the phase advances from frame to frame";
    // Circular: symmetric about the centre.
    EXPECT_EQ(sampleAt(f0.view, 10, 37).y, sampleAt(f0.view, 309, 202).y);
    EXPECT_EQ(sampleAt(f0.view, 10, 37).y, sampleAt(f0.view, 309, 37).y);

    auto ten = openOrFail("pattern:zoneplate:10bit:64x64");
    ASSERT_TRUE(ten);
    const VideoFrame t = firstFrame(*ten);
    EXPECT_EQ(t.view.format, PixelFormat::Yuv420p10);
    EXPECT_EQ(sampleAt(t.view, 32, 32).y, 940);
}

TEST(PatternParse, OptionsInAnyOrderAndSizes) {
    struct Case {
        const char* input;
        int width, height;
        PixelFormat format;
    };
    for (const Case& c : {Case{"pattern:bars:10bit:1280x720", 1280, 720, PixelFormat::Yuv422p10},
                          Case{"pattern:bars:1280x720:10bit", 1280, 720, PixelFormat::Yuv422p10},
                          Case{"pattern:zoneplate:3840x2160", 3840, 2160, PixelFormat::Yuv420p},
                          Case{"pattern:ramp:1921x1081", 1921, 1081, PixelFormat::Yuv420p},
                          Case{"pattern:bars:1921x1081", 1921, 1081, PixelFormat::Yuv422p},
                          Case{"pattern:ramp:10bit", 1920, 1080, PixelFormat::Yuv420p10}}) {
        SCOPED_TRACE(c.input);
        auto source = openOrFail(c.input);
        ASSERT_TRUE(source);
        EXPECT_EQ(source->info().width, c.width);
        EXPECT_EQ(source->info().height, c.height);
        EXPECT_EQ(source->info().format, c.format);
        const VideoFrame f = firstFrame(*source);
        EXPECT_TRUE(f.view.valid());
        EXPECT_EQ(f.view.width, c.width);
        EXPECT_EQ(f.view.height, c.height);
    }
}

TEST(PatternParse, BadPatternsAreRefusedWithOneSentence) {
    struct Case {
        const char* input;
        const char* says;
    };
    for (const Case& c : {Case{"pattern:", "no pattern named"}, Case{"pattern:checkerboard", "unknown pattern 'checkerboard'"},
                          Case{"pattern:bars:12bit", "unknown pattern option '12bit'"},
                          Case{"pattern:bars:0x0", "the size must be WxH from 1x1 to 16384x16384, not '0x0'"},
                          Case{"pattern:bars:100000x100000", "must be WxH from 1x1 to 16384x16384"},
                          Case{"pattern:ramp:16384x16385", "must be WxH from 1x1 to 16384x16384"},
                          Case{"pattern:ramp:99999999999999999999x10", "must be WxH from 1x1 to 16384x16384"},
                          Case{"pattern:ramp:4294967360x64", "must be WxH from 1x1 to 16384x16384"},
                          Case{"pattern:ramp:-5x10", "unknown pattern option"},
                          Case{"pattern:bars:64x64x64", "unknown pattern option '64x64x64'"},
                          Case{"pattern:bars: 64x64", "unknown pattern option ' 64x64'"},
                          Case{"pattern:bars:64x64:", "unknown pattern option ''"},
                          Case{"pattern:bars:64x64:128x128", "the size is given twice"},
                          Case{"pattern:bars:10bit:8bit", "the bit depth is given twice"}}) {
        auto opened = openSource(c.input);
        ASSERT_FALSE(opened) << c.input;
        EXPECT_EQ(opened.message().rfind(std::string(c.input) + ": ", 0), 0u) << opened.message();
        EXPECT_NE(opened.message().find(c.says), std::string::npos) << opened.message();
        EXPECT_EQ(opened.message().find('\n'), std::string::npos);
    }
}

// The parser alone (what the fuzzers call): any string in, a spec or one sentence out.
TEST(PatternParse, SpecWithoutOpening) {
    auto spec = parsePatternSpec("pattern:zoneplate:640x360:10bit");
    ASSERT_TRUE(spec) << spec.message();
    EXPECT_EQ(spec->kind, PatternKind::ZonePlate);
    EXPECT_EQ(spec->depth, 10);
    EXPECT_EQ(spec->width, 640);
    EXPECT_EQ(spec->height, 360);
    for (const char* notPattern : {"", "p", "pattern", "bars:64x64"}) {
        const auto refused = parsePatternSpec(notPattern);
        ASSERT_FALSE(refused.ok()) << notPattern;
        EXPECT_NE(refused.message().find("not a pattern"), std::string::npos) << refused.message();
    }
}

TEST(PatternStream, EndsAfterTenSecondsWithTimestamps) {
    auto source = openOrFail("pattern:ramp:64x48");
    ASSERT_TRUE(source);
    const auto frames = test::readAll(*source);
    ASSERT_EQ(frames.size(), 250u);
    for (size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(frames[i].index, int64_t(i));
        EXPECT_DOUBLE_EQ(frames[i].view.pts, double(i) / 25.0);
        EXPECT_FALSE(frames[i].onDevice);
        ASSERT_TRUE(frames[i].holder);
        EXPECT_EQ(frames[i].view.data[0], frames[i].holder->data[0]) << "the view points into the AVFrame";
    }
    VideoFrame after;
    EXPECT_EQ(source->read(after).status, ReadStatus::EndOfStream);
    EXPECT_TRUE(source->takeWarnings().empty());
}

TEST(PatternStream, SeekLandsOnTheFrameAtOrAfterTheTarget) {
    auto source = openOrFail("pattern:zoneplate:64x48");
    ASSERT_TRUE(source);
    std::vector<VideoFrame> all = test::readAll(*source);
    ASSERT_EQ(all.size(), 250u);
    struct Case {
        double target, pts;
    };
    for (const Case& c : {Case{2.0, 2.0}, Case{0.05, 0.08}, Case{0.0, 0.0}, Case{9.96, 9.96}, Case{1.0 / 25 * 7, 0.28}}) {
        SCOPED_TRACE(c.target);
        ASSERT_TRUE(source->seek(c.target));
        VideoFrame f;
        ASSERT_EQ(source->read(f).status, ReadStatus::Frame);
        EXPECT_DOUBLE_EQ(f.view.pts, c.pts);
        EXPECT_EQ(f.index, 0);
        // Same picture as the one read straight through.
        const auto& reference = all[size_t(std::lround(c.pts * 25))];
        EXPECT_EQ(test::packFrame(f.view, "yuv420p"), test::packFrame(reference.view, "yuv420p"));
    }
    ASSERT_TRUE(source->seek(9.99));
    VideoFrame f;
    EXPECT_EQ(source->read(f).status, ReadStatus::EndOfStream);
}

}  // namespace
}  // namespace cs
