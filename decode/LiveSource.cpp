// LiveSource: a FileSource opened with low-latency options and a deadline on every blocking
// call (see LiveSource.h). Driven by one thread at a time, except the cancel flag.
#include "LiveSource.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "CudaDevice.h"
#include "FileSource.h"

extern "C" {
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
}

namespace cs {
namespace {

// Closing may talk to the server (RTSP TEARDOWN): never for longer than this.
constexpr double kCloseSeconds = 1.0;

std::string secondsText(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", s);
    return text;
}

void registerDevices() {
    static std::once_flag once;
    std::call_once(once, [] { avdevice_register_all(); });
}

// The target of FFmpeg's AVIOInterruptCB: every blocking call in libavformat polls it
// (about every 100 ms while waiting) and gives up with AVERROR_EXIT when it says so.
// A read has one deadline (arm). An open (armOpen) waits `silence` seconds for its first
// packet; once packets arrive it waits for the first picture as long as they keep coming
// (no pause of `gap` seconds), up to `cap` seconds in all: a stream joined between keyframes
// decodes nothing until the next one, and that may be many seconds away.
// Polled, armed and read on the thread driving the source; the cancel flag is set from any
// thread.
class Interrupter {
public:
    using Clock = std::chrono::steady_clock;
    enum class Expiry { None, Deadline, NoData, DataStopped, NoPicture };

    explicit Interrupter(const std::atomic<bool>* cancel) : cancel_(cancel) {}

    static int callback(void* opaque) { return static_cast<Interrupter*>(opaque)->interrupted() ? 1 : 0; }

    void arm(double seconds) {
        disarm();
        deadline_ = after(Clock::now(), seconds);
    }
    // `packets` counts packets demuxed (DemuxSetup::packetsRead); `arriving` is set true at
    // the first one (OpenOptions::dataArriving, may be null).
    void armOpen(double silence, double gap, double cap, const std::atomic<int64_t>* packets,
                 std::atomic<bool>* arriving) {
        disarm();
        const auto now = Clock::now();
        gap_ = gap;
        capDeadline_ = after(now, std::max(cap, silence));
        packets_ = packets;
        packetsSeen_ = packets ? packets->load(std::memory_order_relaxed) : 0;
        arriving_ = arriving;
        deadline_ = after(now, silence);
    }
    void disarm() {
        deadline_ = Clock::time_point::max();
        expiry_ = Expiry::None;
        packets_ = nullptr;
        arriving_ = nullptr;
        dataSeen_ = false;
    }
    Expiry expiry() const { return expiry_; }
    // Open: when the first packet was seen (nullopt: none yet).
    std::optional<Clock::time_point> firstData() const {
        return dataSeen_ ? std::optional<Clock::time_point>(firstData_) : std::nullopt;
    }
    bool expired() const { return expiry_ != Expiry::None; }
    bool cancelled() const { return cancel_ && cancel_->load(); }

private:
    static Clock::time_point after(Clock::time_point from, double seconds) {
        return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }

    bool interrupted() {
        if (cancelled()) return true;
        const auto now = Clock::now();
        if (packets_) {
            const int64_t n = packets_->load(std::memory_order_relaxed);
            if (n != packetsSeen_) {   // data is arriving: wait on while it does
                packetsSeen_ = n;
                if (!dataSeen_) {
                    firstData_ = now;
                    if (arriving_) arriving_->store(true);
                }
                dataSeen_ = true;
                deadline_ = std::min(after(now, gap_), capDeadline_);
            }
        }
        if (now <= deadline_) return false;
        if (packets_) expiry_ = !dataSeen_ ? Expiry::NoData : now >= capDeadline_ ? Expiry::NoPicture : Expiry::DataStopped;
        else expiry_ = Expiry::Deadline;
        return true;
    }

    const std::atomic<bool>* cancel_;
    Clock::time_point deadline_ = Clock::time_point::max();
    Expiry expiry_ = Expiry::None;
    // Open only.
    Clock::time_point capDeadline_ = Clock::time_point::max();
    double gap_ = 0.0;
    const std::atomic<int64_t>* packets_ = nullptr;
    int64_t packetsSeen_ = 0;
    std::atomic<bool>* arriving_ = nullptr;
    bool dataSeen_ = false;
    Clock::time_point firstData_{};
};

// What the decoder says about packets it is fed before the first keyframe of a stream joined
// between keyframes (no parameter sets, missing references): expected, not damage.
bool isJoinNoise(const std::string& warning) {
    return warning.find(" could not be decoded (") != std::string::npos ||
           warning.find(": decoder, near packet ") != std::string::npos ||
           warning.find(" decode error after packet ") != std::string::npos;
}

// FileSource's "<input>: N more warnings not shown": N, or 0 for any other warning.
size_t warningsNotShown(const std::string& warning) {
    const std::string tail = " more warnings not shown";
    if (warning.size() < tail.size() || warning.compare(warning.size() - tail.size(), tail.size(), tail) != 0) return 0;
    const size_t start = warning.rfind(' ', warning.size() - tail.size() - 1);
    if (start == std::string::npos) return 0;
    return size_t(std::strtoull(warning.c_str() + start + 1, nullptr, 10));
}

bool isRawCameraFormat(const std::string& format) {
    return format == "yuyv422" || format == "uyvy422" || format == "nv12" || format == "yuv420p" || format == "gray";
}

class LiveSource final : public Source {
public:
    LiveSource(LiveInput input, const OpenOptions& options)
        : input_(std::move(input)),
          options_(options),
          stallSeconds_(std::max(options.liveStallTimeout, input_.minimumStallSeconds)),
          interrupter_(options.cancel) {}

    ~LiveSource() override {
        interrupter_.arm(kCloseSeconds);
        inner_.reset();
    }

    Status open(const AVInputFormat* demuxer, const std::string& fallbackReason);

    const SourceInfo& info() const override { return info_; }
    ReadResult read(VideoFrame& out) override;
    Status seek(double seconds) override;
    std::vector<std::string> takeWarnings() override;
    int deviceFramesLent() const override { return inner_ ? inner_->deviceFramesLent() : 0; }

private:
    void refreshInfo();
    std::string whyItEnded(const std::string& cause) const;
    std::string openFailure(const std::string& fileSourceMessage) const;

    LiveInput input_;
    OpenOptions options_;
    double stallSeconds_;
    Interrupter interrupter_;           // FFmpeg's callback points here: declared before inner_, so it outlives it
    std::atomic<int64_t> packetsRead_{0};   // DemuxSetup::packetsRead: the open tells data from silence
    std::unique_ptr<Source> inner_;
    SourceInfo info_;
    bool live_ = true;
    bool stalled_ = false;              // a read hit the stall deadline (the frames the decoder still held came first)
    std::string decoderNote_;           // "(software, fallback: ...)" when this class chose software
    std::vector<std::string> warnings_;
};

Status LiveSource::open(const AVInputFormat* demuxer, const std::string& fallbackReason) {
    DemuxSetup setup;
    setup.url = input_.url;
    setup.demuxer = demuxer;
    setup.options = input_.options;
    setup.interrupt = &Interrupter::callback;
    setup.interruptOpaque = &interrupter_;
    setup.lowDelay = true;
    setup.packetsRead = &packetsRead_;

    OpenOptions options = options_;
    if (!fallbackReason.empty()) options.hwdec = HwDecode::None;
    interrupter_.armOpen(options_.liveOpenTimeout, stallSeconds_, options_.liveFirstPictureTimeout, &packetsRead_,
                         options_.dataArriving);
    auto opened = openFileSource(input_.input, options, setup);
    const Interrupter::Expiry expiry = interrupter_.expiry();
    const auto firstData = interrupter_.firstData();
    interrupter_.disarm();
    if (!opened) {
        if (interrupter_.cancelled()) return Status::error(input_.input + ": stopped");
        if (expiry == Interrupter::Expiry::DataStopped)
            return Status::error(input_.input + ": data stopped arriving before a picture could be decoded (nothing for " +
                                 secondsText(stallSeconds_) + ")");
        if (expiry == Interrupter::Expiry::NoPicture)
            return Status::error(input_.input + ": data arrives, but no picture could be decoded within " +
                                 secondsText(std::max(options_.liveFirstPictureTimeout, options_.liveOpenTimeout)) +
                                 " (no keyframe came)");
        if (expiry != Interrupter::Expiry::None) {
            const std::string limit = secondsText(options_.liveOpenTimeout);
            if (input_.kind == LiveKind::Camera)
                return Status::error(input_.input + ": the camera gave no picture within " + limit);
            if (input_.waitsForSender)
                return Status::error(input_.input + ": no picture arrived within " + limit +
                                     " (is anything sending to this address?)");
            return Status::error(input_.input + ": no answer within " + limit +
                                 " (is the server up and the address right?)");
        }
        return Status::error(openFailure(opened.message()));
    }
    inner_ = std::move(opened.value());
    // Joined between keyframes: what the decoder said until the first picture is one line.
    size_t joinNoise = 0;
    for (auto& warning : inner_->takeWarnings()) {
        if (isJoinNoise(warning)) ++joinNoise;
        else if (const size_t more = warningsNotShown(warning)) joinNoise += more;
        else warnings_.push_back(std::move(warning));
    }
    if (joinNoise > 0) {
        const double waited =
            firstData ? std::chrono::duration<double>(Interrupter::Clock::now() - *firstData).count() : 0.0;
        warnings_.push_back(input_.input + ": joined between keyframes: waited " + secondsText(waited) +
                            " for a keyframe (" + std::to_string(joinNoise) + " decoder messages before it not shown)");
    }
    if (!fallbackReason.empty()) {
        decoderNote_ = " (software, fallback: " + fallbackReason + ")";
        warnings_.push_back(input_.input + ": NVDEC not used: " + fallbackReason + "; decoding in software");
    }
    refreshInfo();
    // A remote file (http, with a duration, seekable) plays as a file; everything else is live.
    live_ = !(input_.mayBeFile && info_.seekable && info_.duration > 0);
    refreshInfo();
    return {};
}

// FileSource's sentence, with the usual network failures said plainly.
std::string LiveSource::openFailure(const std::string& message) const {
    const std::string& in = input_.input;
    if (message.find("Connection refused") != std::string::npos)
        return in + ": connection refused (nothing is listening at that address and port)";
    if (message.find("Name or service not known") != std::string::npos ||
        message.find("Temporary failure in name resolution") != std::string::npos ||
        message.find("No address associated") != std::string::npos)
        return in + ": unknown host (the name does not resolve)";
    if (message.find("Network is unreachable") != std::string::npos) return in + ": network unreachable";
    // The status as HTTP and RTSP servers word it, after the input's name: a bare "404"
    // would also match a port or a path in the URL.
    const std::string reason = message.rfind(in + ": ", 0) == 0 ? message.substr(in.size() + 2) : message;
    if (reason.find("404 Not Found") != std::string::npos) return in + ": not found on the server (404)";
    if (reason.find("401 Unauthorized") != std::string::npos || reason.find("403 Forbidden") != std::string::npos)
        return in + ": the server refused access (check the user name and password)";
    if (input_.kind == LiveKind::Camera) {
        if (message.find("Device or resource busy") != std::string::npos)
            return in + ": the camera is in use by another program";
        if (message.find("No such device") != std::string::npos) return in + ": no such device (unplugged?)";
    }
    return message;
}

void LiveSource::refreshInfo() {
    const SourceInfo& inner = inner_->info();
    if (!info_.input.empty() && inner.width == info_.width && inner.height == info_.height &&
        inner.format == info_.format && inner.sourcePixFmt == info_.sourcePixFmt)
        return;
    info_ = inner;
    info_.input = input_.input;
    info_.decoder += decoderNote_;
    info_.live = live_;
    if (live_) {
        info_.seekable = false;
        info_.duration = 0.0;
        info_.frameCount = 0;
    }
}

// FileSource ends a stream on a read error with a warning "<input>: read error after packet
// N (<why>); the stream ends here": for a live stream that reason is the message.
bool takeEndCause(const std::string& input, const std::string& warning, std::string& cause) {
    const std::string tail = "; the stream ends here";
    if (warning.size() < tail.size() || warning.compare(warning.size() - tail.size(), tail.size(), tail) != 0 ||
        warning.rfind(input + ": ", 0) != 0)
        return false;
    std::string body = warning.substr(input.size() + 2, warning.size() - tail.size() - input.size() - 2);
    const size_t open = body.find(" (");
    if (body.rfind("read error", 0) == 0 && open != std::string::npos && body.back() == ')')
        cause = body.substr(open + 2, body.size() - open - 3);
    else
        cause = body;
    return true;
}

std::string LiveSource::whyItEnded(const std::string& cause) const {
    const std::string& in = input_.input;
    if (input_.kind == LiveKind::Camera) {
        std::error_code ec;
        if (input_.demuxer == "video4linux2" && !std::filesystem::exists(input_.devicePath, ec))
            return in + ": the camera was unplugged (" + input_.devicePath + " is gone)";
        return in + ": the camera stopped delivering frames" + (cause.empty() ? "" : " (" + cause + ")");
    }
    if (cause.empty() || cause == "End of file")
        return in + ": the stream ended (the sender stopped or closed the connection)";
    return in + ": the stream broke off (" + cause + ")";
}

ReadResult LiveSource::read(VideoFrame& out) {
    if (!inner_) return {ReadStatus::Error, input_.input + ": not open"};
    interrupter_.arm(stallSeconds_);
    ReadResult r = inner_->read(out);
    // Sticky: after an interrupted read the decoder drains, and the frames it still held
    // come out first; the end that follows is the stall's.
    stalled_ = stalled_ || interrupter_.expired();
    interrupter_.disarm();
    if (r.status == ReadStatus::Frame) {
        refreshInfo();
        return r;
    }
    std::string cause;
    for (auto& warning : inner_->takeWarnings())
        if (!takeEndCause(input_.input, warning, cause)) warnings_.push_back(std::move(warning));
    if (interrupter_.cancelled()) return {ReadStatus::Error, input_.input + ": stopped"};
    if (stalled_)
        return {ReadStatus::Error, input_.input + ": no picture for " + secondsText(stallSeconds_) +
                                       " (the stream stopped or stalled)"};
    if (r.status == ReadStatus::Error || !live_) return r;
    return {ReadStatus::Error, whyItEnded(cause)};
}

Status LiveSource::seek(double seconds) {
    if (live_ || !inner_) return Status::error(input_.input + ": a live stream cannot seek");
    interrupter_.arm(options_.liveOpenTimeout);
    Status s = inner_->seek(seconds);
    interrupter_.disarm();
    return s;
}

std::vector<std::string> LiveSource::takeWarnings() {
    std::vector<std::string> taken;
    taken.swap(warnings_);
    if (inner_)
        for (auto& warning : inner_->takeWarnings()) taken.push_back(std::move(warning));
    return taken;
}

// Cameras: plain sentences for the usual problems, before FFmpeg is asked.
Status checkCamera(const LiveInput& input) {
    if (input.demuxer != "video4linux2") return {};
    struct stat st{};
    if (::stat(input.devicePath.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return Status::error(input.input + ": no such device");
        return Status::error(input.input + ": " + std::strerror(errno));
    }
    if (!S_ISCHR(st.st_mode)) return Status::error(input.input + ": not a video device (" + input.devicePath + ")");
    if (::access(input.devicePath.c_str(), R_OK | W_OK) != 0 && errno == EACCES)
        return Status::error(input.input + ": permission denied (is the user in the 'video' group?)");
    return {};
}

}  // namespace

Result<std::unique_ptr<Source>> openLiveSource(const LiveInput& input, const OpenOptions& options) {
    if (input.kind == LiveKind::Camera)
        if (Status s = checkCamera(input); !s) return s;
    if (options.cancel && options.cancel->load()) return Status::error(input.input + ": stopped");
    registerDevices();
    const AVInputFormat* demuxer = nullptr;
    if (!input.demuxer.empty()) {
        demuxer = av_find_input_format(input.demuxer.c_str());
        if (!demuxer)
            return Status::error(input.input + ": this FFmpeg has no " + input.demuxer + " input");
    }

    // NVDEC where asked and possible. Decide before connecting where that is cheap: a second
    // connection (FileSource's fallback) would cost time, and a pushed RTSP stream only
    // comes once.
    OpenOptions effective = options;
    std::string fallbackReason;
    if (options.hwdec == HwDecode::Auto) {
        if (input.kind == LiveKind::Camera && (input.mode.format.empty() || isRawCameraFormat(input.mode.format))) {
            effective.hwdec = HwDecode::None;   // raw frames need no decoder: nothing to say
        } else if (auto device = ff::createCudaDevice(options.deviceStream.get()); !device) {
            fallbackReason = device.message();
        }
    }
    auto source = std::make_unique<LiveSource>(input, effective);
    if (Status s = source->open(demuxer, fallbackReason); !s) return s;
    return std::unique_ptr<Source>(std::move(source));
}

}  // namespace cs
