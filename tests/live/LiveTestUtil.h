// Helpers for the live tests: free loopback ports, ffmpeg CLI senders started and killed by
// the test, and waiting for events (a reader's wake callback, a sender's exit, a file being
// written, a client connecting) with a generous bound that only fails the test.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cs::test {

// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then let go).
int freeUdpPort();
int freeTcpPort();
// An even UDP port P with P+1 free too (RTP on P, RTCP on P+1).
int freeRtpPort();

// Events posted from other threads, and waiting for a condition they change. Pass poster()
// as a reader's wake callback (LiveReader calls it when a frame lands in an empty mailbox,
// when its state changes and when warnings arrive) or a Sender's exit callback.
class Events {
public:
    void post();
    std::function<void()> poster() {
        return [this] { post(); };
    }
    // Evaluates `done` now and after each event until it is true (true) or `timeout`
    // passes (false). `done` must only change with an event posted here.
    bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

private:
    std::mutex mutex_;
    std::condition_variable posted_;
    uint64_t count_ = 0;
};

// The ffmpeg CLI as a child process, its output in a log file. A watcher thread waits for
// it to exit and then calls `onExit` (on the watcher thread). Killed (SIGKILL) and reaped by
// stop() or the destructor.
class Sender {
public:
    Sender(std::vector<std::string> arguments, std::string logPath, std::function<void()> onExit = {});
    ~Sender();
    Sender(const Sender&) = delete;
    Sender& operator=(const Sender&) = delete;

    bool start();              // false when the process cannot be started
    void stop();               // kill -9, reap, and join the watcher
    bool running() const;      // started and not exited
    int exitStatus() const;    // -1 while running or never started
    std::string log() const;   // what it printed (for failure messages)

private:
    void watch(pid_t pid);

    std::vector<std::string> arguments_;
    std::string logPath_;
    std::function<void()> onExit_;
    mutable std::mutex mutex_;
    pid_t pid_ = -1;           // guarded by mutex_, as is exitStatus_ and exited_
    int exitStatus_ = -1;
    bool exited_ = true;       // the process was reaped (so pid_ may already name another)
    std::thread watcher_;      // touched by the test's thread only
};

// An HTTP server on 127.0.0.1 (a port chosen free) that reads a request and never answers:
// a peer for clients that must give up or be cancelled while they wait on it.
class SilentHttpServer {
public:
    SilentHttpServer();
    ~SilentHttpServer();
    SilentHttpServer(const SilentHttpServer&) = delete;
    SilentHttpServer& operator=(const SilentHttpServer&) = delete;

    int port() const { return port_; }   // -1 when no socket could be bound
    // Waits up to `timeout` for a client to connect and send a whole request (through the
    // blank line after its headers): the client then waits for the reply. The connection
    // stays open, unanswered. False when no request came.
    bool awaitRequest(std::chrono::milliseconds timeout);

private:
    int listener_ = -1;
    int port_ = -1;
    std::vector<int> clients_;
};

// Waits up to `timeout` for `path` to be written and closed by another process (inotify on
// its folder); true at once when the file already exists and is not empty.
bool waitForWrittenFile(const std::string& path, std::chrono::milliseconds timeout);

// ffmpeg arguments for a test picture (testsrc2) of the given size at 25 fps, sent in real
// time (-re), H.264 with a keyframe every 10 frames and no B-frames, ending with the
// output arguments given.
std::vector<std::string> testPictureSender(int width, int height, const std::vector<std::string>& output);

// For conditions no event announces (another process's files or log, a port it binds):
// checks `done` every 10 ms until it is true (true) or `timeout` passes (false). A failed
// wait fails the test; it never stands in for an event this process could wait on.
bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

double secondsSince(std::chrono::steady_clock::time_point start);

}  // namespace cs::test
