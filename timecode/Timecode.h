// Source timecode values: a frame count from 00:00:00:00 at a nominal rate, drop-frame or
// not, written and read only through libavutil's timecode functions (av_timecode_*), never
// by arithmetic of our own: drop-frame counting (two frame numbers skipped each minute but
// every tenth) is theirs. docs/TIMECODE.md has the design.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Status.h"

namespace cs {

// A stream's frame rate as a fraction (30000/1001). The timecode's nominal rate is its
// rounded value (30); drop-frame is allowed where that is a multiple of 30.
struct TimecodeRate {
    int num = 0, den = 1;
    bool valid() const { return num > 0 && den > 0; }
    double fps() const { return valid() ? double(num) / den : 0.0; }
    friend bool operator==(const TimecodeRate&, const TimecodeRate&) = default;
};
// The fraction nearest a rate in frames per second (29.97... -> 30000/1001, 25 -> 25/1).
TimecodeRate timecodeRateOf(double fps);

struct Timecode {
    int64_t frames = 0;      // frames from 00:00:00:00, within one day [0, framesPerDay())
    int fps = 0;             // nominal frames per second; 0: no timecode
    bool dropFrame = false;
    bool valid() const { return fps > 0; }
    // "10:00:00:00"; drop-frame "01:00:00;00" (av_timecode_make_string). Empty when invalid.
    std::string text() const;
    // `n` frames later (earlier when negative), wrapping at 24 hours.
    Timecode plus(int64_t n) const;
    // Frames in 24 hours of this counting (drop-frame skips numbers, so fewer than fps * 86400).
    int64_t framesPerDay() const;
    friend bool operator==(const Timecode&, const Timecode&) = default;
};

// "HH:MM:SS:FF", or with ';' (also '.' or ',') before FF for drop-frame, at `rate`
// (av_timecode_init_from_string). Errors name the text and the reason:
// "10:00:00;00: drop-frame timecode needs a rate of 30000/1001 or a multiple".
Result<Timecode> parseTimecode(std::string_view text, TimecodeRate rate);
// A SMPTE 12M binary timecode word (H.264/HEVC time-code SEI as FFmpeg exports it in
// AV_FRAME_DATA_S12M_TIMECODE), through av_timecode_make_smpte_tc_string2.
Result<Timecode> timecodeFromSmpte(uint32_t word, TimecodeRate rate);
// An MPEG-2 GOP header's 25-bit time code (AV_FRAME_DATA_GOP_TIMECODE), through
// av_timecode_make_mpeg_tc_string.
Result<Timecode> timecodeFromGop(int64_t gop, TimecodeRate rate);
// Elapsed time as a timecode (the fallback for sources that carry none): frame
// round(seconds * rate) from 00:00:00:00, non-drop-frame at the rounded rate (25 when the
// rate is unknown). Negative times count as zero.
Timecode elapsedTimecode(double seconds, double fps);

// Where a frame's timecode came from, in the order of preference (docs/TIMECODE.md).
enum class TimecodeSource : uint8_t {
    None,
    H264Sei,       // H.264 picture timing SEI (S12M side data)
    HevcSei,       // HEVC time code SEI
    FrameSei,      // S12M side data from another codec
    Mpeg2Gop,      // MPEG-2 GOP header
    MovTmcd,       // QuickTime/MP4 tmcd track
    Mxf,           // MXF material package timecode component
    StreamTag,     // the video stream's `timecode` tag
    FormatTag,     // the container's `timecode` tag
    Elapsed,       // none in the source: elapsed time since the first frame
};
// "h.264 sei", "mpeg-2 gop header", "mov tmcd track", "mxf timecode component", "elapsed time"...
const char* timecodeSourceName(TimecodeSource source);
// Read from the frames themselves (SEI, GOP headers), so breaks in it can be seen.
inline bool timecodeSourceIsPerFrame(TimecodeSource s) {
    return s == TimecodeSource::H264Sei || s == TimecodeSource::HevcSei || s == TimecodeSource::FrameSei ||
           s == TimecodeSource::Mpeg2Gop;
}

// One frame's timecode and where it came from.
struct FrameTimecode {
    Timecode value;
    TimecodeSource source = TimecodeSource::None;
    // The value was read from this frame's own data (its SEI or the GOP header before it),
    // not counted on from an earlier frame or the container's start.
    bool carried = false;
    bool known() const { return source != TimecodeSource::None && value.valid(); }
    bool isElapsed() const { return source == TimecodeSource::Elapsed; }
    std::string text() const { return known() ? value.text() : std::string(); }
};

// The source's timecode where known, else the elapsed time at `pts` (marked Elapsed).
FrameTimecode timecodeOrElapsed(const FrameTimecode& source, double pts, double fps);

}  // namespace cs
