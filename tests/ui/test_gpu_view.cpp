// The GUI's CUDA path without a window: a headless OpenGL 3.3 context through EGL (a
// device display where the driver offers one), the frame textures, and EngineHost with the
// CUDA engine writing them through interop. Checks that the picture and preview textures
// match the CPU engine, that the trace textures sit under core's graticule (a bar's level
// lands on the graticule row of its code), that the histogram is core's image, and that the
// pixel picker reads frames held in GPU memory exactly as host frames; compare's second engine
// writes its own textures and copies device frames to the host exactly; the gamut check's
// preview texture is the CPU engine's preview; one field (EngineHost::field) is shown and
// measured alone; the gamut display panel is drawn from the CUDA engine's counts as from the
// CPU engine's. Exits 77 (skipped)
// without a CUDA device or an EGL OpenGL context.
#include <GL/glew.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "scope/Graticule.h"
#include "scope/ScopeRender.h"
#include "render/GlObjects.h"
#include "render/GraticuleOverlay.h"
#include "render/HeadlessContext.h"
#include "playback/EngineHost.h"
#include "playback/PixelProbe.h"
#include "analysis/ActivePicture.h"
#include "cpu/CpuEngine.h"

namespace cs {
namespace {

constexpr int kSkip = 77;

RgbaImage readTexture(const gl::RgbaTexture& t) {
    RgbaImage img;
    img.resize(t.width(), t.height());
    glBindTexture(GL_TEXTURE_2D, t.name());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    return img;
}

int maxDifference(const RgbaImage& a, const RgbaImage& b) {
    if (a.width != b.width || a.height != b.height) return 256;
    int m = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) m = std::max(m, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
    return m;
}

// A host frame copied into CUDA memory, viewed as a device frame.
struct DeviceFrame {
    std::vector<void*> planes;
    FrameView view;
    explicit DeviceFrame(const FrameView& host) : view(host) {
        view.onDevice = true;
        const auto& info = formatInfo(host.format);
        for (int i = 0; i < info.planeCount; ++i) {
            const int rows = i == 0 ? host.height : chromaHeight(host.format, host.height);
            const size_t bytes = size_t(host.pitch[size_t(i)]) * size_t(rows);
            void* d = nullptr;
            if (cudaMalloc(&d, bytes) != cudaSuccess || cudaMemcpy(d, host.data[size_t(i)], bytes, cudaMemcpyHostToDevice) != cudaSuccess)
                ADD_FAILURE() << "cannot copy plane " << i << " to the device";
            planes.push_back(d);
            view.data[size_t(i)] = static_cast<const uint8_t*>(d);
        }
    }
    ~DeviceFrame() {
        for (void* p : planes) cudaFree(p);
    }
};

// The panel image a view shows: the trace texture's pieces at their places, the graticule
// overlay (premultiplied) over them. Written as PPM when CS_GPU_VIEW_OUT names a folder,
// to look at what the CUDA path draws.
void writeComposite(const char* name, const RgbaImage& trace, const ScopePlacement& placement, const RgbaImage& overlay) {
    const char* dir = std::getenv("CS_GPU_VIEW_OUT");
    if (!dir || placement.imageWidth <= 0) return;
    RgbaImage img;
    img.resize(placement.imageWidth, placement.imageHeight);
    for (const auto& piece : placement.pieces)
        for (int y = 0; y < int(piece.dst.h); ++y)
            for (int x = 0; x < int(piece.dst.w); ++x) {
                const int tx = std::min(trace.width - 1, int((piece.uv.x + (x + 0.5) / piece.dst.w * piece.uv.w) * trace.width));
                const int ty = std::min(trace.height - 1, int((piece.uv.y + (y + 0.5) / piece.dst.h * piece.uv.h) * trace.height));
                std::copy_n(trace.at(tx, ty), 4, img.at(int(piece.dst.x) + x, int(piece.dst.y) + y));
            }
    std::FILE* f = std::fopen((std::string(dir) + "/" + name + ".ppm").c_str(), "wb");
    if (!f) return;
    std::fprintf(f, "P6\n%d %d\n255\n", img.width, img.height);
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const uint8_t* t = img.at(x, y);
            const uint8_t* o = overlay.empty() ? nullptr : overlay.at(x, y);
            for (int c = 0; c < 3; ++c)
                std::fputc(o ? std::min(255, o[c] + t[c] * (255 - o[3]) / 255) : t[c], f);
        }
    std::fclose(f);
}

// Limited-range BT.709, tagged so (no matrix or range assumed from the size).
ColorInfo taggedBt709() {
    ColorInfo c;
    c.matrix = Matrix::Bt709;
    c.range = Range::Limited;
    c.matrixTagged = c.rangeTagged = true;
    return c;
}

class GpuView : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
            skipWhy() = "no CUDA device";
            return;
        }
        if (Status s = gl::makeHeadlessContext(); !s) skipWhy() = s.message();
    }
    static std::string& skipWhy() {
        static std::string why;
        return why;
    }
};

TEST_F(GpuView, EngineWritesTheFrameTexturesUnderCoresGraticule) {
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    // Eight vertical bars at the 75% bars' luma levels (BT.709 limited, 4:2:2, 1920x1080;
    // each bar 240 columns), with the bars' chroma, so the scopes have known levels.
    constexpr int kLevels[8] = {180, 168, 145, 133, 63, 51, 28, 16};
    constexpr double kRgb[8][3] = {{.75, .75, .75}, {.75, .75, 0}, {0, .75, .75}, {0, .75, 0},
                                   {.75, 0, .75},   {.75, 0, 0},   {0, 0, .75},   {0, 0, 0}};
    int kCb[8], kCr[8];
    for (int i = 0; i < 8; ++i) {
        const ChromaCodes c = chromaCodes(Matrix::Bt709, Range::Limited, 8, kRgb[i][0], kRgb[i][1], kRgb[i][2]);
        kCb[i] = int(std::lround(c.cb));
        kCr[i] = int(std::lround(c.cr));
    }
    ColorInfo bt709;
    bt709.matrix = Matrix::Bt709;
    bt709.range = Range::Limited;
    bt709.matrixTagged = bt709.rangeTagged = true;
    Frame bars(PixelFormat::Yuv422p, 1920, 1080, bt709);
    for (int y = 0; y < 1080; ++y)
        for (int x = 0; x < 1920; ++x) bars.setPixel(x, y, kLevels[x / 240], kCb[x / 240], kCr[x / 240]);
    struct {
        FrameView view;
    } frame{bars.view()};

    host.setPanel(gl::Plane::Waveform, 700, 380);
    host.setPanel(gl::Plane::Parade, 640, 360);
    host.setPanel(gl::Plane::Vectorscope, 420, 400);
    host.setPanel(gl::Plane::Histogram, 500, 260);
    host.setPanel(gl::Plane::Preview, 400, 225);
    host.spec().preview = PreviewFilter::FocusPeaking;
    gl::FrameTextures textures;
    Status s = host.process(frame.view, &textures);
    ASSERT_TRUE(s) << s.message();
    for (gl::Plane p : {gl::Plane::Picture, gl::Plane::Preview, gl::Plane::Histogram, gl::Plane::Waveform, gl::Plane::Parade,
                        gl::Plane::Vectorscope})
        EXPECT_TRUE(textures.filled(p)) << int(p);

    // The reference: the CPU engine on the same frame with the same spec.
    auto cpu = makeCpuEngine(2);
    ScopeSpec spec = host.spec();
    ScopeResults ref;
    ASSERT_TRUE(cpu->process(frame.view, spec, ref));
    EXPECT_LE(maxDifference(readTexture(textures.texture(gl::Plane::Picture)), ref.picture), 1);
    EXPECT_LE(maxDifference(readTexture(textures.texture(gl::Plane::Preview)), ref.preview), 1);
    // Counts come back identical, so core draws the very same histogram.
    EXPECT_EQ(host.results().histY, ref.histY);
    ScopeSpec hs = spec;
    hs.scopeWidth = 500;
    hs.scopeHeight = 260;
    RgbaImage histogram;
    renderHistogram(ref, hs, histogram);
    EXPECT_EQ(maxDifference(readTexture(textures.texture(gl::Plane::Histogram)), histogram), 0);

    // The waveform trace fills the plot of a 700x380 image; in each bar's columns its
    // brightest row is the graticule's row for the bar's code.
    int tw = 0, th = 0;
    traceTextureSize(gl::Plane::Waveform, 700, 380, tw, th);
    const RgbaImage trace = readTexture(textures.texture(gl::Plane::Waveform));
    ASSERT_EQ(trace.width, tw);
    ASSERT_EQ(trace.height, th);
    const ScopePlacement placement = host.placement(gl::Plane::Waveform, textures);
    ASSERT_EQ(placement.pieces.size(), 1u);
    const PlotRect plot = waveformPlotRect(700, 380);
    EXPECT_EQ(placement.pieces[0].dst.x, plot.left);
    EXPECT_EQ(placement.pieces[0].dst.h, plot.height);
    for (int bar = 0; bar < 8; ++bar) {
        const int code = kLevels[bar];
        const int column = (240 * bar + 120) * tw / 1920;
        int best = -1, bestRow = -1;
        for (int y = 0; y < th; ++y)
            if (trace.at(column, y)[1] > best) {
                best = trace.at(column, y)[1];
                bestRow = y;
            }
        // The graticule overlay rounds the code's line to one row: the trace is brightest there
        // (where the trace is taller than the codes, a code may light its neighbour row too).
        const int lineRow = int(std::lround(plot.toPixelY(code / 255.0))) - plot.top;
        ASSERT_TRUE(lineRow >= 0 && lineRow < th) << "code " << code;
        EXPECT_EQ(trace.at(column, lineRow)[1], best) << "code " << code << ": brightest at row " << bestRow << ", line at " << lineRow;
    }
    const RgbaImage overlay = host.overlayFor(gl::Plane::Waveform);
    EXPECT_EQ(overlay.width, 700);
    EXPECT_EQ(overlay.height, 380);
    EXPECT_EQ(host.placement(gl::Plane::Parade, textures).pieces.size(), 3u);

    // The vectorscope trace: each bar's chroma lights the texel at the graticule's point for
    // it (the 75% targets sit there), rounded as the overlay rounds it (cuda/images/TraceTexels.h uses
    // core's mapping).
    const ScopePlacement vs = host.placement(gl::Plane::Vectorscope, textures);
    const RgbaImage vsTrace = readTexture(textures.texture(gl::Plane::Vectorscope));
    ASSERT_EQ(vs.pieces.size(), 1u);
    const PlotRect vplot = vectorscopePlotRect(vs.imageWidth);
    ASSERT_EQ(vsTrace.width, vplot.width);
    for (int bar = 0; bar < 7; ++bar) {
        const PlotPoint p = vectorscopePoint(kCb[bar], kCr[bar], 8, 1);
        const double ex = p.x * (vplot.width - 1), ey = (1.0 - p.y) * (vplot.height - 1);   // trace texel coordinates
        int best = -1, bx = 0, by = 0;
        for (int y = std::max(0, int(ey) - 4); y <= std::min(vplot.height - 1, int(ey) + 4); ++y)
            for (int x = std::max(0, int(ex) - 4); x <= std::min(vplot.width - 1, int(ex) + 4); ++x)
                if (vsTrace.at(x, y)[0] > best) {
                    best = vsTrace.at(x, y)[0];
                    bx = x;
                    by = y;
                }
        EXPECT_GT(best, 0) << "bar " << bar;
        const int px = int(std::lround(ex)), py = int(std::lround(ey));
        EXPECT_EQ(vsTrace.at(px, py)[0], best) << "bar " << bar << ": brightest at (" << bx << ", " << by << "), point at (" << px << ", " << py << ")";
    }
    writeComposite("waveform", trace, placement, overlay);
    for (auto [plane, name] : {std::pair{gl::Plane::Parade, "parade"}, std::pair{gl::Plane::Vectorscope, "vectorscope"}})
        writeComposite(name, readTexture(textures.texture(plane)), host.placement(plane, textures), host.overlayFor(plane));
    host.releaseGl();
    textures.release();
}

TEST_F(GpuView, CiePanelFromTheCudaEnginesCounts) {
    // The CIE panel through the window's CUDA path (processToGl): the chromaticity counts come
    // back with the frame's results and the window draws core's diagram from them into the
    // panel's texture, as from the CPU engine's. A BT.2020 frame, left half its green primary.
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    ColorInfo wide;
    wide.matrix = Matrix::Bt2020Ncl;
    wide.range = Range::Limited;
    wide.primaries = Primaries::Bt2020;
    wide.matrixTagged = wide.rangeTagged = true;
    Frame frame(PixelFormat::Yuv420p10, 640, 360, wide);
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) {
            if (x < 320) frame.setPixel(x, y, 658, 189, 100);
            else frame.setPixel(x, y, 502, 512, 512);
        }
    host.setPanel(gl::Plane::Cie, 420, 400);
    gl::FrameTextures textures;
    Status s = host.process(frame.view(), &textures);
    ASSERT_TRUE(s) << s.message();
    ASSERT_TRUE(host.spec().cie);
    EXPECT_EQ(host.spec().cieSize, 400);
    EXPECT_TRUE(textures.filled(gl::Plane::Cie));
    auto cpu = makeCpuEngine(2);
    ScopeSpec spec = host.spec();
    ScopeResults ref;
    ASSERT_TRUE(cpu->process(frame.view(), spec, ref));
    ASSERT_TRUE(host.results().gamut.measured);
    EXPECT_EQ(host.results().gamut.counts, ref.gamut.counts);
    EXPECT_EQ(host.results().gamut.outside, ref.gamut.outside);
    EXPECT_EQ(ref.gamut.outside, uint64_t(320 * 360));
    const RgbaImage shown = readTexture(textures.texture(gl::Plane::Cie));
    ASSERT_EQ(shown.width, 400);
    EXPECT_EQ(maxDifference(shown, ref.cieImage), 0);

    // The gamut check with the panel closed: the share outside only, no counts, no diagram.
    host.setPanel(gl::Plane::Cie, 0, 0);
    host.gamutCheck = true;
    s = host.process(frame.view(), &textures);
    ASSERT_TRUE(s) << s.message();
    ASSERT_TRUE(host.spec().cie);
    EXPECT_FALSE(host.spec().cieCounts);
    ASSERT_TRUE(host.results().gamut.measured);
    EXPECT_EQ(host.results().gamut.outside, uint64_t(320 * 360));
    EXPECT_TRUE(host.results().gamut.counts.empty());
    EXPECT_TRUE(host.shownImage(gl::Plane::Cie).empty());
    host.releaseGl();
    textures.release();
}

TEST_F(GpuView, GamutDisplayPanelFromTheCudaEnginesCounts) {
    // The Gamut Display panel through the window's CUDA path: the display's counts come back
    // with the frame's results and the window draws scope/GamutDisplay's image from them into
    // the panel's texture, the CPU engine's counts and image byte for byte, in every mode.
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    const ColorInfo c = taggedBt709();
    Frame frame(PixelFormat::Yuv420p10, 640, 360, c);
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) frame.setPixel(x, y, 40 + (x * 7 + y * 3) % 980, 64 + (x * 5) % 897, 64 + (y * 11) % 897);
    gl::FrameTextures textures;
    auto cpu = makeCpuEngine(2);
    host.setPanel(gl::Plane::GamutDisplay, 420, 400);
    for (GamutDisplay mode : {GamutDisplay::Diamond, GamutDisplay::SplitDiamond, GamutDisplay::Arrowhead, GamutDisplay::Lightning}) {
        SCOPED_TRACE(int(mode));
        host.gamutDisplayMode = mode;
        Status s = host.process(frame.view(), &textures);
        ASSERT_TRUE(s) << s.message();
        ASSERT_EQ(host.spec().gamutDisplay, mode);
        ASSERT_TRUE(textures.filled(gl::Plane::GamutDisplay));
        ScopeResults ref;
        ASSERT_TRUE(cpu->process(frame.view(), host.spec(), ref));
        EXPECT_EQ(host.results().gamutDisplay.mode, mode);
        EXPECT_EQ(host.results().gamutDisplay.counts, ref.gamutDisplay.counts);
        const RgbaImage shown = readTexture(textures.texture(gl::Plane::GamutDisplay));
        EXPECT_EQ(maxDifference(shown, ref.gamutDisplayImage), 0);
    }
    host.releaseGl();
    textures.release();
}

TEST_F(GpuView, GamutCheckPreviewFromTheCudaEngine) {
    // View > Gamut Check through the window's CUDA path: the gamut preview (the pixels outside
    // BT.709 magenta over the picture) written into the preview texture by processToGl, the
    // CPU engine's byte for byte. A BT.2020 frame, left half its green primary, right half grey.
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    Frame frame(PixelFormat::Yuv420p10, 640, 360, ColorInfo{Matrix::Bt2020Ncl, Range::Limited, Transfer::Bt709, true, true, Primaries::Bt2020});
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) {
            if (x < 320) frame.setPixel(x, y, 658, 189, 100);
            else frame.setPixel(x, y, 502, 512, 512);
        }
    host.gamutCheck = true;
    host.spec().preview = PreviewFilter::Gamut;   // as MainWindow sets it while the check is on
    gl::FrameTextures textures;
    Status s = host.process(frame.view(), &textures);
    ASSERT_TRUE(s) << s.message();
    ASSERT_TRUE(textures.filled(gl::Plane::Preview));
    auto cpu = makeCpuEngine(2);
    ScopeResults ref;
    ASSERT_TRUE(cpu->process(frame.view(), host.spec(), ref));
    const RgbaImage shown = readTexture(textures.texture(gl::Plane::Preview));
    ASSERT_EQ(shown.width, 640);
    EXPECT_EQ(maxDifference(shown, ref.preview), 0);
    EXPECT_EQ(host.results().gamut.outside, uint64_t(320 * 360));
    const uint8_t* left = shown.at(10, 10);
    const uint8_t* right = shown.at(630, 10);
    EXPECT_TRUE(left[0] == 255 && left[1] == 0 && left[2] == 255) << int(left[0]) << "," << int(left[1]) << "," << int(left[2]);
    EXPECT_TRUE(right[0] == right[1] && right[1] == right[2]) << int(right[0]) << "," << int(right[1]) << "," << int(right[2]);
    host.releaseGl();
    textures.release();
}

TEST_F(GpuView, PickerReadsDeviceFramesAsHostFrames) {
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    ColorInfo c;
    c.matrix = Matrix::Bt709;
    c.range = Range::Limited;
    // Odd sizes: the last column and row have chroma of their own (4:2:0 rounds up).
    for (PixelFormat format : {PixelFormat::Nv12, PixelFormat::P010, PixelFormat::Yuv420p, PixelFormat::Yuv422p10}) {
        Frame f(format, 37, 21, c);
        const int top = levelsOf(format) - 1;
        for (int y = 0; y < 21; ++y)
            for (int x = 0; x < 37; ++x) f.setPixel(x, y, (x * 37 + y * 11) % (top + 1), (x * 13 + 5) % (top + 1), (y * 29 + 3) % (top + 1));
        DeviceFrame d(f.view());
        for (int y = 0; y < 21; ++y)
            for (int x = 0; x < 37; ++x) {
                const auto expected = readPixel(f.view(), c, x, y);
                const auto got = host.readDevicePixel(d.view, c, x, y);
                ASSERT_TRUE(expected && got) << x << "," << y;
                ASSERT_EQ(got->luma, expected->luma) << formatInfo(format).name << " " << x << "," << y;
                ASSERT_EQ(got->cb, expected->cb);
                ASSERT_EQ(got->cr, expected->cr);
                ASSERT_EQ(got->r, expected->r);
                ASSERT_EQ(got->x, x);
            }
        EXPECT_FALSE(host.readDevicePixel(d.view, c, 37, 0));
        EXPECT_FALSE(host.readDevicePixel(f.view(), c, 0, 0)) << "a host frame is not read as a device frame";
    }
}

TEST_F(GpuView, OneFieldThroughTheWindowsCudaPath) {
    // View > Fields through the window's CUDA path (EngineHost::field, processToGl): an NV12
    // frame in device memory whose even lines are Y' 200 and odd lines Y' 50. The picture
    // texture is the field's (half the height), the CPU engine's picture of the same field;
    // the scopes count the field alone; the picker reads the field's device view as the host's.
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    const ColorInfo c = taggedBt709();
    Frame frame(PixelFormat::Nv12, 640, 360, c);
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) frame.setPixel(x, y, y % 2 ? 50 : 200, 100 + (y / 2) % 50, 128);
    DeviceFrame device(frame.view());
    gl::FrameTextures textures;
    auto cpu = makeCpuEngine(2);
    host.setPanel(gl::Plane::Histogram, 400, 200);
    host.setPanel(gl::Plane::Waveform, 400, 200);
    for (Field field : {Field::Top, Field::Bottom}) {
        SCOPED_TRACE(fieldName(field));
        host.field = field;
        Status s = host.process(device.view, &textures);
        ASSERT_TRUE(s) << s.message();
        ASSERT_EQ(host.results().height, 180);
        const int code = field == Field::Top ? 200 : 50;
        ASSERT_EQ(host.results().histY.size(), size_t(256));
        EXPECT_EQ(host.results().histY[size_t(code)], uint32_t(640 * 180));
        auto hostField = fieldView(frame.view(), field);
        ASSERT_TRUE(hostField.ok());
        ScopeResults ref;
        ASSERT_TRUE(cpu->process(*hostField, host.spec(), ref));
        ASSERT_TRUE(textures.filled(gl::Plane::Picture));
        ASSERT_EQ(textures.texture(gl::Plane::Picture).height(), 180);
        const RgbaImage shown = readTexture(textures.texture(gl::Plane::Picture));
        EXPECT_LE(maxDifference(shown, ref.picture), 1);
        auto deviceField = host.shownView(device.view);
        ASSERT_TRUE(deviceField.ok());
        for (int y : {0, 1, 97, 179}) {
            const auto expected = readPixel(*hostField, c, 33, y);
            const auto got = host.readDevicePixel(*deviceField, c, 33, y);
            ASSERT_TRUE(expected && got);
            EXPECT_EQ(got->luma, code);
            EXPECT_EQ(got->luma, expected->luma);
            EXPECT_EQ(got->cb, expected->cb);
        }
    }
    host.releaseGl();
    textures.release();
}

TEST_F(GpuView, ActivePictureOfADeviceFrameFromItsHostCopy) {
    // View > Guides > Active Picture on an NVDEC frame: the window copies the frame shown to
    // the host (EngineHost::copyToHost) and finds the area there, as on the host frame; the
    // same for a field of it.
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost host("cuda");
    ASSERT_TRUE(host.usesCuda()) << host.note();
    Frame frame(PixelFormat::Nv12, 640, 360);
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) frame.setPixel(x, y, y < 48 || y >= 312 ? 16 : 60 + (x + y) % 150, 128, 128);
    DeviceFrame device(frame.view());
    for (std::optional<Field> field : {std::optional<Field>(), std::optional<Field>(Field::Bottom)}) {
        host.field = field;
        auto onDevice = host.shownView(device.view);
        auto onHost = host.shownView(frame.view());
        ASSERT_TRUE(onDevice.ok() && onHost.ok());
        auto copied = host.copyToHost(*onDevice);
        ASSERT_TRUE(copied.ok()) << copied.message();
        const auto fromCopy = activePictureOf(copied->view());
        const auto fromHost = activePictureOf(*onHost);
        ASSERT_TRUE(fromCopy && fromHost);
        EXPECT_EQ(fromCopy->y, fromHost->y);
        EXPECT_EQ(fromCopy->h, fromHost->h);
        EXPECT_EQ(fromCopy->w, fromHost->w);
        EXPECT_TRUE(fromHost->y >= (field ? 24 : 48) && fromHost->h <= (field ? 132 : 264)) << fromHost->y << " " << fromHost->h;
        EXPECT_FALSE(activePictureOf(*onDevice)) << "a device frame is not read on the host";
    }
}

TEST_F(GpuView, CompareRunsASecondEngineIntoItsOwnTextures) {
    // Compare (ui/compare/Compare.h): B's EngineHost is a second CUDA engine writing a second set of
    // frame textures in the same context; A's stay as they were, each picture is its frame's
    // (against the CPU engine), and a device frame copied to the host (the snapshot of an
    // NVDEC frame) has the frame's very samples.
    if (!skipWhy().empty()) GTEST_SKIP() << skipWhy();
    EngineHost a("cuda"), b("cuda");
    ASSERT_TRUE(a.usesCuda() && b.usesCuda()) << a.note();
    ColorInfo c;
    c.matrix = Matrix::Bt709;
    c.range = Range::Limited;
    Frame fa(PixelFormat::Yuv420p, 640, 360, c), fb(PixelFormat::Nv12, 640, 360, c);
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) {
            fa.setPixel(x, y, 16 + (x * 219) / 639, 128, 128);
            fb.setPixel(x, y, 16 + (y * 219) / 359, 64 + (x % 128), 200 - (y % 100));
        }
    DeviceFrame db(fb.view());
    for (EngineHost* h : {&a, &b}) {
        h->setPanel(gl::Plane::Waveform, 600, 320);
        h->setPanel(gl::Plane::Vectorscope, 400, 400);
        h->setPanel(gl::Plane::Histogram, 400, 220);
    }
    gl::FrameTextures ta, tb;
    ASSERT_TRUE(a.process(fa.view(), &ta));
    const RgbaImage pictureA = readTexture(ta.texture(gl::Plane::Picture));
    const RgbaImage waveformA = readTexture(ta.texture(gl::Plane::Waveform));
    Status s = b.process(db.view, &tb);
    ASSERT_TRUE(s) << s.message();
    EXPECT_NE(ta.texture(gl::Plane::Picture).name(), tb.texture(gl::Plane::Picture).name());
    EXPECT_EQ(maxDifference(readTexture(ta.texture(gl::Plane::Picture)), pictureA), 0) << "B's run changed A's picture";
    EXPECT_EQ(maxDifference(readTexture(ta.texture(gl::Plane::Waveform)), waveformA), 0) << "B's run changed A's waveform";
    auto cpu = makeCpuEngine(2);
    ScopeSpec spec = b.spec();
    ScopeResults refA, refB;
    ASSERT_TRUE(cpu->process(fa.view(), spec, refA));
    ASSERT_TRUE(cpu->process(fb.view(), spec, refB));
    EXPECT_LE(maxDifference(pictureA, refA.picture), 1);
    EXPECT_LE(maxDifference(readTexture(tb.texture(gl::Plane::Picture)), refB.picture), 1);
    // The window's CUDA path copies back the histograms and statistics (the large counts only
    // when the picker or Save Scopes ask): B's are B's frame's.
    EXPECT_EQ(b.results().histY, refB.histY);
    EXPECT_EQ(b.results().stats.y.min, refB.stats.y.min);
    EXPECT_EQ(b.results().stats.y.max, refB.stats.y.max);
    EXPECT_EQ(b.results().stats.u.avg, refB.stats.u.avg);
    EXPECT_NE(maxDifference(readTexture(tb.texture(gl::Plane::Waveform)), waveformA), 0);

    auto copy = b.copyToHost(db.view);
    ASSERT_TRUE(copy) << copy.message();
    const FrameView cv = copy->view();
    ASSERT_EQ(cv.width, 640);
    ASSERT_EQ(cv.format, PixelFormat::Nv12);
    for (int i = 0; i < 2; ++i)
        for (int y = 0; y < planeRows(PixelFormat::Nv12, 360, i); ++y)
            ASSERT_EQ(std::memcmp(cv.data[size_t(i)] + y * cv.pitch[size_t(i)], fb.view().data[size_t(i)] + y * fb.view().pitch[size_t(i)],
                                  planeRowBytes(PixelFormat::Nv12, 640, i)),
                      0)
                << "plane " << i << " row " << y;
    EXPECT_FALSE(b.copyToHost(fb.view())) << "a host frame is not copied as a device frame";
    a.releaseGl();
    b.releaseGl();
    ta.release();
    tb.release();
}

}  // namespace
}  // namespace cs

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const int rc = RUN_ALL_TESTS();
    // Every test skipped (no CUDA device or no EGL context): report "skipped" to CTest.
    const auto* unit = ::testing::UnitTest::GetInstance();
    if (rc == 0 && unit->test_to_run_count() > 0 && unit->skipped_test_count() == unit->test_to_run_count()) return 77;
    return rc;
}
