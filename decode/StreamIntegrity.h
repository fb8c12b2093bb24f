// Damage reports from evidence: what FFmpeg itself says about one video stream, as warnings
// that name the input, what was seen and where. Never a guess: where nothing says the stream
// is damaged (or whole), nothing is said.
//
// The evidence, and where it comes from:
// - the demuxer's own messages at warning level and above (ff::DemuxerLog: "File ended
//   prematurely", "partial file", "Last frame must have been damaged"), with the byte it had
//   reached and the last frame decoded;
// - packets the demuxer flags corrupt (a chunk cut short, a PES of the wrong length);
// - the decoder: its error messages (any of its threads), packets it refuses, failed receives,
//   frames it flags as concealed;
// - read errors, which end the stream;
// - at the end of the file, bytes that no whole packet covers, where the container makes that
//   knowable: MPEG-TS (fixed 188/192/204-byte packets: the file must end on a packet's end)
//   and y4m (every byte after the header belongs to a frame);
// - at the end of the stream, the duration the header states for the video stream itself
//   (mov/mp4, AVI, MXF), against where the stream really ends. Durations libavformat
//   estimates (from the last timestamps, the bitrate, the file size) and the container's
//   (which covers every stream: audio may outlast the video) are never used.
//
// Driven by the thread that drives its source (no locks); the decoder log it reads is the
// one piece shared with FFmpeg's threads (ff::DecoderLog has its own lock).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "FFmpegLog.h"

struct AVFormatContext;
struct AVPacket;
struct AVStream;

namespace cs::detail {

// A time in a sentence: "1.200 s".
std::string seconds(double s);

// A source's warnings between two takes: at most kMaxKept kept (the rest counted and said as
// a number), and each sentence said once: the same damage read again (a loop, a seek back)
// is not news. Sentences carry their position, so two events never read alike.
class Warnings {
public:
    static constexpr size_t kMaxKept = 200;            // a wrecked file must not grow memory without bound
    static constexpr size_t kMaxRemembered = 4096;     // sentences recognised as said before

    explicit Warnings(std::string input) : input_(std::move(input)) {}
    void add(std::string sentence);
    void addDropped(size_t count) { dropped_ += count; }
    const std::vector<std::string>& pending() const { return kept_; }
    std::vector<std::string> take();

private:
    std::string input_;
    std::vector<std::string> kept_;
    size_t dropped_ = 0;
    std::unordered_set<size_t> said_;   // hashes of the sentences given so far
};

class StreamIntegrity {
public:
    StreamIntegrity(std::string input, Warnings& warnings) : input_(std::move(input)), warnings_(warnings) {}
    StreamIntegrity(const StreamIntegrity&) = delete;
    StreamIntegrity& operator=(const StreamIntegrity&) = delete;

    // Opening, in this order: watch() the allocated context before avformat_open_input,
    // headerRead() after it (before avformat_find_stream_info fills in estimates), and
    // streamChosen() once the video stream is known.
    void watch(const AVFormatContext* format) { demuxerLog_.watch(format); }
    void headerRead(const AVFormatContext& format);
    void streamChosen(const AVStream& stream, int64_t startTimestamp);

    // While the returned scope lives, what the demuxer says on this thread is collected;
    // `during` places it ("while opening"), "" places it after the last frame decoded.
    ff::DemuxerLog::Scope listen(std::string during = {}) { return ff::DemuxerLog::Scope(demuxerLog_, std::move(during)); }

    // Every packet the demuxer returns (any stream): where the data read so far ends.
    void packetRead(const AVPacket& packet);
    // A packet of this stream, `number` counted from the open: flagged corrupt?
    void videoPacketRead(const AVPacket& packet, int64_t number);
    // The demuxer failed with something other than the end of the file; the stream ends.
    void readFailed(int error, int64_t packetsRead);
    // The decoder refused a packet, failed to give a frame, gave up, or concealed damage.
    void sendFailed(int error, const AVPacket& packet, int64_t number);
    void receiveFailed(int error, int64_t packetsRead);
    void decoderGaveUp();
    void frameConcealed(const std::string& framePosition);

    // What FFmpeg logged since the last call, as warnings: the decoder's lines near packet
    // `packetsRead`, the demuxer's placed `after` the last frame ("after frame 30 (1.200 s)").
    void collect(ff::DecoderLog& decoder, int64_t packetsRead, const std::string& after);

    // The demuxer reached the end of the file: what the file's end and the header's duration
    // say. `streamEnd`: where the last frame ends (seconds from the start), if a frame came.
    // `format`'s I/O context may be read at the file's end; it is left where it was.
    void endOfFile(AVFormatContext& format, std::optional<double> streamEnd, double frameDuration);

    // After a seek: the data read so far starts over.
    void seeked() { dataEnd_ = -1; }

private:
    std::string where(const AVPacket& packet, int64_t number) const;
    void checkTransportStreamEnd(AVFormatContext& format, int64_t fileSize);
    void checkY4mEnd(int64_t fileSize);
    void warn(std::string what) { warnings_.add(input_ + ": " + what); }

    std::string input_;
    Warnings& warnings_;
    ff::DemuxerLog demuxerLog_;
    std::string demuxerName_;                  // "matroska,webm"
    std::vector<double> statedDurations_;      // seconds per stream, as the header states them (0: not stated)
    double statedDuration_ = 0.0;              // this stream's
    double timeBase_ = 0.0;
    int64_t startTimestamp_ = 0;
    int64_t dataEnd_ = -1;                     // the byte after the last packet read (-1: unknown)
    int64_t lastPacketSize_ = 0;
};

}  // namespace cs::detail
