// FFmpeg's messages routed to our sentences: per thread while opening, per decoder while
// decoding, per demuxer while it is driven (see FFmpegLog.h).
#include "FFmpegLog.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
}

#include <algorithm>
#include <cstdarg>
#include <cstring>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <utility>

namespace cs::ff {
namespace {

constexpr size_t kMaxDecoderLines = 200;
constexpr size_t kMaxDemuxerMessages = 200;

thread_local LogCapture* tCurrentCapture = nullptr;
thread_local DemuxerLog* tCurrentDemuxer = nullptr;

// libavformat's own remarks while it probes a stream or estimates timings: they say what it
// could not work out (a frame rate, a duration, an audio stream's parameters), not that the
// data is damaged. A corrupt packet is reported from the packet's own flag.
constexpr const char* kProbingRemarks[] = {
    "Could not find codec parameters",  "not enough frames to estimate rate", "Estimating duration from bitrate",
    "start time for stream",            "no PTS found at end of file",        "no TS found at start of file",
    "Failed to open codec in",          "Discarding ID3 tags",                "nothing to probe for stream",
    "probed stream",                    "Packet corrupt (stream",             "Custom AVIOContext makes no sense",
    "Failed to reallocate probe buffer", "Could not inject global side data",  "misdetection possible",
};

bool isProbingRemark(const std::string& text) {
    return std::any_of(std::begin(kProbingRemarks), std::end(kProbingRemarks),
                       [&](const char* remark) { return text.find(remark) != std::string::npos; });
}

void trimLineEnd(std::string& line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
}

// Live DecoderLogs. The registry lock is held while a message is added, so a DecoderLog
// cannot be destroyed under a logging decoder thread.
std::mutex gDecoderLogsMutex;
std::unordered_set<const void*>& decoderLogs() {
    static std::unordered_set<const void*> logs;
    return logs;
}

// Called by FFmpeg from any thread. Nothing may throw through it: a failed allocation only
// loses the quoted message.
void forwardingLogCallback(void* avcl, int level, const char* fmt, va_list vl) {
    const bool fromDecoder =
        level <= AV_LOG_ERROR && avcl && *static_cast<const AVClass* const*>(avcl) == avcodec_get_class();
    DemuxerLog* demuxer = level <= AV_LOG_WARNING && tCurrentDemuxer && tCurrentDemuxer->concerns(avcl)
                              ? tCurrentDemuxer
                              : nullptr;
    if ((level <= AV_LOG_ERROR && (tCurrentCapture || fromDecoder)) || demuxer) {
        char line[1024];
        int printPrefix = 0;   // no "[h264 @ 0x...]" prefix: the sentence names the input itself
        va_list copy;
        va_copy(copy, vl);
        av_log_format_line2(avcl, level, fmt, copy, line, sizeof line, &printPrefix);
        va_end(copy);
        try {
            if (demuxer) demuxer->addPiece(line);
            if (level <= AV_LOG_ERROR && tCurrentCapture) captureLine(tCurrentCapture, line);
            if (fromDecoder) {
                void* opaque = static_cast<AVCodecContext*>(avcl)->opaque;
                std::lock_guard lock(gDecoderLogsMutex);
                if (opaque && decoderLogs().count(opaque)) static_cast<DecoderLog*>(opaque)->add(line);
            }
        } catch (...) {
        }
    }
    av_log_default_callback(avcl, level, fmt, vl);
}

void installCallback() {
    static std::once_flag installed;
    std::call_once(installed, [] { av_log_set_callback(forwardingLogCallback); });
}

}  // namespace

void captureLine(LogCapture* capture, const char* text) {
    capture->partial_ += text;
    if (!capture->partial_.empty() && capture->partial_.back() == '\n') {
        while (!capture->partial_.empty() && (capture->partial_.back() == '\n' || capture->partial_.back() == ' '))
            capture->partial_.pop_back();
        if (!capture->partial_.empty()) capture->last_ = capture->partial_;
        capture->partial_.clear();
    }
}

LogCapture::LogCapture() : previous_(tCurrentCapture) {
    installCallback();
    tCurrentCapture = this;
}

LogCapture::~LogCapture() { tCurrentCapture = previous_; }

DecoderLog::DecoderLog(void* owner) : owner_(owner) {
    installCallback();
    std::lock_guard lock(gDecoderLogsMutex);
    decoderLogs().insert(this);
}

DecoderLog::~DecoderLog() {
    std::lock_guard lock(gDecoderLogsMutex);
    decoderLogs().erase(this);
}

void DecoderLog::attach(AVCodecContext* decoder) { decoder->opaque = this; }

void DecoderLog::add(std::string line) {
    trimLineEnd(line);
    if (line.empty()) return;
    std::lock_guard lock(mutex_);
    if (lines_.size() < kMaxDecoderLines) lines_.push_back(std::move(line));
    else ++dropped_;
}

std::vector<std::string> DecoderLog::take(size_t& dropped) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> taken;
    taken.swap(lines_);
    dropped = std::exchange(dropped_, 0);
    return taken;
}

DemuxerLog::DemuxerLog() { installCallback(); }

DemuxerLog::Scope::Scope(DemuxerLog& log, std::string during)
    : log_(log), previous_(tCurrentDemuxer), previousDuring_(std::exchange(log.during_, std::move(during))) {
    tCurrentDemuxer = &log;
}

DemuxerLog::Scope::~Scope() {
    log_.during_ = std::move(previousDuring_);
    tCurrentDemuxer = previous_;
}

bool DemuxerLog::concerns(void* avcl) const {
    if (!avcl) return false;
    const AVClass* cls = *static_cast<const AVClass* const*>(avcl);
    if (!cls) return false;
    if (cls == avformat_get_class() || cls == av_stream_get_class()) return true;
    if (format_ && avcl == format_->priv_data) return true;
    return cls->class_name &&
           (std::strcmp(cls->class_name, "AVIOContext") == 0 || std::strcmp(cls->class_name, "URLContext") == 0);
}

void DemuxerLog::addPiece(const char* text) {
    if (partial_.empty()) {
        // Where the demuxer is when it speaks: for a file, the byte it has read up to.
        partialByte_ = -1;
        if (format_ && format_->pb && (format_->pb->seekable & AVIO_SEEKABLE_NORMAL))
            partialByte_ = avio_tell(format_->pb);
    }
    partial_ += text;
    if (partial_.empty() || partial_.back() != '\n') return;
    trimLineEnd(partial_);
    if (!partial_.empty() && !isProbingRemark(partial_)) {
        if (messages_.size() < kMaxDemuxerMessages) messages_.push_back({partial_, partialByte_, during_});
        else ++dropped_;
    }
    partial_.clear();
}

std::vector<DemuxerLog::Message> DemuxerLog::take(size_t& dropped) {
    std::vector<Message> taken;
    taken.swap(messages_);
    dropped = std::exchange(dropped_, 0);
    return taken;
}

}  // namespace cs::ff
