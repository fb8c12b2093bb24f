// Frame timecodes from FFmpeg's frame side data and the container's start timecode.
#include "TimecodeReader.h"

#include <cmath>
#include <cstring>

extern "C" {
#include <libavutil/frame.h>
}

namespace cs {

TimecodeReader::TimecodeReader(TimecodeRate rate, TimecodeSource codecSource, const ContainerTimecode& container)
    : rate_(rate), codecSource_(codecSource) {
    if (container.text.empty() || container.source == TimecodeSource::None) return;
    auto parsed = parseTimecode(container.text, rate_);
    if (!parsed) {
        problem(std::string("the ") + timecodeSourceName(container.source) + "'s timecode " + parsed.message() +
                "; it is not used");
        return;
    }
    container_.value = *parsed;
    container_.source = container.source;
}

void TimecodeReader::problem(const std::string& text) { problems_.push_back(text); }

std::vector<std::string> TimecodeReader::takeProblems() {
    std::vector<std::string> out;
    out.swap(problems_);
    return out;
}

FrameTimecode TimecodeReader::countedFrom(const FrameTimecode& base, double basePts, double pts) const {
    FrameTimecode out = base;
    out.carried = false;
    // Frames from the base by presentation time at the stream's rate (a B-frame shown before
    // the GOP's I-frame counts back).
    const double frames = (pts - basePts) * rate_.fps();
    if (std::isfinite(frames)) out.value = base.value.plus(int64_t(std::llround(frames)));
    return out;
}

FrameTimecode TimecodeReader::read(const AVFrame& frame, double pts, bool gopLags) {
    const bool first = first_;
    first_ = false;
    std::optional<FrameTimecode> carried;
    if (pendingGop_) {   // the previous frame brought this frame's GOP timecode
        carried = pendingGop_;
        pendingGop_.reset();
    }
    if (const AVFrameSideData* sd = av_frame_get_side_data(&frame, AV_FRAME_DATA_S12M_TIMECODE);
        sd && sd->size >= 2 * sizeof(uint32_t)) {
        // uint32_t[4]: the count, then up to three SMPTE 12M words (the first is this frame's).
        uint32_t words[4] = {};
        std::memcpy(words, sd->data, std::min<size_t>(sd->size, sizeof words));
        if (words[0] >= 1) {
            auto t = timecodeFromSmpte(words[1], rate_);
            if (t) carried = FrameTimecode{*t, codecSource_, true};
            else if (!warnedSmpte_) {
                warnedSmpte_ = true;
                problem(std::string("a ") + timecodeSourceName(codecSource_) + " timecode " + t.message() + "; skipped");
            }
        }
    }
    if (const AVFrameSideData* sd = av_frame_get_side_data(&frame, AV_FRAME_DATA_GOP_TIMECODE);
        sd && sd->size >= sizeof(int64_t)) {
        int64_t gop = 0;
        std::memcpy(&gop, sd->data, sizeof gop);
        auto t = timecodeFromGop(gop, rate_);
        if (t) {
            const FrameTimecode value{*t, TimecodeSource::Mpeg2Gop, true};
            if (gopLags && !first) pendingGop_ = value;
            else if (!carried) carried = value;
        } else if (!warnedGop_) {
            warnedGop_ = true;
            problem("an MPEG-2 GOP timecode " + t.message() + "; skipped");
        }
    }
    if (carried) {
        anchor_ = Anchor{*carried, pts};
        return *carried;
    }
    if (anchor_) return countedFrom(anchor_->at, anchor_->pts, pts);
    if (container_.known()) return countedFrom(container_, 0.0, pts);
    return {};
}

std::optional<TimecodeBreak> TimecodeBreaks::next(const FrameTimecode& frame) {
    if (!frame.known() || frame.isElapsed()) return std::nullopt;
    std::optional<TimecodeBreak> out;
    // Checked where the frame carries its value; a counted frame only moves the expectation on.
    if (frame.carried && previous_ && previous_->fps == frame.value.fps && previous_->dropFrame == frame.value.dropFrame) {
        const Timecode expected = previous_->plus(1);
        if (!(expected == frame.value)) {
            TimecodeBreak b;
            b.expected = expected;
            b.found = frame.value;
            // Back by up to a second's worth (or the same value): a repeat; otherwise a jump.
            const int64_t back = (previous_->frames - frame.value.frames + frame.value.framesPerDay()) %
                                 frame.value.framesPerDay();
            b.repeat = back < frame.value.fps;
            out = b;
        }
    }
    previous_ = frame.value;
    return out;
}

}  // namespace cs
