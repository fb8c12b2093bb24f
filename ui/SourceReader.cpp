// The source thread (see SourceReader.h).
#include "SourceReader.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <utility>

namespace cs {

SourceReader::SourceReader(std::string input, OpenOptions options, size_t capacity, std::function<void()> wake)
    : input_(std::move(input)), options_(options), capacity_(std::max<size_t>(capacity, 1)), wake_(std::move(wake)),
      thread_([this] { run(); }) {}

SourceReader::~SourceReader() {
    requestStop();
    if (thread_.joinable()) thread_.join();
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

bool SourceReader::peek(ReadStatus& status, double& pts) const {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return false;
    status = queue_.front().status;
    pts = queue_.front().frame.view.pts;
    return true;
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
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stop_ || seekTarget_ || (!atEnd_ && queue_.size() < capacity_); });
            if (stop_) break;
            target = std::exchange(seekTarget_, std::nullopt);
            generation = seekGeneration_;
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
            if (item.status != ReadStatus::Frame) atEnd_ = true;
            queue_.push_back(std::move(item));
        }
        if (wasEmpty || hadWarnings) wake_();
    }
}

}  // namespace cs
