// Ctrl-C (SIGINT) and SIGTERM as a request to stop: while a StopSignals lives, the first
// of them only sets a flag (the handler does nothing else), and the export loop ends after
// the frame in hand, writes the report of the frames done and exits 128 + the signal
// (130, 143). The handler is one-shot (SA_RESETHAND): a second signal ends the process at
// once, for a stop that hangs. SA_RESTART keeps system calls in progress from failing with
// EINTR. It also ignores SIGXFSZ, so that a file size limit (ulimit -f) fails the write
// with EFBIG, reported as an error, instead of killing the process. A signal that was
// ignored when the process started (a background job's SIGINT) stays ignored.
// One at a time per process; the previous handlers come back when it is destroyed.
#pragma once
#include <signal.h>

#include <atomic>

namespace cs {

class StopSignals {
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    // The signal that asked to stop (SIGINT, SIGTERM), or 0.
    int received() const;
    // True once a stop was asked; for OpenOptions::cancel, so that a blocking live read
    // gives up at once.
    static const std::atomic<bool>* flag();

private:
    struct sigaction oldInt_ {}, oldTerm_ {}, oldXfsz_ {};
};

// "SIGINT", "SIGTERM", else "a signal".
const char* signalName(int signal);

}  // namespace cs
