// Timecode values through libavutil's timecode functions.
#include "Timecode.h"

#include <cmath>
#include <cstdio>

extern "C" {
#include <libavutil/rational.h>
#include <libavutil/timecode.h>
}

namespace cs {

namespace {

AVRational avRate(TimecodeRate r) { return AVRational{r.num, r.den}; }

// The AVTimecode that writes `t`'s labels: start 0, its nominal rate, wrapping at 24 hours.
AVTimecode counterOf(const Timecode& t) {
    AVTimecode tc{};
    tc.start = 0;
    tc.flags = AV_TIMECODE_FLAG_24HOURSMAX | (t.dropFrame ? AV_TIMECODE_FLAG_DROPFRAME : 0);
    tc.rate = t.dropFrame ? AVRational{t.fps * 1000, 1001} : AVRational{t.fps, 1};
    tc.fps = unsigned(t.fps);
    return tc;
}

bool digits(std::string_view s) {
    if (s.size() != 2) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

int number(std::string_view s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

}  // namespace

TimecodeRate timecodeRateOf(double fps) {
    if (!(fps > 0) || !std::isfinite(fps)) return {};
    const AVRational q = av_d2q(fps, 1 << 20);
    // 29.97 as printed (a rounded double) is NTSC's 30000/1001: prefer the /1001 rates.
    for (int nominal : {24, 30, 48, 60, 120})
        if (std::fabs(fps - nominal * 1000.0 / 1001.0) < 0.005) return {nominal * 1000, 1001};
    return {q.num, q.den};
}

std::string Timecode::text() const {
    if (!valid()) return {};
    const AVTimecode tc = counterOf(*this);
    char buf[AV_TIMECODE_STR_SIZE];
    av_timecode_make_string(&tc, buf, int(frames));
    return buf;
}

int64_t Timecode::framesPerDay() const {
    if (!valid()) return 0;
    // One past 23:59:59 and the day's last frame, as libavutil counts it.
    AVTimecode tc{};
    const int flags = dropFrame ? AV_TIMECODE_FLAG_DROPFRAME : 0;
    const AVRational rate = dropFrame ? AVRational{fps * 1000, 1001} : AVRational{fps, 1};
    if (av_timecode_init_from_components(&tc, rate, flags, 23, 59, 59, fps - 1, nullptr) < 0) return int64_t(fps) * 86400;
    return int64_t(tc.start) + 1;
}

Timecode Timecode::plus(int64_t n) const {
    if (!valid()) return *this;
    const int64_t day = framesPerDay();
    Timecode out = *this;
    out.frames = ((frames + n) % day + day) % day;
    return out;
}

Result<Timecode> parseTimecode(std::string_view text, TimecodeRate rate) {
    const std::string shown(text);
    // Two digits each: HH:MM:SS then ':' (non-drop) or ';', '.', ',' (drop-frame) and FF.
    if (text.size() != 11 || text[2] != ':' || text[5] != ':' || !digits(text.substr(0, 2)) ||
        !digits(text.substr(3, 2)) || !digits(text.substr(6, 2)) || !digits(text.substr(9, 2)) ||
        (text[8] != ':' && text[8] != ';' && text[8] != '.' && text[8] != ','))
        return Status::error(shown + ": not a timecode (HH:MM:SS:FF, or HH:MM:SS;FF for drop-frame)");
    if (!rate.valid()) return Status::error(shown + ": the frame rate is unknown, so the timecode cannot be counted");
    const bool drop = text[8] != ':';
    AVTimecode tc{};
    // libavutil's own reading; it refuses drop-frame at rates that are no multiple of 30.
    const std::string normal = shown.substr(0, 8) + (drop ? ';' : ':') + shown.substr(9);
    if (av_timecode_init_from_string(&tc, avRate(rate), normal.c_str(), nullptr) < 0) {
        if (drop) return Status::error(shown + ": drop-frame timecode needs a rate of 30000/1001 or a multiple of it");
        return Status::error(shown + ": cannot be counted at " + std::to_string(rate.fps()) + " frames per second");
    }
    Timecode t;
    t.fps = int(tc.fps);
    t.dropFrame = (tc.flags & AV_TIMECODE_FLAG_DROPFRAME) != 0;
    const int hh = number(text.substr(0, 2)), mm = number(text.substr(3, 2)), ss = number(text.substr(6, 2)),
              ff = number(text.substr(9, 2));
    if (hh > 23) return Status::error(shown + ": hours run from 00 to 23");
    if (mm > 59 || ss > 59) return Status::error(shown + ": minutes and seconds run from 00 to 59");
    if (ff >= t.fps)
        return Status::error(shown + ": frames run from 00 to " + std::to_string(t.fps - 1) + " at " +
                             std::to_string(t.fps) + " frames per second");
    t.frames = tc.start;
    // A label drop-frame skips (;00 and ;01 in minutes not divisible by 10) writes back as another.
    if (t.text() != normal) return Status::error(shown + ": drop-frame timecode skips this label");
    return t;
}

Result<Timecode> timecodeFromSmpte(uint32_t word, TimecodeRate rate) {
    if (!rate.valid()) return Status::error("SMPTE 12M timecode: the frame rate is unknown");
    char buf[AV_TIMECODE_STR_SIZE];
    // Bit 30 is the drop-frame flag only where drop-frame exists (multiples of 30000/1001).
    const int nominal = int((int64_t(rate.num) + rate.den / 2) / rate.den);
    const bool dropPossible = nominal % 30 == 0 && rate.den == 1001;
    av_timecode_make_smpte_tc_string2(buf, avRate(rate), word, dropPossible ? 0 : 1, 0);
    return parseTimecode(buf, rate);
}

Result<Timecode> timecodeFromGop(int64_t gop, TimecodeRate rate) {
    if (!rate.valid()) return Status::error("MPEG-2 GOP timecode: the frame rate is unknown");
    char buf[AV_TIMECODE_STR_SIZE];
    av_timecode_make_mpeg_tc_string(buf, uint32_t(gop));
    return parseTimecode(buf, rate);
}

Timecode elapsedTimecode(double seconds, double fps) {
    const double rate = fps > 0 && std::isfinite(fps) ? fps : 25.0;
    Timecode t;
    t.fps = int(std::max<long long>(1, std::llround(rate)));
    const int64_t n = seconds > 0 ? int64_t(std::llround(seconds * rate)) : 0;
    return t.plus(n);
}

const char* timecodeSourceName(TimecodeSource source) {
    switch (source) {
    case TimecodeSource::None: return "none";
    case TimecodeSource::H264Sei: return "h.264 sei";
    case TimecodeSource::HevcSei: return "hevc sei";
    case TimecodeSource::FrameSei: return "sei";
    case TimecodeSource::Mpeg2Gop: return "mpeg-2 gop header";
    case TimecodeSource::MovTmcd: return "mov tmcd track";
    case TimecodeSource::Mxf: return "mxf timecode component";
    case TimecodeSource::StreamTag: return "stream tag";
    case TimecodeSource::FormatTag: return "container tag";
    case TimecodeSource::Elapsed: return "elapsed time";
    }
    return "none";
}

FrameTimecode timecodeOrElapsed(const FrameTimecode& source, double pts, double fps) {
    if (source.known()) return source;
    FrameTimecode out;
    out.value = elapsedTimecode(pts, fps);
    out.source = TimecodeSource::Elapsed;
    return out;
}

}  // namespace cs
