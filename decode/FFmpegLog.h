// Quoting FFmpeg's own words in our sentences. LogCapture: while it lives, error-level
// messages FFmpeg logs on the same thread are kept, so an open failure can say "Picture size
// 100000x100000 is invalid" instead of a bare error code. DecoderLog: error-level messages
// one decoder logs from any of its threads ("error while decoding MB 4 5"), which are often
// the only sign of concealed damage, become that source's warnings. DemuxerLog: what one
// demuxer says at warning level and above ("File ended prematurely", "partial file") while
// the thread that drives it is inside libavformat.
//
// The first of either installs a process-wide av_log callback that forwards everything to
// av_log_default_callback (so printing and av_log_set_level behave as before); an
// application that installs its own callback later only loses the quoted detail.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

struct AVCodecContext;
struct AVFormatContext;

namespace cs::ff {

class LogCapture {
public:
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    // The last complete error message logged on this thread since construction ("" if none).
    const std::string& lastError() const { return last_; }

private:
    friend void captureLine(LogCapture* capture, const char* text);
    std::string partial_;   // an error message that arrives in pieces, until its newline
    std::string last_;
    LogCapture* previous_ = nullptr;   // captures nest per thread
};

// Adds one piece of a logged line to a capture (used by the log callback).
void captureLine(LogCapture* capture, const char* text);

// The error messages one decoder logs, from whichever thread logs them (frame threads
// included), for its source's warnings: concealed damage is often only said there.
// attach() makes the decoder's `opaque` point here (frame-thread copies inherit it); the
// log callback routes a message only to a DecoderLog that is alive (registered).
class DecoderLog {
public:
    explicit DecoderLog(void* owner);
    ~DecoderLog();
    DecoderLog(const DecoderLog&) = delete;
    DecoderLog& operator=(const DecoderLog&) = delete;

    void attach(AVCodecContext* decoder);
    void* owner() const { return owner_; }
    // Messages since the last call, and how many more were dropped beyond the cap.
    std::vector<std::string> take(size_t& dropped);
    void add(std::string line);

private:
    void* owner_;
    std::mutex mutex_;                 // guards lines_ and dropped_ (decoder threads add)
    std::vector<std::string> lines_;
    size_t dropped_ = 0;
};

// The messages one demuxer logs at warning level and above: its format context (nested ones
// included: HLS segments, RTSP's payload demuxers), its private context, its streams, its I/O
// context and protocol. Only while a Scope lives on the thread that drives the demuxer, so
// another source's messages (or FFmpeg's threads') never land here; libavformat's own
// remarks while probing ("not enough frames to estimate rate", "Could not find codec
// parameters", "Packet corrupt": a packet flag already says so) are left out. Each message
// keeps the byte the demuxer had reached (files; -1 where the input is not seekable).
// Touched only by the thread that drives the source: no lock.
class DemuxerLog {
public:
    struct Message {
        std::string text;
        int64_t byte = -1;
        std::string during;   // the Scope's words ("while opening"), "" while reading
    };

    DemuxerLog();
    DemuxerLog(const DemuxerLog&) = delete;
    DemuxerLog& operator=(const DemuxerLog&) = delete;

    // The context whose messages are kept (allocated, before avformat_open_input).
    void watch(const AVFormatContext* format) { format_ = format; }

    // While it lives, this thread's demuxer messages go to `log`.
    class Scope {
    public:
        explicit Scope(DemuxerLog& log, std::string during = {});
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        DemuxerLog& log_;
        DemuxerLog* previous_;
        std::string previousDuring_;
    };

    // Messages since the last call, and how many more were dropped beyond the cap.
    std::vector<Message> take(size_t& dropped);

    // One piece of a logged line (the log callback); a line ends with its newline.
    void addPiece(const char* text);
    // Whether a message from this context is the watched demuxer's.
    bool concerns(void* avcl) const;

private:
    const AVFormatContext* format_ = nullptr;
    std::string during_;
    std::string partial_;        // a message that arrives in pieces, until its newline
    int64_t partialByte_ = -1;
    std::vector<Message> messages_;
    size_t dropped_ = 0;
};

}  // namespace cs::ff
