// The source thread (see SourceReader.h).
#include "SourceReader.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <utility>

namespace cs {

SourceReader::SourceReader(std::string input, OpenOptions options, size_t capacity, std::function<void()> wake,
                           Prepare prepare)
    : input_(std::move(input)), options_(options), capacity_(std::max<size_t>(capacity, 1)), wake_(std::move(wake)),
      prepare_(std::move(prepare)), thread_([this] { run(); }) {
    if (prepare_) preparer_ = std::thread([this] { prepareAhead(); });
}

SourceReader::~SourceReader() {
    requestStop();
    if (thread_.joinable()) thread_.join();
    if (preparer_.joinable()) preparer_.join();
}

void SourceReader::requestStop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
}

SourceReader::State SourceReader::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

std::string SourceReader::openError() const {
    std::lock_guard lock(mutex_);
    return openError_;
}

SourceInfo SourceReader::info() const {
    std::lock_guard lock(mutex_);
    return info_;
}

bool SourceReader::peek(ReadStatus& status, double& pts, bool* wrap) const {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return false;
    status = queue_.front().status;
    pts = queue_.front().frame.view.pts;
    if (wrap) *wrap = queue_.front().wrap;
    return true;
}

void SourceReader::setLoop(bool loop) {
    std::lock_guard lock(mutex_);
    loop_ = loop;
}

std::optional<SourceReader::Item> SourceReader::pop() {
    std::optional<Item> item;
    {
        std::lock_guard lock(mutex_);
        if (queue_.empty()) return item;
        item = std::move(queue_.front());
        queue_.pop_front();
    }
    cv_.notify_all();   // room for the reader
    return item;
}

size_t SourceReader::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void SourceReader::seek(double seconds) {
    {
        std::lock_guard lock(mutex_);
        queue_.clear();
        seekTarget_ = seconds;
        ++seekGeneration_;
        atEnd_ = false;
    }
    cv_.notify_all();
}

size_t SourceReader::preparedQueued() const {
    std::lock_guard lock(mutex_);
    return size_t(std::count_if(queue_.begin(), queue_.end(), [](const Item& i) { return i.prepared != nullptr; }));
}

void SourceReader::prepareAgain() {
    {
        std::lock_guard lock(mutex_);
        for (Item& item : queue_) item.prepared.reset();
        preparedUpTo_ = 0;
        ++prepareGeneration_;
        finished_ = {};
    }
    cv_.notify_all();
}

std::shared_ptr<PreparedScopes> SourceReader::awaitPrepared(uint64_t serial) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return stop_ || preparing_ != serial; });
    if (finished_.serial != serial) return {};
    return std::exchange(finished_, {}).prepared;
}

namespace {
// How many of the queued frames the preparer works ahead on. Two or three frames of overlap
// are all it needs; the rest of the queue is the decoder's slack. Preparations are large
// (a 10-bit 4K frame's counts alone are about 70 MB), so fewer than the queue holds.
constexpr size_t kPrepareDepth = 3;
}  // namespace

SourceReader::Item* SourceReader::nextToPrepare() {
    size_t frames = 0;
    for (Item& item : queue_) {
        if (item.status != ReadStatus::Frame) continue;
        if (frames++ == kPrepareDepth) break;
        if (item.serial > preparedUpTo_ && !item.prepared) return &item;
    }
    return nullptr;
}

// The preparer thread: the queued frames in order, each once (again after prepareAgain).
// It keeps the GUI thread's priority: what it prepares is what the GUI thread would
// otherwise compute when the frame is due.
void SourceReader::prepareAhead() {
    for (;;) {
        VideoFrame frame;   // shares the decoded picture with the queued item
        uint64_t serial = 0, generation = 0;
        {
            std::unique_lock lock(mutex_);
            Item* next = nullptr;
            cv_.wait(lock, [&] { return stop_ || (next = nextToPrepare()) != nullptr; });
            if (stop_) return;
            const std::shared_ptr<AVFrame>& holder = next->frame.holder;
            if (holder && lastPreparedGeneration_ == prepareGeneration_ && !lastPreparedFrame_.expired() &&
                !lastPreparedFrame_.owner_before(holder) && !holder.owner_before(lastPreparedFrame_)) {
                // The same picture as the last one prepared, with the same settings.
                preparedUpTo_ = next->serial;
                continue;
            }
            frame = next->frame;
            serial = preparing_ = preparedUpTo_ = next->serial;
            generation = prepareGeneration_;
        }
        std::shared_ptr<PreparedScopes> prepared;
        try {
            prepared = prepare_(frame);
        } catch (...) {
            prepared.reset();   // the frame is left to the GUI thread, which reports the failure
        }
        std::weak_ptr<AVFrame> preparedFrame = frame.holder;
        frame = {};
        {
            std::lock_guard lock(mutex_);
            preparing_ = 0;
            if (generation == prepareGeneration_ && prepared) {
                lastPreparedFrame_ = std::move(preparedFrame);
                lastPreparedGeneration_ = generation;
            }
            if (generation == prepareGeneration_ && prepared) {
                auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Item& i) { return i.serial == serial; });
                if (it != queue_.end()) it->prepared = std::move(prepared);
                else finished_ = {serial, std::move(prepared)};
            }
        }
        cv_.notify_all();   // awaitPrepared
    }
}

std::vector<std::string> SourceReader::takeWarnings() {
    std::lock_guard lock(mutex_);
    return std::exchange(warnings_, {});
}

namespace {

// How much lower than the window's threads the decoder runs (a nice increment). Decoding
// reads ahead into the queue, so it can wait: the GUI thread, the engine and the GL
// driver's threads, which decide when a frame reaches the screen, take the CPU first, and
// the decoder takes the rest. FFmpeg's decoding threads are started by this thread (when
// it opens the source) and inherit its value.
constexpr int kDecoderNice = 5;

void lowerThisThreadsPriority() {
#if defined(__linux__)
    // On Linux the nice value belongs to the thread; failing to change it changes nothing else.
    const auto tid = id_t(::syscall(SYS_gettid));
    const int current = ::getpriority(PRIO_PROCESS, tid);
    (void)::setpriority(PRIO_PROCESS, tid, std::min(current + kDecoderNice, 19));
#endif
}

}  // namespace

void SourceReader::run() {
    lowerThisThreadsPriority();
    std::unique_ptr<Source> source;
    // Nothing a file does may take the application down: failures of any kind, exceptions
    // included, become an error item (or a failed open) with a sentence for the user.
    try {
        auto opened = openSource(input_, options_);
        std::lock_guard lock(mutex_);
        if (opened) {
            source = std::move(opened.value());
            info_ = source->info();
            state_ = State::Open;
        } else {
            openError_ = opened.message();
            state_ = State::Failed;
        }
    } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        openError_ = input_ + ": " + e.what();
        state_ = State::Failed;
    } catch (...) {
        std::lock_guard lock(mutex_);
        openError_ = input_ + ": the source could not be opened";
        state_ = State::Failed;
    }
    {
        std::lock_guard lock(mutex_);
        if (stop_) return;
    }
    wake_();
    if (!source) return;

    for (;;) {
        std::optional<double> target;
        uint64_t generation = 0;
        bool loop = false;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stop_ || seekTarget_ || (!atEnd_ && queue_.size() < capacity_); });
            if (stop_) break;
            target = std::exchange(seekTarget_, std::nullopt);
            generation = seekGeneration_;
            loop = loop_ && info_.seekable;
        }
        Item item;
        std::vector<std::string> warnings;
        try {
            if (target) {
                if (Status s = source->seek(*target); !s) {
                    item.status = ReadStatus::Error;
                    item.message = s.message();
                }
            }
            if (item.message.empty()) {
                const ReadResult r = source->read(item.frame);
                item.status = r.status;
                item.message = r.message;
            }
            // Looping: go on from the start now, so that the next pass's first frames are
            // decoded before the last frame of this one has had its time on screen.
            if (loop && item.status == ReadStatus::EndOfStream) item.wrap = bool(source->seek(0.0));
            warnings = source->takeWarnings();
        } catch (const std::exception& e) {
            item.status = ReadStatus::Error;
            item.message = input_ + ": " + e.what();
        } catch (...) {
            item.status = ReadStatus::Error;
            item.message = input_ + ": reading failed";
        }
        if (item.status == ReadStatus::Error && item.message.empty()) item.message = input_ + ": reading failed";
        bool wasEmpty = false;
        const bool hadWarnings = !warnings.empty();
        {
            std::lock_guard lock(mutex_);
            if (stop_) break;
            for (auto& w : warnings) warnings_.push_back(std::move(w));
            if (generation != seekGeneration_) continue;   // a seek came in meanwhile: this item is stale
            wasEmpty = queue_.empty();
            if (item.status != ReadStatus::Frame && !item.wrap) atEnd_ = true;
            item.serial = nextSerial_++;
            queue_.push_back(std::move(item));
        }
        if (prepare_) cv_.notify_all();   // the preparer
        if (wasEmpty || hadWarnings) wake_();
    }
}

}  // namespace cs
