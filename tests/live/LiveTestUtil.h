// Helpers for the live tests: free loopback ports, ffmpeg CLI senders started and killed by
// the test, and waiting with a deadline.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace cs::test {

// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then let go).
int freeUdpPort();
int freeTcpPort();
// An even UDP port P with P+1 free too (RTP on P, RTCP on P+1).
int freeRtpPort();

// The ffmpeg CLI as a child process, its output in a log file. Killed (SIGKILL) and reaped
// by stop() or the destructor.
class Sender {
public:
    Sender(std::vector<std::string> arguments, std::string logPath);
    ~Sender();
    Sender(const Sender&) = delete;
    Sender& operator=(const Sender&) = delete;

    bool start();              // false when the process cannot be started
    void stop();               // kill -9 and reap
    bool running();            // started and not exited
    int exitStatus() const { return exitStatus_; }
    std::string log() const;   // what it printed (for failure messages)

private:
    std::vector<std::string> arguments_;
    std::string logPath_;
    pid_t pid_ = -1;
    int exitStatus_ = -1;
};

// ffmpeg arguments for a test picture (testsrc2) of the given size at 25 fps, sent in real
// time (-re), H.264 with a keyframe every 10 frames and no B-frames, ending with the
// output arguments given.
std::vector<std::string> testPictureSender(int width, int height, const std::vector<std::string>& output);

// Polls `done` every 10 ms until it is true (returns true) or `timeout` passes (false).
bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

double secondsSince(std::chrono::steady_clock::time_point start);

}  // namespace cs::test
