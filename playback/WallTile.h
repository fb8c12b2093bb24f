// One source of the monitoring wall: its reader (SourceReader for files and patterns, looping;
// decode/LiveReader for streams and cameras, reconnecting), its engines and a worker thread
// that turns each frame into the tile's picture: the frame reduced to the tile's size, the
// small scopes the wall shows, the name, timecode or latency, the alarms (analysis/Alarms.h) and a
// border in the alarm's colour. The GUI thread only uploads and draws the finished picture
// (ui/wall/WallRenderer.h), so a source that stalls, drops or reconnects holds nobody but itself.
//
// Engines, per tile: a one-thread CPU engine counts the reduced frame (the small scopes, the
// picture, and the statistics without a GPU); with the CUDA engine (engine "auto" or "cuda"
// where a device runs it) the tile has a CudaEngine of its own, so its own CUDA stream on the
// shared primary context, and its own decode stream for NVDEC: the full-size frame's
// statistics and luma histogram (the alarms) come from it, read in place after the frame's
// ready event; an NVDEC frame is reduced on the GPU (CudaEngine::downscaleToHost, the same
// rule as core/FrameReduce.h's reduceFrame on the host), so only the tile's picture comes back.
//
// A live tile keeps a flight recorder (playback/FlightRecorder.h): each frame's full-size
// statistics (the values its alarms read), a thumbnail a second from the tile's picture and
// its alarms, bounded per tile; the wall's alarm log opens the moment an alarm names.
//
// Threading: the worker thread owns the reader, the engines, the alarm tracker and the frames
// (it holds at most the frame in hand: NVDEC surfaces per source are the reader's queue, 4,
// plus that one). mutex_ guards the canvases (the queue of drawn frames, playback/WallPacing.h, the
// newest canvas and the newest label-only canvas), the alarm records, the status text and the
// counters below it; the GUI thread takes them under it briefly (pointer swaps), never
// waiting on the worker's work. The canvas size and the scopes are set by the GUI thread and
// read by the worker at its next frame. `wake` is called on the worker thread (without a lock)
// after each publication: post a queued call, nothing more.
// A canvas is never written while it can be drawn: the worker draws each canvas into storage
// it takes from the tile's pool, and storage goes back to the pool only when the last holder
// (the queue, the GUI thread uploading it, a snapshot) lets it go, under the pool's lock.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analysis/Alarms.h"
#include "core/FrameReduce.h"
#include "core/ScopeResults.h"
#include "decode/Source.h"
#include "playback/FlightRecorder.h"
#include "playback/WallLayout.h"

namespace cs {

// What the GUI draws for a tile.
struct TileCanvas {
    RgbaImage image;
    uint64_t serial = 0;                                // 1, 2, 3... per publication
    bool newFrame = false;                              // a new frame (not only a label or state change)
    int64_t frames = 0;                                 // frames the tile had drawn, this one included
    std::chrono::steady_clock::time_point origin;       // when the frame arrived (live) or was due (files):
                                                        // the time the refresh paces it by
};

// What a refresh takes from a tile (WallTile::takeCanvas).
struct CanvasTake {
    std::shared_ptr<const TileCanvas> canvas;   // null: keep showing the current one
    int64_t unshown = 0;   // frames drawn that no refresh will show (passed over, or pushed out of a full queue)
};

// An alarm that began or ended on a tile, for the wall's log.
struct WallAlarmRecord {
    int tileSerial = 0;                                 // WallTile::serial() of the tile
    std::string source;
    AlarmEvent event;
    std::chrono::system_clock::time_point since, at;    // event.since / event.at on the wall clock
    // The frame's timecode when it was decided: files, the source's (else the elapsed time);
    // live, the stream's own (else the time of day of `at`).
    std::string timecode;
    // Live tiles: the moment in the tile's flight recorder (its clock: `since` for a start,
    // `at` for an end); -1 for files.
    double recorderTime = -1.0;
};

// Every frame the tile's reader hands it ends in exactly one place: presented, dropped for one
// of the causes below, or (for now) pending, so delivered = presented + dropped() + pending in
// every snapshot (counters()); once the tile has stopped (stop()) nothing is pending.
// Threading: the worker counts the deliveries and its own drops, the refresh (takeCanvas, on
// the thread that draws the wall) counts presented and unshown; all under WallTile::mutex_.
struct TileCounters {
    int64_t frames = 0;        // frames processed into a canvas
    int64_t delivered = 0;     // files: frames taken from the read-ahead queue; live: frames that arrived in the mailbox
    int64_t presented = 0;     // frames a refresh showed
    int64_t skipped = 0;       // late (files): came due while the worker was busy; only the latest due frame is drawn
    int64_t liveDropped = 0;   // replaced (live): the mailbox had a newer frame before the worker took this one
    int64_t unshown = 0;       // drawn, but passed over by the refreshes (due at an earlier one) or pushed out of a full queue
    int64_t failed = 0;        // the reduction or an engine failed on it (the tile's state says why)
    int64_t stopped = 0;       // left when the tile stopped: drawn and not shown yet, or waiting in the mailbox
    int64_t pending = 0;       // now: in the worker's hands, drawn and queued for a refresh, or waiting in the mailbox
    // Files: a decoder slower than the stream (more than 0.25 s behind) restarts the clock at
    // the frame it shows: no frame is dropped, the time is lost (the source delivers nothing for it).
    int64_t clockRestarts = 0;
    double stalledSeconds = 0;
    double lastLatencyMs = 0;  // arrival (live) or due time (files) to the canvas's publication
    double lastProcessMs = 0;  // the worker's time for the last frame (engines, reduction, drawing)
    int64_t dropped() const { return skipped + liveDropped + unshown + failed + stopped; }
};

class WallTile {
public:
    struct Options {
        std::string engine = "auto";      // engine/EngineChoice.h; "cuda" without a device: the CPU engine
        HwDecode hwdec = HwDecode::Auto;  // NVDEC where the CUDA engine runs
        int decoderThreads = 0;
        AlarmRules rules;
        // Live sources' flight recorders (playback/FlightRecorder.h): the window kept, the
        // thumbnails' memory bound per tile, the folder their spill files go in ("": memory
        // only) and the JPEG encoder of the thumbnails (Qt's, from ui/; none: no thumbnails).
        double flightHours = 1.0;
        size_t flightThumbnailMemory = 2u << 20;
        std::string flightFolder;
        std::function<std::vector<uint8_t>(const RgbaImage&)> encodeThumbnail;
    };
    WallTile(std::string input, Options options, std::function<void()> wake);
    ~WallTile();   // stop()
    WallTile(const WallTile&) = delete;
    WallTile& operator=(const WallTile&) = delete;

    const std::string& input() const { return input_; }
    int serial() const { return serial_; }     // unique per tile of this process
    void requestStop();
    // Stops the worker and waits for it (and for its reader's read in progress); the counters
    // are final then: the frames still queued for a refresh or waiting count as stopped.
    void stop();

    // GUI thread: the tile's size on screen (device pixels) and the scopes it shows.
    void setCanvasSize(int width, int height);
    void setScopes(const WallScopes& scopes);
    // GUI thread: a PQ or HLG picture shown through the viewer's HDR to SDR display transform
    // (core/ToneMap.h, as View > Tone Map HDR to SDR) from the next frame on; on by default.
    // The tile's scopes and alarms read the signal regardless.
    void setToneMapHdr(bool on) { toneMapHdr_ = on; }

    // The newest canvas (null before the first): snapshots and tests.
    std::shared_ptr<const TileCanvas> canvas() const;
    // The refresh at `refresh`: the canvas due for it (playback/WallPacing.h: files paced by their due
    // times, `delay` about one refresh period; live newest-wins), else a newer label-only canvas
    // when no frame is queued, else nothing. Counts the frames it passed over.
    CanvasTake takeCanvas(std::chrono::steady_clock::time_point refresh, std::chrono::steady_clock::duration delay);
    // The due time of the first frame drawn and not yet taken by a refresh, if any.
    std::optional<std::chrono::steady_clock::time_point> firstQueuedDue() const;
    std::vector<WallAlarmRecord> takeAlarms();
    TileCounters counters() const;
    // "opening", "playing", "connecting", "reconnecting (attempt 2)", "ended", or the error.
    std::string statusText() const;
    // The engine the worker ended on ("cpu", "cuda") and why not CUDA where it was asked for.
    std::string engineName() const;
    // Active alarms' names, "" when none.
    std::string activeAlarms() const;
    // The source's decoder ("h264 (software)", "hevc_cuvid", "pattern"), "" until it opened.
    std::string decoder() const;
    // A live tile's flight recorder (null for files and patterns, and before the first frame):
    // written by the worker, read through its own lock.
    std::shared_ptr<const FlightRecorder> flightRecorder() const;

private:
    struct Worker;
    void run();
    void recordFlight(Worker& w, const ScopeResults& measured, const VideoFrame& frame, double now);

    const std::string input_;
    const Options options_;
    const std::function<void()> wake_;
    const int serial_;
    const bool live_;   // a live input: newest-wins presentation

    std::atomic<int> canvasWidth_{320}, canvasHeight_{180};
    std::atomic<uint8_t> scopes_{3};   // bit 0 waveform, 1 vectorscope, 2 histogram
    std::atomic<bool> toneMapHdr_{true};   // setToneMapHdr; read by the worker per frame

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;          // guarded by mutex_
    bool woken_ = false;         // guarded by mutex_: the reader posted something
    std::shared_ptr<TileCanvas> canvas_;   // guarded by mutex_: the newest published canvas
    std::deque<std::shared_ptr<const TileCanvas>> queue_;   // guarded by mutex_: frames drawn, not yet taken
    std::shared_ptr<const TileCanvas> labelCanvas_;          // guarded by mutex_: the newest label-only canvas
    uint64_t shownSerial_ = 0;                               // guarded by mutex_: the serial takeCanvas last gave
    int64_t overflow_ = 0;                                   // guarded by mutex_: frames pushed out of a full queue, not yet reported
    bool inHand_ = false;                                    // guarded by mutex_: the worker holds a delivered frame
    int64_t liveWaiting_ = 0, liveDiscarded_ = 0;            // guarded by mutex_: the mailbox's, at the worker's last look
    int64_t stoppedCanvases_ = 0;                            // guarded by mutex_: queued frames left at the stop
    std::vector<WallAlarmRecord> alarms_;  // guarded by mutex_
    TileCounters counters_;                // guarded by mutex_
    std::string status_ = "opening";       // guarded by mutex_
    std::string engine_;                   // guarded by mutex_
    std::string activeAlarms_;             // guarded by mutex_
    std::string decoder_;                  // guarded by mutex_
    std::shared_ptr<FlightRecorder> flight_;   // guarded by mutex_ (the pointer; made by the worker at the first live frame)

    std::thread thread_;   // last: starts after every field above is constructed
};

}  // namespace cs
