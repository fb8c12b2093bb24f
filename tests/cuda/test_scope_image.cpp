// The CUDA engine's scope images (cuda/images/ImagePixels.h's pixels under cuda/images/ScopeOverlay.h's
// tables) against scope/ScopeRender's, byte for byte, on the host: counts from the CPU engine
// for random and patterned frames, every image kind, 8 and 10 bit, both ranges and parade
// modes, linear and log histograms, vectorscope zooms 1 to 8, zoomed waveforms and parades,
// gains, and image sizes from tiny to the default. The kernels run these very functions; tests/cuda/test_engine_scopes.cpp compares
// the GPU's images with the CPU engine's.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "CudaTestUtil.h"
#include "core/Engine.h"
#include "scope/ReferenceLines.h"
#include "core/ThreadPool.h"
#include "cuda/images/ScopeOverlay.h"
#include "cpu/CpuEngine.h"

namespace cs {
namespace {

using cuda::ScopeImageKind;

const char* kindName(ScopeImageKind k) {
    switch (k) {
        case ScopeImageKind::Histogram: return "histogram";
        case ScopeImageKind::Waveform: return "waveform";
        case ScopeImageKind::Parade: return "parade";
        case ScopeImageKind::Vectorscope: return "vectorscope";
    }
    return "?";
}

ThreadPool& pool() {
    static ThreadPool p(0);
    return p;
}

void expectModelEqualsCore(const FrameView& frame, const ScopeSpec& spec, const std::string& where) {
    static std::unique_ptr<Engine> cpu = makeCpuEngine(0);
    ScopeResults r;
    ASSERT_TRUE(cpu->process(frame, spec, r).ok()) << where;
    const RgbaImage* core[4] = {&r.histogramImage, &r.waveformImage, &r.paradeImage, &r.vectorscopeImage};
    for (int k = 0; k < 4; ++k) {
        const auto kind = ScopeImageKind(k);
        const cuda::ScopeOverlay overlay = cuda::buildOverlay(cuda::overlayKey(kind, spec, r), pool());
        RgbaImage model;
        cuda::referenceScopeImage(kind, r, spec, overlay, model);
        EXPECT_TRUE(test::imagesClose(model, *core[k], 0, kindName(kind))) << where;
    }
}

Frame randomFrame(PixelFormat format, int w, int h, ColorInfo color, uint32_t seed) {
    Frame f(format, w, h, color);
    std::mt19937 rng(seed);
    if (seed % 2) test::fillRandom(f, rng);
    else test::fillRuns(f, rng);
    return f;
}

TEST(ScopeImageModel, EqualsCoreAtSmallSizes) {
    int seed = 1;
    for (PixelFormat format : {PixelFormat::Yuv420p, PixelFormat::Yuv444p10})
        for (Range range : {Range::Limited, Range::Full}) {
            ColorInfo color;
            color.range = range;
            color.matrix = range == Range::Full ? Matrix::Bt601 : Matrix::Bt709;
            const Frame frame = randomFrame(format, 97, 61, color, uint32_t(seed++));
            for (int variant = 0; variant < 4; ++variant) {
                ScopeSpec s;
                s.scopeWidth = variant % 2 ? 333 : 200;
                s.scopeHeight = variant % 2 ? 177 : 130;
                s.vectorscopeSize = variant % 2 ? 181 : 150;
                s.paradeMode = variant >= 2 ? ParadeMode::Ycbcr : ParadeMode::Rgb;
                s.histogramScale = variant % 2 ? HistogramScale::Log : HistogramScale::Linear;
                s.waveformScale = variant >= 2 ? WaveformScale::CodeValue : WaveformScale::Ire;
                s.vectorscopeZoom = variant >= 2 ? (variant == 3 ? 4 : 2) : 1;
                if (variant == 3) {   // zoomed scales (core/ScopeZoom.h, scope/LevelZoom.h)
                    s.waveformRange = LevelRange{16.0 / 255.0, 235.0 / 255.0};
                    s.paradeRange = LevelRange{0.3, 0.55};
                }
                s.vectorscopeTargets75 = variant != 1;
                s.skinToneLine = variant != 2;
                s.histogramGain = variant == 3 ? 2.5f : 1.0f;
                s.waveformGain = variant == 1 ? 0.5f : 1.0f;
                s.vectorscopeGain = variant == 2 ? 3.0f : 1.0f;
                s.picture = false;
                expectModelEqualsCore(frame.view(), s, std::string(formatInfo(format).name) + " variant " + std::to_string(variant));
            }
        }
}

TEST(ScopeImageModel, EqualsCoreAtTinyImagesAndFrames) {
    const Frame one = randomFrame(PixelFormat::Yuv420p10, 1, 1, ColorInfo{}, 3);
    const Frame wide = randomFrame(PixelFormat::Yuv422p, 700, 4, ColorInfo{}, 5);
    for (const Frame* f : {&one, &wide})
        for (int size : {64, 65, 90}) {
            ScopeSpec s;
            s.scopeWidth = size;
            s.scopeHeight = 64;
            s.vectorscopeSize = size;
            s.picture = false;
            expectModelEqualsCore(f->view(), s, std::to_string(f->width()) + "x" + std::to_string(f->height()) + " images " + std::to_string(size));
        }
}

TEST(ScopeImageModel, EqualsCoreAtDefaultSize) {
    const Frame frame = randomFrame(PixelFormat::Yuv420p10, 640, 360, ColorInfo{}, 7);
    ScopeSpec s;
    s.picture = false;
    expectModelEqualsCore(frame.view(), s, "640x360 10-bit, default images");
}

// The waveform modes (luma, R'G'B' overlaid, Y R G B panels), every trace colour, reference
// lines over the waveform and parade, and a PQ source's nits scales with them.
TEST(ScopeImageModel, EqualsCoreInEveryWaveformModeAndTraceColour) {
    const Result<ReferenceLines> lines = parseReferenceLines("5%,16:8,940:10");
    ASSERT_TRUE(lines.ok());
    int seed = 21;
    for (PixelFormat format : {PixelFormat::Yuv420p, PixelFormat::Yuv444p10})
        for (WaveformMode mode : {WaveformMode::Luma, WaveformMode::RgbOverlay, WaveformMode::Yrgb})
            for (TraceColour colour : {TraceColour::Channel, TraceColour::Green, TraceColour::White}) {
                ColorInfo color;
                if (format == PixelFormat::Yuv444p10 && colour == TraceColour::Green) {
                    color.matrix = Matrix::Bt2020Ncl;
                    color.transfer = Transfer::Pq;
                }
                const Frame frame = randomFrame(format, 83, 47, color, uint32_t(seed++));
                ScopeSpec s;
                s.scopeWidth = colour == TraceColour::White ? 333 : 260;
                s.scopeHeight = 150;
                s.vectorscopeSize = colour == TraceColour::White ? 320 : 181;   // splat radius 2, then 1
                s.waveformMode = mode;
                s.traceColour = colour;
                s.referenceLines = lines.value();
                s.vectorscopeZoom = colour == TraceColour::Green ? 2 : (colour == TraceColour::White ? 8 : 1);
                // Zoomed waveforms in every mode (the PQ source: a nits scale zoomed) and parades.
                if (colour != TraceColour::Channel) s.waveformRange = LevelRange{0.25, 0.6};
                if (colour == TraceColour::White) s.paradeRange = LevelRange{0.05, 0.35};
                s.waveformGain = colour == TraceColour::White ? 2.0f : 1.0f;
                s.picture = false;
                expectModelEqualsCore(frame.view(), s,
                                      std::string(formatInfo(format).name) + " mode " + std::to_string(int(mode)) + " colour " +
                                          std::to_string(int(colour)));
            }
}

// Overlay tables: a pixel the overlay leaves alone has none; the tables of a drawn pixel give
// what drawing the overlay over that value gives.
TEST(ScopeImageModel, OverlayTablesReproduceTheDrawing) {
    ScopeSpec s;
    s.scopeWidth = 300;
    s.scopeHeight = 160;
    ScopeResults meta;
    meta.bitDepth = 10;
    meta.levels = 1024;
    const cuda::OverlayKey key = cuda::overlayKey(ScopeImageKind::Waveform, s, meta);
    const cuda::ScopeOverlay o = cuda::buildOverlay(key, pool());
    ASSERT_GT(o.touched(), 0u);
    ASSERT_LT(o.touched(), size_t(key.width) * size_t(key.height));
    std::mt19937 rng(11);
    RgbaImage img, drawn;
    img.resize(key.width, key.height);
    for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = i % 4 == 3 ? 255 : uint8_t(rng());
    drawn = img;
    cuda::drawOverlay(key, drawn);
    cuda::applyOverlay(o, img);
    EXPECT_TRUE(test::imagesClose(img, drawn, 0, "overlay"));
}

}  // namespace
}  // namespace cs
