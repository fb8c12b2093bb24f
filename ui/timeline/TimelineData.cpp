// The timeline's data.
#include "TimelineData.h"

#include <QFile>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace cs::timeline {

const char* seriesLabel(Series s) {
    switch (s) {
    case Series::YMin: return "Y min";
    case Series::YAvg: return "Y avg";
    case Series::YMax: return "Y max";
    case Series::UAvg: return "Cb avg";
    case Series::VAvg: return "Cr avg";
    case Series::SatAvg: return "sat avg";
    case Series::Ydif: return "YDIF";
    case Series::OutOfLegal: return "out of legal";
    case Series::OutsideTarget: return "outside target";
    case Series::MaxNits: return "max nits";
    case Series::AvgNits: return "avg nits";
    case Series::Momentary: return "momentary LUFS";
    case Series::ShortTerm: return "short-term LUFS";
    case Series::TruePeak: return "true peak dBTP";
    case Series::Count: break;
    }
    return "";
}

void MinMaxPyramid::append(float v) {
    if (levels_.empty()) levels_.emplace_back();
    levels_[0].push_back({v, v});
    // Each level's last block covers the values below it so far (a partial block is updated
    // as its values arrive).
    for (size_t k = 1;; ++k) {
        if (levels_[k - 1].size() < 2) break;
        if (levels_.size() <= k) levels_.emplace_back();   // before the references: it may move the levels
        const auto& below = levels_[k - 1];
        auto& level = levels_[k];
        const size_t block = (below.size() - 1) / 2;
        const auto& a = below[block * 2];
        std::pair<float, float> m = a;
        if (block * 2 + 1 < below.size()) {
            const auto& b = below[block * 2 + 1];
            m = {std::min(a.first, b.first), std::max(a.second, b.second)};
        }
        if (level.size() == block) level.push_back(m);
        else level[block] = m;
    }
}

std::pair<float, float> MinMaxPyramid::range(int64_t first, int64_t last) const {
    const int64_t n = size();
    if (n == 0) return {0.0f, 0.0f};
    first = std::clamp<int64_t>(first, 0, n - 1);
    last = std::clamp<int64_t>(last, 0, n - 1);
    if (last < first) std::swap(first, last);
    float lo = levels_[0][size_t(first)].first, hi = levels_[0][size_t(first)].second;
    // Climb: whole blocks from both ends, as a segment tree walks.
    int64_t a = first, b = last + 1;   // [a, b) at level k
    for (size_t k = 0; a < b && k < levels_.size(); ++k) {
        const auto& level = levels_[k];
        if (a & 1) {
            lo = std::min(lo, level[size_t(a)].first);
            hi = std::max(hi, level[size_t(a)].second);
            ++a;
        }
        if (b & 1) {
            --b;
            lo = std::min(lo, level[size_t(b)].first);
            hi = std::max(hi, level[size_t(b)].second);
        }
        a /= 2;
        b /= 2;
    }
    return {lo, hi};
}

void TimelineData::clear() { *this = TimelineData{}; }

void TimelineData::addFrame(const QJsonObject& f) {
    const QJsonObject stats = f.value(QStringLiteral("stats")).toObject();
    const QJsonObject y = stats.value(QStringLiteral("y")).toObject();
    const QJsonObject hdr = f.value(QStringLiteral("hdr")).toObject();
    const QJsonObject gamut = f.value(QStringLiteral("gamut")).toObject();
    const auto put = [&](Series s, const QJsonValue& v) {
        if (v.isDouble()) present_[size_t(s)] = true;
        series_[size_t(s)].append(float(v.toDouble()));
    };
    put(Series::YMin, y.value(QStringLiteral("min")));
    put(Series::YAvg, y.value(QStringLiteral("avg")));
    put(Series::YMax, y.value(QStringLiteral("max")));
    put(Series::UAvg, stats.value(QStringLiteral("u")).toObject().value(QStringLiteral("avg")));
    put(Series::VAvg, stats.value(QStringLiteral("v")).toObject().value(QStringLiteral("avg")));
    put(Series::SatAvg, f.value(QStringLiteral("satavg")));
    put(Series::Ydif, f.value(QStringLiteral("ydif")));
    put(Series::OutOfLegal, stats.value(QStringLiteral("out_of_legal")));
    put(Series::OutsideTarget, gamut.value(QStringLiteral("outside_share")));
    put(Series::MaxNits, hdr.value(QStringLiteral("max_nits")));
    put(Series::AvgNits, hdr.value(QStringLiteral("avg_nits")));
    // The audio (an input with audio has "audio" on every frame line; null: below the gate).
    const QJsonValue audio = f.value(QStringLiteral("audio"));
    const auto putLoudness = [&](Series s, const QJsonValue& v) {
        if (audio.isObject()) present_[size_t(s)] = true;
        series_[size_t(s)].append(v.isDouble() ? std::max(float(v.toDouble()), kLoudnessFloor) : kLoudnessFloor);
    };
    const QJsonObject a = audio.toObject();
    putLoudness(Series::Momentary, a.value(QStringLiteral("momentary")));
    putLoudness(Series::ShortTerm, a.value(QStringLiteral("short_term")));
    QJsonValue truePeak;
    for (const QJsonValue& channel : a.value(QStringLiteral("true_peak")).toObject())
        if (channel.isDouble() && (!truePeak.isDouble() || channel.toDouble() > truePeak.toDouble())) truePeak = channel;
    putLoudness(Series::TruePeak, truePeak);
    pts_.push_back(f.value(QStringLiteral("pts")).toDouble());
    timecodes_.push_back(f.value(QStringLiteral("timecode")).toString().toStdString());
}

void TimelineData::addValues(const FrameValues& f) {
    for (int s = 0; s < kSeriesCount; ++s) {
        const bool loudness = isLoudness(Series(s));
        if (f.present[size_t(s)]) present_[size_t(s)] = true;
        const float v = f.present[size_t(s)] ? f.value[size_t(s)] : (loudness ? kLoudnessFloor : 0.0f);
        series_[size_t(s)].append(loudness ? std::max(v, kLoudnessFloor) : v);
    }
    pts_.push_back(f.pts);
    timecodes_.push_back(f.timecode);
}

void TimelineData::addFlight(const FlightFrame& f) {
    const auto put = [&](Series s, double v, bool present) {
        if (present) present_[size_t(s)] = true;
        series_[size_t(s)].append(float(v));
    };
    put(Series::YMin, f.yMin, true);
    put(Series::YAvg, f.yAvg, true);
    put(Series::YMax, f.yMax, true);
    put(Series::UAvg, f.uAvg, true);
    put(Series::VAvg, f.vAvg, true);
    put(Series::SatAvg, 0.0, false);
    put(Series::Ydif, 0.0, false);
    put(Series::OutOfLegal, f.outOfLegal, true);
    put(Series::OutsideTarget, f.outsideShare, (f.flags & FlightFrame::kGamut) != 0);
    put(Series::MaxNits, f.maxNits, (f.flags & FlightFrame::kHdr) != 0);
    put(Series::AvgNits, f.avgNits, (f.flags & FlightFrame::kHdr) != 0);
    for (Series s : {Series::Momentary, Series::ShortTerm, Series::TruePeak}) put(s, kLoudnessFloor, false);   // not recorded
    pts_.push_back(f.time);
    if (f.timecode[0]) {
        timecodes_.emplace_back(f.timecode);
    } else {   // the time of day it was shown (local), as the wall's live tiles label it
        const auto secs = std::time_t(f.wallClock);
        if (secs != todSecond_ || todText_.empty()) {   // localtime once a second, not per frame
            std::tm tm{};
            localtime_r(&secs, &tm);
            char text[16];
            std::snprintf(text, sizeof text, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
            todSecond_ = secs;
            todText_ = text;
        }
        timecodes_.push_back(todText_);
    }
}

void TimelineData::setEvents(const QJsonArray& events) {
    events_.clear();
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        TimelineEvent t;
        t.type = e.value(QStringLiteral("type")).toString().toStdString();
        t.first = e.value(QStringLiteral("first_frame")).toInteger();
        t.last = e.value(QStringLiteral("last_frame")).toInteger();
        t.firstTimecode = e.value(QStringLiteral("first_timecode")).toString().toStdString();
        t.lastTimecode = e.value(QStringLiteral("last_timecode")).toString().toStdString();
        t.message = e.value(QStringLiteral("message")).toString().toStdString();
        events_.push_back(std::move(t));
    }
}

void TimelineData::setSource(const QJsonObject& source) {
    const double rate = source.value(QStringLiteral("frame_rate")).toDouble();
    if (rate > 0) frameRate_ = rate;
    const double duration = source.value(QStringLiteral("duration")).toDouble();
    if (duration > 0) expected_ = int64_t(std::llround(duration * frameRate_));
}

int64_t TimelineData::frameAt(double seconds) const {
    if (pts_.empty()) return 0;
    const auto it = std::lower_bound(pts_.begin(), pts_.end(), seconds - 0.5 / frameRate_);
    return std::min<int64_t>(int64_t(it - pts_.begin()), frames() - 1);
}

Result<TimelineData> TimelineData::fromQcJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Status::error(path.toStdString() + ": cannot be read (" + file.errorString().toStdString() + ")");
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (doc.isNull() || !doc.isObject())
        return Status::error(path.toStdString() + ": not a qc report (" + error.errorString().toStdString() + ")");
    const QJsonObject report = doc.object();
    if (!report.value(QStringLiteral("frames")).isArray() || !report.value(QStringLiteral("summary")).isObject())
        return Status::error(path.toStdString() + ": not a whole qc report (no frames or no summary)");
    TimelineData data;
    data.setSource(report.value(QStringLiteral("source")).toObject());
    for (const QJsonValue& f : report.value(QStringLiteral("frames")).toArray()) data.addFrame(f.toObject());
    data.setEvents(report.value(QStringLiteral("events")).toArray());
    data.expected_ = data.frames();
    return data;
}

}  // namespace cs::timeline
