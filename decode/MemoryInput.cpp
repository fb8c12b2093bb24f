// MemoryInput: libavformat's reads and seeks served from a span.
#include "MemoryInput.h"

#include <algorithm>
#include <cstring>

extern "C" {
#include <libavformat/avio.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
}

namespace cs {
namespace {
constexpr int kBufferSize = 32 * 1024;   // libavformat's own default for files
}

MemoryInput::MemoryInput(std::span<const uint8_t> bytes) : bytes_(bytes) {
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferSize));
    if (!buffer) return;
    io_ = avio_alloc_context(buffer, kBufferSize, 0, this, &MemoryInput::read, nullptr, &MemoryInput::seek);
    if (!io_) av_free(buffer);
}

MemoryInput::~MemoryInput() {
    if (!io_) return;
    av_freep(&io_->buffer);   // libavformat may have replaced the buffer it was given
    avio_context_free(&io_);
}

int MemoryInput::read(void* opaque, uint8_t* buffer, int size) {
    auto* self = static_cast<MemoryInput*>(opaque);
    const size_t left = self->bytes_.size() - self->position_;
    if (left == 0) return AVERROR_EOF;
    const size_t n = std::min(left, size_t(std::max(size, 0)));
    std::memcpy(buffer, self->bytes_.data() + self->position_, n);
    self->position_ += n;
    return int(n);
}

int64_t MemoryInput::seek(void* opaque, int64_t offset, int whence) {
    auto* self = static_cast<MemoryInput*>(opaque);
    const auto size = int64_t(self->bytes_.size());
    int64_t base = 0;
    switch (whence & ~AVSEEK_FORCE) {
        case AVSEEK_SIZE: return size;
        case SEEK_SET: base = 0; break;
        case SEEK_CUR: base = int64_t(self->position_); break;
        case SEEK_END: base = size; break;
        default: return AVERROR(EINVAL);
    }
    if (offset > size - base || offset < -base) return AVERROR(EINVAL);   // outside the bytes (no overflow)
    self->position_ = size_t(base + offset);
    return base + offset;
}

}  // namespace cs
