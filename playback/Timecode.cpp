// Timecode for the window, through timecode/'s values (libavutil's counting).
#include "Timecode.h"

#include <algorithm>
#include <cmath>

namespace cs {

int64_t frameNumberAt(double seconds, double fps) {
    if (!(fps > 0)) fps = 25.0;
    if (!(seconds > 0)) return 0;
    return int64_t(std::llround(seconds * fps));
}

std::string timecode(double seconds, double fps) { return elapsedTimecode(seconds, fps).text(); }

FrameTimecode shownTimecode(const VideoFrame& frame, double fps, bool elapsed) {
    return timecodeOrElapsed(elapsed ? FrameTimecode{} : frame.timecode, frame.view.pts, fps);
}

Result<double> timecodeSeekTarget(const std::string& text, const FrameTimecode& reference, double referencePts,
                                  double fps, double duration) {
    if (!reference.known()) return Status::error(text + ": no frame is shown to count from");
    const double rate = fps > 0 ? fps : 25.0;
    // Read at the reference's counting: its nominal rate, drop-frame as typed.
    TimecodeRate tcRate = timecodeRateOf(rate);
    if (tcRate.valid() && int((int64_t(tcRate.num) + tcRate.den / 2) / tcRate.den) != reference.value.fps)
        tcRate = {reference.value.fps, 1};
    auto target = parseTimecode(text, tcRate);
    if (!target) return target.status();
    if (target->dropFrame != reference.value.dropFrame)
        return Status::error(text + ": the timecode shown is " + (reference.value.dropFrame ? "drop-frame (type ;FF)" : "non-drop-frame (type :FF)"));
    // The nearer way round the 24-hour clock.
    const int64_t day = reference.value.framesPerDay();
    int64_t delta = ((target->frames - reference.value.frames) % day + day) % day;
    if (delta > day / 2) delta -= day;
    const double seconds = referencePts + double(delta) / rate;
    const double half = 0.5 / rate;
    if (seconds < -half) {
        const FrameTimecode first{reference.value.plus(-int64_t(std::llround(referencePts * rate))), reference.source, false};
        return Status::error(text + ": is before the start (" + first.text() + ")");
    }
    if (duration > 0 && seconds > duration - half) {
        const int64_t last = int64_t(std::llround(duration * rate)) - 1;
        const FrameTimecode end{reference.value.plus(last - int64_t(std::llround(referencePts * rate))), reference.source, false};
        return Status::error(text + ": is after the end (" + end.text() + ")");
    }
    return std::max(0.0, seconds);
}

}  // namespace cs
