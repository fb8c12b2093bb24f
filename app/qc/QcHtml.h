// NAME.qc.html: the report a QC operator hands a client, one self-contained file (no
// script, no external resource): the source's properties, every rule's verdict with its
// evidence (QcPolicy.h), inline SVG graphs over time with a timecode axis (luma min/avg/max,
// the shares out of legal and outside R 103's limits, the audio's loudness), and the events.
// The verdicts are also embedded as JSON (<script type="application/json" id="qc-verdicts">),
// from which qc builds the run's index.html and summary.csv (QcIndex.h). The series keep at
// most 2 x kColumns buckets of min/max per value (neighbours merged as the input grows), so
// memory does not depend on the input's length. Not thread-safe: one per input.
#pragma once
#include <QJsonArray>
#include <QJsonObject>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "QcEvents.h"

namespace cs {

class QcHtmlSeries {
public:
    enum Series { YMin, YAvg, YMax, Legal, R103, Momentary, ShortTerm, kSeries };
    static constexpr size_t kColumns = 500;
    struct Bucket {
        int64_t firstFrame = 0;
        double firstPts = 0;
        std::string timecode;                 // the first frame's
        std::array<float, kSeries> min, max;  // NaN: no value in the bucket (no audio, silence)
    };
    // One frame; NaN for a value it does not have.
    void add(int64_t index, double pts, const std::string& timecode, const std::array<double, kSeries>& values);
    const std::vector<Bucket>& buckets() const { return buckets_; }

private:
    std::vector<Bucket> buckets_;
    int64_t framesPerBucket_ = 1, inLast_ = 0;
};

struct QcHtmlReport {
    std::string name, input, engine, ended;
    QJsonObject source;          // the head's "source"
    QJsonObject audio, audioSummary;   // empty: no audio
    QJsonArray policies, verdicts;
    std::string verdict;         // overall: pass, fail ("" without --policy)
    const std::vector<QcEvent>* events = nullptr;
    const QcHtmlSeries* series = nullptr;
    int64_t frames = 0;
    int levels = 256;
    double endPts = 0;           // the last frame's pts plus one frame
};

std::string qcHtml(const QcHtmlReport& r);
// The JSON embedded in a report made by qcHtml (name, input, verdict, verdicts, events by
// type); an empty object when there is none.
QJsonObject qcHtmlVerdicts(const std::string& html);

// Text for HTML: & < > " escaped.
std::string htmlEscape(const std::string& s);

}  // namespace cs
