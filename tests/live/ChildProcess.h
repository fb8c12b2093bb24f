// Helpers for the live export tests: a program run as a child process with its output in a
// log file (read while it runs), and whether a loopback port is bound by someone.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace cs::test {

class ChildProcess {
public:
    ChildProcess(std::string program, std::vector<std::string> arguments, std::string logPath);
    ~ChildProcess();   // kills (SIGKILL) and reaps one still running
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    bool start();                  // false when the process cannot be started
    bool running();                // started and not exited (reaps one that exited)
    // Waits up to `timeout` for the exit; its status (128 + signal when killed), or -1
    // when it was still running (it is then killed).
    int wait(std::chrono::milliseconds timeout);
    std::string output() const;    // stdout and stderr so far

private:
    std::string program_;
    std::vector<std::string> arguments_;
    std::string logPath_;
    pid_t pid_ = -1;
    int exitStatus_ = -1;
};

// True when 127.0.0.1:port of that type (SOCK_DGRAM, SOCK_STREAM) cannot be bound now: a
// receiver (or an SRT listener) has it.
bool loopbackPortBusy(int type, int port);

std::string readText(const std::string& path);

}  // namespace cs::test
