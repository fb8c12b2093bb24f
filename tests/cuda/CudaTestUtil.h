// Helpers for the CUDA tests: random and patterned frames for every pixel format, and
// comparisons of ScopeResults that report the first difference instead of dumping vectors.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/Frame.h"
#include "core/PixelFormat.h"
#include "core/ScopeResults.h"

namespace cs::test {

inline std::vector<PixelFormat> allFormats() {
    std::vector<PixelFormat> v;
    for (int i = 0; i < int(PixelFormat::Count); ++i) v.push_back(PixelFormat(i));
    return v;
}

inline int planeRowsOf(PixelFormat f, int height, int plane) { return plane == 0 ? height : chromaHeight(f, height); }

// Every stored sample random over its whole code range (out-of-legal and out-of-gamut
// values included). 16-bit words keep to the format's 10 bits (P010: the high bits, with
// random low bits, which readers must ignore).
inline void fillRandom(Frame& f, std::mt19937& rng) {
    const auto& info = formatInfo(f.format());
    for (int p = 0; p < info.planeCount; ++p) {
        const size_t bytes = size_t(f.pitch(p)) * size_t(planeRowsOf(f.format(), f.height(), p));
        uint8_t* d = f.plane(p);
        if (info.bytesPerSample == 1) {
            for (size_t i = 0; i < bytes; ++i) d[i] = uint8_t(rng());
        } else {
            for (size_t i = 0; i + 1 < bytes; i += 2) {
                const uint32_t w = f.format() == PixelFormat::P010 ? (rng() & 0xffffu) : (rng() & 1023u);
                d[i] = uint8_t(w & 0xff);
                d[i + 1] = uint8_t(w >> 8);
            }
        }
    }
}

// Runs of equal values: random values held for random lengths along rows (natural-ish
// flat areas, the case the kernels' run merging is for).
inline void fillRuns(Frame& f, std::mt19937& rng) {
    const auto& info = formatInfo(f.format());
    const int top = (1 << info.bitDepth) - 1;
    int left = 0, c0 = 0, c1 = 0, c2 = 0;
    for (int y = 0; y < f.height(); ++y)
        for (int x = 0; x < f.width(); ++x) {
            if (left-- <= 0) {
                left = int(rng() % 200);
                c0 = int(rng() % uint32_t(top + 1)); c1 = int(rng() % uint32_t(top + 1)); c2 = int(rng() % uint32_t(top + 1));
            }
            f.setPixel(x, y, c0, c1, c2);
        }
}

inline bool smallOnly() { const char* e = std::getenv("CS_CUDA_TEST_SMALL"); return e && *e && *e != '0'; }

inline ::testing::AssertionResult sameCounts(const std::vector<uint32_t>& gpu, const std::vector<uint32_t>& cpu, const char* what) {
    if (gpu.size() != cpu.size())
        return ::testing::AssertionFailure() << what << ": size " << gpu.size() << " (cuda) vs " << cpu.size() << " (cpu)";
    size_t diffs = 0, first = 0;
    for (size_t i = 0; i < gpu.size(); ++i)
        if (gpu[i] != cpu[i]) { if (!diffs++) first = i; }
    if (!diffs) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": " << diffs << " of " << gpu.size() << " counts differ, first at " << first
                                         << ": " << gpu[first] << " (cuda) vs " << cpu[first] << " (cpu)";
}

inline ::testing::AssertionResult imagesClose(const RgbaImage& gpu, const RgbaImage& cpu, int tolerance, const char* what) {
    if (gpu.width != cpu.width || gpu.height != cpu.height || gpu.pixels.size() != cpu.pixels.size())
        return ::testing::AssertionFailure() << what << ": " << gpu.width << "x" << gpu.height << " (cuda) vs " << cpu.width << "x"
                                             << cpu.height << " (cpu)";
    size_t diffs = 0, first = 0;
    int worst = 0;
    for (size_t i = 0; i < gpu.pixels.size(); ++i) {
        const int d = std::abs(int(gpu.pixels[i]) - int(cpu.pixels[i]));
        if (d > tolerance) { if (!diffs++) first = i; }
        worst = std::max(worst, d);
    }
    if (!diffs) return ::testing::AssertionSuccess();
    const size_t px = first / 4;
    return ::testing::AssertionFailure() << what << ": " << diffs << " bytes differ by more than " << tolerance << " (worst " << worst
                                         << "), first at x=" << px % size_t(cpu.width) << " y=" << px / size_t(cpu.width)
                                         << " channel " << first % 4 << ": " << int(gpu.pixels[first]) << " (cuda) vs "
                                         << int(cpu.pixels[first]) << " (cpu)";
}

inline void expectSameStats(const FrameStats& g, const FrameStats& c, const std::string& where) {
    SCOPED_TRACE(where);
    EXPECT_EQ(g.y.min, c.y.min); EXPECT_EQ(g.y.max, c.y.max); EXPECT_DOUBLE_EQ(g.y.avg, c.y.avg);
    EXPECT_EQ(g.u.min, c.u.min); EXPECT_EQ(g.u.max, c.u.max); EXPECT_DOUBLE_EQ(g.u.avg, c.u.avg);
    EXPECT_EQ(g.v.min, c.v.min); EXPECT_EQ(g.v.max, c.v.max); EXPECT_DOUBLE_EQ(g.v.avg, c.v.avg);
    EXPECT_DOUBLE_EQ(g.outOfLegal, c.outOfLegal);
    EXPECT_DOUBLE_EQ(g.outOfGamut, c.outOfGamut);
    EXPECT_DOUBLE_EQ(g.outOfR103, c.outOfR103);
}

// Counts and statistics exactly, the picture and preview within `tolerance` code values,
// and the scope images (drawn by core from the counts) exactly.
inline void expectSameResults(const ScopeResults& g, const ScopeResults& c, const std::string& where, int tolerance = 1) {
    SCOPED_TRACE(where);
    EXPECT_EQ(g.width, c.width); EXPECT_EQ(g.height, c.height);
    EXPECT_EQ(g.bitDepth, c.bitDepth); EXPECT_EQ(g.levels, c.levels);
    EXPECT_EQ(g.format, c.format);
    EXPECT_EQ(g.color.matrix, c.color.matrix); EXPECT_EQ(g.color.range, c.color.range);
    EXPECT_EQ(g.paradeMode, c.paradeMode);
    EXPECT_TRUE(sameCounts(g.histY, c.histY, "histY"));
    EXPECT_TRUE(sameCounts(g.histR, c.histR, "histR"));
    EXPECT_TRUE(sameCounts(g.histG, c.histG, "histG"));
    EXPECT_TRUE(sameCounts(g.histB, c.histB, "histB"));
    EXPECT_TRUE(sameCounts(g.waveform, c.waveform, "waveform"));
    EXPECT_TRUE(sameCounts(g.parade, c.parade, "parade"));
    EXPECT_TRUE(sameCounts(g.vectorscope, c.vectorscope, "vectorscope"));
    expectSameStats(g.stats, c.stats, where);
    EXPECT_EQ(g.gamut.measured, c.gamut.measured);
    EXPECT_TRUE(sameCounts(g.gamut.counts, c.gamut.counts, "cie counts"));
    EXPECT_EQ(g.gamut.outside, c.gamut.outside);
    EXPECT_EQ(g.gamut.source, c.gamut.source);
    EXPECT_TRUE(imagesClose(g.picture, c.picture, tolerance, "picture"));
    EXPECT_TRUE(imagesClose(g.preview, c.preview, tolerance, "preview"));
    EXPECT_TRUE(imagesClose(g.histogramImage, c.histogramImage, 0, "histogramImage"));
    EXPECT_TRUE(imagesClose(g.waveformImage, c.waveformImage, 0, "waveformImage"));
    EXPECT_TRUE(imagesClose(g.paradeImage, c.paradeImage, 0, "paradeImage"));
    EXPECT_TRUE(imagesClose(g.vectorscopeImage, c.vectorscopeImage, 0, "vectorscopeImage"));
    EXPECT_TRUE(imagesClose(g.cieImage, c.cieImage, 0, "cieImage"));
    EXPECT_EQ(g.gamutDisplay.mode, c.gamutDisplay.mode);
    EXPECT_TRUE(sameCounts(g.gamutDisplay.counts, c.gamutDisplay.counts, "gamut display counts"));
    EXPECT_TRUE(imagesClose(g.gamutDisplayImage, c.gamutDisplayImage, 0, "gamutDisplayImage"));
}

}  // namespace cs::test
