// FFmpeg's error codes in words (see FFmpegErrors.h).
#include "FFmpegErrors.h"

extern "C" {
#include <libavutil/error.h>
}

#include <cerrno>

namespace cs::ff {

std::string errorText(int averror) {
    switch (averror) {
        case AVERROR_INVALIDDATA: return "invalid data: damaged, or not in the format it claims to be";
        case AVERROR(EIO):
            return "input/output error: nothing could be read, as when a read times out, a connection breaks or "
                   "a disk fails";
        case AVERROR_EOF: return "the input ended";
        case AVERROR(EINVAL): return "invalid argument: a value or option FFmpeg cannot use";
        case AVERROR(ENOMEM): return "out of memory";
        case AVERROR(EAGAIN): return "no data available yet";
        case AVERROR(EBUSY): return "Device or resource busy: another program is using it";
        case AVERROR(ENOSYS): return "not supported by this FFmpeg or system";
        case AVERROR(EPIPE): return "Broken pipe: the other end closed the connection";
        case AVERROR_EXIT: return "cancelled";
        case AVERROR_PATCHWELCOME: return "uses a feature FFmpeg does not implement";
        case AVERROR_BUG:
        case AVERROR_BUG2: return "an internal error in FFmpeg";
        case AVERROR_BUFFER_TOO_SMALL: return "an internal buffer in FFmpeg was too small";
        case AVERROR_EXTERNAL: return "an error in a library FFmpeg uses";
        case AVERROR_UNKNOWN: return "an unknown error";
        case AVERROR_DECODER_NOT_FOUND: return "this FFmpeg has no decoder for it";
        case AVERROR_DEMUXER_NOT_FOUND: return "this FFmpeg has no demuxer for that format";
        case AVERROR_PROTOCOL_NOT_FOUND: return "this FFmpeg cannot open that kind of URL: no such protocol";
        case AVERROR_STREAM_NOT_FOUND: return "no such stream";
        case AVERROR_OPTION_NOT_FOUND: return "an option this FFmpeg does not know";
        case AVERROR_INPUT_CHANGED: return "the input changed between calls";
        default: break;
    }
    char buffer[AV_ERROR_MAX_STRING_SIZE] = {};
    if (av_strerror(averror, buffer, sizeof buffer) < 0) return "error " + std::to_string(averror);
    return buffer;
}

}  // namespace cs::ff
