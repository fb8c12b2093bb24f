#include "StopSignals.h"

#include <utility>

namespace cs {
namespace {

// Written by the handler, read by the export loop: lock-free atomics are async-signal-safe.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void onStopSignal(int signal) {
    g_signal.store(signal, std::memory_order_relaxed);
    g_stop.store(true, std::memory_order_release);
}

}  // namespace

StopSignals::StopSignals() {
    g_stop.store(false);
    g_signal.store(0);
    struct sigaction stop {};
    stop.sa_handler = &onStopSignal;
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = SA_RESTART | SA_RESETHAND;
    // A signal the parent set to be ignored stays ignored (a shell starts background jobs
    // with SIGINT ignored, so that Ctrl-C reaches only the foreground).
    for (auto [sig, old] : {std::pair{SIGINT, &oldInt_}, std::pair{SIGTERM, &oldTerm_}}) {
        sigaction(sig, nullptr, old);
        if (old->sa_handler != SIG_IGN) sigaction(sig, &stop, nullptr);
    }
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGXFSZ, &ignore, &oldXfsz_);
}

StopSignals::~StopSignals() {
    sigaction(SIGINT, &oldInt_, nullptr);
    sigaction(SIGTERM, &oldTerm_, nullptr);
    sigaction(SIGXFSZ, &oldXfsz_, nullptr);
}

int StopSignals::received() const {
    return g_stop.load(std::memory_order_acquire) ? g_signal.load(std::memory_order_relaxed) : 0;
}

const std::atomic<bool>* StopSignals::flag() { return &g_stop; }

const char* signalName(int signal) {
    switch (signal) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        default: return "a signal";
    }
}

}  // namespace cs
