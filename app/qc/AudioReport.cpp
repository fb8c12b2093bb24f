#include "AudioReport.h"

#include <QJsonArray>
#include <QJsonValue>

#include <cmath>
#include <cstdio>

namespace cs {
namespace {

// dB with two decimals (a meter's resolution), null for silence.
QJsonValue db(double v) {
    if (!std::isfinite(v)) return QJsonValue(QJsonValue::Null);
    return std::round(v * 100.0) / 100.0;
}

QJsonValue amplitudeDb(double a) { return db(audio::amplitudeToDb(a)); }

}  // namespace

std::unique_ptr<AudioReport> AudioReport::open(const std::string& input, const QcThresholds& thresholds, std::string& warning) {
    auto timeline = audio::AudioTimeline::open(input, thresholds.audioRules);
    if (!timeline) {
        if (timeline.message() != input + ": has no audio stream") warning = timeline.message() + "; the audio is not measured";
        return nullptr;
    }
    return std::make_unique<AudioReport>(std::move(*timeline), thresholds);
}

AudioReport::AudioReport(std::unique_ptr<audio::AudioTimeline> timeline, const QcThresholds& thresholds)
    : timeline_(std::move(timeline)), t_(thresholds), truePeak_("true_peak", thresholds.truePeakMinDuration),
      phase_("phase", thresholds.phaseMinDuration) {
    const auto& labels = timeline_->info().layout.labels;
    for (size_t c = 0; c < labels.size(); ++c) {
        QString key = QString::fromStdString(labels[c]);
        for (size_t d = 0; d < c; ++d)
            if (labels[d] == labels[c]) key += "_" + QString::number(c + 1);
        keys_.push_back(key);
    }
}

QJsonObject AudioReport::streamJson() const {
    const audio::AudioStreamInfo& i = timeline_->info();
    QJsonArray labels;
    for (const QString& k : keys_) labels.append(k);
    QJsonObject o{{"stream_index", i.index},
                  {"codec", QString::fromStdString(i.codec)},
                  {"sample_rate", i.sampleRate},
                  {"channels", i.layout.channels()},
                  {"layout", QString::fromStdString(i.layout.name)},
                  {"labels", labels},
                  {"start", i.start}};
    if (i.bitDepth > 0) o["bit_depth"] = i.bitDepth;
    if (!i.language.empty()) o["language"] = QString::fromStdString(i.language);
    if (i.layout.pairLeft >= 0) o["phase_pair"] = QJsonArray{keys_[size_t(i.layout.pairLeft)], keys_[size_t(i.layout.pairRight)]};
    return o;
}

QJsonObject AudioReport::frame(int64_t index, double pts, double duration) {
    const audio::IntervalLevels l = timeline_->measure(index, pts, pts + duration);
    if (firstIndex_ < 0) {
        firstIndex_ = index;
        firstPts_ = pts;
    }
    lastIndex_ = index;
    lastPts_ = pts;
    lastDuration_ = duration;
    QJsonObject peak, truePeak;
    double maxTp = 0;
    for (size_t c = 0; c < keys_.size(); ++c) {
        const bool have = l.samples > 0;
        peak[keys_[c]] = have ? amplitudeDb(l.samplePeak[c]) : QJsonValue(QJsonValue::Null);
        truePeak[keys_[c]] = have ? amplitudeDb(l.truePeak[c]) : QJsonValue(QJsonValue::Null);
        if (have) maxTp = std::max(maxTp, l.truePeak[c]);
    }
    const bool have = l.samples > 0;
    truePeak_.frame(index, pts, have && !t_.loudness.truePeakOk(audio::amplitudeToDb(maxTp)), events_);
    phase_.frame(index, pts, have && std::isfinite(l.correlation) && l.correlation < t_.phaseCorrelation, events_);
    collectDetectorEvents();
    QJsonValue corr(QJsonValue::Null);
    if (have && std::isfinite(l.correlation)) corr = std::round(l.correlation * 1000.0) / 1000.0;
    return {{"samples", qint64(l.samples)},
            {"peak", peak},
            {"true_peak", truePeak},
            {"momentary", have ? db(l.momentary) : QJsonValue(QJsonValue::Null)},
            {"short_term", have ? db(l.shortTerm) : QJsonValue(QJsonValue::Null)},
            {"correlation", corr}};
}

void AudioReport::collectDetectorEvents() {
    for (const audio::AudioEvent& e : timeline_->takeEvents()) {
        QcEvent q{e.type, e.firstFrame, e.lastFrame, e.firstPts, e.lastPts, {}, -1, -1, {}, {}, {}, {}, {}};
        const double rate = timeline_->sampleRate();
        q.start = double(e.start) / rate;
        q.end = double(e.end) / rate;
        if (e.type == "silent_channel") q.channel = e.label;
        if (e.type == "clipping") {
            char b[160];
            std::snprintf(b, sizeof b, "%lld runs of %d or more full-scale samples, %lld samples in all",
                          static_cast<long long>(e.runs), t_.audioRules.clippingMinRun, static_cast<long long>(e.samples));
            q.message = b;
        }
        events_.push_back(std::move(q));
    }
}

void AudioReport::finish() {
    if (finished_) return;
    finished_ = true;
    timeline_->finish();
    collectDetectorEvents();
    truePeak_.finish(lastDuration_, events_);
    phase_.finish(lastDuration_, events_);
    summary_ = timeline_->summary();
    if (std::isfinite(summary_.integrated) && !t_.loudness.integratedOk(summary_.integrated) && firstIndex_ >= 0) {
        char b[200];
        std::snprintf(b, sizeof b, "integrated loudness %.1f LUFS; the target (%s) is %.1f LUFS +-%.1f LU", summary_.integrated,
                      t_.loudness.name.c_str(), t_.loudness.integrated, t_.loudness.tolerance);
        events_.push_back(QcEvent{"loudness", firstIndex_, lastIndex_, firstPts_, lastPts_, b, -1, -1, {}, {}, {}, {}, {}});
    }
}

QJsonObject AudioReport::summaryJson() const {
    QJsonObject channels;
    for (size_t c = 0; c < keys_.size() && c < summary_.truePeak.size(); ++c)
        channels[keys_[c]] = QJsonObject{{"peak", amplitudeDb(summary_.samplePeak[c])}, {"true_peak", amplitudeDb(summary_.truePeak[c])}};
    const double tp = audio::amplitudeToDb(summary_.maxTruePeak);
    const QJsonObject target{{"name", QString::fromStdString(t_.loudness.name)},
                             {"integrated", t_.loudness.integrated},
                             {"tolerance", t_.loudness.tolerance},
                             {"max_true_peak", t_.loudness.maxTruePeak}};
    return {{"integrated", db(summary_.integrated)},
            {"loudness_range", db(summary_.range)},
            {"max_true_peak", db(tp)},
            {"channels", channels},
            {"seconds", double(summary_.samples) / timeline_->sampleRate()},
            {"target", target},
            {"integrated_ok", std::isfinite(summary_.integrated) ? QJsonValue(t_.loudness.integratedOk(summary_.integrated))
                                                                   : QJsonValue(QJsonValue::Null)},
            {"true_peak_ok", t_.loudness.truePeakOk(tp)}};
}

std::vector<QcEvent> AudioReport::takeEvents() {
    std::vector<QcEvent> out;
    out.swap(events_);
    return out;
}

}  // namespace cs
