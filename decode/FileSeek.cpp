// FileSource, seeking: land on the keyframe at or before the target, decode forward to it,
// and step further back when the demuxer landed too late.
#include "FileSourceImpl.h"

#include <algorithm>
#include <cmath>

namespace cs::detail {

Status FileSource::seek(double target) {
    if (!info_.seekable) return Status::error(input_ + ": this input cannot seek");
    if (!std::isfinite(target)) return Status::error(input_ + ": cannot seek to a time that is not a number");
    target = std::max(0.0, target);
    primed_.reset();
    seek_ = SeekState{};
    Status s = seekStream(target);
    if (!s) s = seekToStart();
    if (!s) return s;
    seek_.active = true;
    seek_.firstFrame = true;
    seek_.target = target;
    nextIndex_ = 0;
    framesDecoded_ = 0;
    return {};
}

Status FileSource::retreat() {
    ++seek_.retries;
    const double earlier = seek_.target - double(1 << (seek_.retries - 1));
    Status s = (seek_.retries > kMaxSeekRetries || earlier <= 0.0) ? seekToStart() : seekStream(earlier);
    if (!s) s = seekToStart();
    seek_.firstFrame = true;
    return s;
}

Status FileSource::seekStream(double target) {
    // In the stream's time base, saturated to int64: a header may state a duration that a
    // fine time base cannot count (1.9e10 s in nanoseconds), and the slider goes there.
    constexpr double kTwo63 = 9223372036854775808.0;
    const double ticks = double(startTimestamp_) + std::floor(target / av_q2d(stream_->time_base));
    const int64_t ts = ticks >= kTwo63 ? INT64_MAX : ticks > -kTwo63 ? int64_t(ticks) : INT64_MIN;
    // The latest keyframe at or before ts; decoding forward from it reaches the target.
    const auto listening = integrity_.listen("while seeking to " + seconds(target));
    int ret = avformat_seek_file(format_.get(), streamIndex_, INT64_MIN, ts, ts, 0);
    if (ret < 0) ret = av_seek_frame(format_.get(), streamIndex_, ts, AVSEEK_FLAG_BACKWARD);
    if (ret < 0) return Status::error(input_ + ": cannot seek to " + seconds(target) + " (" + ff::errorText(ret) + ")");
    resetDecoderState();
    return {};
}

Status FileSource::seekToStart() {
    const auto listening = integrity_.listen("while seeking to the start");
    int ret = avformat_seek_file(format_.get(), streamIndex_, INT64_MIN, startTimestamp_, startTimestamp_, 0);
    if (ret < 0) ret = av_seek_frame(format_.get(), -1, 0, AVSEEK_FLAG_BYTE);
    if (ret < 0) return Status::error(input_ + ": cannot seek to the start (" + ff::errorText(ret) + ")");
    seek_.fromStart = true;
    seek_.firstFrame = true;
    resetDecoderState();
    return {};
}

void FileSource::resetDecoderState() {
    if (timecodes_) timecodes_->restart();
    avcodec_flush_buffers(codec_.get());
    av_packet_unref(packet_.get());
    av_frame_unref(frame_.get());
    packetPending_ = false;
    draining_ = false;
    ended_ = false;
    receiveErrorsInARow_ = 0;
    havePts_ = false;
    integrity_.seeked();
}

}  // namespace cs::detail
