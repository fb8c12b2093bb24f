// FFmpeg's error messages routed to our sentences: per thread while opening, per decoder
// while decoding (see FFmpegLog.h).
#include "FFmpegLog.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
}

#include <cstdarg>
#include <mutex>
#include <unordered_set>
#include <utility>

namespace cs::ff {
namespace {

constexpr size_t kMaxDecoderLines = 200;

thread_local LogCapture* tCurrentCapture = nullptr;

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
    if (level <= AV_LOG_ERROR && (tCurrentCapture || fromDecoder)) {
        char line[1024];
        int printPrefix = 0;   // no "[h264 @ 0x...]" prefix: the sentence names the input itself
        va_list copy;
        va_copy(copy, vl);
        av_log_format_line2(avcl, level, fmt, copy, line, sizeof line, &printPrefix);
        va_end(copy);
        try {
            if (tCurrentCapture) captureLine(tCurrentCapture, line);
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
    while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
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

}  // namespace cs::ff
