#include "AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cs {

Result<AtomicFile> AtomicFile::create(std::string path) {
    const std::string part = path + kPartSuffix;
    int fd;
    do fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return Status::error(path + ": " + std::strerror(errno));
    return AtomicFile(std::move(path), fd);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), written_(other.written_), broken_(other.broken_) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
    if (this != &other) {
        discard();
        path_ = std::move(other.path_);
        fd_ = std::exchange(other.fd_, -1);
        written_ = other.written_;
        broken_ = other.broken_;
    }
    return *this;
}

AtomicFile::~AtomicFile() { discard(); }

Status AtomicFile::fail(int error) {
    broken_ = true;
    return Status::error(path_ + ": " + std::strerror(error));
}

Status AtomicFile::write(const void* data, size_t size) {
    if (fd_ < 0 || broken_) return Status::error(path_ + ": written after it was closed or had failed");
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd_, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail(errno);
        }
        // A regular file accepts nothing more only when it cannot grow: the next write
        // reports why (ENOSPC, EFBIG, EDQUOT); a 0 here would otherwise loop forever.
        if (n == 0) return fail(ENOSPC);
        p += n;
        size -= size_t(n);
        written_ += size_t(n);
    }
    return {};
}

Status AtomicFile::commit() {
    if (fd_ < 0 || broken_) return Status::error(path_ + ": committed after it was closed or had failed");
    // close() is not retried: Linux releases the descriptor whatever it returns, and an
    // EINTR (a signal during a close that waits, on a network filesystem) loses nothing
    // that write() did not already report.
    const int closed = ::close(std::exchange(fd_, -1));
    const std::string part = partPath();
    if (closed != 0 && errno != EINTR) {
        const int error = errno;
        ::unlink(part.c_str());
        broken_ = true;
        return Status::error(path_ + ": " + std::strerror(error));
    }
    if (std::rename(part.c_str(), path_.c_str()) != 0) {
        const int error = errno;
        ::unlink(part.c_str());
        broken_ = true;
        return Status::error(path_ + ": " + std::strerror(error));
    }
    return {};
}

void AtomicFile::discard() {
    if (fd_ < 0) return;   // committed, moved from, or already discarded
    ::close(std::exchange(fd_, -1));
    ::unlink(partPath().c_str());
}

void AtomicFile::abandon(size_t size) {
    if (fd_ < 0) return;
    // Shrinking needs no space; should it fail, the reader's rule (up to the last newline)
    // still applies to what is there.
    if (size < written_) {
        [[maybe_unused]] const int cut = ::ftruncate(fd_, off_t(size));
    }
    ::close(std::exchange(fd_, -1));
}

Status writeFileAtomically(const std::string& path, std::initializer_list<std::string_view> pieces) {
    auto file = AtomicFile::create(path);
    if (!file) return file.status();
    for (std::string_view piece : pieces)
        if (Status st = file->write(piece); !st) return st;
    return file->commit();
}

}  // namespace cs
