// A wall tile's worker (playback/WallTile.h).
#include "WallTile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <utility>
#include <unistd.h>

#include "core/Engine.h"
#include "core/Gamut.h"
#include "core/Hdr.h"
#include "core/ToneMap.h"
#include "scope/ScopeRender.h"
#include "analysis/SignalStats.h"
#include "decode/LiveReader.h"
#include "engine/EngineChoice.h"
#include "SourceReader.h"
#include "Timecode.h"
#include "WallPacing.h"
#include "cpu/CpuEngine.h"
#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#endif

namespace cs {
namespace {

// The local time of day, HH:MM:SS: a live tile's time where the stream carries no timecode.
std::string timeOfDay(std::chrono::system_clock::time_point t) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm local{};
    localtime_r(&seconds, &local);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M:%S", &local);
    return text;
}

using Clock = std::chrono::steady_clock;

constexpr size_t kQueueFrames = 3, kQueueDeviceFrames = 4;   // read ahead per file (NVDEC: surfaces held)
static_assert(kQueueDeviceFrames + 1 <= size_t(kDeviceFrameBudget), "a tile's NVDEC frames (queue, frame in hand) exceed the budget");
constexpr size_t kCanvasQueue = 4;   // drawn frames waiting for their refresh
// Files: a frame is drawn this long before it is due (the refresh shows it at its due time
// plus the presentation delay, playback/WallPacing.h), so a worker's frame has that much more time.
constexpr auto kLookahead = std::chrono::milliseconds(8);
constexpr auto kStateRefresh = std::chrono::milliseconds(200);   // live: the label's latency and state
constexpr double kMaxBehindSeconds = 0.25;   // files: a frame this late restarts the clock
constexpr int kBorder = 3;
constexpr int kLabelHeight = 22;   // two lines of the 5x7 font

// Colours as RGBA bytes in a little-endian word (R lowest).
constexpr uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a = 255) { return r | (g << 8) | (b << 16) | (a << 24); }
constexpr uint32_t kBackground = rgba(24, 24, 24);
constexpr uint32_t kBorderOk = rgba(64, 64, 64);
constexpr uint32_t kBorderAlarm = rgba(230, 40, 40);
constexpr uint32_t kBorderSignal = rgba(255, 150, 30);
constexpr uint32_t kText = rgba(235, 235, 235);
constexpr uint32_t kTextDim = rgba(170, 170, 170);

std::atomic<int> nextSerial{1};

void fillRect(RgbaImage& img, int x, int y, int w, int h, uint32_t colour, bool blend = false) {
    const int x0 = std::max(x, 0), y0 = std::max(y, 0), x1 = std::min(x + w, img.width), y1 = std::min(y + h, img.height);
    const uint32_t a = colour >> 24;
    for (int yy = y0; yy < y1; ++yy)
        for (int xx = x0; xx < x1; ++xx) {
            uint8_t* p = img.at(xx, yy);
            if (!blend) {
                p[0] = uint8_t(colour), p[1] = uint8_t(colour >> 8), p[2] = uint8_t(colour >> 16), p[3] = 255;
                continue;
            }
            for (int c = 0; c < 3; ++c) p[c] = uint8_t((p[c] * (255 - a) + ((colour >> (8 * c)) & 255) * a) / 255);
        }
}

void blit(RgbaImage& dst, const RgbaImage& src, int x, int y) {
    for (int row = 0; row < src.height; ++row) {
        const int dy = y + row;
        if (dy < 0 || dy >= dst.height) continue;
        const int x0 = std::max(0, -x), x1 = std::min(src.width, dst.width - x);
        if (x1 <= x0) continue;
        std::copy_n(src.at(x0, row), size_t(x1 - x0) * 4, dst.at(x + x0, dy));
    }
}

// The part of the name that fits `pixels` (font at scale 1), with a leading "..." when cut.
std::string fitText(const std::string& text, int pixels) {
    const int chars = std::max(0, (pixels + 1) / 6);
    if (int(text.size()) <= chars) return text;
    if (chars <= 3) return text.substr(0, size_t(chars));
    return "..." + text.substr(text.size() - size_t(chars - 3));
}

// Canvas storage for one tile, reused. take() gives storage nobody else holds: a canvas comes
// back here only from its deleter, when its last holder (the tile's queue, the GUI thread that
// uploads it, a snapshot) lets it go, on that holder's thread, under mutex_; the worker takes it
// under the same lock, so the reader's last access happens before the worker's next write.
class CanvasPool : public std::enable_shared_from_this<CanvasPool> {
public:
    std::shared_ptr<TileCanvas> take() {
        std::unique_ptr<TileCanvas> canvas;
        {
            const std::lock_guard lock(mutex_);
            if (!free_.empty()) {
                canvas = std::move(free_.back());
                free_.pop_back();
            }
        }
        if (!canvas) canvas = std::make_unique<TileCanvas>();
        return std::shared_ptr<TileCanvas>(canvas.release(), [pool = weak_from_this()](TileCanvas* c) {
            std::unique_ptr<TileCanvas> owned(c);
            if (const auto p = pool.lock()) p->give(owned);
        });
    }

private:
    static constexpr size_t kKeep = 4;
    void give(std::unique_ptr<TileCanvas>& canvas) {
        const std::lock_guard lock(mutex_);
        if (free_.size() < kKeep) free_.push_back(std::move(canvas));   // else freed by the caller, after the lock
    }
    std::mutex mutex_;
    std::vector<std::unique_ptr<TileCanvas>> free_;   // guarded by mutex_
};

std::string shortName(const std::string& input) {
    if (isLiveInput(input) || input.rfind("pattern:", 0) == 0) return input;
    const size_t slash = input.find_last_of('/');
    return slash == std::string::npos ? input : input.substr(slash + 1);
}

}  // namespace

// Everything the worker thread owns.
struct WallTile::Worker {
    std::unique_ptr<Engine> cpu = makeCpuEngine(1);
    EngineChoice choice;             // the CUDA engine when it runs, else the CPU engine (unused)
    bool cuda = false;
    std::unique_ptr<SourceReader> reader;
    std::unique_ptr<LiveReader> live;
    SourceInfo info;
    bool haveInfo = false;

    Frame reduced, previous;   // previous: freezedetect's reference frame (the last not frozen)
    bool havePrevious = false;
    ScopeResults small, full;
    // The picture's tone mapping tables, for the transfer and primaries they were made for.
    std::optional<std::pair<Transfer, Primaries>> toneMapKey;
    ToneMapTable toneMapTable;
    AlarmTracker tracker;
    std::vector<AlarmEvent> events;
    Clock::time_point start = Clock::now();
    std::chrono::system_clock::time_point wallStart = std::chrono::system_clock::now();

    // Files: the clock the frames are due on.
    bool anchored = false, wrapPending = false;
    double anchorPts = 0.0, lastPts = 0.0;
    Clock::time_point anchorWall, lastDue;

    // What the canvas was last drawn from, to draw it again when only the label changes.
    RgbaImage picture, waveform, vectorscope, histogram;
    bool haveFrame = false;
    double pts = 0.0;
    FrameTimecode timecode;   // the frame's source timecode (not known(): none)
    std::string state = "opening";
    LiveState liveState = LiveState::Connecting;
    uint64_t liveGeneration = 0;
    Clock::time_point origin;
    std::shared_ptr<CanvasPool> canvases = std::make_shared<CanvasPool>();
    std::shared_ptr<FlightRecorder> flight;   // live: made at the first frame (the rate known)

    double seconds(Clock::time_point t) const { return std::chrono::duration<double>(t - start).count(); }
};

WallTile::WallTile(std::string input, Options options, std::function<void()> wake)
    : input_(std::move(input)), options_(std::move(options)), wake_(std::move(wake)), serial_(nextSerial++),
      live_(isLiveInput(input_)),
      thread_([this] { run(); }) {}

WallTile::~WallTile() { stop(); }

void WallTile::stop() {
    requestStop();
    if (thread_.joinable()) thread_.join();
}

void WallTile::requestStop() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
}

void WallTile::setCanvasSize(int width, int height) {
    canvasWidth_ = std::max(width, 32);
    canvasHeight_ = std::max(height, 32);
    {
        const std::lock_guard lock(mutex_);
        woken_ = true;
    }
    cv_.notify_all();
}

void WallTile::setScopes(const WallScopes& scopes) {
    scopes_ = uint8_t((scopes.waveform ? 1 : 0) | (scopes.vectorscope ? 2 : 0) | (scopes.histogram ? 4 : 0));
    {
        const std::lock_guard lock(mutex_);
        woken_ = true;
    }
    cv_.notify_all();
}

std::shared_ptr<const TileCanvas> WallTile::canvas() const {
    const std::lock_guard lock(mutex_);
    return canvas_;
}

CanvasTake WallTile::takeCanvas(std::chrono::steady_clock::time_point refresh, std::chrono::steady_clock::duration delay) {
    CanvasTake take;
    Clock::time_point due[kCanvasQueue];
    const std::lock_guard lock(mutex_);
    take.unshown = std::exchange(overflow_, 0);
    for (size_t i = 0; i < queue_.size(); ++i) due[i] = queue_[i]->origin;
    const CanvasPick pick = pickDueCanvas(std::span(due, queue_.size()), refresh, delay, live_);
    if (pick.index >= 0) {
        take.unshown += pick.dropped;
        counters_.unshown += pick.dropped;
        ++counters_.presented;   // the queue holds new frames only
        take.canvas = queue_[size_t(pick.index)];
        queue_.erase(queue_.begin(), queue_.begin() + pick.index + 1);
    } else if (queue_.empty() && labelCanvas_ && labelCanvas_->serial > shownSerial_) {
        take.canvas = labelCanvas_;
    }
    if (take.canvas) shownSerial_ = take.canvas->serial;
    return take;
}

std::shared_ptr<const FlightRecorder> WallTile::flightRecorder() const {
    const std::lock_guard lock(mutex_);
    return flight_;
}

// A live frame into the tile's flight recorder, on the tracker's clock (so its alarms line up).
void WallTile::recordFlight(Worker& w, const ScopeResults& measured, const VideoFrame& frame, double now) {
    if (!w.flight) {
        FlightOptions o;
        o.hours = options_.flightHours;
        o.frameRate = w.info.frameRate > 0 ? w.info.frameRate : 50.0;
        o.thumbnailMemoryBytes = options_.flightThumbnailMemory;
        if (!options_.flightFolder.empty())
            o.spillPath = options_.flightFolder + "/wall-" + std::to_string(::getpid()) + "-" + std::to_string(serial_) + ".spill";
        w.flight = std::make_shared<FlightRecorder>(o);
        const std::lock_guard lock(mutex_);
        flight_ = w.flight;
    }
    const double wall = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const int64_t serial =
        w.flight->add(flightFrameOf(measured, now, frame.view.pts, wall, frame.timecode.known() ? frame.timecode.text() : ""));
    if (options_.encodeThumbnail && w.flight->wantsThumbnail(now)) w.flight->addThumbnail(serial, now, options_.encodeThumbnail(w.picture));
}

std::optional<std::chrono::steady_clock::time_point> WallTile::firstQueuedDue() const {
    const std::lock_guard lock(mutex_);
    if (queue_.empty()) return std::nullopt;
    return queue_.front()->origin;
}

std::vector<WallAlarmRecord> WallTile::takeAlarms() {
    const std::lock_guard lock(mutex_);
    return std::exchange(alarms_, {});
}

TileCounters WallTile::counters() const {
    const std::lock_guard lock(mutex_);
    TileCounters c = counters_;
    c.pending = int64_t(queue_.size()) + (inHand_ ? 1 : 0) + liveWaiting_;
    c.stopped = stoppedCanvases_ + liveDiscarded_;
    return c;
}

std::string WallTile::statusText() const {
    const std::lock_guard lock(mutex_);
    return status_;
}

std::string WallTile::engineName() const {
    const std::lock_guard lock(mutex_);
    return engine_;
}

std::string WallTile::decoder() const {
    const std::lock_guard lock(mutex_);
    return decoder_;
}

std::string WallTile::activeAlarms() const {
    const std::lock_guard lock(mutex_);
    return activeAlarms_;
}

void WallTile::run() {
    Worker w;
    auto choice = chooseEngine(options_.engine, CudaUnavailable::UseCpu);
    OpenOptions open;
    open.decoderThreads = options_.decoderThreads;
    if (choice && choice->cuda) {
        w.choice = std::move(*choice);
        w.cuda = true;
        open.hwdec = options_.hwdec;
        if (auto stream = w.choice.decodeStream()) open.deviceStream = *stream;
    }
    w.tracker = AlarmTracker(options_.rules);
    {
        const std::lock_guard lock(mutex_);
        engine_ = w.cuda ? "cuda" : "cpu";
        if (choice && !choice->note.empty()) engine_ += " (" + choice->note + ")";
    }
    const auto post = [this] {
        {
            const std::lock_guard lock(mutex_);
            woken_ = true;
        }
        cv_.notify_all();
    };
    const bool live = isLiveInput(input_);
    if (live) {
        LiveReader::Options lo;
        lo.open = open;
        lo.retryFirstOpen = true;   // a wall keeps watching for a source that is not there yet
        w.live = std::make_unique<LiveReader>(input_, lo, post);
    } else {
        const size_t capacity = open.hwdec == HwDecode::None ? kQueueFrames : kQueueDeviceFrames;
        w.reader = std::make_unique<SourceReader>(input_, open, capacity, post);
    }

    // Publishes the canvas drawn from what the worker has now (the last frame's images, the state).
    const auto compose = [&](bool newFrame) {
        const int cw = canvasWidth_, ch = canvasHeight_;
        std::shared_ptr<TileCanvas> canvas = w.canvases->take();   // storage nobody else holds
        RgbaImage& img = canvas->image;
        if (img.width != cw || img.height != ch) img.resize(cw, ch);
        fillRect(img, 0, 0, cw, ch, kBackground);
        const bool signalLost = w.tracker.active(AlarmKind::Signal);
        const bool alarm = w.tracker.anyActive();
        const uint32_t border = signalLost ? kBorderSignal : alarm ? kBorderAlarm : kBorderOk;
        fillRect(img, 0, 0, cw, kBorder, border);
        fillRect(img, 0, ch - kBorder, cw, kBorder, border);
        fillRect(img, 0, 0, kBorder, ch, border);
        fillRect(img, cw - kBorder, 0, kBorder, ch, border);
        const uint8_t scopes = scopes_;
        const int scopeCount = (scopes & 1) + ((scopes >> 1) & 1) + ((scopes >> 2) & 1);
        const int innerW = cw - 2 * kBorder, innerH = ch - 2 * kBorder;
        const int stripH = scopeCount ? std::clamp(innerH * 3 / 10, 24, innerH / 2) : 0;
        const int picH = innerH - stripH;
        if (w.haveFrame) blit(img, w.picture, kBorder + (innerW - w.picture.width) / 2, kBorder + (picH - w.picture.height) / 2);
        if (scopeCount && w.haveFrame) {
            const RgbaImage* cells[3];
            int n = 0;
            if (scopes & 1) cells[n++] = &w.waveform;
            if (scopes & 2) cells[n++] = &w.vectorscope;
            if (scopes & 4) cells[n++] = &w.histogram;
            for (int i = 0; i < n; ++i) {
                const int x0 = kBorder + innerW * i / n, x1 = kBorder + innerW * (i + 1) / n;
                blit(img, *cells[i], x0 + (x1 - x0 - cells[i]->width) / 2, kBorder + picH + (stripH - cells[i]->height) / 2);
            }
        }
        // The label: name and timecode (files: the source's, else the elapsed time; live: the
        // stream's own where it carries one, else the time of day, and the latency); then the
        // state and the alarms.
        fillRect(img, kBorder, kBorder, innerW, kLabelHeight, rgba(0, 0, 0, 160), true);
        std::string right;
        if (w.haveFrame) {
            if (live) {
                char text[48];
                std::snprintf(text, sizeof text, "  %.0f ms",
                              std::chrono::duration<double, std::milli>(Clock::now() - w.origin).count());
                right = (w.timecode.known() ? w.timecode.text() : timeOfDay(std::chrono::system_clock::now())) + text;
            } else {
                right = timecodeOrElapsed(w.timecode, w.pts, w.info.frameRate).text();
            }
        }
        const int rightW = int(right.size()) * 6;
        drawText(img, kBorder + 4, kBorder + 3, fitText(shortName(input_), innerW - rightW - 16).c_str(), kText);
        if (!right.empty()) drawText(img, kBorder + innerW - rightW - 3, kBorder + 3, right.c_str(), kTextDim);
        std::string second = w.state == "playing" ? "" : w.state;
        const std::string alarms = w.tracker.activeText();
        uint32_t secondColour = kTextDim;
        if (!alarms.empty()) {
            std::string upper = alarms;
            for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
            second = second.empty() ? upper : second + "  " + upper;
            secondColour = signalLost ? kBorderSignal : kBorderAlarm;
        }
        if (!second.empty()) drawText(img, kBorder + 4, kBorder + 13, fitText(second, innerW - 8).c_str(), secondColour);
        canvas->newFrame = newFrame;
        canvas->origin = w.origin;
        std::shared_ptr<TileCanvas> old;
        {
            const std::lock_guard lock(mutex_);
            canvas->serial = canvas_ ? canvas_->serial + 1 : 1;
            old = std::exchange(canvas_, std::move(canvas));
            if (newFrame) {
                if (queue_.size() == kCanvasQueue) {
                    queue_.pop_front();
                    ++overflow_;
                    ++counters_.unshown;
                }
                queue_.push_back(canvas_);
                inHand_ = false;   // the frame in hand is now the queued canvas
            } else {
                labelCanvas_ = canvas_;
            }
            status_ = w.state;
            activeAlarms_ = alarms;
            decoder_ = w.info.decoder;
            if (newFrame) ++counters_.frames;
            canvas_->frames = counters_.frames;
            if (newFrame) {
                counters_.lastLatencyMs = std::chrono::duration<double, std::milli>(Clock::now() - w.origin).count();
            }
        }
        old.reset();   // back to the pool unless the queue or the GUI thread holds it
        if (wake_) wake_();
    };

    const auto record = [&] {
        if (w.events.empty()) return;
        std::vector<WallAlarmRecord> records;
        for (const AlarmEvent& e : w.events) {
            WallAlarmRecord r;
            r.tileSerial = serial_;
            r.source = input_;
            r.event = e;
            r.since = w.wallStart + std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(e.since));
            r.at = w.wallStart + std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(e.at));
            if (w.haveFrame)
                r.timecode = live ? (w.timecode.known() ? w.timecode.text() : timeOfDay(r.at))
                                  : timecodeOrElapsed(w.timecode, w.pts, w.info.frameRate).text();
            if (w.flight) {
                const std::string name(alarmName(e.kind));
                if (e.start) w.flight->beginEvent(name, e.since, e.detail);
                else w.flight->endEvent(name, e.at);
                r.recorderTime = e.start ? e.since : e.at;
            }
            records.push_back(std::move(r));
        }
        w.events.clear();
        const std::lock_guard lock(mutex_);
        for (auto& r : records) alarms_.push_back(std::move(r));
    };

    // One frame into the tile: reduced, counted, measured, drawn.
    const auto process = [&](const VideoFrame& frame, Clock::time_point origin) {
        const auto begin = Clock::now();
        const int cw = canvasWidth_, ch = canvasHeight_;
        const uint8_t scopes = scopes_;
        const int scopeCount = (scopes & 1) + ((scopes >> 1) & 1) + ((scopes >> 2) & 1);
        const int innerW = cw - 2 * kBorder, innerH = ch - 2 * kBorder;
        const int stripH = scopeCount ? std::clamp(innerH * 3 / 10, 24, innerH / 2) : 0;
        const int picH = std::max(2, innerH - stripH);
        const FrameView& view = frame.view;
        double scale = std::min(double(innerW) / view.width, double(picH) / view.height);
        const int rw = std::max(2, int(view.width * scale) & ~1), rh = std::max(2, int(view.height * scale) & ~1);

        Status status;
        if (!view.onDevice) reduceFrame(view, rw, rh, w.reduced);
        else status = Status::error(input_ + ": an NVDEC frame without the CUDA engine");
#if CS_HAVE_CUDA
        if (view.onDevice && w.cuda) status = w.choice.cuda->downscaleToHost(view, rw, rh, w.reduced);
#endif
        if (status) {
            ScopeSpec spec;
            spec.histogram = true;
            spec.waveform = (scopes & 1) != 0;
            spec.vectorscope = (scopes & 2) != 0;
            spec.parade = false;
            spec.stats = true;
            spec.displayImages = true;
            spec.picture = true;
            const int cellW = scopeCount ? std::max(16, innerW / scopeCount - 2) : 16;
            spec.scopeWidth = std::max(cellW, 64);
            spec.scopeHeight = std::max(stripH - 2, 32);
            spec.vectorscopeSize = std::max(stripH - 2, 32);
            status = w.cpu->process(w.reduced.view(), spec, w.small);
            if (status && spec.histogram && (scopes & 4)) renderHistogram(w.small, spec, w.small.histogramImage);
        }
        const ScopeResults* measured = &w.small;
        if (status && w.cuda) {
            ScopeSpec spec;
            spec.histogram = true;
            spec.waveform = spec.parade = spec.vectorscope = false;
            spec.stats = true;
            spec.displayImages = false;
            spec.picture = false;
            status = w.choice.engine->process(view, spec, w.full);
            measured = &w.full;
        }
        if (!status) {
            {
                const std::lock_guard lock(mutex_);
                ++counters_.failed;
                inHand_ = false;
            }
            w.state = status.message();
            compose(false);
            return;
        }
        // The scope images at the cells' sizes (the engine drew them at the spec's).
        w.picture = w.small.picture;
        if (toneMapHdr_ && isHdr(w.small.color.transfer)) {   // as the viewer shows it
            const std::pair key{w.small.color.transfer, effectivePrimaries(w.small.color, view.height)};
            if (w.toneMapKey != key) {
                w.toneMapTable = makeToneMapTable(makeToneMap(key.first, key.second));
                w.toneMapKey = key;
            }
            toneMapRgba(w.toneMapTable, w.picture.pixels.data(), size_t(w.picture.width) * size_t(w.picture.height));
        }
        w.waveform = w.small.waveformImage;
        w.vectorscope = w.small.vectorscopeImage;
        w.histogram = w.small.histogramImage;
        w.haveFrame = true;
        w.pts = view.pts;
        w.timecode = frame.timecode;
        w.origin = origin;

        AlarmMeasure m;
        m.blackShare = shareAtOrBelow(measured->histY, blackThresholdFor(options_.rules.black.pixelThreshold, measured->bitDepth,
                                                                          measured->color.range == Range::Full));
        // freezedetect's reference: the last frame that was not frozen (a slow drift adds up).
        if (w.havePrevious) m.mafd = lumaMafd(w.reduced.view(), w.previous.view());
        if (!m.mafd || !frameIsFrozen(*m.mafd, options_.rules.freeze.noise)) {
            std::swap(w.reduced, w.previous);
            w.havePrevious = true;
        }
        m.outOfLegal = measured->stats.outOfLegal;
        m.outOfGamut = measured->stats.outOfGamut;
        const double now = w.seconds(Clock::now());
        if (live) recordFlight(w, *measured, frame, now);
        w.tracker.frame(now, m, w.events);
        record();
        {
            const std::lock_guard lock(mutex_);
            counters_.lastProcessMs = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
        }
        compose(true);
    };

    auto lastCompose = Clock::now();
    int lastW = 0, lastH = 0;
    uint8_t lastScopes = 0xff;
    for (;;) {
        Clock::time_point deadline = Clock::now() + kStateRefresh;
        bool presented = false;
        if (w.live) {
            const LiveStatus st = w.live->status();
            std::string state;
            if (st.state == LiveState::Playing) state = "playing";
            else if (st.state == LiveState::Reconnecting)
                state = st.attempt > 0 ? "reconnecting (attempt " + std::to_string(st.attempt) + ")" : "reconnecting";
            else if (st.state == LiveState::Connecting) state = st.receivingData ? "waiting for a keyframe" : "connecting";
            else if (st.state == LiveState::Failed) state = st.message.empty() ? "failed" : st.message;
            else state = "ended";
            const bool lost = st.state == LiveState::Reconnecting || st.state == LiveState::Failed || st.state == LiveState::Ended;
            if (lost != w.tracker.active(AlarmKind::Signal)) {
                const double t = w.seconds(Clock::now());
                w.tracker.signal(t, lost, lost ? (st.message.empty() ? state : st.message) : "", w.events);
                if (lost) {
                    w.tracker.restart(t, w.events);
                    w.havePrevious = false;
                }
                record();
            }
            w.state = state;
            if (!w.haveInfo && w.live->hasInfo()) {
                w.info = w.live->info();
                w.haveInfo = true;
            }
            auto f = w.live->tryTake();
            {
                // The mailbox's counts after the take: arrived = taken + replaced + discarded + waiting.
                const FrameMailbox::Counts c = w.live->frameCounts();
                const std::lock_guard lock(mutex_);
                counters_.delivered = int64_t(c.put);
                counters_.liveDropped = int64_t(c.dropped);
                liveDiscarded_ = int64_t(c.discarded);
                liveWaiting_ = int64_t(c.waiting);
                if (f) inHand_ = true;
            }
            if (f) {
                if (f->generation != w.liveGeneration) {
                    w.liveGeneration = f->generation;
                    w.info = w.live->info();
                }
                process(f->frame, f->arrival);
                presented = true;
            }
        } else {
            const SourceReader::State rs = w.reader->state();
            // A file that cannot be opened or read is a lost signal, alarmed and logged as a
            // stream's is (it stays lost: the reader does not try again).
            const auto lose = [&](const std::string& why) {
                if (w.tracker.active(AlarmKind::Signal)) return;
                const double t = w.seconds(Clock::now());
                w.tracker.signal(t, true, why, w.events);
                w.tracker.restart(t, w.events);
                record();
            };
            if (rs == SourceReader::State::Failed) {
                w.state = w.reader->openError();
                lose(w.state);
            } else if (rs == SourceReader::State::Open) {
                if (!w.haveInfo) {
                    w.info = w.reader->info();
                    w.haveInfo = true;
                    w.reader->setLoop(true);
                    w.state = "playing";
                }
                // Take the latest frame that is due (or within kLookahead of it); frames due before
                // it are skipped (counted).
                std::optional<SourceReader::Item> take;
                Clock::time_point due{};
                for (;;) {
                    ReadStatus rstatus{};
                    double pts = 0;
                    bool wrap = false;
                    if (!w.reader->peek(rstatus, pts, &wrap)) break;
                    const auto now = Clock::now();
                    if (rstatus != ReadStatus::Frame) {
                        auto item = w.reader->pop();
                        if (rstatus == ReadStatus::EndOfStream && wrap) {
                            w.wrapPending = true;
                            continue;
                        }
                        if (rstatus == ReadStatus::Error) {
                            w.state = item->message;
                            lose(w.state);
                        } else {
                            w.state = "ended";
                        }
                        break;
                    }
                    const double duration = w.info.frameRate > 0 ? 1.0 / w.info.frameRate : 0.04;
                    if (w.wrapPending && w.anchored) {
                        // The next pass's first frame is due one frame after the old pass's last.
                        w.anchorWall = w.lastDue + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(duration));
                        w.anchorPts = pts;
                        w.lastPts = pts;   // the jump back is the wrap, not a new clock (below)
                        w.wrapPending = false;
                    }
                    if (!w.anchored || pts < w.lastPts - 1.0) {
                        w.anchored = true;
                        w.anchorWall = now;
                        w.anchorPts = pts;
                    }
                    const Clock::time_point itemDue =
                        w.anchorWall + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(pts - w.anchorPts));
                    if (itemDue > now + kLookahead) {
                        deadline = std::min(deadline, itemDue - kLookahead);
                        break;
                    }
                    const bool overtaken = take.has_value();
                    take = w.reader->pop();
                    {
                        const std::lock_guard lock(mutex_);
                        ++counters_.delivered;
                        if (overtaken) ++counters_.skipped;   // the one in hand, due before this one
                        inHand_ = true;
                    }
                    due = itemDue;
                    w.lastDue = itemDue;
                    w.lastPts = pts;
                }
                if (take) {
                    // Decoding slower than the stream: rather than fall further behind, the
                    // clock restarts at this frame. No frame is dropped (the ones after it come
                    // due on the new clock); the time is, and it is counted as stalled.
                    const double behind = std::chrono::duration<double>(Clock::now() - due).count();
                    if (behind > kMaxBehindSeconds) {
                        {
                            const std::lock_guard lock(mutex_);
                            ++counters_.clockRestarts;
                            counters_.stalledSeconds += behind;
                        }
                        w.anchorWall = Clock::now();
                        w.anchorPts = w.lastPts;
                        w.lastDue = w.anchorWall;
                        due = w.anchorWall;
                    }
                    process(take->frame, due);
                    presented = true;
                    // The frame is dropped here, after the engines finished with it.
                }
            }
        }
        const int cw = canvasWidth_, ch = canvasHeight_;
        const uint8_t sc = scopes_;
        std::string shown;
        {
            const std::lock_guard lock(mutex_);
            shown = status_;
        }
        if (!presented && (cw != lastW || ch != lastH || sc != lastScopes || shown != w.state ||
                           (w.live && Clock::now() - lastCompose >= kStateRefresh))) {
            record();
            compose(false);
        }
        if (presented || cw != lastW || ch != lastH || sc != lastScopes || shown != w.state) lastCompose = Clock::now();
        lastW = cw, lastH = ch, lastScopes = sc;

        std::unique_lock lock(mutex_);
        cv_.wait_until(lock, deadline, [this] { return stop_ || woken_; });
        woken_ = false;
        if (stop_) break;
    }
    // The readers stop (and their threads join) here, on the worker thread; their frames go first.
    if (w.live) w.live->requestStop();
    if (w.reader) w.reader->requestStop();
    // Final counts: the mailbox takes nothing after requestStop, and no refresh will show the
    // frames still queued.
    std::deque<std::shared_ptr<const TileCanvas>> left;
    {
        const std::lock_guard lock(mutex_);
        if (w.live) {
            const FrameMailbox::Counts c = w.live->frameCounts();
            counters_.delivered = int64_t(c.put);
            counters_.liveDropped = int64_t(c.dropped);
            liveDiscarded_ = int64_t(c.discarded);
            liveWaiting_ = int64_t(c.waiting);
        }
        stoppedCanvases_ += int64_t(queue_.size());
        left.swap(queue_);
    }
}

}  // namespace cs
