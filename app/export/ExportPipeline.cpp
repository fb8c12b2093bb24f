// The export's output stage (ExportPipeline.h).
#include "ExportPipeline.h"

#include <algorithm>
#include <utility>

namespace cs {

ExportPipeline::ExportPipeline(std::filesystem::path dir, const ScopeSpec& spec, AddLine addLine, int depth, int encoders)
    : dir_(std::move(dir)), spec_(spec), addLine_(std::move(addLine)), slots_(size_t(std::max(depth, 1))) {
    for (int i = 0; i < std::max(encoders, 1); ++i) encoders_.emplace_back([this] { encoderLoop(); });
    writer_ = std::thread([this] { writerLoop(); });
}

ExportPipeline::~ExportPipeline() {
    (void)finish();   // the owner finish()es to see the outcome; this only lets the threads end
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : encoders_) t.join();
    writer_.join();
}

ExportPipeline::Slot* ExportPipeline::acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        if (!failure_.ok()) return nullptr;
        for (Slot& s : slots_)
            if (!s.busy) {
                s.busy = true;
                return &s;
            }
        changed_.wait(lock);
    }
}

void ExportPipeline::submit(Slot* slot) {
    std::vector<FrameFile> files = frameFiles(dir_, slot->index, spec_, slot->results);
    std::lock_guard<std::mutex> lock(mutex_);
    slot->files.clear();
    slot->pending = 0;
    for (FrameFile& f : files) {
        const bool encode = f.image && !f.image->empty();
        slot->files.push_back(Slot::File{std::move(f), {}, {}});
        if (encode) {
            encodeQueue_.emplace_back(slot, slot->files.size() - 1);
            ++slot->pending;
        }
    }
    writeQueue_.push_back(slot);
    changed_.notify_all();
}

void ExportPipeline::release(Slot* slot) {
    std::lock_guard<std::mutex> lock(mutex_);
    slot->busy = false;
    changed_.notify_all();
}

Status ExportPipeline::failure() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
}

long ExportPipeline::written() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return written_;
}

Status ExportPipeline::finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return writeQueue_.empty(); });
    return failure_;
}

void ExportPipeline::encoderLoop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stop_ || !encodeQueue_.empty(); });
        if (encodeQueue_.empty()) return;   // stopping
        auto [slot, i] = encodeQueue_.front();
        encodeQueue_.pop_front();
        Slot::File& f = slot->files[i];
        lock.unlock();
        // After a failure the frame is dropped anyway: not encoded.
        const bool skip = failed();
        Status st = skip ? Status{} : encodePng(f.file.path, *f.file.image, f.png);
        lock.lock();
        f.encoded = std::move(st);
        --slot->pending;
        changed_.notify_all();
    }
}

Status ExportPipeline::writeSlot(Slot& s) {
    for (Slot::File& f : s.files) {
        if (!f.encoded.ok()) return f.encoded;
        if (Status st = writeFrameFile(f.file, f.png); !st) return st;
    }
    return addLine_(s.line);
}

void ExportPipeline::writerLoop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stop_ || (!writeQueue_.empty() && writeQueue_.front()->pending == 0); });
        if (writeQueue_.empty()) return;   // stopping
        if (writeQueue_.front()->pending != 0) continue;
        Slot& s = *writeQueue_.front();
        const bool drop = !failure_.ok();
        lock.unlock();
        Status st = drop ? Status{} : writeSlot(s);
        for (Slot::File& f : s.files) f.png = QByteArray();   // memory back before the slot waits
        lock.lock();
        if (!drop) {
            if (st.ok()) ++written_;
            else failure_ = std::move(st);
        }
        s.busy = false;
        writeQueue_.pop_front();
        changed_.notify_all();
    }
}

}  // namespace cs
