// Helpers for the live tests (see LiveTestUtil.h).
#include "LiveTestUtil.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "tests/decode/DecodeTestUtil.h"

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

void Events::post() {
    {
        std::lock_guard lock(mutex_);
        ++count_;
    }
    posted_.notify_all();
}

bool Events::waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(mutex_);
    for (;;) {
        const uint64_t seen = count_;
        lock.unlock();   // `done` may take the reader's lock, under which it never posts
        if (done()) return true;
        lock.lock();
        if (!posted_.wait_until(lock, end, [&] { return count_ != seen; })) {
            lock.unlock();
            return done();
        }
    }
}

Sender::Sender(std::vector<std::string> arguments, std::string logPath, std::function<void()> onExit)
    : arguments_(std::move(arguments)), logPath_(std::move(logPath)), onExit_(std::move(onExit)) {}

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
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return false;
    {
        std::lock_guard lock(mutex_);
        pid_ = pid;
        exitStatus_ = -1;
        exited_ = false;
    }
    watcher_ = std::thread(&Sender::watch, this, pid);
    return true;
}

// The watcher thread: waits for the exit without reaping it (until it is reaped below, under
// the lock, the pid cannot be given to another process, so stop() may still signal it).
void Sender::watch(pid_t pid) {
    siginfo_t info{};
    while (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    {
        std::lock_guard lock(mutex_);
        int status = 0;
        ::waitpid(pid, &status, 0);
        exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        exited_ = true;
    }
    if (onExit_) onExit_();
}

void Sender::stop() {
    {
        std::lock_guard lock(mutex_);
        if (!exited_) ::kill(pid_, SIGKILL);
    }
    if (watcher_.joinable()) watcher_.join();
}

bool Sender::running() const {
    std::lock_guard lock(mutex_);
    return !exited_;
}

int Sender::exitStatus() const {
    std::lock_guard lock(mutex_);
    return exitStatus_;
}

SilentHttpServer::SilentHttpServer() {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener_ < 0) return;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 && ::listen(listener_, 4) == 0 &&
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        port_ = ntohs(address.sin_port);
}

SilentHttpServer::~SilentHttpServer() {
    for (int fd : clients_) ::close(fd);
    if (listener_ >= 0) ::close(listener_);
}

bool SilentHttpServer::awaitRequest(std::chrono::milliseconds timeout) {
    if (port_ < 0) return false;
    const auto end = std::chrono::steady_clock::now() + timeout;
    const auto waitFor = [&](int fd) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        pollfd p{fd, POLLIN, 0};
        return left.count() > 0 && ::poll(&p, 1, int(left.count())) == 1;
    };
    if (!waitFor(listener_)) return false;
    const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return false;
    clients_.push_back(fd);
    std::string request;
    while (request.find("\r\n\r\n") == std::string::npos) {
        if (!waitFor(fd)) return false;
        char buffer[1024];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) return false;
        request.append(buffer, size_t(n));
    }
    return true;
}

bool waitForWrittenFile(const std::string& path, std::chrono::milliseconds timeout) {
    namespace fs = std::filesystem;
    const fs::path file(path);
    const auto written = [&] {
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        return !ec && size > 0;
    };
    const int fd = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (fd < 0) return false;
    const std::string folder = file.parent_path().empty() ? std::string(".") : file.parent_path().string();
    if (::inotify_add_watch(fd, folder.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
        ::close(fd);
        return written();
    }
    bool found = written();   // after the watch is in place: a write in between is not missed
    const auto end = std::chrono::steady_clock::now() + timeout;
    alignas(inotify_event) char buffer[sizeof(inotify_event) + NAME_MAX + 1];
    while (!found) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        pollfd p{fd, POLLIN, 0};
        if (left.count() <= 0 || ::poll(&p, 1, int(left.count())) != 1) break;
        while (::read(fd, buffer, sizeof buffer) > 0) {
        }
        found = written();
    }
    ::close(fd);
    return found || written();
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
