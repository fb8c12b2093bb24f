// FileSource, the decode loop: packets of the video stream in, frames out; what FFmpeg says
// about damage goes to StreamIntegrity, and decoding goes on.
#include "FileSourceImpl.h"

#include <optional>
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
    // Every surface beyond the decoder's references is out: decoding on would take one the
    // decoder does not have and lose a frame. Nothing is decoded; dropping a frame lets the
    // next read go on from here.
    if (cuda_ && lent_->load() >= kDeviceFrameBudget)
        return {ReadStatus::Error, input_ + ": " + std::to_string(kDeviceFrameBudget) +
                                       " NVDEC frames are held, the whole budget: drop one before reading the next"};
    for (;;) {
        collectMessages();
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
            collectMessages();
            integrity_.endOfFile(*format_, havePts_ ? std::optional<double>(lastPts_ + frameDuration_) : std::nullopt,
                                 frameDuration_);
            return {ReadStatus::EndOfStream, {}};
        }
        if (ret != AVERROR(EAGAIN)) {
            if (cuda_ && !cudaConfirmed_) {
                if (cudaProblem_.empty()) cudaProblem_ = "the first NVDEC decode failed (" + ff::errorText(ret) + ")";
                return {ReadStatus::Error, input_ + ": " + cudaProblem_};
            }
            integrity_.receiveFailed(ret, packetsRead_);
            if (++receiveErrorsInARow_ > kMaxReceiveErrorsInARow) {
                integrity_.decoderGaveUp();
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
        int ret = 0;
        {
            const auto listening = integrity_.listen();
            ret = av_read_frame(format_.get(), packet_.get());
        }
        if (ret == AVERROR(EAGAIN)) return;
        if (ret < 0) {
            int error = ret;
            if (ret == AVERROR_EOF && format_->pb && format_->pb->error < 0) error = format_->pb->error;
            if (error != AVERROR_EOF) integrity_.readFailed(error, packetsRead_);
            avcodec_send_packet(codec_.get(), nullptr);   // drain: every buffered frame still comes out
            draining_ = true;
            return;
        }
        integrity_.packetRead(*packet_);
        if (packetCounter_) packetCounter_->fetch_add(1, std::memory_order_relaxed);
        if (packet_->stream_index != streamIndex_) {
            av_packet_unref(packet_.get());
            return;
        }
        ++packetsRead_;
        integrity_.videoPacketRead(*packet_, packetsRead_);
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
        integrity_.sendFailed(ret, *packet_, packetsRead_);
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

// Frames are named by the index they are delivered with (VideoFrame::index, from 0: the
// reports' "index" and "first_frame", export's file names), never by a count of decoded ones.
std::string FileSource::framePosition(double pts) const {
    return "frame " + std::to_string(nextIndex_) + " (" + seconds(pts) + ")";
}

std::string FileSource::skippedFramePosition(double pts) const {
    return "the frame at " + seconds(pts) + " (before frame " + std::to_string(nextIndex_) + ")";
}

std::string FileSource::decodingPosition() const {
    if (nextIndex_ > 0 && havePts_) return "after frame " + std::to_string(nextIndex_ - 1) + " (" + seconds(lastPts_) + ")";
    if (seek_.active) return "while seeking to " + seconds(seek_.target);
    return "before the first frame";
}

void FileSource::collectMessages() { integrity_.collect(decoderLog_, packetsRead_, decodingPosition()); }

std::vector<std::string> FileSource::takeWarnings() {
    collectMessages();
    return warnings_.take();
}

}  // namespace cs::detail
