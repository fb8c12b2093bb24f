// Damage reports from evidence (see StreamIntegrity.h).
#include "StreamIntegrity.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "FFmpegErrors.h"

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
}

namespace cs::detail {
namespace {

// Demuxers that read each stream's duration from the file's header (mov/mp4: the track's
// media header and edit list; AVI: the stream header's frame count; MXF: the track's
// duration), so that a stream ending earlier is missing its end.
bool headerStatesStreamDurations(const std::string& demuxer) {
    return demuxer == "mov,mp4,m4a,3gp,3g2,mj2" || demuxer == "avi" || demuxer == "mxf";
}

}  // namespace

std::string seconds(double s) {
    char text[40];
    std::snprintf(text, sizeof text, "%.3f s", s);
    return text;
}

void Warnings::add(std::string sentence) {
    const size_t hash = std::hash<std::string>{}(sentence);
    if (said_.count(hash)) return;
    if (said_.size() < kMaxRemembered) said_.insert(hash);
    if (kept_.size() < kMaxKept) kept_.push_back(std::move(sentence));
    else ++dropped_;
}

std::vector<std::string> Warnings::take() {
    std::vector<std::string> taken;
    taken.swap(kept_);
    if (dropped_ > 0) {
        taken.push_back(input_ + ": " + std::to_string(dropped_) + " more warnings not shown");
        dropped_ = 0;
    }
    return taken;
}

void StreamIntegrity::headerRead(const AVFormatContext& format) {
    demuxerName_ = format.iformat && format.iformat->name ? format.iformat->name : "";
    statedDurations_.assign(format.nb_streams, 0.0);
    if (!headerStatesStreamDurations(demuxerName_)) return;
    for (unsigned i = 0; i < format.nb_streams; ++i) {
        const AVStream* stream = format.streams[i];
        const double timeBase = av_q2d(stream->time_base);
        // AVI: the frame count the stream header states (the demuxer shortens the stream's
        // duration itself when the file is smaller than its RIFF header says).
        const int64_t units = demuxerName_ == "avi" ? stream->nb_frames : stream->duration;
        if (units > 0 && units != AV_NOPTS_VALUE && timeBase > 0) statedDurations_[i] = double(units) * timeBase;
    }
}

void StreamIntegrity::streamChosen(const AVStream& stream, int64_t startTimestamp) {
    timeBase_ = av_q2d(stream.time_base);
    startTimestamp_ = startTimestamp;
    statedDuration_ = size_t(stream.index) < statedDurations_.size() ? statedDurations_[size_t(stream.index)] : 0.0;
}

std::string StreamIntegrity::where(const AVPacket& packet, int64_t number) const {
    std::string text = "packet " + std::to_string(number);
    const int64_t ts = packet.pts != AV_NOPTS_VALUE ? packet.pts : packet.dts;
    std::string detail;
    if (ts != AV_NOPTS_VALUE) detail = seconds(double(ts - startTimestamp_) * timeBase_);
    if (packet.pos >= 0) detail += (detail.empty() ? "" : ", ") + std::string("byte ") + std::to_string(packet.pos);
    if (!detail.empty()) text += " (" + detail + ")";
    return text;
}

void StreamIntegrity::packetRead(const AVPacket& packet) {
    if (packet.pos < 0) return;
    dataEnd_ = packet.pos + packet.size;
    lastPacketSize_ = packet.size;
}

void StreamIntegrity::videoPacketRead(const AVPacket& packet, int64_t number) {
    if (packet.flags & AV_PKT_FLAG_CORRUPT)
        warn(where(packet, number) + " is damaged (corrupt or cut short); decoding what it holds");
}

void StreamIntegrity::readFailed(int error, int64_t packetsRead) {
    // LiveSource reads the cause back from this sentence: keep its shape.
    warn("read error after packet " + std::to_string(packetsRead) + " (" + ff::errorText(error) +
         "); the stream ends here");
}

void StreamIntegrity::sendFailed(int error, const AVPacket& packet, int64_t number) {
    warn(where(packet, number) + " could not be decoded (" + ff::errorText(error) + "); decoding goes on");
}

void StreamIntegrity::receiveFailed(int error, int64_t packetsRead) {
    warn("decode error after packet " + std::to_string(packetsRead) + " (" + ff::errorText(error) +
         "); decoding goes on");
}

void StreamIntegrity::decoderGaveUp() { warn("the decoder keeps failing; the stream ends here"); }

void StreamIntegrity::frameConcealed(const std::string& framePosition) {
    warn(framePosition + " decoded with errors (damage concealed)");
}

void StreamIntegrity::collect(ff::DecoderLog& decoder, int64_t packetsRead, const std::string& after) {
    size_t dropped = 0;
    for (auto& line : decoder.take(dropped)) warn("decoder, near packet " + std::to_string(packetsRead) + ": " + line);
    warnings_.addDropped(dropped);
    for (auto& message : demuxerLog_.take(dropped)) {
        std::string text = demuxerName_.empty() ? "demuxer" : "demuxer (" + demuxerName_ + ")";
        if (message.byte >= 0) text += " at byte " + std::to_string(message.byte);
        text += ", " + (message.during.empty() ? after : message.during) + ": " + message.text;
        warn(std::move(text));
    }
    warnings_.addDropped(dropped);
}

void StreamIntegrity::endOfFile(AVFormatContext& format, std::optional<double> streamEnd, double frameDuration) {
    AVIOContext* pb = format.pb;
    if (pb && (pb->seekable & AVIO_SEEKABLE_NORMAL)) {
        const int64_t fileSize = avio_size(pb);
        if (fileSize > 0 && demuxerName_ == "mpegts") checkTransportStreamEnd(format, fileSize);
        if (fileSize > 0 && demuxerName_ == "yuv4mpegpipe") checkY4mEnd(fileSize);
    }
    // The last frame starts one frame before the stated end; a frame and a half more allows
    // for rounding and for a last frame longer than the others.
    if (statedDuration_ > 0 && streamEnd && *streamEnd + 1.5 * frameDuration < statedDuration_)
        warn("the video stream ends at " + seconds(*streamEnd) + ", before the " + seconds(statedDuration_) +
             " its header states: the last " + seconds(statedDuration_ - *streamEnd) + " are missing");
}

// MPEG-TS is a run of fixed-size packets, each starting with the sync byte 0x47 (M2TS: after a
// 4-byte time stamp): a whole file ends where a packet ends. The sync bytes' phase is read
// from the file's last packets, so junk before the first packet does not matter.
void StreamIntegrity::checkTransportStreamEnd(AVFormatContext& format, int64_t fileSize) {
    int64_t packetSize = 0;
    if (av_opt_get_int(format.priv_data, "ts_packetsize", 0, &packetSize) < 0) return;
    if (packetSize != 188 && packetSize != 192 && packetSize != 204) return;
    const int64_t span = std::min<int64_t>(fileSize, 8 * packetSize);
    if (span < 2 * packetSize + 1) return;
    std::vector<uint8_t> tail(size_t(span), 0);
    AVIOContext* pb = format.pb;
    const int64_t resume = avio_tell(pb);
    if (avio_seek(pb, fileSize - span, SEEK_SET) < 0) return;
    const int got = avio_read(pb, tail.data(), int(span));
    avio_seek(pb, resume, SEEK_SET);
    if (got != int(span)) return;

    int64_t phase = -1;
    for (int64_t candidate = 0; candidate < packetSize; ++candidate) {
        int hits = 0;
        bool all = true;
        for (int64_t i = candidate; i < span; i += packetSize) {
            if (tail[size_t(i)] != 0x47) {
                all = false;
                break;
            }
            ++hits;
        }
        if (!all || hits < 3) continue;
        if (phase >= 0) return;   // two phases fit: no evidence either way
        phase = candidate;
    }
    if (phase < 0) return;
    const int64_t afterLastSync = (span - phase) % packetSize;   // 0: the last packet ends the file
    const int64_t prefix = packetSize == 192 ? 4 : 0;            // M2TS: 4 bytes before each sync byte
    if (afterLastSync == 0 || (prefix && afterLastSync == packetSize - prefix)) return;
    const int64_t partial = afterLastSync + prefix <= packetSize ? afterLastSync + prefix : afterLastSync;
    warn("the file ends mid-packet: its last " + std::to_string(partial) + " bytes (from byte " +
         std::to_string(fileSize - partial) + ") are all there is of a " + std::to_string(packetSize) +
         "-byte MPEG-TS packet");
}

// y4m: after the header, every byte belongs to a frame ("FRAME" line and picture).
void StreamIntegrity::checkY4mEnd(int64_t fileSize) {
    if (dataEnd_ <= 0 || dataEnd_ >= fileSize) return;
    const int64_t left = fileSize - dataEnd_;
    warn("the file ends mid-frame: its last " + std::to_string(left) + " bytes (from byte " + std::to_string(dataEnd_) +
         ") hold no whole frame (a picture takes " + std::to_string(lastPacketSize_) + " bytes)");
}

}  // namespace cs::detail
