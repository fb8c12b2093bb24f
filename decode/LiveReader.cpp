// The live reader's thread: open, read into the mailbox, reconnect with backoff (see LiveReader.h).
#include "LiveReader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "LiveInput.h"

namespace cs {
namespace {

// Warnings kept for the GUI between two takeWarnings() calls: a wrecked stream must not
// grow memory without bound while nobody looks.
constexpr size_t kMaxStoredWarnings = 200;
// A connection that lasted this long was a good one: the next loss retries quickly again.
constexpr auto kStableConnection = std::chrono::seconds(5);

}  // namespace

std::chrono::steady_clock::time_point FramePacer::due(double pts, Clock::time_point arrival) {
    const auto media = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(pts));
    const Clock::duration offset = arrival.time_since_epoch() - media;
    if (!started_) lead_ = offset;
    else lead_ = std::max(offset, lead_ - (arrival - lastArrival_) / kDecayDivisor);
    started_ = true;
    lastArrival_ = arrival;
    Clock::time_point when(lead_ + media);
    if (when - arrival > kMaxWait) {   // timestamps jumped ahead: reckon afresh, show now
        lead_ = offset;
        when = arrival;
    }
    return when;
}

double BacklogGuard::behind(double pts, Clock::time_point arrival) {
    if (limit_ <= 0.0) return 0.0;
    const double now = std::chrono::duration<double>(arrival.time_since_epoch()).count();
    const double offset = now - pts;
    // A jump of the offset between two frames is the timestamps jumping (a new sender, a
    // wrap), not decoding falling behind: reckon afresh from there.
    if (!started_ || std::abs(offset - last_) > kJumpSeconds) best_ = offset;
    else best_ = std::min(offset, best_ + (now - lastArrival_) * kClockDrift);
    started_ = true;
    last_ = offset;
    lastArrival_ = now;
    const double late = offset - best_;
    return late > limit_ ? late : 0.0;
}

const char* liveStateName(LiveState state) {
    switch (state) {
        case LiveState::Connecting: return "connecting";
        case LiveState::Playing: return "playing";
        case LiveState::Reconnecting: return "reconnecting";
        case LiveState::Failed: return "failed";
        case LiveState::Ended: return "ended";
    }
    return "unknown";
}

LiveReader::LiveReader(std::string input, Options options, std::function<void()> wake)
    : input_(std::move(input)), options_(std::move(options)), wake_(std::move(wake)), mailbox_(options_.queueFrames) {
    options_.open.cancel = &stop_;
    options_.open.dataArriving = &dataArriving_;
    status_.since = std::chrono::steady_clock::now();
    thread_ = std::thread([this] { run(); });
}

LiveReader::~LiveReader() {
    requestStop();
    if (thread_.joinable()) thread_.join();
}

void LiveReader::requestStop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    stopped_.notify_all();
    mailbox_.close();
}

LiveStatus LiveReader::status() const {
    std::lock_guard lock(mutex_);
    LiveStatus status = status_;
    status.receivingData = (status.state == LiveState::Connecting || status.state == LiveState::Reconnecting) &&
                           dataArriving_.load();
    return status;
}

LiveState LiveReader::state() const {
    std::lock_guard lock(mutex_);
    return status_.state;
}

SourceInfo LiveReader::info() const {
    std::lock_guard lock(mutex_);
    return info_;
}

bool LiveReader::hasInfo() const {
    std::lock_guard lock(mutex_);
    return hasInfo_;
}

std::vector<std::string> LiveReader::takeWarnings() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> taken;
    taken.swap(warnings_);
    if (droppedWarnings_ > 0) {
        taken.push_back(input_ + ": " + std::to_string(droppedWarnings_) + " more warnings not shown");
        droppedWarnings_ = 0;
    }
    return taken;
}

void LiveReader::wake() {
    if (wake_) wake_();
}

void LiveReader::setStatus(LiveState state, std::string message, int attempt, double retryIn) {
    {
        std::lock_guard lock(mutex_);
        status_.state = state;
        status_.message = std::move(message);
        status_.attempt = attempt;
        status_.retryIn = retryIn;
        status_.since = std::chrono::steady_clock::now();
    }
    wake();
}

bool LiveReader::sleepUntil(std::chrono::steady_clock::time_point when) {
    std::unique_lock lock(mutex_);
    return !stopped_.wait_until(lock, when, [&] { return stop_.load(); });
}

bool LiveReader::sleepFor(double seconds) {
    std::unique_lock lock(mutex_);
    return !stopped_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return stop_.load(); });
}

void LiveReader::collectWarnings(Source& source) {
    auto fresh = source.takeWarnings();
    if (fresh.empty()) return;
    {
        std::lock_guard lock(mutex_);
        for (auto& warning : fresh) {
            if (warnings_.size() < kMaxStoredWarnings) warnings_.push_back(std::move(warning));
            else ++droppedWarnings_;
        }
    }
    wake();
}

size_t LiveReader::capacityFor(const VideoFrame& frame) const {
    size_t capacity = std::max<size_t>(1, options_.queueFrames);
    if (frame.onDevice) return std::min(capacity, kMaxQueuedDeviceFrames);
    if (options_.queueBytes > 0) {
        const PixelFormatInfo& f = formatInfo(frame.view.format);
        size_t bytes = 0;
        for (int p = 0; p < f.planeCount; ++p) {
            const int rows = p == 0 ? frame.view.height : (frame.view.height + (1 << f.log2ChromaH) - 1) >> f.log2ChromaH;
            bytes += size_t(std::abs(frame.view.pitch[size_t(p)])) * size_t(rows);
        }
        if (bytes > 0) capacity = std::min(capacity, std::max<size_t>(1, options_.queueBytes / bytes));
    }
    return capacity;
}

void LiveReader::run() {
    // Syntax errors can never heal: fail at once, whatever retryFirstOpen says.
    if (isNetworkOrCameraInput(input_)) {
        auto parsed = parseLiveInput(input_);
        if (!parsed) {
            setStatus(LiveState::Failed, parsed.message());
            return;
        }
        paced_ = parsed->paced;
    }
    double retryDelay = options_.firstRetryDelay;
    bool everOpened = false;
    int attempt = 0;          // failed attempts since the stream was last playing
    uint64_t generation = 0;
    uint64_t sequence = 0;
    while (!stop_) {
        dataArriving_ = false;
        auto opened = openSource(input_, options_.open);
        dataArriving_ = false;
        if (stop_) break;
        if (!opened) {
            if (!everOpened && !options_.retryFirstOpen) {
                setStatus(LiveState::Failed, opened.message());
                return;
            }
            ++attempt;
            setStatus(everOpened ? LiveState::Reconnecting : LiveState::Connecting, opened.message(), attempt,
                      retryDelay);
            if (!sleepFor(retryDelay)) break;
            retryDelay = std::min(retryDelay * 2, options_.maxRetryDelay);
            continue;
        }
        std::unique_ptr<Source> source = std::move(opened.value());
        {
            std::lock_guard lock(mutex_);
            info_ = source->info();
            hasInfo_ = true;
            if (everOpened) ++status_.reconnects;
        }
        everOpened = true;
        attempt = 0;
        ++generation;
        setStatus(LiveState::Playing, {});

        const auto playingSince = std::chrono::steady_clock::now();
        std::string why;
        const bool lost = readUntilLost(*source, generation, sequence, why);
        collectWarnings(*source);
        if (lost && !stop_) {
            // A stream that played a while starts the backoff afresh; one that keeps failing
            // right after opening keeps doubling it, so a flapping stream does not spin.
            if (std::chrono::steady_clock::now() - playingSince > kStableConnection)
                retryDelay = options_.firstRetryDelay;
            {
                std::lock_guard lock(mutex_);
                status_.lastLoss = why;
            }
            setStatus(LiveState::Reconnecting, std::move(why), 0, retryDelay);   // before the close, which may take a moment
        }
        source.reset();   // closes the connection (bounded: the source's interrupt deadline)
        if (stop_ || !lost) break;
        if (!sleepFor(retryDelay)) break;
        retryDelay = std::min(retryDelay * 2, options_.maxRetryDelay);
    }
}

// Reads until the stream is lost (true, with the reason in `why`), stopped, or a non-live
// source ends (false).
bool LiveReader::readUntilLost(Source& source, uint64_t generation, uint64_t& sequence, std::string& why) {
    FramePacer pacer;
    BacklogGuard backlog(options_.maxBacklogSeconds);
    while (!stop_) {
        VideoFrame frame;
        const ReadResult r = source.read(frame);
        const auto arrival = std::chrono::steady_clock::now();
        if (r.status == ReadStatus::Frame) {
            const SourceInfo& now = source.info();
            {
                std::lock_guard lock(mutex_);
                if (now.width != info_.width || now.height != info_.height || now.format != info_.format ||
                    now.sourcePixFmt != info_.sourcePixFmt)
                    info_ = now;
            }
            if (paced_) {
                const auto due = pacer.due(frame.view.pts, arrival);
                if (due > arrival && !sleepUntil(due)) return false;
            } else if (const double behind = backlog.behind(frame.view.pts, arrival); behind > 0.0) {
                // Decoding is slower than the stream: data waits in socket and demuxer
                // buffers, and every frame comes later than the one before. Dropping decoded
                // frames cannot help; opening afresh drops the waiting data.
                char text[160];
                std::snprintf(text, sizeof text, ": decoding falls behind the stream (frames %.1f s late); skipping ahead",
                              behind);
                why = input_ + text;
                return true;
            }
            if (options_.queueFrames > 1)
                if (const size_t capacity = capacityFor(frame); capacity != mailbox_.capacity())
                    mailbox_.setCapacity(capacity);
            LiveFrame live;
            live.frame = std::move(frame);
            live.arrival = arrival;
            live.sequence = ++sequence;
            live.generation = generation;
            if (mailbox_.put(std::move(live))) wake();
            collectWarnings(source);
            continue;
        }
        collectWarnings(source);
        if (stop_) return false;
        if (r.status == ReadStatus::EndOfStream && !source.info().live) {
            setStatus(LiveState::Ended, {});
            return false;
        }
        why = r.message.empty() ? input_ + ": the stream ended" : r.message;
        return true;
    }
    return false;
}

}  // namespace cs
