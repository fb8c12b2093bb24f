// The wall's alarm rules (analysis/Alarms.h).
#include "Alarms.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/PixelAccess.h"
#include "core/PixelFormat.h"
#include "SignalStats.h"

namespace cs {

std::string_view alarmName(AlarmKind kind) {
    switch (kind) {
        case AlarmKind::Black: return "black";
        case AlarmKind::Frozen: return "frozen";
        case AlarmKind::OutOfLegal: return "out of legal";
        case AlarmKind::OutOfGamut: return "R'G'B' out of range";
        case AlarmKind::Signal: return "no signal";
    }
    return "alarm";
}

double shareAtOrBelow(const std::vector<uint32_t>& histY, int32_t threshold) {
    uint64_t below = 0, total = 0;
    for (size_t i = 0; i < histY.size(); ++i) {
        total += histY[i];
        if (int64_t(i) <= threshold) below += histY[i];
    }
    return total ? double(below) / double(total) : 0.0;
}

std::optional<double> lumaMafd(const FrameView& a, const FrameView& b) {
    if (a.onDevice || b.onDevice || a.format != b.format || a.width != b.width || a.height != b.height) return std::nullopt;
    const PixelFormatInfo& info = formatInfo(a.format);
    if (info.isRgb || info.layout == PixelLayout::PackedYuv422 || a.width <= 0 || a.height <= 0) return std::nullopt;
    const int shift = sampleShift(a.format);
    const int32_t mask = (int32_t(1) << info.bitDepth) - 1;
    uint64_t sum = 0;
    for (int y = 0; y < a.height; ++y) {
        const uint8_t* ra = a.data[0] + y * a.pitch[0];
        const uint8_t* rb = b.data[0] + y * b.pitch[0];
        for (int x = 0; x < a.width; ++x) {   // core/PixelAccess.h's one read of a stored sample
            const int32_t va = loadSample(ra, x, info.bytesPerSample, shift, mask);
            const int32_t vb = loadSample(rb, x, info.bytesPerSample, shift, mask);
            sum += uint64_t(std::abs(va - vb));
        }
    }
    return freezeMafd(sum, uint64_t(a.width) * uint64_t(a.height), info.bitDepth);
}

namespace {
std::string percent(double share, const char* what) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f%% %s", share * 100.0, what);
    return text;
}
}  // namespace

void AlarmTracker::apply(AlarmKind kind, bool holds, double duration, double t, const std::string& detail,
                         std::vector<AlarmEvent>& events) {
    State& s = state_[size_t(kind)];
    if (!holds) {
        if (s.active) events.push_back({kind, false, *s.since, t, detail});
        s = {};
        return;
    }
    if (!s.since) s.since = t;
    if (!s.active && t - *s.since >= duration) {
        s.active = true;
        events.push_back({kind, true, *s.since, t, detail});
    }
}

void AlarmTracker::frame(double t, const AlarmMeasure& m, std::vector<AlarmEvent>& events) {
    apply(AlarmKind::Black, pictureIsBlack(m.blackShare, rules_.black.pictureRatio), rules_.black.duration, t,
          percent(m.blackShare, "of pixels black"), events);
    if (m.mafd) {
        char text[64];
        std::snprintf(text, sizeof text, "MAFD %.5f", *m.mafd);
        apply(AlarmKind::Frozen, frameIsFrozen(*m.mafd, rules_.freeze.noise), rules_.freeze.duration, t, text, events);
    }
    apply(AlarmKind::OutOfLegal, m.outOfLegal > rules_.legal.share, rules_.legal.duration, t,
          percent(m.outOfLegal, "out of legal"), events);
    apply(AlarmKind::OutOfGamut, m.outOfGamut > rules_.gamut.share, rules_.gamut.duration, t,
          percent(m.outOfGamut, "R'G'B' out of range"), events);
}

void AlarmTracker::signal(double t, bool lost, const std::string& why, std::vector<AlarmEvent>& events) {
    apply(AlarmKind::Signal, lost, 0.0, t, why, events);
}

void AlarmTracker::restart(double t, std::vector<AlarmEvent>& events) {
    for (int k = 0; k < kAlarmKinds; ++k) {
        if (AlarmKind(k) == AlarmKind::Signal) continue;
        apply(AlarmKind(k), false, 0.0, t, "restarted", events);
    }
}

bool AlarmTracker::anyActive() const {
    for (const State& s : state_)
        if (s.active) return true;
    return false;
}

std::string AlarmTracker::activeText() const {
    std::string text;
    for (int k = 0; k < kAlarmKinds; ++k)
        if (state_[size_t(k)].active) {
            if (!text.empty()) text += ", ";
            text += alarmName(AlarmKind(k));
        }
    return text;
}

}  // namespace cs
