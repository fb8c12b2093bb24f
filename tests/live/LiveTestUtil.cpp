// Helpers for the live tests (see LiveTestUtil.h).
#include "LiveTestUtil.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

#include "../decode/DecodeTestUtil.h"

extern char** environ;

namespace cs::test {
namespace {

// Binds a socket of `type` to 127.0.0.1:port (0: any) and returns the port, or -1.
int bindLoopback(int type, int port) {
    const int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(uint16_t(port));
    int result = -1;
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        result = ntohs(address.sin_port);
    ::close(fd);
    return result;
}

}  // namespace

int freeUdpPort() { return bindLoopback(SOCK_DGRAM, 0); }
int freeTcpPort() { return bindLoopback(SOCK_STREAM, 0); }

int freeRtpPort() {
    for (int attempt = 0; attempt < 50; ++attempt) {
        const int port = freeUdpPort();
        if (port <= 0) continue;
        const int even = port & ~1;
        if (even >= 1024 && even + 1 < 65536 && bindLoopback(SOCK_DGRAM, even) == even &&
            bindLoopback(SOCK_DGRAM, even + 1) == even + 1)
            return even;
    }
    return -1;
}

Sender::Sender(std::vector<std::string> arguments, std::string logPath)
    : arguments_(std::move(arguments)), logPath_(std::move(logPath)) {}

Sender::~Sender() { stop(); }

bool Sender::start() {
    stop();
    std::vector<std::string> all = {ffmpegExecutable(), "-nostdin", "-hide_banner", "-loglevel", "error"};
    all.insert(all.end(), arguments_.begin(), arguments_.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) pid_ = -1;
    exitStatus_ = -1;
    return rc == 0;
}

void Sender::stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
}

bool Sender::running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        pid_ = -1;
        return false;
    }
    return true;
}

std::string Sender::log() const {
    std::ifstream in(logPath_);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> testPictureSender(int width, int height, const std::vector<std::string>& output) {
    std::vector<std::string> args = {"-re", "-f", "lavfi", "-i",
                                     "testsrc2=size=" + std::to_string(width) + "x" + std::to_string(height) + ":rate=25",
                                     "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
                                     "-g", "10", "-bf", "0", "-pix_fmt", "yuv420p", "-threads", "1"};
    args.insert(args.end(), output.begin(), output.end());
    return args;
}

bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace cs::test
