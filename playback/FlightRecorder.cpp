// The flight recorder of a live source.
#include "FlightRecorder.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace cs {

namespace {

constexpr size_t kSpillPerSecond = 16u << 10;   // the spill file's room per second of the window

size_t ringCapacity(const FlightOptions& o) {
    const double rate = std::clamp(std::isfinite(o.frameRate) ? o.frameRate : 25.0, 1.0, 120.0);
    const double hours = std::clamp(std::isfinite(o.hours) ? o.hours : 1.0, 1.0 / 3600.0, 48.0);
    return std::max<size_t>(1, size_t(std::ceil(hours * 3600.0 * rate)));
}

size_t spillCapacity(const FlightOptions& o) {
    if (o.spillBytes) return o.spillBytes;
    const double hours = std::clamp(std::isfinite(o.hours) ? o.hours : 1.0, 1.0 / 3600.0, 48.0);
    return size_t(std::ceil(hours * 3600.0 / std::max(o.thumbnailInterval, 0.01))) * kSpillPerSecond;
}

}  // namespace

FlightFrame flightFrameOf(const ScopeResults& r, double time, double pts, double wallClock, const std::string& timecode) {
    FlightFrame f;
    f.time = time;
    f.pts = pts;
    f.wallClock = wallClock;
    f.yMin = r.stats.y.min, f.yMax = r.stats.y.max, f.yAvg = r.stats.y.avg;
    f.uMin = r.stats.u.min, f.uMax = r.stats.u.max, f.uAvg = r.stats.u.avg;
    f.vMin = r.stats.v.min, f.vMax = r.stats.v.max, f.vAvg = r.stats.v.avg;
    f.outOfLegal = r.stats.outOfLegal;
    f.outOfGamut = r.stats.outOfGamut;
    f.outOfR103 = r.stats.outOfR103;
    if (r.hdr.measured) {
        f.flags |= FlightFrame::kHdr;
        f.transfer = uint8_t(r.hdr.transfer);
        f.maxNits = float(r.hdr.maxNits);
        f.avgNits = float(r.hdr.avgNits);
        for (int i = 0; i < 3; ++i) f.above[i] = float(r.hdr.above[size_t(i)]);
    }
    if (r.gamut.measured) {
        f.flags |= FlightFrame::kGamut;
        f.outsideShare = r.gamut.outsideShare;
        f.outside = int64_t(r.gamut.outside);
        f.gamutSource = uint8_t(r.gamut.source);
        f.gamutTarget = uint8_t(r.gamut.target);
        f.sourceTagged = r.color.primaries != Primaries::Unspecified ? 1 : 0;
    }
    std::strncpy(f.timecode, timecode.c_str(), sizeof f.timecode - 1);
    return f;
}

FlightRecorder::FlightRecorder(FlightOptions options)
    : options_(std::move(options)), capacity_(ringCapacity(options_)), spillCapacity_(spillCapacity(options_)) {
    if (options_.spillPath.empty()) return;
    // Created fresh (a previous run's file is overwritten) and read back only by this process.
    fd_ = ::open(options_.spillPath.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd_ < 0)
        spillStatus_ = Status::error(options_.spillPath + ": cannot be used as the flight recorder's spill file (" +
                                     std::strerror(errno) + "); thumbnails are kept in memory only");
}

FlightRecorder::~FlightRecorder() {
    if (fd_ >= 0) {
        ::close(fd_);
        ::unlink(options_.spillPath.c_str());   // the window's thumbnails go with the recorder
    }
}

Status FlightRecorder::spillStatus() const {
    const std::lock_guard lock(mutex_);
    return spillStatus_;
}

size_t FlightRecorder::memoryBound() const {
    return capacity_ * sizeof(FlightFrame) + options_.thumbnailMemoryBytes +
           size_t(std::ceil(double(capacity_) / std::max(1.0, options_.frameRate) / std::max(options_.thumbnailInterval, 0.01)) + 2) *
               sizeof(Thumb) +
           options_.maxEvents * (sizeof(FlightEvent) + 128);
}

size_t FlightRecorder::bytesPerHour(double frameRate, size_t thumbnailBytes) {
    return size_t(std::ceil(3600.0 * frameRate)) * sizeof(FlightFrame) + 3600 * (thumbnailBytes + sizeof(Thumb));
}

int64_t FlightRecorder::add(const FlightFrame& frame) {
    const std::lock_guard lock(mutex_);
    const int64_t serial = end_++;
    if (ring_.size() < capacity_) {
        // Grown by hand so that the storage never exceeds the ring (push_back would double it).
        if (ring_.size() == ring_.capacity()) ring_.reserve(std::min(capacity_, std::max<size_t>(4096, ring_.capacity() * 2)));
        ring_.push_back(frame);
    } else {
        ring_[size_t(serial % int64_t(capacity_))] = frame;
        pruneLocked();
    }
    for (FlightEvent& e : events_)
        if (e.open) e.lastTime = frame.time;
    return serial;
}

// Thumbnails and events whose frames left the ring go.
void FlightRecorder::pruneLocked() {
    const int64_t first = firstLocked();
    while (!thumbs_.empty() && thumbs_.front().serial < first) {
        if (thumbs_.front().spilled) spilledBytes_ -= thumbs_.front().size;
        else memoryThumbBytes_ -= thumbs_.front().bytes.size();
        thumbs_.pop_front();
    }
    const double oldest = atLocked(first).time;
    while (!events_.empty() && !events_.front().open && events_.front().lastTime < oldest) events_.pop_front();
}

bool FlightRecorder::wantsThumbnail(double time) const {
    const std::lock_guard lock(mutex_);
    return time - lastThumbTime_ >= options_.thumbnailInterval * 0.999;
}

void FlightRecorder::addThumbnail(int64_t serial, double time, std::vector<uint8_t> bytes) {
    const std::lock_guard lock(mutex_);
    if (serial < firstLocked() || serial >= end_ || bytes.empty()) return;
    lastThumbTime_ = time;
    Thumb t;
    t.serial = serial;
    t.time = time;
    t.size = uint32_t(bytes.size());
    memoryThumbBytes_ += bytes.size();
    t.bytes = std::move(bytes);
    thumbs_.push_back(std::move(t));
    while (memoryThumbBytes_ > options_.thumbnailMemoryBytes) spillOldestLocked();
}

// The oldest thumbnail in memory goes to the spill file, or (no spill file) away.
void FlightRecorder::spillOldestLocked() {
    auto it = std::find_if(thumbs_.begin(), thumbs_.end(), [](const Thumb& t) { return !t.spilled; });
    if (it == thumbs_.end()) return;
    const size_t size = it->bytes.size();
    if (fd_ >= 0 && size <= spillCapacity_) {
        writeSpillLocked(*it);
        return;
    }
    // Memory only: the oldest in memory is dropped (spilled ones, older, stay readable).
    memoryThumbBytes_ -= size;
    thumbs_.erase(it);
}

// Writes `t` (the oldest in memory) at the spill ring's write position. The file's thumbnails
// are in write order from the oldest (the front of thumbs_) round to writePos_, so the ones a
// write covers are always at the front: at a wrap the previous lap's tail is given up first.
void FlightRecorder::writeSpillLocked(Thumb& t) {
    const int64_t serial = t.serial;
    std::vector<uint8_t> bytes = std::move(t.bytes);
    const size_t size = bytes.size();
    const auto dropFront = [&] {
        spilledBytes_ -= thumbs_.front().size;
        thumbs_.pop_front();
    };
    if (writePos_ + size > spillCapacity_) {
        while (!thumbs_.empty() && thumbs_.front().spilled && thumbs_.front().offset >= writePos_) dropFront();
        writePos_ = 0;
    }
    while (!thumbs_.empty() && thumbs_.front().spilled && thumbs_.front().offset < writePos_ + size &&
           thumbs_.front().offset + thumbs_.front().size > writePos_)
        dropFront();
    // `t` stays where it was: popping the front of a deque leaves references to the others valid.
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(fd_, bytes.data() + done, size - done, off_t(writePos_ + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            spillStatus_ = Status::error(options_.spillPath + ": cannot be written (" +
                                         std::string(n < 0 ? std::strerror(errno) : "no space") +
                                         "); thumbnails are kept in memory only");
            ::close(fd_);
            ::unlink(options_.spillPath.c_str());
            fd_ = -1;
            for (auto& x : thumbs_) spilledBytes_ -= x.spilled ? x.size : 0;
            std::erase_if(thumbs_, [](const Thumb& x) { return x.spilled; });
            memoryThumbBytes_ -= size;
            std::erase_if(thumbs_, [&](const Thumb& x) { return x.serial == serial; });
            return;
        }
        done += size_t(n);
    }
    memoryThumbBytes_ -= size;
    spilledBytes_ += size;
    t.spilled = true;
    t.offset = writePos_;
    t.size = uint32_t(size);
    writePos_ += size;
}

void FlightRecorder::beginEvent(const std::string& type, double time, const std::string& message) {
    const std::lock_guard lock(mutex_);
    for (const FlightEvent& e : events_)
        if (e.open && e.type == type) return;
    if (events_.size() >= options_.maxEvents) events_.pop_front();
    events_.push_back({type, message, time, time, true});
}

void FlightRecorder::endEvent(const std::string& type, double time) {
    const std::lock_guard lock(mutex_);
    for (FlightEvent& e : events_)
        if (e.open && e.type == type) {
            e.open = false;
            e.lastTime = std::max(e.firstTime, time);
        }
}

int64_t FlightRecorder::first() const {
    const std::lock_guard lock(mutex_);
    return firstLocked();
}

int64_t FlightRecorder::end() const {
    const std::lock_guard lock(mutex_);
    return end_;
}

std::optional<FlightFrame> FlightRecorder::frame(int64_t serial) const {
    const std::lock_guard lock(mutex_);
    if (serial < firstLocked() || serial >= end_) return std::nullopt;
    return atLocked(serial);
}

std::vector<FlightFrame> FlightRecorder::frames(int64_t from, int64_t to, int64_t* firstSerial) const {
    const std::lock_guard lock(mutex_);
    from = std::max(from, firstLocked());
    to = std::min(to, end_);
    if (firstSerial) *firstSerial = from;
    std::vector<FlightFrame> out;
    if (to <= from) return out;
    out.reserve(size_t(to - from));
    for (int64_t s = from; s < to; ++s) out.push_back(atLocked(s));
    return out;
}

int64_t FlightRecorder::serialAt(double time) const {
    const std::lock_guard lock(mutex_);
    int64_t lo = firstLocked(), hi = end_;
    if (lo == hi) return -1;
    // The first frame at or after `time` (times rise along the serials), then the nearer of it and the one before.
    const int64_t first = lo;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (atLocked(mid).time < time) lo = mid + 1;
        else hi = mid;
    }
    if (lo == end_) return end_ - 1;
    if (lo > first && time - atLocked(lo - 1).time <= atLocked(lo).time - time) return lo - 1;
    return lo;
}

std::vector<FlightEvent> FlightRecorder::events() const {
    const std::lock_guard lock(mutex_);
    return {events_.begin(), events_.end()};
}

Result<std::optional<FlightThumbnail>> FlightRecorder::thumbnailAt(double time) const {
    const std::lock_guard lock(mutex_);
    if (thumbs_.empty()) return std::optional<FlightThumbnail>{};
    auto it = std::lower_bound(thumbs_.begin(), thumbs_.end(), time, [](const Thumb& t, double v) { return t.time < v; });
    if (it == thumbs_.end() || (it != thumbs_.begin() && time - std::prev(it)->time <= it->time - time)) it = std::prev(it);
    FlightThumbnail out{it->serial, it->time, {}};
    if (!it->spilled) {
        out.bytes = it->bytes;
        return std::optional<FlightThumbnail>(std::move(out));
    }
    out.bytes.resize(it->size);
    size_t done = 0;
    while (done < out.bytes.size()) {
        const ssize_t n = ::pread(fd_, out.bytes.data() + done, out.bytes.size() - done, off_t(it->offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return Status::error(options_.spillPath + ": a thumbnail cannot be read back (" +
                                 std::string(n < 0 ? std::strerror(errno) : "the file is shorter than written") + ")");
        done += size_t(n);
    }
    return std::optional<FlightThumbnail>(std::move(out));
}

size_t FlightRecorder::thumbnails() const {
    const std::lock_guard lock(mutex_);
    return thumbs_.size();
}

FlightUsage FlightRecorder::usage() const {
    const std::lock_guard lock(mutex_);
    FlightUsage u;
    u.ringBytes = ring_.capacity() * sizeof(FlightFrame);
    u.thumbnailBytes = memoryThumbBytes_;
    u.indexBytes = thumbs_.size() * sizeof(Thumb);
    for (const FlightEvent& e : events_) u.eventBytes += sizeof(FlightEvent) + e.type.capacity() + e.message.capacity();
    u.spilledBytes = spilledBytes_;
    return u;
}

}  // namespace cs
