// playback_bench: the real application window (ui/main/MainWindow, as `cudascope` opens it) with
// every scope panel and the preview visible, playing INPUT at its own frame rate at 1x
// from the start with loop on. After a warm-up it measures for a while and prints one
// markdown table row: frames presented and dropped (the Player's own counters, the ones
// the status bar shows), engine time per frame and the intervals between presented frames.
//
//   playback_bench INPUT [--seconds S] [--warmup S] [--engine auto|cpu|cuda]
//                  [--hwdec auto|nvdec|none] [--window WxH] [--threads N]
//                  [--no-window] [--cie] [--snapshot PNG] [--timeline CUDASCOPE]
//
// Needs an X display with OpenGL 3.3 (Xvfb: xvfb-run -a -s "-screen 0 1920x1080x24");
// --no-window needs an EGL OpenGL 3.3 context instead, for machines where no X server gives
// the GPU's OpenGL: the same Player, EngineHost and views, drawing offscreen (bench/README.md).
// It also prints every frame the source delivered accounted for (delivered = presented +
// dropped + skipped + waiting, Player::FrameCounts).
// Exit: 0 measured; 1 the input (or the engine asked for) failed, one line naming the
// input and the reason, or the frames did not balance; 2 usage; 77 no display or no OpenGL
// 3.3 here (CTest: skipped).
//
// --timeline CUDASCOPE: the Timeline's background pass (`CUDASCOPE qc` on INPUT at nice 19,
// as the window runs it: ui/timeline/TimelinePass.h) starts as the file opens, so the frames
// presented and dropped are those of playback with the pass running (while it runs: a line
// after the table says how far the pass got and how fast, frames filled over their seconds).
#include <QApplication>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QOpenGLContext>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/PixelFormat.h"
#include "decode/Source.h"
#include "render/FrameTextures.h"
#include "render/GlObjects.h"
#include "render/HeadlessContext.h"
#include "render/OffscreenTarget.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "ui/main/ScopeView.h"
#include "ui/timeline/TimelinePanel.h"
#include "ui/timeline/TimelinePass.h"
#include "WallBench.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: playback_bench INPUT [--seconds S (default 10)] [--warmup S (default 1)]\n"
    "                      [--engine auto|cpu|cuda] [--hwdec auto|nvdec|none]\n"
    "                      [--window WxH (default 1920x1080)] [--threads N] [--no-window]\n"
    "                      [--cie] [--snapshot PNG] [--timeline CUDASCOPE]\n"
    "Plays INPUT (a file or any cudascope input, e.g. pattern:bars) in the main window with\n"
    "every scope panel open, at 1x with loop on, and prints one markdown table row.\n"
    "--threads N: the CPU engine's pool and FFmpeg's decoder threads (default: the hardware's).\n"
    "--no-window: no window system: the Player, EngineHost and views on an EGL device pbuffer,\n"
    "  each view drawn per frame into an offscreen framebuffer at the size the window's default\n"
    "  layout gives it at 1920x1080, then glFinish.\n"
    "--cie: the CIE chromaticity panel (in front of the vectorscope's tab; --no-window: at the\n"
    "  vectorscope's size) and the gamut check (View > Gamut Check) as well.\n"
    "--snapshot PNG: after measuring, the window as shown (with --no-window: what the views drew,\n"
    "  side by side: picture, waveform, parade, vectorscope, histogram, preview).\n"
    "--timeline CUDASCOPE: the Timeline's background pass (CUDASCOPE qc at nice 19, as the window\n"
    "  runs it) starts as the file opens; a line says how far and how fast it got.\n"
    "--wall IN1 IN2 ...: the monitoring wall of several inputs (every tile with its waveform,\n"
    "  vectorscope and histogram): per tile presented, dropped and latency, and the drawing\n"
    "  thread's time per refresh (--no-window: a 60 Hz refresh loop on EGL).\n";

// The longest wait for the first frame (opening, the decoder's first picture).
constexpr int kOpenTimeoutMs = 30000;

struct Options {
    std::string input;
    double seconds = 10.0;
    double warmup = 1.0;
    std::string engine = "auto";
    std::string hwdec = "auto";
    int width = 1920, height = 1080;
    int threads = 0;
    bool noWindow = false;
    bool cie = false;       // --cie: the CIE panel and the gamut check as well
    std::string snapshot;   // PNG written after the measurement ("": none)
    std::string timeline;   // --timeline: the cudascope binary the background pass runs ("": no pass)
    bool wall = false;      // --wall: every positional argument is a tile (bench/playback/WallBench.h)
    std::vector<std::string> inputs;
};

int usage(const std::string& problem) {
    if (!problem.empty()) std::fprintf(stderr, "playback_bench: %s\n", problem.c_str());
    std::fputs(kUsage, stderr);
    return 2;
}

bool parseSeconds(const char* text, double& out, double minimum) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v) || v < minimum) return false;
    out = v;
    return true;
}

// Parses the command line; returns an exit code (2) on a usage error.
std::optional<int> parseArgs(int argc, char** argv, Options& o) {
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == "--no-window") {
            o.noWindow = true;
            continue;
        }
        if (a == "--cie") {
            o.cie = true;
            continue;
        }
        if (a == "--wall") {
            o.wall = true;
            continue;
        }
        if (a.rfind("--", 0) != 0) {
            positional.push_back(a);
            continue;
        }
        if (i + 1 >= argc) return usage(a + " needs a value");
        const char* value = argv[++i];
        if (a == "--seconds") {
            if (!parseSeconds(value, o.seconds, 0.1)) return usage("--seconds wants a number of seconds >= 0.1");
        } else if (a == "--warmup") {
            if (!parseSeconds(value, o.warmup, 0.0)) return usage("--warmup wants a number of seconds >= 0");
        } else if (a == "--engine") {
            o.engine = value;
            if (o.engine != "auto" && o.engine != "cpu" && o.engine != "cuda") return usage("--engine is auto, cpu or cuda");
        } else if (a == "--hwdec") {
            o.hwdec = value;
            if (o.hwdec != "auto" && o.hwdec != "nvdec" && o.hwdec != "none") return usage("--hwdec is auto, nvdec or none");
        } else if (a == "--window") {
            char tail = 0;
            if (std::sscanf(value, "%dx%d%c", &o.width, &o.height, &tail) != 2 || o.width < 320 || o.height < 240 ||
                o.width > 16384 || o.height > 16384)
                return usage("--window wants WIDTHxHEIGHT, at least 320x240");
        } else if (a == "--snapshot") {
            o.snapshot = value;
        } else if (a == "--timeline") {
            o.timeline = value;
        } else if (a == "--threads") {
            char* end = nullptr;
            const long n = std::strtol(value, &end, 10);
            if (end == value || *end != '\0' || n < 1 || n > 256) return usage("--threads wants a count from 1 to 256");
            o.threads = int(n);
        } else {
            return usage("unknown option " + a);
        }
    }
    if (o.wall) {
        if (positional.empty()) return usage("--wall needs at least one INPUT");
        o.inputs = positional;
        return std::nullopt;
    }
    if (positional.size() != 1) return usage(positional.empty() ? "no INPUT given" : "one INPUT only");
    o.input = positional.front();
    return std::nullopt;
}

bool haveDisplay() {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (display && *display) || (wayland && *wayland);
}

bool haveOpenGl33() {
    QOpenGLContext context;
    context.setFormat(QSurfaceFormat::defaultFormat());
    if (!context.create()) return false;
    const QSurfaceFormat f = context.format();
    return f.majorVersion() > 3 || (f.majorVersion() == 3 && f.minorVersion() >= 3);
}

// The q-quantile (0..1) of the samples, nearest rank; 0 for none.
double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t rank = size_t(std::ceil(q * double(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

// What happens while the window plays: every presented frame's time and engine time.
struct Recorder {
    bool measuring = false;
    std::vector<Clock::time_point> presentTimes;
    std::vector<double> engineMs;
};

// The span measured, once the player has played it.
struct Measured {
    double seconds = 0.0;
    int64_t presented = 0, dropped = 0;
};

// Plays from the start (1x, loop on) until the first frame, warms up, measures. Every
// presented frame's time and engine time are recorded; `process` (if any) runs first on each
// new frame, as the window's own frameChanged slot does. Returns the error, if any.
// The Timeline's background pass beside playback (--timeline): the panel the window shows
// (or one never shown, without a window) is sampled every 50 ms from the file's open.
class PassWatch {
public:
    // Points the panels' passes at `program`, with a cache folder of their own (so no earlier
    // report of the input is reused).
    explicit PassWatch(const std::string& program) {
        cs::timeline::TimelinePass::setProgram(QString::fromStdString(program));
        cs::timeline::TimelinePass::setCacheFolder(cache_.path());
        timer_.setInterval(50);
        QObject::connect(&timer_, &QTimer::timeout, [this] { sample(); });
    }
    // `startPass` opens the input in `panel` (which starts its pass).
    void start(cs::timeline::TimelinePanel* panel, const std::function<void()>& startPass) {
        panel_ = panel;
        start_ = last_ = Clock::now();
        QObject::connect(panel, &cs::timeline::TimelinePanel::filled, &timer_, [this] {
            if (!whole_) whole_ = seconds(Clock::now());
        });
        startPass();
        timer_.start();
    }
    void print() {
        if (!panel_) return;
        sample();
        timer_.stop();
        const double filled = seconds(last_);
        std::printf("timeline pass (qc at nice 19, from the open): %lld of ~%lld frames filled in %.2f s"
                    " (%.1f fps)",
                    static_cast<long long>(frames_), static_cast<long long>(panel_->data().expectedFrames()), filled,
                    filled > 0 ? double(frames_) / filled : 0.0);
        if (whole_) std::printf("; report whole after %.2f s", *whole_);
        else std::printf("; %s at the end", panel_->passRunning() ? "still running" : "not running");
        if (!panel_->status().isEmpty()) std::printf("; status: %s", panel_->status().toStdString().c_str());
        std::printf("\n");
    }

private:
    double seconds(Clock::time_point t) const { return std::chrono::duration<double>(t - start_).count(); }
    void sample() {
        if (!panel_) return;
        if (const int64_t n = panel_->data().frames(); n > frames_) {
            frames_ = n;
            last_ = Clock::now();
        }
    }
    QTemporaryDir cache_;
    QTimer timer_;
    cs::timeline::TimelinePanel* panel_ = nullptr;
    Clock::time_point start_, last_;
    int64_t frames_ = 0;
    std::optional<double> whole_;
};

std::optional<std::string> playAndMeasure(const Options& o, cs::Player& player, cs::EngineHost& host,
                                          const std::function<void()>& open, Recorder& rec, Measured& m) {
    // A loop of its own rather than app.exec(): QApplication::quit would close the window,
    // and the panels are checked after the measurement.
    QEventLoop loop;
    std::optional<std::string> error;
    QObject guard;   // the connections below end with this function
    QObject::connect(&player, &cs::Player::frameChanged, &guard, [&] {
        if (!rec.measuring) return;
        rec.presentTimes.push_back(Clock::now());
        rec.engineMs.push_back(host.lastMilliseconds());
    });
    QObject::connect(&player, &cs::Player::openFailed, &guard, [&](const QString&, const QString& message) {
        if (!error) error = message.toStdString();
        loop.quit();
    });
    QObject::connect(&player, &cs::Player::sourceError, &guard, [&](const QString& message) {
        if (!error) error = message.toStdString();
        loop.quit();
    });
    player.setSpeed(1.0);
    player.setLoop(true);
    open();

    // Phases, driven from the event loop: wait for the first frame, warm up, measure.
    enum class Phase { Opening, WarmingUp, Measuring, Done } phase = Phase::Opening;
    QElapsedTimer phaseClock;
    phaseClock.start();
    int64_t presentedAtStart = 0, droppedAtStart = 0;
    Clock::time_point measureStart;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &guard, [&] {
        switch (phase) {
            case Phase::Opening:
                if (player.hasFrame() && player.isPlaying()) {
                    phase = Phase::WarmingUp;
                    phaseClock.restart();
                } else if (phaseClock.elapsed() > kOpenTimeoutMs) {
                    error = o.input + ": no frame within " + std::to_string(kOpenTimeoutMs / 1000) + " s";
                    loop.quit();
                }
                break;
            case Phase::WarmingUp:
                if (phaseClock.elapsed() < qint64(o.warmup * 1000.0)) break;
                presentedAtStart = player.presentedFrames();
                droppedAtStart = player.droppedFrames();
                measureStart = Clock::now();
                rec.measuring = true;
                phase = Phase::Measuring;
                phaseClock.restart();
                break;
            case Phase::Measuring:
                if (phaseClock.elapsed() < qint64(o.seconds * 1000.0)) break;
                rec.measuring = false;
                m.seconds = std::chrono::duration<double>(Clock::now() - measureStart).count();
                m.presented = player.presentedFrames() - presentedAtStart;
                m.dropped = player.droppedFrames() - droppedAtStart;
                phase = Phase::Done;
                loop.quit();
                break;
            case Phase::Done: break;
        }
    });
    poll.start();
    loop.exec();
    poll.stop();
    if (!error && phase != Phase::Done) error = o.input + ": the window closed before the measurement ended";
    return error;
}

void printRow(const Options& o, const cs::Player& player, const cs::EngineHost& host, const Recorder& rec, const Measured& m) {
    std::vector<double> intervals;
    for (size_t i = 1; i < rec.presentTimes.size(); ++i)
        intervals.push_back(std::chrono::duration<double, std::milli>(rec.presentTimes[i] - rec.presentTimes[i - 1]).count());
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 1) load[0] = -1;
    const cs::SourceInfo& info = player.info();
    const std::string pixFmt = info.sourcePixFmt.empty() ? std::string(cs::formatInfo(info.format).name) : info.sourcePixFmt;
    std::printf("| input | resolution / pix_fmt | stream fps | engine | decoder | seconds | presented | dropped | presented fps "
                "| engine ms median | engine ms p95 | interval ms median | interval ms p99 | interval ms max | load 1m |\n");
    std::printf("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %s | %dx%d %s | %.3f | %s | %s | %.2f | %lld | %lld | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                o.input.c_str(), info.width, info.height, pixFmt.c_str(), info.frameRate, std::string(host.name()).c_str(),
                info.decoder.c_str(), m.seconds, static_cast<long long>(m.presented), static_cast<long long>(m.dropped),
                m.seconds > 0 ? double(m.presented) / m.seconds : 0.0, quantile(rec.engineMs, 0.5), quantile(rec.engineMs, 0.95),
                quantile(intervals, 0.5), quantile(intervals, 0.99),
                intervals.empty() ? 0.0 : *std::max_element(intervals.begin(), intervals.end()), load[0]);
}

// Also every frame the source delivered since it opened, accounted for (Player::FrameCounts);
// false when delivered != shown + dropped + skipped + waiting.
bool printFooter(const Options& o, const cs::Player& player, const cs::EngineHost& host, const std::string& glVersion) {
    std::printf("OpenGL: %s\n", glVersion.c_str());
    const cs::Player::FrameCounts c = player.frameCounts();
    const bool balanced = c.delivered == c.shown + c.dropped() + c.skipped + c.waiting;
    std::printf("since the source opened: delivered %lld = presented %lld + dropped %lld (late %lld, replaced %lld) + skipped %lld"
                " (seeks, steps) + waiting %lld%s\n",
                static_cast<long long>(c.delivered), static_cast<long long>(c.shown), static_cast<long long>(c.dropped()),
                static_cast<long long>(c.late), static_cast<long long>(c.replaced), static_cast<long long>(c.skipped),
                static_cast<long long>(c.waiting), balanced ? "" : ": NOT BALANCED");
    std::printf("warm-up %.2f s; dropped since the source opened (status bar): %lld; threads: %s\n", o.warmup,
                static_cast<long long>(player.droppedFrames()), o.threads > 0 ? std::to_string(o.threads).c_str() : "default");
    if (!host.usesCuda())
        std::printf("CPU engine: %lld presented frames used scopes prepared ahead on the reader's preparer thread (the last took"
                    " %.2f ms there); \"engine ms\" is the GUI thread's share (uploads, or the whole engine when nothing was"
                    " prepared)\n",
                    static_cast<long long>(host.preparedFramesUsed()), host.preparedMilliseconds());
    if (!host.note().empty()) std::printf("note: %s\n", host.note().c_str());
    return balanced;
}

cs::HwDecode hwdecOf(const Options& o) {
    return o.hwdec == "nvdec" ? cs::HwDecode::Nvdec : o.hwdec == "none" ? cs::HwDecode::None : cs::HwDecode::Auto;
}

// --engine cuda and --hwdec nvdec measure what they name or nothing: "" when the engine fits.
std::string engineMismatch(const Options& o, const cs::EngineHost& host) {
    if (o.engine == "cuda" && !host.usesCuda()) return o.input + ": --engine cuda: " + host.note();
    if (hwdecOf(o) == cs::HwDecode::Nvdec && !host.usesCuda())
        return o.input + ": --hwdec nvdec needs the CUDA engine (engine here: " + std::string(host.name()) + ")";
    return {};
}

const std::pair<cs::gl::Plane, const char*> kPanels[] = {{cs::gl::Plane::Waveform, "waveform"},
                                                         {cs::gl::Plane::Parade, "parade"},
                                                         {cs::gl::Plane::Vectorscope, "vectorscope"},
                                                         {cs::gl::Plane::Histogram, "histogram"},
                                                         {cs::gl::Plane::Preview, "preview"}};

// The application's window, as `cudascope` opens it.
int runWindow(const Options& o, int argc, char** argv) {
    if (!haveDisplay()) {
        std::fprintf(stderr, "playback_bench: no display (run under xvfb-run, or --no-window)\n");
        return 77;
    }
    // The window's layout and settings from a throw-away folder: the default layout with
    // every panel, and the user's own settings neither read nor changed.
    QTemporaryDir settings;
    qputenv("XDG_CONFIG_HOME", settings.path().toLocal8Bit());

    cs::prepareGuiApplication();
    QApplication app(argc, argv);
    cs::styleGuiApplication();
    if (!haveOpenGl33()) {
        std::fprintf(stderr, "playback_bench: no OpenGL 3.3 context on this display\n");
        return 77;
    }
    cs::MainWindow window(o.engine);
    cs::EngineHost& host = window.engineHost();
    if (const std::string bad = engineMismatch(o, host); !bad.empty()) {
        std::fprintf(stderr, "playback_bench: %s\n", bad.c_str());
        return 1;
    }
    if (o.threads > 0) host.setCpuThreads(o.threads);
    window.setDecoding(hwdecOf(o), o.threads);
    window.resize(o.width, o.height);
    window.show();
    window.showAllPanels();
    if (o.cie) {   // the CIE tab brought in front of the vectorscope's, and the gamut check on
        window.dock(cs::gl::Plane::Cie)->raise();
        host.gamutCheck = true;
    }

    Recorder rec;
    Measured m;
    std::optional<PassWatch> pass;
    if (!o.timeline.empty()) {
        // With the Timeline dock shown (and laid out before the warm-up) opening the file
        // starts its pass, as in the window.
        window.timelineDock()->show();
        pass.emplace(o.timeline);
    }
    const auto open = [&] {
        if (pass) pass->start(window.timeline(), [] {});
        window.openInput(QString::fromStdString(o.input));
    };
    // The window's own frameChanged slot (connected first) runs the engine on each frame.
    if (auto error = playAndMeasure(o, window.player(), host, open, rec, m)) {
        std::fprintf(stderr, "playback_bench: %s\n", error->c_str());
        return 1;
    }
    // Every scope panel and the preview must have been on screen and fed by the engine (with
    // --cie, the CIE panel in the vectorscope's tabbed place).
    std::vector<std::pair<cs::gl::Plane, const char*>> shown(std::begin(kPanels), std::end(kPanels));
    if (o.cie) shown[2] = {cs::gl::Plane::Cie, "cie"};
    std::string panelSizes;
    for (const auto& [plane, name] : shown) {
        cs::ScopeView* view = window.scopeView(plane);
        if (!host.panelVisible(plane) || !window.dock(plane)->isVisible()) {
            std::fprintf(stderr, "playback_bench: %s: the %s panel was not visible (window %dx%d too small?)\n",
                         o.input.c_str(), name, o.width, o.height);
            return 1;
        }
        panelSizes += std::string(panelSizes.empty() ? "" : ", ") + name + " " + std::to_string(view->pixelWidth()) + "x" +
                      std::to_string(view->pixelHeight());
    }
    // The viewer's context: the one the engine's textures (and CUDA interop) live in.
    std::string glVersion = "none (the viewer's context was never made)";
    if (window.viewer()->glReady()) {
        window.viewer()->makeCurrent();
        glVersion = cs::gl::versionString();
        window.viewer()->doneCurrent();
    }
    if (!o.snapshot.empty() && !window.grab().toImage().save(QString::fromStdString(o.snapshot))) {
        std::fprintf(stderr, "playback_bench: cannot write %s\n", o.snapshot.c_str());
        return 1;
    }
    printRow(o, window.player(), host, rec, m);
    if (pass) pass->print();
    std::printf("\nwindow %dx%d; panels (device pixels): %s\n", window.width(), window.height(), panelSizes.c_str());
    return printFooter(o, window.player(), host, glVersion) ? 0 : 1;
}

// What the views drew into their offscreen targets, each fitted into a 960x540 cell:
// picture, then the panels in kPanels' order (and the CIE panel with --cie).
bool saveViews(const std::vector<const cs::gl::RgbaTexture*>& drawn, const std::string& path) {
    constexpr int kCellW = 960, kCellH = 540;
    const int rows = int((drawn.size() + 2) / 3);
    QImage sheet(3 * kCellW, rows * kCellH, QImage::Format_RGBA8888);
    sheet.fill(Qt::black);
    for (size_t i = 0; i < drawn.size(); ++i) {
        const cs::gl::RgbaTexture& t = *drawn[i];
        if (!t.valid()) continue;
        QImage img(t.width(), t.height(), QImage::Format_RGBA8888);
        // OpenGL 1.1 entry points (gl.h through Qt's headers; GLEW stays out of this file).
        glBindTexture(GL_TEXTURE_2D, t.name());
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.bits());
        glBindTexture(GL_TEXTURE_2D, 0);
        // GL keeps the bottom row first.
        const QImage fitted = img.mirrored().scaled(kCellW, kCellH, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        const int x0 = int(i % 3) * kCellW, y0 = int(i / 3) * kCellH;
        for (int y = 0; y < fitted.height(); ++y)
            std::memcpy(sheet.scanLine(y0 + y) + 4 * x0, fitted.constScanLine(y), size_t(4 * fitted.width()));
    }
    return sheet.save(QString::fromStdString(path));
}

// No window: the window's Player, EngineHost and views (picture and every scope panel, not
// shown) on a headless EGL context, for machines where no X server gives the GPU's OpenGL.
// Per presented frame, as the window's frameChanged slot: one engine call into the frame
// textures (CUDA interop or uploads; with the CPU engine, the reader's preparer computes
// ahead), then every view draws itself at its panel's size into an offscreen framebuffer
// through its own paint code, and glFinish stands for the swap (stricter than a swap, which
// does not wait for the GPU).
int runWithoutWindow(const Options& o, int argc, char** argv) {
    // Widgets without a window system: the views are built but never shown.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_QPA_OFFSCREEN_NO_GLX", "1");
    QApplication app(argc, argv);
    if (const cs::Status s = cs::gl::makeHeadlessContext(); !s) {
        std::fprintf(stderr, "playback_bench: --no-window: %s\n", s.message().c_str());
        return 77;
    }
    cs::EngineHost host(o.engine);
    if (const std::string bad = engineMismatch(o, host); !bad.empty()) {
        std::fprintf(stderr, "playback_bench: %s\n", bad.c_str());
        return 1;
    }
    if (o.threads > 0) host.setCpuThreads(o.threads);
    // The panel sizes (device pixels) of the window's default layout at 1920x1080, and its
    // default preview (focus peaking), as MainWindow sets them when every panel is shown.
    // The CIE panel (--cie) shares the vectorscope's place (tabbed with it in the window).
    std::vector<std::pair<cs::gl::Plane, const char*>> panels(std::begin(kPanels), std::end(kPanels));
    std::vector<std::array<int, 2>> sizes = {{726, 314}, {726, 314}, {460, 412}, {460, 233}, {460, 213}};
    if (o.cie) {
        panels.push_back({cs::gl::Plane::Cie, "cie"});
        sizes.push_back({460, 412});
        host.gamutCheck = true;
    }
    constexpr int kViewerW = 1456, kViewerH = 612;   // the viewer of that layout
    std::string panelSizes = "viewer " + std::to_string(kViewerW) + "x" + std::to_string(kViewerH);
    for (size_t i = 0; i < panels.size(); ++i) {
        host.setPanel(panels[i].first, sizes[i][0], sizes[i][1]);
        panelSizes += std::string(", ") + panels[i].second + " " + std::to_string(sizes[i][0]) + "x" + std::to_string(sizes[i][1]);
    }
    if (o.cie) panelSizes += ", gamut check on";
    host.spec().preview = cs::PreviewFilter::FocusPeaking;

    cs::PictureView viewer;
    std::vector<std::unique_ptr<cs::ScopeView>> views;
    for (const auto& panel : panels) views.push_back(std::make_unique<cs::ScopeView>(panel.first, &viewer.textures()));
    cs::Status glStatus = viewer.createGlInCurrentContext();
    for (auto& v : views)
        if (glStatus) glStatus = v->createGlInCurrentContext();
    // One target per view, so that --snapshot can show what each drew.
    std::vector<cs::gl::OffscreenTarget> targets(1 + views.size());
    const auto releaseGl = [&] {
        host.releaseGl();
        for (auto& t : targets) t.release();
        for (auto& v : views) v->releaseGlInCurrentContext();
        viewer.releaseGlInCurrentContext();
        viewer.textures().release();
    };
    if (!glStatus) {
        std::fprintf(stderr, "playback_bench: --no-window: the views' GL resources: %s\n", glStatus.message().c_str());
        releaseGl();
        return 1;
    }

    cs::Player player;
    if (!host.usesCuda()) player.setFramePreparer([&host](const cs::VideoFrame& f) { return host.prepare(f); });
    std::optional<std::string> engineError;
    std::vector<std::array<int, 2>> overlaySizes(panels.size());
    QObject::connect(&player, &cs::Player::frameChanged, &player, [&] {
        const cs::FrameView& frame = player.currentFrame().view;
        cs::Status s = host.process(frame, &viewer.textures(), player.takePrepared());
        if (host.settingsChanged()) player.prepareAgain();
        viewer.setFrameSize(frame.width, frame.height);
        if (s) s = targets[0].bind(kViewerW, kViewerH);
        if (s) viewer.paintInCurrentContext(kViewerW, kViewerH);
        for (size_t i = 0; s && i < views.size(); ++i) {
            const cs::ScopePlacement placement = host.placement(panels[i].first, viewer.textures());
            views[i]->setPlacement(placement);
            // The graticule overlay is drawn again only when its image size changes (the
            // window also keys it on settings, which stay put here).
            if (overlaySizes[i] != std::array<int, 2>{placement.imageWidth, placement.imageHeight}) {
                overlaySizes[i] = {placement.imageWidth, placement.imageHeight};
                views[i]->setOverlay(host.overlayFor(panels[i].first));
            }
            if ((s = targets[1 + i].bind(sizes[i][0], sizes[i][1]))) views[i]->paintInCurrentContext(sizes[i][0], sizes[i][1]);
        }
        cs::gl::OffscreenTarget::unbind();
        cs::gl::OffscreenTarget::finish();
        if (!s && !engineError) engineError = s.message();
    });
    cs::OpenOptions open;
    open.hwdec = host.usesCuda() ? hwdecOf(o) : cs::HwDecode::None;
    open.deviceStream = host.decodeStream();
    open.decoderThreads = o.threads;
    QObject::connect(&player, &cs::Player::opened, &player, [&] { player.play(); });

    Recorder rec;
    Measured m;
    std::optional<PassWatch> pass;
    cs::timeline::TimelinePanel timelinePanel;   // never shown: its pass and data, as the window's
    if (!o.timeline.empty()) pass.emplace(o.timeline);
    auto error = playAndMeasure(o, player, host, [&] {
        player.open(o.input, open);
        if (pass) pass->start(&timelinePanel, [&] { timelinePanel.open(QString::fromStdString(o.input), true, o.engine); });
    }, rec, m);
    if (!error && engineError) error = o.input + ": " + *engineError;
    if (error) {
        std::fprintf(stderr, "playback_bench: %s\n", error->c_str());
        player.close();
        releaseGl();
        return 1;
    }
    std::vector<const cs::gl::RgbaTexture*> drawn;
    for (const auto& t : targets) drawn.push_back(&t.colour());
    if (!o.snapshot.empty() && !saveViews(drawn, o.snapshot)) {
        std::fprintf(stderr, "playback_bench: cannot write %s\n", o.snapshot.c_str());
        player.close();
        releaseGl();
        return 1;
    }
    printRow(o, player, host, rec, m);
    if (pass) pass->print();
    std::printf("\nno window (--no-window): EGL pbuffer; every view drawn per frame into an offscreen framebuffer, then glFinish;"
                " views (device pixels): %s\n",
                panelSizes.c_str());
    const bool balanced = printFooter(o, player, host, cs::gl::versionString());
    player.close();
    releaseGl();
    return balanced ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (auto code = parseArgs(argc, argv, o)) return *code;
    if (o.wall) {
        cs::bench::WallBenchOptions w;
        w.inputs = o.inputs;
        w.seconds = o.seconds;
        w.warmup = o.warmup;
        w.engine = o.engine;
        w.hwdec = o.hwdec;
        w.width = o.width;
        w.height = o.height;
        w.threads = o.threads;
        w.noWindow = o.noWindow;
        w.snapshot = o.snapshot;
        return cs::bench::runWallBench(w, argc, argv);
    }
    return o.noWindow ? runWithoutWindow(o, argc, argv) : runWindow(o, argc, argv);
}
