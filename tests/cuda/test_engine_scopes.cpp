// The CUDA engine against the CPU engine (the reference) on the same frames: every pixel
// format, 8 and 10 bit, limited and full range, random, solid and patterned content, every
// preview filter, subsets of the scopes, waveform modes and trace colours, the scope images
// drawn on the GPU and by core. Counts and statistics must be identical, pictures and
// previews within one code value. Also a few known values.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "EngineCompare.h"
#include "scope/ReferenceLines.h"

namespace cs {
namespace {

using test::cpuEngine;
using test::cudaEngine;
using test::compareEngines;
using test::everything;
using test::kFilters;
using test::label;

TEST(CudaEngine, EveryFormatRandom) {
    std::mt19937 rng(1);
    std::vector<std::pair<int, int>> sizes = {{1, 1}, {2, 2}, {3, 5}, {37, 23}, {258, 131}};
    if (!test::smallOnly()) sizes.push_back({1921, 1081});
    int n = 0;
    for (PixelFormat f : test::allFormats())
        for (auto [w, h] : sizes) {
            Frame frame(f, w, h);
            test::fillRandom(frame, rng);
            const PreviewFilter p = kFilters[size_t(n++) % std::size(kFilters)];
            compareEngines(frame.view(), everything(p), label(frame, "random, preview " + std::string(previewName(p))));
        }
}

TEST(CudaEngine, EveryFormatSolid) {
    const int w = test::smallOnly() ? 130 : 1921, h = test::smallOnly() ? 67 : 1081;
    for (PixelFormat f : test::allFormats()) {
        const int top = levelsOf(f) - 1;
        for (auto [c0, c1, c2] : {std::tuple{top / 2, top / 3, top}, std::tuple{0, 0, 0}, std::tuple{top, top, top}}) {
            Frame frame(f, w, h);
            frame.fill(c0, c1, c2);
            compareEngines(frame.view(), everything(PreviewFilter::BoxBlur),
                           label(frame, "solid " + std::to_string(c0) + "," + std::to_string(c1) + "," + std::to_string(c2)));
        }
    }
}

// Known values, independent of the CPU engine: a solid frame lands every pixel in one bin.
TEST(CudaEngine, SolidFrameKnownCounts) {
    const int w = 1920, h = 1080;
    Frame frame(PixelFormat::Nv12, w, h);
    frame.fill(100, 90, 160);
    ScopeResults r;
    ASSERT_TRUE(cudaEngine()->process(frame.view(), everything(), r).ok());
    ASSERT_EQ(r.histY.size(), 256u);
    EXPECT_EQ(r.histY[100], uint32_t(w * h));
    EXPECT_EQ(r.vectorscope[size_t(160) * 256 + 90], uint32_t(w * h));
    for (int x : {0, 1, 957, w - 1}) EXPECT_EQ(r.waveform[size_t(100) * w + size_t(x)], uint32_t(h)) << "column " << x;
    EXPECT_EQ(r.stats.y.min, 100); EXPECT_EQ(r.stats.y.max, 100); EXPECT_DOUBLE_EQ(r.stats.y.avg, 100.0);
    EXPECT_EQ(r.stats.u.min, 90); EXPECT_DOUBLE_EQ(r.stats.v.avg, 160.0);
    EXPECT_DOUBLE_EQ(r.stats.outOfLegal, 0.0);
}

TEST(CudaEngine, PatternsFromSetPixel) {
    const int w = test::smallOnly() ? 200 : 1283, h = test::smallOnly() ? 90 : 721;
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::P010, PixelFormat::Rgb24, PixelFormat::Uyvy422, PixelFormat::Gray10,
                          PixelFormat::Yuv444p10, PixelFormat::Bgra}) {
        const int top = levelsOf(f) - 1;
        Frame ramp(f, w, h), checker(f, w, h), bars(f, w, h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                ramp.setPixel(x, y, x * top / (w - 1), y * top / (h - 1), (x + y) % (top + 1));
                const bool odd = ((x ^ y) & 1) != 0;
                checker.setPixel(x, y, odd ? top : 0, odd ? 0 : top, top / 2);
                const int bar = x * 8 / w;
                bars.setPixel(x, y, (bar * 37) % (top + 1), (bar * 91) % (top + 1), (bar * 53) % (top + 1));
            }
        compareEngines(ramp.view(), everything(PreviewFilter::Edges), label(ramp, "ramp"));
        compareEngines(checker.view(), everything(PreviewFilter::Median3), label(checker, "checkerboard"));
        compareEngines(bars.view(), everything(PreviewFilter::FalseColour), label(bars, "bars"));
        std::mt19937 rng(3);
        Frame runs(f, w, h);
        test::fillRuns(runs, rng);
        compareEngines(runs.view(), everything(PreviewFilter::Zebra), label(runs, "runs"));
    }
}

TEST(CudaEngine, RangesMatricesAndOverrides) {
    std::mt19937 rng(5);
    for (PixelFormat f : {PixelFormat::Yuv420p10, PixelFormat::Nv12, PixelFormat::Rgb24, PixelFormat::Yuv422p})
        for (Range range : {Range::Limited, Range::Full})
            for (Matrix m : {Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Ncl}) {
                ColorInfo c;
                c.matrix = m; c.range = range; c.matrixTagged = c.rangeTagged = true;
                Frame frame(f, 97, 61, c);
                test::fillRandom(frame, rng);
                const std::string what = std::string(matrixName(m)) + " " + std::string(rangeName(range));
                compareEngines(frame.view(), everything(PreviewFilter::FalseColour), label(frame, what));
                ScopeSpec overridden = everything(PreviewFilter::Zebra);
                overridden.colorOverride.range = range == Range::Full ? Range::Limited : Range::Full;
                overridden.colorOverride.matrix = Matrix::Bt2020Ncl;
                compareEngines(frame.view(), overridden, label(frame, what + " overridden"));
            }
}

TEST(CudaEngine, SubsetsOfScopes) {
    std::mt19937 rng(9);
    for (PixelFormat f : {PixelFormat::Yuv420p, PixelFormat::Yuv420p10, PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10,
                          PixelFormat::Uyvy422, PixelFormat::Yuv444p, PixelFormat::Rgba, PixelFormat::Yuyv422}) {
        Frame frame(f, test::smallOnly() ? 301 : 1921, test::smallOnly() ? 77 : 1081);
        test::fillRandom(frame, rng);
        for (int variant = 0; variant < 13; ++variant) {
            ScopeSpec s;
            s.histogram = variant == 0 || variant == 5;
            s.waveform = variant == 1 || variant == 5;
            s.parade = variant == 2 || variant == 6;
            s.vectorscope = variant == 3 || variant == 6;
            s.stats = variant == 4 || variant == 7;
            s.paradeMode = variant == 6 ? ParadeMode::Ycbcr : ParadeMode::Rgb;
            s.displayImages = variant != 7;
            s.picture = variant != 5;
            // Nothing counted (Y'CbCr: the picture kernel): a preview with the picture (8), a
            // preview alone from the luma plane (9), false colour alone, written by the pass
            // (10), zebra alone (11: the picture kernel and the zebra kernel), zebra with the
            // waveform (12).
            if (variant >= 8 && variant <= 11) s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
            if (variant == 8 || variant == 9) s.preview = PreviewFilter::Edges;
            if (variant == 10) s.preview = PreviewFilter::FalseColour;
            if (variant == 11 || variant == 12) {
                s.preview = PreviewFilter::Zebra;
                s.filter.zebraIre = 70.0f;   // both zebras over random codes: stripes of each kind
                s.filter.zebraLowIre = 40.0f;
            }
            if (variant == 12) s.waveform = true;
            if (variant >= 9 && variant != 12) s.picture = false;
            compareEngines(frame.view(), s, label(frame, "subset " + std::to_string(variant)));
        }
    }
}

// RGB overlay and YRGB waveforms, whatever the parade is set to: both engines count the
// R'G'B' parade (countedSpec) and draw the same images, in every trace colour, with
// reference lines, the vectorscope at 1x and 2x.
TEST(CudaEngine, WaveformModesAndTraceColours) {
    std::mt19937 rng(17);
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv422p10, PixelFormat::Rgba}) {
        Frame frame(f, 301, 77);
        test::fillRandom(frame, rng);
        for (int variant = 0; variant < 6; ++variant) {
            ScopeSpec s;
            s.waveformMode = variant % 2 ? WaveformMode::Yrgb : WaveformMode::RgbOverlay;
            s.traceColour = TraceColour(variant % 3);
            s.parade = variant < 3;
            s.paradeMode = ParadeMode::Ycbcr;
            s.vectorscopeZoom = variant >= 4 ? 8 : 1 + variant % 2;
            s.referenceLines = *parseReferenceLines("5%,95%,16:8,940:10");
            if (variant >= 3) s.waveformRange = LevelRange{0.2, 0.65};   // zoomed (core/ScopeZoom.h)
            ScopeResults gpu;
            compareEngines(frame.view(), frame.view(), s, label(frame, "waveform mode " + std::to_string(variant)), &gpu);
            EXPECT_EQ(gpu.paradeMode, ParadeMode::Rgb);
            EXPECT_FALSE(gpu.parade.empty());
        }
    }
}

// With nothing counted, Y'CbCr pictures come from the picture kernels (4:2:0 and 4:2:2:
// chunks of 4 columns, 128 columns apart; 4:4:4: one quad a thread): every width modulo 4 and 256
// around the chunks and warps, odd and even heights, the picture, the luma plane (edges
// preview) and the lookup preview (false colour) written by the pass.
TEST(CudaEngine, PictureKernelsAtEveryEdge) {
    std::mt19937 rng(11);
    for (PixelFormat f : test::allFormats()) {
        if (formatInfo(f).isRgb || formatInfo(f).layout == PixelLayout::Gray) continue;
        for (int w : {1, 2, 3, 5, 6, 7, 130, 255, 257, 258, 259, 387})
            for (int h : {1, 2, 3, 18}) {
                Frame frame(f, w, h);
                test::fillRandom(frame, rng);
                for (PreviewFilter p : {PreviewFilter::None, PreviewFilter::Edges, PreviewFilter::FalseColour}) {
                    ScopeSpec s;
                    s.histogram = s.waveform = s.parade = s.vectorscope = s.stats = false;
                    s.preview = p;
                    s.picture = p != PreviewFilter::FalseColour;
                    compareEngines(frame.view(), s, label(frame, "picture kernel, preview " + std::string(previewName(p))));
                }
            }
    }
}

// Headless: the scope images are drawn on the GPU (cuda/images/HeadlessImages.h); with ScopeSpec::counts
// off no large counts come back, and the images, histograms and statistics are still the CPU
// engine's exactly.
TEST(CudaEngine, HeadlessImagesWithoutCounts) {
    std::mt19937 rng(23);
    std::vector<std::tuple<PixelFormat, int, int>> frames = {{PixelFormat::Yuv420p, 640, 360}, {PixelFormat::P010, 333, 200}};
    if (!test::smallOnly()) frames.push_back({PixelFormat::Yuv420p10, 3840, 2160});
    for (auto [f, w, h] : frames) {
        Frame frame(f, w, h);
        test::fillRuns(frame, rng);
        ScopeSpec s = everything();
        s.counts = false;
        ScopeResults gpu, cpu;
        ASSERT_TRUE(cudaEngine()->process(frame.view(), s, gpu).ok());
        ASSERT_TRUE(cpuEngine().process(frame.view(), s, cpu).ok());
        const std::string where = label(frame, "no counts");
        EXPECT_TRUE(gpu.waveform.empty() && gpu.parade.empty() && gpu.vectorscope.empty()) << where;
        cpu.waveform.clear();
        cpu.parade.clear();
        cpu.vectorscope.clear();
        test::expectSameResults(gpu, cpu, where);
    }
}

// The overlay tables follow the spec and the frame: sizes, parade mode, scales, zoom, gains,
// waveform mode, trace colour, reference lines, depth and colour change from call to call, and every image stays the CPU engine's.
TEST(CudaEngine, ScopeImagesFollowChangingSpecs) {
    std::mt19937 rng(29);
    ColorInfo bt2020Full;
    bt2020Full.matrix = Matrix::Bt2020Ncl;
    bt2020Full.range = Range::Full;
    Frame eight(PixelFormat::Nv12, 500, 300), ten(PixelFormat::Yuv422p10, 500, 300, bt2020Full);
    test::fillRuns(eight, rng);
    test::fillRuns(ten, rng);
    for (int variant = 0; variant < 8; ++variant) {
        ScopeSpec s = everything();
        s.picture = variant % 3 == 0;
        s.scopeWidth = variant % 2 ? 640 : 1024;
        s.scopeHeight = variant % 2 ? 300 : 540;
        s.vectorscopeSize = variant % 2 ? 333 : 540;
        s.paradeMode = variant & 2 ? ParadeMode::Ycbcr : ParadeMode::Rgb;
        s.histogramScale = variant & 4 ? HistogramScale::Log : HistogramScale::Linear;
        s.waveformScale = variant & 2 ? WaveformScale::CodeValue : WaveformScale::Ire;
        s.vectorscopeZoom = variant & 4 ? (variant == 7 ? 4 : 2) : 1;
        if (variant >= 5) {   // zoomed waveform and parade scales (core/ScopeZoom.h)
            s.waveformRange = LevelRange{16.0 / 255.0, 235.0 / 255.0};
            s.paradeRange = LevelRange{0.1, 0.5};
        }
        s.waveformGain = variant == 5 ? 4.0f : 1.0f;
        s.vectorscopeGain = variant == 6 ? 0.25f : 1.0f;
        s.histogramGain = variant == 7 ? 3.0f : 1.0f;
        s.histogram = variant != 3;
        s.parade = variant != 4;
        s.waveformMode = WaveformMode(variant % 3);   // the waveform's panels and overlay change too
        s.traceColour = TraceColour((variant / 2) % 3);
        if (variant & 1) s.referenceLines = *parseReferenceLines(variant & 2 ? "5%,95%" : "16:8,940:10");
        const Frame& frame = variant % 2 ? ten : eight;
        compareEngines(frame.view(), s, label(frame, "spec variant " + std::to_string(variant)));
    }
}

// An image too large for overlay tables on the device (here 8192 x 2100) is drawn by core on
// the host from counts copied back for it, even with ScopeSpec::counts off.
TEST(CudaEngine, HugeScopeImagesComeFromCore) {
    if (test::smallOnly()) GTEST_SKIP() << "CS_CUDA_TEST_SMALL";
    std::mt19937 rng(31);
    Frame frame(PixelFormat::Yuv420p10, 320, 180);
    test::fillRuns(frame, rng);
    ScopeSpec s = everything();
    s.scopeWidth = 8192;
    s.scopeHeight = 2100;
    s.counts = false;
    ScopeResults gpu, cpu;
    ASSERT_TRUE(cudaEngine()->process(frame.view(), s, gpu).ok());
    ASSERT_TRUE(cpuEngine().process(frame.view(), s, cpu).ok());
    EXPECT_TRUE(test::imagesClose(gpu.waveformImage, cpu.waveformImage, 0, "waveformImage"));
    EXPECT_TRUE(test::imagesClose(gpu.paradeImage, cpu.paradeImage, 0, "paradeImage"));
    EXPECT_TRUE(test::imagesClose(gpu.histogramImage, cpu.histogramImage, 0, "histogramImage"));
    EXPECT_TRUE(test::imagesClose(gpu.vectorscopeImage, cpu.vectorscopeImage, 0, "vectorscopeImage"));
}

}  // namespace
}  // namespace cs
