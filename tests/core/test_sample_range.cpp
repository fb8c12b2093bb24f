// Samples above the format's range (core/SampleRange.h, core/PixelAccess.h's sampleCode):
// the count per frame, the warning once per run of frames, and every host reader of samples
// (the CPU engine's counts and statistics, SignalStatsMeter, the reduction, the alarms'
// MAFD) on frames whose 16-bit words hold more than 10 bits: defined values, the bits above
// the depth ignored, no index out of bounds (the sanitizer presets run these too).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/Alarms.h"
#include "core/Engine.h"
#include "core/FrameReduce.h"
#include "core/PixelAccess.h"
#include "core/SampleRange.h"
#include "analysis/SignalStats.h"
#include "cpu/CpuEngine.h"

using namespace cs;

namespace {

// Every stored word of every plane set to `word`.
Frame frameOfWords(PixelFormat f, int w, int h, uint16_t word) {
    Frame frame(f, w, h);
    for (int p = 0; p < formatInfo(f).planeCount; ++p)
        for (int y = 0; y < planeRows(f, h, p); ++y) {
            uint8_t* row = frame.plane(p) + y * frame.pitch(p);
            for (size_t x = 0; x + 1 < planeRowBytes(f, w, p); x += 2) {
                row[x] = uint8_t(word & 0xff);
                row[x + 1] = uint8_t(word >> 8);
            }
        }
    return frame;
}

int64_t samplesOf(PixelFormat f, int w, int h) {
    int64_t n = 0;
    for (int p = 0; p < formatInfo(f).planeCount; ++p) n += int64_t(planeRowBytes(f, w, p) / 2) * planeRows(f, h, p);
    return n;
}

}  // namespace

TEST(SampleRange, CodeIgnoresBitsAboveTheDepth) {
    EXPECT_EQ(sampleCode(0xffff, 0, 1023), 1023);
    EXPECT_EQ(sampleCode(14376, 0, 1023), 40);   // 14376 = 14 * 1024 + 40
    EXPECT_EQ(sampleCode(1023, 0, 1023), 1023);
    EXPECT_EQ(sampleCode(0xffff, 6, 1023), 1023);   // P010: the high 10 bits, never above
    EXPECT_EQ(sampleCode(0x8040, 6, 1023), 0x8040 >> 6);
}

TEST(SampleRange, CountsWordsAboveTheDepth) {
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::Yuv422p10, PixelFormat::Yuv444p10, PixelFormat::Gray10}) {
        SCOPED_TRACE(formatInfo(f).name);
        EXPECT_TRUE(canExceedRange(f));
        EXPECT_EQ(samplesAboveRange(frameOfWords(f, 33, 17, 0xffff).view()), samplesOf(f, 33, 17));
        EXPECT_EQ(samplesAboveRange(frameOfWords(f, 33, 17, 1023).view()), 0);
        Frame one = frameOfWords(f, 33, 17, 512);
        one.plane(0)[2 * 5 + 1] = 0x04;   // the sixth luma word of row 0: 0x0400 = 1024
        EXPECT_EQ(samplesAboveRange(one.view()), 1);
        FrameView device = one.view();
        device.onDevice = true;
        EXPECT_FALSE(samplesAboveRange(device).has_value()) << "device memory is not read on the host";
    }
    // Formats that cannot hold a word above their range: 0 without reading (device frames too).
    for (PixelFormat f : {PixelFormat::P010, PixelFormat::Yuv420p, PixelFormat::Nv12, PixelFormat::Uyvy422, PixelFormat::Rgba}) {
        EXPECT_FALSE(canExceedRange(f)) << formatInfo(f).name;
        FrameView v = frameOfWords(f, 16, 8, 0xffff).view();
        EXPECT_EQ(samplesAboveRange(v), 0) << formatInfo(f).name;
        v.onDevice = true;
        EXPECT_EQ(samplesAboveRange(v), 0) << formatInfo(f).name;
    }
}

TEST(SampleRange, OneWarningPerRunOfFrames) {
    AboveRangeRuns runs;
    std::vector<std::string> warnings;
    const auto add = [&](const std::optional<std::string>& w) { if (w) warnings.push_back(*w); };
    add(runs.frame(0, 0, 10));
    add(runs.frame(1, 0, 10));
    add(runs.frame(2, 100, 10));
    add(runs.frame(3, 50, 10));
    EXPECT_TRUE(warnings.empty()) << "a run is reported when it ends";
    add(runs.frame(4, 1, 10));
    add(runs.frame(5, 0, 10));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "frames 2 to 4: 151 samples above the 10-bit range (codes over 1023; read with the bits above the depth ignored)");
    add(runs.frame(6, 0, 10));
    add(runs.frame(7, 1, 10));
    add(runs.finish());
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_EQ(warnings[1], "frame 7: 1 sample above the 10-bit range (codes over 1023; read with the bits above the depth ignored)");
    add(runs.finish());
    EXPECT_EQ(warnings.size(), 2u) << "finish() twice reports the run once";
}

TEST(SampleRange, CpuEngineCountsTheCode) {
    const auto engine = makeCpuEngine(2);
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::Yuv422p10, PixelFormat::Gray10}) {
        SCOPED_TRACE(formatInfo(f).name);
        for (const auto& [word, code] : {std::pair{uint16_t(0xffff), 1023}, std::pair{uint16_t(14376), 40}}) {
            const Frame frame = frameOfWords(f, 66, 34, word);
            ScopeSpec spec;
            spec.preview = PreviewFilter::FalseColour;
            ScopeResults r;
            ASSERT_TRUE(engine->process(frame.view(), spec, r).ok());
            const uint32_t pixels = 66 * 34;
            ASSERT_EQ(r.histY.size(), 1024u);
            EXPECT_EQ(r.histY[size_t(code)], pixels);
            EXPECT_EQ(std::accumulate(r.histY.begin(), r.histY.end(), uint64_t(0)), pixels);
            EXPECT_EQ(r.stats.y.min, code);
            EXPECT_EQ(r.stats.y.max, code);
            if (f != PixelFormat::Gray10) {
                EXPECT_EQ(r.stats.u.max, code);
                EXPECT_EQ(r.stats.v.min, code);
            }
            EXPECT_EQ(std::accumulate(r.waveform.begin(), r.waveform.end(), uint64_t(0)), pixels);
            EXPECT_EQ(std::accumulate(r.vectorscope.begin(), r.vectorscope.end(), uint64_t(0)), pixels);
        }
    }
}

TEST(SampleRange, SignalStatsReadTheCode) {
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::Yuv422p10, PixelFormat::Yuv444p10, PixelFormat::Gray10}) {
        SCOPED_TRACE(formatInfo(f).name);
        SignalStatsMeter meter;
        SignalStats s;
        // 0xFFFF (a raw file of all ones) reads as 1023; 14376 (a damaged H.264 frame) as 40.
        ASSERT_TRUE(meter.measure(frameOfWords(f, 66, 34, 0xffff).view(), 64, s).ok());
        EXPECT_EQ(s.ymin, 1023);
        EXPECT_EQ(s.ymax, 1023);
        EXPECT_EQ(s.ybitdepth, 10);
        if (f != PixelFormat::Gray10) {
            EXPECT_EQ(s.umax, 1023);
            EXPECT_EQ(s.vmin, 1023);
            EXPECT_EQ(s.satmax, int(std::hypot(511.f, 511.f)));
        }
        EXPECT_EQ(s.brng, 1.0);
        ASSERT_TRUE(meter.measure(frameOfWords(f, 66, 34, 14376).view(), 64, s).ok());
        EXPECT_EQ(s.ymin, 40);
        EXPECT_EQ(s.ymax, 40);
        EXPECT_EQ(s.blackPixels, 66 * 34);   // 40 <= 64
        EXPECT_EQ(s.ydif, 1023 - 40);        // from the previous frame, code to code
        FreezeReference ref;
        ref.set(meter.current());
        EXPECT_EQ(ref.mafd(meter.current()), 0.0);
    }
}

TEST(SampleRange, ReductionAndAlarmsReadTheCode) {
    const Frame frame = frameOfWords(PixelFormat::Yuv422p10, 64, 32, 14376);
    Frame reduced;
    reduceFrame(frame.view(), 16, 8, reduced);
    EXPECT_EQ(samplesAboveRange(reduced.view()), 0);
    const PixelSource s = makePixelSource(reduced.view());
    const YuvSample v = readYuv(s, 3, 2, 512);
    EXPECT_EQ(v.y, 40);
    EXPECT_EQ(v.cb, 40);
    EXPECT_EQ(v.cr, 40);
    const Frame ones = frameOfWords(PixelFormat::Yuv422p10, 64, 32, 0xffff);
    const Frame codes = frameOfWords(PixelFormat::Yuv422p10, 64, 32, 1023);
    EXPECT_EQ(lumaMafd(ones.view(), codes.view()), 0.0) << "0xFFFF and 1023 are the same code";
    EXPECT_EQ(lumaMafd(frame.view(), codes.view()), double(1023 - 40) / 1024.0);
}
