// The flight recorder of a live source (a camera or stream in the window, each wall tile):
// the last N hours of per-frame statistics, one small thumbnail a second and the alarms, in
// bounded memory, so that after an incident the operator can look back at what the picture
// was doing (docs/TIMECODE.md, "Flight recorder").
//
// What it keeps and where:
//  - statistics: a ring of `FlightFrame`s (fixed size, 160 bytes) with room for `hours` at the
//    source's frame rate (at most 120 fps), allocated as it fills; the oldest frame is
//    overwritten. The values are those the engine measured for the frame it presented
//    (ScopeResults: no second measurement pass), the same members qc writes per frame.
//  - thumbnails: one compressed picture (JPEG, made by the caller: Qt lives in ui/) a second,
//    kept in memory up to `thumbnailMemoryBytes`; past that the oldest are written to a spill
//    file (`spillPath`, under the cache folder), itself a ring of `spillBytes` (default 16 KiB
//    a thumbnail-second of the window) where the oldest are overwritten. A thumbnail whose
//    frame left the statistics ring is dropped. Without a usable spill file (`spillStatus()`
//    says why, one line naming the path) the oldest thumbnails in memory are dropped instead:
//    the recorder keeps running within the same bound.
//  - alarms: begun and ended events (at most `maxEvents`; those whose end left the ring go).
// Bytes per source-hour: `FlightRecorder::bytesPerHour` (the ring, the thumbnail index and the
// thumbnails); docs/TIMECODE.md states it for 1080p50.
//
// Threading: one writer (the thread that presents the source's frames: the window's GUI
// thread, a wall tile's worker) calls add/addThumbnail/beginEvent/endEvent; readers (the GUI
// thread: the timeline's refresh, a click, an export) call the const functions from any
// thread. mutex_ guards every member below it, the spill file's descriptor and offsets too;
// each call holds it for its own work only (a copy out, an append, one pread/pwrite of a
// thumbnail), never while the caller encodes or decodes a picture.
#pragma once
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/ScopeResults.h"
#include "core/Status.h"

namespace cs {

// One presented frame's statistics: qc.json's per-frame stats, hdr and gamut members.
struct FlightFrame {
    double time = 0.0;        // the recorder's clock: seconds, rising (a steady clock)
    double pts = 0.0;         // the frame's presentation time
    double wallClock = 0.0;   // seconds since the Unix epoch when it was presented
    int32_t yMin = 0, yMax = 0, uMin = 0, uMax = 0, vMin = 0, vMax = 0;
    double yAvg = 0.0, uAvg = 0.0, vAvg = 0.0;
    double outOfLegal = 0.0, outOfGamut = 0.0, outOfR103 = 0.0;
    float maxNits = 0.0f, avgNits = 0.0f;   // hdr (kHdr)
    float above[3] = {};                    // hdr: shares above 203, 1000, 4000 nits
    double outsideShare = 0.0;              // gamut (kGamut)
    int64_t outside = 0;                    // gamut: pixels outside the target
    uint8_t flags = 0;
    uint8_t transfer = 0;                   // hdr: core Transfer
    uint8_t gamutSource = 0, gamutTarget = 0, sourceTagged = 0;   // gamut: core Primaries
    char timecode[16] = {};                 // "10:00:00;02"; "" without one
    static constexpr uint8_t kHdr = 1, kGamut = 2;
};
static_assert(sizeof(FlightFrame) == 160, "docs/TIMECODE.md's bytes per hour count 160 bytes a frame");

// The recorded values of a frame the engine measured.
FlightFrame flightFrameOf(const ScopeResults& results, double time, double pts, double wallClock, const std::string& timecode);

struct FlightEvent {
    std::string type;        // the alarm's name ("black", "frozen", "no signal"...)
    std::string message;
    double firstTime = 0.0, lastTime = 0.0;   // the recorder's clock
    bool open = false;       // still active (lastTime: the last frame seen)
};

struct FlightThumbnail {
    int64_t serial = 0;      // the frame it was taken from
    double time = 0.0;
    std::vector<uint8_t> bytes;   // as given to addThumbnail (JPEG)
};

struct FlightOptions {
    double hours = 1.0;                          // the window kept
    double frameRate = 25.0;                     // the source's (sizes the ring; clamped to 1..120)
    size_t thumbnailMemoryBytes = 8u << 20;      // thumbnails in memory before spilling
    size_t spillBytes = 0;                       // the spill file's size; 0: 16 KiB a second of the window
    std::string spillPath;                       // "": memory only
    size_t maxEvents = 4096;
    double thumbnailInterval = 1.0;              // seconds between thumbnails
};

// Bytes in use now (memoryBytes: what the process holds; spilledBytes: in the spill file).
struct FlightUsage {
    size_t ringBytes = 0, thumbnailBytes = 0, indexBytes = 0, eventBytes = 0, spilledBytes = 0;
    size_t memoryBytes() const { return ringBytes + thumbnailBytes + indexBytes + eventBytes; }
};

class FlightRecorder {
public:
    explicit FlightRecorder(FlightOptions options);
    ~FlightRecorder();
    FlightRecorder(const FlightRecorder&) = delete;
    FlightRecorder& operator=(const FlightRecorder&) = delete;

    const FlightOptions& options() const { return options_; }
    // The spill file's state: ok, or one line naming the path and the reason it is not used.
    Status spillStatus() const;
    size_t capacity() const { return capacity_; }
    // The most memory the recorder can hold: the full ring, the thumbnail bound and index, the events.
    size_t memoryBound() const;
    // Bytes for an hour at `frameRate` with one `thumbnailBytes` thumbnail a second (memory and spill file).
    static size_t bytesPerHour(double frameRate, size_t thumbnailBytes);

    // Writer. add returns the frame's serial (0, 1, 2... since the recorder began).
    int64_t add(const FlightFrame& frame);
    // A thumbnail is due for a frame at `time` (the interval since the last one has passed).
    bool wantsThumbnail(double time) const;
    void addThumbnail(int64_t serial, double time, std::vector<uint8_t> bytes);
    void beginEvent(const std::string& type, double time, const std::string& message);
    void endEvent(const std::string& type, double time);

    // Readers. Frames kept: serials [first(), end()).
    int64_t first() const;
    int64_t end() const;
    std::optional<FlightFrame> frame(int64_t serial) const;
    // Frames [from, to) clamped to those kept, oldest first; `firstSerial` gets the first one's serial.
    std::vector<FlightFrame> frames(int64_t from, int64_t to, int64_t* firstSerial = nullptr) const;
    // The kept frame nearest `time` (-1 when there is none).
    int64_t serialAt(double time) const;
    std::vector<FlightEvent> events() const;
    // The thumbnail nearest `time` (read back from the spill file when spilled); nullopt when none.
    Result<std::optional<FlightThumbnail>> thumbnailAt(double time) const;
    size_t thumbnails() const;
    FlightUsage usage() const;

private:
    struct Thumb {
        int64_t serial = 0;
        double time = 0.0;
        std::vector<uint8_t> bytes;   // empty once spilled
        uint64_t offset = 0;          // in the spill file
        uint32_t size = 0;
        bool spilled = false;
    };
    void pruneLocked();
    void spillOldestLocked();
    void writeSpillLocked(Thumb& t);
    int64_t firstLocked() const { return end_ - int64_t(std::min<size_t>(size_t(end_), capacity_)); }
    const FlightFrame& atLocked(int64_t serial) const { return ring_[size_t(serial % int64_t(capacity_))]; }

    const FlightOptions options_;
    const size_t capacity_;
    const size_t spillCapacity_;

    mutable std::mutex mutex_;
    std::vector<FlightFrame> ring_;   // grows to capacity_, then wraps: serial s at s % capacity_
    int64_t end_ = 0;
    std::deque<Thumb> thumbs_;        // oldest first; the spilled ones are a prefix
    size_t memoryThumbBytes_ = 0, spilledBytes_ = 0;
    double lastThumbTime_ = -1e300;
    std::deque<FlightEvent> events_;
    int fd_ = -1;                     // the spill file, -1 when memory only
    Status spillStatus_;
    uint64_t writePos_ = 0;
};

}  // namespace cs
