// `cudascope export`'s output stage: a bounded pipeline that encodes and writes a frame's files
// while the export thread decodes and computes the next frames, outputs in frame order.
//
// Threads and ownership: the export thread takes a free slot (waiting while `depth` frames are
// in flight), fills its ScopeResults with Engine::process and submits it; from then on the slot
// belongs to the pipeline until its files and report line are written. Encoders (a few worker
// threads) turn each PNG of a submitted slot into bytes in memory, the images of one frame and
// of several frames at once. One writer thread takes the slots in submission order: it waits
// for a slot's encodings, writes its files in writeFrameFiles' order (each through an
// AtomicFile), then the frame's line in the report (through `addLine`), and frees the slot.
// So files and lines reach the disk in frame order, a line is written only after its frame's
// files, and after a failure nothing more is written: the frames after it are dropped, and
// the failure is the first one in frame order. `mutex_` guards the slots' states, the queues
// and the failure; the encoders and the writer read a slot's results, which nobody writes
// while it is submitted. Memory: `depth` slots of results and encoded files, whatever the input's length.
#pragma once
#include <QByteArray>
#include <QJsonObject>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "FrameFiles.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

class ExportPipeline {
public:
    // Writes a frame's report line (on the writer thread); its failure ends the pipeline.
    using AddLine = std::function<Status(const QJsonObject& line)>;

    struct Slot {
        ScopeResults results;
        int64_t index = 0;
        QJsonObject line;   // the frame's report line, made by the export thread
    private:
        friend class ExportPipeline;
        struct File {
            FrameFile file;    // a PNG (encoded by a worker) or .npy counts (written as they are)
            QByteArray png;
            Status encoded;
        };
        std::vector<File> files;
        int pending = 0;   // encodings not finished
        bool busy = false;
    };

    // depth: frames in flight (>= 1); encoders: worker threads (>= 1).
    ExportPipeline(std::filesystem::path dir, const ScopeSpec& spec, AddLine addLine, int depth, int encoders);
    ~ExportPipeline();   // finishes what is submitted (finish())
    ExportPipeline(const ExportPipeline&) = delete;
    ExportPipeline& operator=(const ExportPipeline&) = delete;

    // A free slot for the next frame, waiting for one; nullptr once the pipeline has failed.
    Slot* acquire();
    // Hands the slot (results, index and line filled) to the encoders and the writer.
    void submit(Slot* slot);
    // Gives back a slot that will not be submitted (its frame failed).
    void release(Slot* slot);
    // The first failure (a file or a report line), or ok.
    Status failure() const;
    bool failed() const { return !failure().ok(); }
    // Waits until every submitted frame is written (or dropped after a failure); returns failure().
    Status finish();
    long written() const;   // frames whose files and line are written

private:
    void encoderLoop();
    void writerLoop();
    Status writeSlot(Slot& s);

    const std::filesystem::path dir_;
    const ScopeSpec spec_;
    const AddLine addLine_;
    std::vector<Slot> slots_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::pair<Slot*, size_t>> encodeQueue_;   // (slot, file) PNGs to encode
    std::deque<Slot*> writeQueue_;                       // submitted slots, in frame order
    Status failure_;
    long written_ = 0;
    bool stop_ = false;
    std::vector<std::thread> encoders_;
    std::thread writer_;
};

}  // namespace cs
