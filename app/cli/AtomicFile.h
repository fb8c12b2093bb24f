// Output files that appear whole or not at all. An AtomicFile writes to NAME.part in the
// same folder and renames it to NAME once every write and the close have succeeded, so a
// reader never finds a cut-short NAME: after a full disk, a write error or a crash there
// is the old NAME (or none) and, for a crash, a stale NAME.part. Every error is one
// sentence naming NAME (not the .part) and the system's reason:
// "out/000012-picture.png: No space left on device".
// Writes go straight to write(2), unbuffered: what write() accepted is in the file when
// it returns, which the streaming report relies on. No fsync: a power loss may still lose
// recent files; a full disk, a quota or a failing device does not pass unnoticed.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "core/Status.h"

namespace cs {

class AtomicFile {
public:
    // Creates (or truncates) path + ".part" with mode 0666 less the umask.
    static Result<AtomicFile> create(std::string path);
    AtomicFile(AtomicFile&& other) noexcept;
    AtomicFile& operator=(AtomicFile&& other) noexcept;
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();   // not committed: closes and removes the .part

    // All of `size` bytes or an error (short writes and EINTR are retried). After a
    // failed write the file is unusable: only discard (or the destructor) remains.
    Status write(const void* data, size_t size);
    Status write(std::string_view text) { return write(text.data(), text.size()); }
    // Closes (checking close's own error: NFS and some filesystems report a failed
    // write only there) and renames the .part to the final name.
    Status commit();
    // Closes and removes the .part; the final name is left as it was.
    void discard();
    // Closes the .part cut back to its first `size` bytes and leaves it there, for a
    // stream that could not be finished but whose beginning is worth keeping.
    void abandon(size_t size);
    // Bytes that write() has put in the file so far.
    size_t written() const { return written_; }

    const std::string& path() const { return path_; }
    std::string partPath() const { return path_ + kPartSuffix; }
    static constexpr const char* kPartSuffix = ".part";

private:
    AtomicFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
    Status fail(int error);

    std::string path_;
    int fd_ = -1;
    size_t written_ = 0;
    bool broken_ = false;
};

// The whole of a file in one go: `pieces` written in order through an AtomicFile.
Status writeFileAtomically(const std::string& path, std::initializer_list<std::string_view> pieces);

}  // namespace cs
