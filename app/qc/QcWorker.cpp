// qc's worker processes (QcWorker.h): the parent's side (spawn, supervise, report) and the
// worker's (`cudascope qc-worker`). Threading: each parent job thread owns the worker it
// started, its pipe and its pid; nothing here is shared between job threads.
#include "QcWorker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "app/cli/Commands.h"
#include "app/cli/StopSignals.h"
#include "QcPolicy.h"
#include "core/Gamut.h"
#include "core/ThreadPool.h"

extern char** environ;

namespace cs {
namespace {

// The worker's end of the result pipe, as the parent hands it over.
constexpr int kResultFd = 3;
// Tests only: "crash:NAME" makes the worker of the input whose report name is NAME die of
// SIGSEGV after its first frame (its .part files written); "hang:NAME" makes it stop
// there and wait forever. Read by the worker alone.
constexpr const char* kFaultVariable = "CUDASCOPE_QC_WORKER_FAULT";
constexpr const char* kSuffixes[] = {".qc.json", ".qc.csv", ".qc.png", ".qc.html", ".qctools.xml.gz"};

class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    void reset() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

std::string errnoText(int e) { return std::strerror(e); }

// "SIGSEGV (Segmentation fault)".
std::string describeSignal(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    const char* text = sigdescr_np(sig);
    std::string s = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
    if (text) s += std::string(" (") + text + ")";
    return s;
}

std::vector<std::string> workerArguments(const std::string& input, const QcWorkerRequest& r) {
    std::vector<std::string> args{"cudascope", "qc-worker", "--result-fd", std::to_string(kResultFd), "--",
                                  "--out", r.outDir, "--engine", r.engine, "--devices", std::to_string(r.device),
                                  "--gamut-target", std::string(gamutTargetName(r.gamutTarget))};
    if (!r.hwdec.empty()) args.insert(args.end(), {"--hwdec", r.hwdec});
    if (!r.thresholdsFile.empty()) args.insert(args.end(), {"--thresholds", r.thresholdsFile});
    if (!r.loudnessTarget.empty()) args.insert(args.end(), {"--loudness-target", r.loudnessTarget});
    if (r.threads > 0) args.insert(args.end(), {"--threads", std::to_string(r.threads)});
    if (!r.policy.empty()) args.insert(args.end(), {"--policy", r.policy});
    if (!r.qctools && !r.onlyJson) args.emplace_back("--no-qctools");
    if (r.onlyJson) args.emplace_back("--only-json");
    if (r.hostDetectors) args.emplace_back("--host-detectors");
    if (r.force) args.emplace_back("--force");
    args.insert(args.end(), {"--", input});
    return args;
}

// What a worker that died leaves: its AtomicFiles' .part files (and, when it died after
// committing, the reports of a process whose memory may have been corrupt).
void removeLeftovers(const std::string& outDir, const std::string& name, bool reportsToo) {
    std::error_code ec;
    for (const char* suffix : kSuffixes) {
        const std::string path = qcPath(outDir, name, suffix);
        std::filesystem::remove(path + ".part", ec);
        if (reportsToo) std::filesystem::remove(path, ec);
    }
}

bool writeAll(int fd, const std::string& text) {
    for (size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

const char* outcomeWord(QcOutcome o) {
    switch (o) {
        case QcOutcome::Checked: return "checked";
        case QcOutcome::Skipped: return "skipped";
        case QcOutcome::Failed: return "failed";
        case QcOutcome::Stopped: return "stopped";
    }
    return "failed";
}

std::optional<QcRunResult> parseResult(const std::string& text) {
    const size_t space = text.find(' ');
    const std::string word = text.substr(0, space), message = space == std::string::npos ? "" : text.substr(space + 1);
    for (QcOutcome o : {QcOutcome::Checked, QcOutcome::Skipped, QcOutcome::Failed, QcOutcome::Stopped})
        if (word == outcomeWord(o)) return QcRunResult{o, message};
    return std::nullopt;
}

}  // namespace

QcRunResult runQcInputInWorker(const std::string& input, const QcWorkerRequest& r, const std::function<int()>& stopSignal) {
    using Clock = std::chrono::steady_clock;
    const std::string name = qcName(input);
    const auto cannotStart = [&](const std::string& why) {
        return QcRunResult{QcOutcome::Failed, input + ": cannot start a qc worker (" + why + ")"};
    };
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return cannotStart("pipe: " + errnoText(errno));
    Fd readEnd(fds[0]);
    // The write end above kResultFd, so that the child's dup2 onto it always makes a new
    // descriptor (without close-on-exec); the parent's copy stays close-on-exec, so
    // workers started by other job threads never hold it.
    Fd writeEnd(::fcntl(fds[1], F_DUPFD_CLOEXEC, kResultFd + 1));
    ::close(fds[1]);
    if (writeEnd.get() < 0) return cannotStart("fcntl: " + errnoText(errno));

    const std::vector<std::string> args = workerArguments(input, r);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, writeEnd.get(), kResultFd);
    posix_spawnattr_init(&attr);
    // A process group of its own: Ctrl-C reaches the parent, which passes the stop on once.
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, "/proc/self/exe", &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    writeEnd.reset();   // the worker's copy is the only one: its exit ends the pipe
    if (spawned != 0) return cannotStart(errnoText(spawned));

    std::string buffer, result;
    bool haveResult = false, timedOut = false;
    int forwarded = 0;
    auto lastSign = Clock::now();
    for (;;) {
        pollfd p{readEnd.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, 200);
        if (ready < 0 && errno != EINTR) break;
        if (ready > 0) {
            char chunk[4096];
            const ssize_t got = ::read(readEnd.get(), chunk, sizeof chunk);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;   // the worker closed its end: it is gone
            buffer.append(chunk, size_t(got));
            lastSign = Clock::now();
            for (size_t nl; (nl = buffer.find('\n')) != std::string::npos; buffer.erase(0, nl + 1))
                if (buffer.compare(0, 7, "result ") == 0) {
                    result = buffer.substr(7, nl - 7);
                    haveResult = true;
                }
        }
        if (!forwarded)
            if (const int sig = stopSignal ? stopSignal() : 0) {
                ::kill(pid, sig);
                forwarded = sig;
            }
        if (!timedOut && r.inputTimeout > 0 &&
            std::chrono::duration<double>(Clock::now() - lastSign).count() > r.inputTimeout) {
            ::kill(pid, SIGKILL);
            timedOut = true;
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }

    const std::optional<QcRunResult> said = haveResult ? parseResult(result) : std::nullopt;
    if (said && WIFEXITED(status) && WEXITSTATUS(status) == kExitOk) return *said;
    // The worker died (or exited without its result): its input failed, nothing of it stays.
    const bool committed = said && said->outcome == QcOutcome::Checked;
    removeLeftovers(r.outDir, name, committed);
    if (timedOut) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", r.inputTimeout);
        return {QcOutcome::Failed, input + ": timed out: no frame finished in " + seconds +
                                       " s (--input-timeout), the qc worker was killed; no report written"};
    }
    if (forwarded && WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
        return {QcOutcome::Stopped, input + ": stopped; no report written"};
    if (WIFSIGNALED(status))
        return {QcOutcome::Failed, input + ": the qc worker crashed (" + describeSignal(WTERMSIG(status)) + ")" +
                                       (committed ? " after writing its report, which is removed" : "; no report written")};
    return {QcOutcome::Failed, input + ": the qc worker exited with status " + std::to_string(WEXITSTATUS(status)) +
                                   " without a result; no report written"};
}

int runQcWorker(int argc, char** argv) {
    const auto usage = [] {
        std::fputs("cudascope qc-worker: the worker of `cudascope qc` (usage: qc-worker --result-fd N -- QC_ARGS...)\n", stderr);
        return kExitUsage;
    };
    if (argc < 3 || std::strcmp(argv[0], "--result-fd") != 0 || std::strcmp(argv[2], "--") != 0) return usage();
    const int fd = std::atoi(argv[1]);
    if (fd < 0 || ::fcntl(fd, F_GETFD) < 0) return usage();
    auto parsed = parseQcArgs(argumentsOf(argc - 3, argv + 3));
    if (!parsed || parsed->inputs.size() != 1) return usage();
    QcOptions a = std::move(*parsed);
    const std::string input = a.inputs.front();
    const auto finish = [&](const QcRunResult& r) {
        std::string message = r.message;
        for (char& c : message)
            if (c == '\n') c = ' ';
        writeAll(fd, std::string("result ") + outcomeWord(r.outcome) + " " + message + "\n");
        return kExitOk;
    };
    if (!a.thresholdsFile.empty()) {   // the parent read it already; read again, as it is now
        std::ifstream in(a.thresholdsFile, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        auto t = parseQcThresholds(text.str(), a.thresholds);
        if (!in || !t) return finish({QcOutcome::Failed, input + ": --thresholds " + a.thresholdsFile + ": " +
                                                             (t ? std::string("cannot be read") : t.message())});
        a.thresholds = *t;
    }
    std::vector<QcPolicy> policies;
    if (!a.policy.empty()) {   // the parent read them already; read again, as they are now
        auto p = loadQcPolicies(a.policy);
        if (!p) return finish({QcOutcome::Failed, input + ": " + p.message()});
        policies = std::move(*p);
    }

    // Every pool, engine and decoder of this process sizes from its share of the run's threads.
    ThreadPool::setProcessThreads(a.threads);
    const StopSignals stopSignals;
    QcRunOptions o;
    o.outDir = a.outDir;
    o.engine = a.engine;
    o.hwdec = a.hwdec;
    o.device = a.devices.empty() ? 0 : a.devices.front();
    o.qctools = a.qctools;
    o.onlyJson = a.onlyJson;
    o.hostDetectors = a.hostDetectors;
    o.force = a.force;
    o.thresholds = a.thresholds;
    o.gamutTarget = a.gamutTarget;
    o.policies = std::move(policies);
    o.stop = StopSignals::flag();
    o.log = [](const std::string& line) { std::fprintf(stderr, "cudascope qc: %s\n", line.c_str()); };   // one write: stderr is unbuffered

    std::string fault;
    if (const char* f = std::getenv(kFaultVariable)) fault = f;
    const std::string name = qcName(input);
    auto lastSign = std::chrono::steady_clock::now();
    o.frameDone = [&](int64_t frames) {
        const auto now = std::chrono::steady_clock::now();
        if (frames == 1 || now - lastSign >= std::chrono::milliseconds(250)) {
            writeAll(fd, "alive\n");
            lastSign = now;
        }
        if (frames == 1 && fault == "crash:" + name) {
            std::signal(SIGSEGV, SIG_DFL);
            std::raise(SIGSEGV);
        }
        if (frames == 1 && fault == "hang:" + name)
            for (;;) ::pause();
    };
    return finish(runQcInput(input, o));
}

}  // namespace cs
