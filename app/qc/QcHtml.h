// NAME.qc.html: the report a QC operator hands a client, one self-contained file (no
// script, no external resource): the source's properties, every rule's verdict with its
// evidence (QcPolicy.h), inline SVG graphs over time with a timecode axis (luma min/avg/max,
// the shares out of legal and outside R 103's limits, the audio's loudness), and the events.
// The verdicts are also embedded as JSON (<script type="application/json" id="qc-verdicts">),
// from which qc builds the run's index.html and summary.csv (QcIndex.h). The graphs are drawn
// from a QcSeries (QcSeries.h), so memory does not depend on the input's length; the events
// table shows each event's first frame as a picture (QcThumbnails.h) where one was made.
#pragma once
#include <QJsonArray>
#include <QJsonObject>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "QcEvents.h"
#include "QcSeries.h"
#include "QcThumbnails.h"

namespace cs {

struct QcHtmlReport {
    std::string name, input, engine, ended;
    QJsonObject source;          // the head's "source"
    QJsonObject audio, audioSummary;   // empty: no audio
    QJsonArray policies, verdicts;
    std::string verdict;         // overall: pass, fail ("" without --policy)
    const std::vector<QcEvent>* events = nullptr;
    const QcSeries* series = nullptr;   // the graphs' values
    const QcThumbnails* thumbnails = nullptr;   // pictures of the events' first frames; null: none made
    int64_t frames = 0;
    int levels = 256;
    double endPts = 0;           // the last frame's pts plus one frame
};

// Browser: the self-contained NAME.qc.html. Print: the same content as Qt's rich text
// (QTextDocument) lays it out for NAME.qc.pdf (QcPdf.h): the graphs are one image, the
// resource kQcGraphsResource (qc.png's picture), and the embedded JSON is left out.
enum class QcHtmlFor { Browser, Print };
inline constexpr const char* kQcGraphsResource = "qc-graphs.png";
// Print: the resource name of the picture of frame `frame` (QcThumbnails.h).
std::string qcThumbnailResource(int64_t frame);
std::string qcHtml(const QcHtmlReport& r, QcHtmlFor target = QcHtmlFor::Browser);
// The JSON embedded in a report made by qcHtml (name, input, verdict, verdicts, events by
// type); an empty object when there is none.
QJsonObject qcHtmlVerdicts(const std::string& html);

// Text for HTML: & < > " escaped.
std::string htmlEscape(const std::string& s);

}  // namespace cs
