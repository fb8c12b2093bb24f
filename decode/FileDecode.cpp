// FileSource, the decode loop: packets of the video stream in, frames out; damage becomes
// warnings and decoding goes on.
#include "FileSourceImpl.h"

#include <utility>

namespace cs::detail {

ReadResult FileSource::read(VideoFrame& out) {
    if (primed_) {
        out = std::move(*primed_);
        primed_.reset();
        return {ReadStatus::Frame, {}};
    }
    return decodeNext(out);
}

ReadResult FileSource::decodeNext(VideoFrame& out) {
    for (;;) {
        collectDecoderMessages();
        if (ended_) return {ReadStatus::EndOfStream, {}};
        const int ret = avcodec_receive_frame(codec_.get(), frame_.get());
        if (ret == 0) {
            receiveErrorsInARow_ = 0;
            ++framesDecoded_;
            std::string error;
            const Delivery d = deliver(out, error);
            if (d == Delivery::Frame) return {ReadStatus::Frame, {}};
            if (d == Delivery::Failed) return {ReadStatus::Error, error};
            continue;
        }
        if (ret == AVERROR_EOF) {
            if (seek_.active && framesDecoded_ == 0 && !seek_.fromStart) {
                // Nothing decodable after the landing point (no keyframe before the end, as
                // when MPEG-TS seeks land between keyframes): start further back.
                if (Status s = retreat(); !s) return {ReadStatus::Error, s.message()};
                continue;
            }
            ended_ = true;
            collectDecoderMessages();
            warnIfEndedEarly();
            return {ReadStatus::EndOfStream, {}};
        }
        if (ret != AVERROR(EAGAIN)) {
            if (cuda_ && !cudaConfirmed_) {
                if (cudaProblem_.empty()) cudaProblem_ = "the first NVDEC decode failed (" + ff::errorText(ret) + ")";
                return {ReadStatus::Error, input_ + ": " + cudaProblem_};
            }
            warn(input_ + ": decode error after packet " + std::to_string(packetsRead_) + " (" + ff::errorText(ret) +
                 "); decoding goes on");
            if (++receiveErrorsInARow_ > kMaxReceiveErrorsInARow) {
                warn(input_ + ": the decoder keeps failing; the stream ends here");
                ended_ = true;
                return {ReadStatus::EndOfStream, {}};
            }
            continue;
        }
        if (draining_) {   // a drained decoder should say EOF; never spin on it
            ended_ = true;
            return {ReadStatus::EndOfStream, {}};
        }
        feedPacket();
        if (cuda_ && !cudaConfirmed_ && !cudaProblem_.empty()) return {ReadStatus::Error, input_ + ": " + cudaProblem_};
    }
}

void FileSource::feedPacket() {
    if (!packetPending_) {
        const int ret = av_read_frame(format_.get(), packet_.get());
        if (ret == AVERROR(EAGAIN)) return;
        if (ret < 0) {
            int error = ret;
            if (ret == AVERROR_EOF && format_->pb && format_->pb->error < 0) error = format_->pb->error;
            if (error != AVERROR_EOF)
                warn(input_ + ": read error after packet " + std::to_string(packetsRead_) + " (" +
                     ff::errorText(error) + "); the stream ends here");
            avcodec_send_packet(codec_.get(), nullptr);   // drain: every buffered frame still comes out
            draining_ = true;
            return;
        }
        if (packet_->stream_index != streamIndex_) {
            av_packet_unref(packet_.get());
            return;
        }
        ++packetsRead_;
        if (packet_->flags & AV_PKT_FLAG_CORRUPT) {
            const int64_t ts = packet_->pts != AV_NOPTS_VALUE ? packet_->pts : packet_->dts;
            std::string where = "packet " + std::to_string(packetsRead_);
            if (ts != AV_NOPTS_VALUE)
                where += " (" + seconds(double(ts - startTimestamp_) * av_q2d(stream_->time_base)) + ")";
            warn(input_ + ": " + where + " is damaged (corrupt or cut short); decoding what it holds");
        }
    }
    receiveErrorsInARow_ = 0;
    const int ret = avcodec_send_packet(codec_.get(), packet_.get());
    if (ret == AVERROR(EAGAIN)) {   // decoder full: keep the packet, frames come out first
        packetPending_ = true;
        return;
    }
    packetPending_ = false;
    if (ret < 0) {
        if (cuda_ && !cudaConfirmed_ && cudaProblem_.empty())
            cudaProblem_ = "the first NVDEC decode failed (" + ff::errorText(ret) + ")";
        const int64_t ts = packet_->pts != AV_NOPTS_VALUE ? packet_->pts : packet_->dts;
        std::string where = "packet " + std::to_string(packetsRead_);
        if (ts != AV_NOPTS_VALUE)
            where += " (" + seconds(double(ts - startTimestamp_) * av_q2d(stream_->time_base)) + ")";
        warn(input_ + ": " + where + " could not be decoded (" + ff::errorText(ret) + "); decoding goes on");
    }
    av_packet_unref(packet_.get());
}

double FileSource::framePts(const AVFrame& frame) {
    const int64_t ts = frame.best_effort_timestamp;
    double pts;
    if (ts != AV_NOPTS_VALUE) pts = double(ts - startTimestamp_) * av_q2d(stream_->time_base);
    else if (havePts_) pts = lastPts_ + frameDuration_;
    else pts = seek_.active ? seek_.target : 0.0;
    lastPts_ = pts;
    havePts_ = true;
    return pts;
}

std::string FileSource::framePosition(double pts) const {
    return "frame " + std::to_string(framesDecoded_) + " (" + seconds(pts) + ")";
}

void FileSource::warnIfEndedEarly() {
    if (!durationTrusted_ || !havePts_) return;
    // The last frame starts one frame before the stated end; allow rounding of a frame more.
    if (lastPts_ + 2.5 * frameDuration_ < info_.duration)
        warn(input_ + ": the stream ends at " + seconds(lastPts_ + frameDuration_) + ", before its stated duration of " +
             seconds(info_.duration) + " (file cut short?)");
}

void FileSource::collectDecoderMessages() {
    size_t dropped = 0;
    for (auto& line : decoderLog_.take(dropped))
        warn(input_ + ": decoder, near packet " + std::to_string(packetsRead_) + ": " + line);
    droppedWarnings_ += dropped;
}

void FileSource::warn(std::string message) {
    if (warnings_.size() < kMaxStoredWarnings) warnings_.push_back(std::move(message));
    else ++droppedWarnings_;
}

std::vector<std::string> FileSource::takeWarnings() {
    collectDecoderMessages();
    std::vector<std::string> taken;
    taken.swap(warnings_);
    if (droppedWarnings_ > 0) {
        taken.push_back(input_ + ": " + std::to_string(droppedWarnings_) + " more warnings not shown");
        droppedWarnings_ = 0;
    }
    return taken;
}

}  // namespace cs::detail
