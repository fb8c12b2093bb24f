// CUDA-GL interop: a headless desktop GL 4.5 core context through EGL (EGL_EXT_platform_device,
// no window system), GL_RGBA8 textures written by CudaEngine::processToGl, read back with
// glGetTexImage and compared with the host path: the picture and preview with process()'s,
// the scope traces with the host reference drawn from the same counts.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "CudaTestUtil.h"
#include "EngineFixture.h"
#include "HeadlessGl.h"
#include "cuda/images/TraceKernels.h"

namespace cs {
namespace {

using test::HeadlessGl;
using test::Texture;

// Share of texels (not bytes) that differ at all.
double differingTexels(const RgbaImage& a, const RgbaImage& b) {
    if (a.pixels.size() != b.pixels.size() || a.pixels.empty()) return 1.0;
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); i += 4)
        if (a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2] || a.pixels[i + 3] != b.pixels[i + 3]) ++n;
    return double(n) / double(a.pixels.size() / 4);
}

class CudaInterop : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_NE(test::cudaEngine(), nullptr);
        std::string why;
        if (!gl_.open(test::cudaEngine()->device(), why)) GTEST_SKIP() << "no headless GL context through EGL: " << why;
    }
    void TearDown() override { if (test::cudaEngine()) test::cudaEngine()->releaseGl(); }
    HeadlessGl gl_;
};

// Texture readbacks against the host path for one frame and spec.
void checkFrame(const FrameView& frame, const ScopeSpec& spec, const Texture& picture, const Texture& preview, const Texture& histogram,
                const Texture& waveform, const Texture& parade, const Texture& vectorscope, const std::string& where) {
    SCOPED_TRACE(where);
    CudaEngine& engine = *test::cudaEngine();
    GlTargets t;
    t.picture = picture.target(); t.histogram = histogram.target();
    if (spec.preview != PreviewFilter::None) t.preview = preview.target();
    t.waveform = waveform.target(); t.parade = parade.target(); t.vectorscope = vectorscope.target();
    t.downloadCounts = true;
    ScopeResults counts, host;
    const Status s = engine.processToGl(frame, spec, counts, t);
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(engine.process(frame, spec, host).ok());
    EXPECT_TRUE(test::sameCounts(counts.histY, host.histY, "histY"));
    EXPECT_TRUE(test::sameCounts(counts.waveform, host.waveform, "waveform"));
    EXPECT_TRUE(test::sameCounts(counts.parade, host.parade, "parade"));
    EXPECT_TRUE(test::sameCounts(counts.vectorscope, host.vectorscope, "vectorscope"));
    test::expectSameStats(counts.stats, host.stats, where);
    EXPECT_TRUE(counts.picture.empty() && counts.preview.empty() && counts.waveformImage.empty());
    EXPECT_TRUE(test::imagesClose(picture.read(), host.picture, 0, "picture texture"));
    if (spec.preview != PreviewFilter::None) {
        EXPECT_TRUE(test::imagesClose(preview.read(), host.preview, 0, "preview texture"));
    }
    RgbaImage ref;
    cuda::referenceTrace(cuda::TraceKind::Waveform, host, spec, waveform.width, waveform.height, ref);
    EXPECT_TRUE(test::imagesClose(waveform.read(), ref, 0, "waveform texture"));
    cuda::referenceTrace(cuda::TraceKind::Parade, host, spec, parade.width, parade.height, ref);
    EXPECT_TRUE(test::imagesClose(parade.read(), ref, 0, "parade texture"));
    cuda::referenceTrace(cuda::TraceKind::Vectorscope, host, spec, vectorscope.width, vectorscope.height, ref);
    EXPECT_TRUE(test::imagesClose(vectorscope.read(), ref, 0, "vectorscope texture"));
    cuda::referenceTrace(cuda::TraceKind::Histogram, host, spec, histogram.width, histogram.height, ref);
    if (spec.histogramScale == HistogramScale::Linear) {
        EXPECT_TRUE(test::imagesClose(histogram.read(), ref, 0, "histogram texture"));
    } else {
        // log1p's last bit may differ between CUDA's and the C library's: a bar may end one texel apart.
        EXPECT_LT(differingTexels(histogram.read(), ref), 0.005);
    }
    // The traces are not blank (the comparison above would pass on two black images otherwise).
    EXPECT_GT(differingTexels(waveform.read(), RgbaImage{waveform.width, waveform.height,
                                                         std::vector<uint8_t>(size_t(waveform.width * waveform.height) * 4, 0)}),
              0.001);
}

TEST_F(CudaInterop, TexturesMatchHostResults) {
    std::mt19937 rng(23);
    const int w = test::smallOnly() ? 322 : 1921, h = test::smallOnly() ? 181 : 1081;
    Texture picture(w, h), preview(w, h), histogram(512, 200), waveform(700, 300), parade(900, 256), vectorscope(300, 300);
    for (PixelFormat f : {PixelFormat::P010, PixelFormat::Nv12}) {
        Frame frame(f, w, h);
        test::fillRuns(frame, rng);
        ScopeSpec spec;
        spec.preview = PreviewFilter::Gaussian;
        checkFrame(frame.view(), spec, picture, preview, histogram, waveform, parade, vectorscope, std::string(formatInfo(f).name));
        // Same textures again (registrations reused), other spec: log histogram, Y'CbCr parade, zoom, gains.
        spec.preview = PreviewFilter::FocusPeaking;
        spec.histogramScale = HistogramScale::Log;
        spec.paradeMode = ParadeMode::Ycbcr;
        spec.vectorscopeZoom = 2;
        spec.waveformGain = 3.0f;
        spec.vectorscopeGain = 0.5f;
        checkFrame(frame.view(), spec, picture, preview, histogram, waveform, parade, vectorscope,
                   std::string(formatInfo(f).name) + " second spec");
    }
    // New texture objects of other sizes: the engine registers them again.
    Texture waveform2(333, 128), vectorscope2(128, 96);
    Frame frame(PixelFormat::Yuv420p10, w, h);
    test::fillRandom(frame, rng);
    checkFrame(frame.view(), ScopeSpec{}, picture, preview, histogram, waveform2, parade, vectorscope2, "yuv420p10 resized traces");
}

// The waveform's modes, the trace colours and the vectorscope's splat on the device: every
// texture as the host reference draws it (TraceTexels.h, itself checked against the CPU
// engine's images by cuda_host_tests' TraceStyle), 8 and 10 bits, 1x and 2x.
TEST_F(CudaInterop, WaveformModesAndTraceColoursMatchHostResults) {
    std::mt19937 rng(31);
    const int w = 322, h = 181;
    Texture picture(w, h), preview(w, h), histogram(256, 100), waveform(700, 300), parade(900, 256), vectorscope(540, 540);
    for (PixelFormat f : {PixelFormat::Nv12, PixelFormat::P010}) {
        Frame frame(f, w, h);
        test::fillRuns(frame, rng);
        for (WaveformMode mode : {WaveformMode::RgbOverlay, WaveformMode::Yrgb})
            for (TraceColour colour : {TraceColour::Channel, TraceColour::Green, TraceColour::White}) {
                ScopeSpec spec;
                spec.waveformMode = mode;
                spec.traceColour = colour;
                spec.paradeMode = ParadeMode::Ycbcr;   // counted in R'G'B' all the same (countedSpec)
                spec.vectorscopeZoom = colour == TraceColour::Green ? 2 : (colour == TraceColour::White ? 4 : 1);
                if (colour != TraceColour::Channel) spec.waveformRange = LevelRange{0.25, 0.6};   // zoomed traces
                if (colour == TraceColour::White) spec.paradeRange = LevelRange{0.05, 0.4};
                checkFrame(frame.view(), spec, picture, preview, histogram, waveform, parade, vectorscope,
                           std::string(formatInfo(f).name) + " mode " + std::to_string(int(mode)) + " colour " +
                               std::to_string(int(colour)));
            }
    }
}

// A texture whose storage is specified again at the same size, under the same name: the
// engine registers the new storage (its generation is new), so the frame lands in what GL
// now reads, not in the storage it replaced (which still holds the old frame, or nothing).
TEST_F(CudaInterop, RespecifiedTextureOfTheSameSizeGetsTheFrame) {
    const int w = 96, h = 64;
    CudaEngine& engine = *test::cudaEngine();
    ScopeSpec spec;
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = spec.stats = false;
    auto expectPicture = [&](const Texture& texture, int value, const char* where) {
        SCOPED_TRACE(where);
        Frame frame(PixelFormat::Nv12, w, h);
        frame.fill(value, 128, 128);
        GlTargets t;
        t.picture = texture.target();
        ScopeResults counts, host;
        const Status s = engine.processToGl(frame.view(), spec, counts, t);
        ASSERT_TRUE(s.ok()) << s.message();
        ASSERT_TRUE(engine.process(frame.view(), spec, host).ok());
        EXPECT_TRUE(test::imagesClose(texture.read(), host.picture, 0, "picture texture"));
    };
    Texture texture(w, h);
    expectPicture(texture, 60, "first storage");
    const uint64_t first = texture.generation;
    texture.respecify(0x5a5a5a5au);
    ASSERT_NE(texture.generation, first);
    expectPicture(texture, 180, "the same name and size, new storage");
    texture.respecify(0x5a5a5a5au);
    expectPicture(texture, 90, "new storage again");
}

TEST_F(CudaInterop, WrongTextureSizeIsAnError) {
    Frame frame(PixelFormat::Nv12, 64, 48);
    frame.fill(100, 120, 140);
    Texture small(32, 48);
    GlTargets t;
    t.picture = small.target();
    ScopeResults r;
    const Status s = test::cudaEngine()->processToGl(frame.view(), ScopeSpec{}, r, t);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("picture texture"), std::string::npos) << s.message();
    // A texture whose declared size disagrees with its storage is refused, not overrun.
    Texture real(64, 48);
    t.picture = {real.name, 64, 48};
    t.waveform = {small.name, 300, 200};
    const Status lie = test::cudaEngine()->processToGl(frame.view(), ScopeSpec{}, r, t);
    EXPECT_FALSE(lie.ok());
    // And the engine still works.
    t.waveform = {};
    EXPECT_TRUE(test::cudaEngine()->processToGl(frame.view(), ScopeSpec{}, r, t).ok());
}

}  // namespace
}  // namespace cs
