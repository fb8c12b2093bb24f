// Bytes in memory as an input for libavformat: an AVIOContext that reads and seeks within
// a caller's buffer, for DemuxSetup::io (decode/FileSource.h). Files and clips held in
// memory (tests, the fuzz targets) go through the same demuxing and decoding as files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

struct AVIOContext;

namespace cs {

class MemoryInput {
public:
    // `bytes` must outlive this object and every source opened on it.
    explicit MemoryInput(std::span<const uint8_t> bytes);
    ~MemoryInput();
    MemoryInput(const MemoryInput&) = delete;
    MemoryInput& operator=(const MemoryInput&) = delete;

    // Null when out of memory. Seekable (AVSEEK_SIZE answers the size).
    AVIOContext* io() const { return io_; }

private:
    static int read(void* opaque, uint8_t* buffer, int size);
    static int64_t seek(void* opaque, int64_t offset, int whence);

    std::span<const uint8_t> bytes_;
    size_t position_ = 0;
    AVIOContext* io_ = nullptr;
};

}  // namespace cs
