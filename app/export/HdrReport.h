// report.json's HDR members (docs/HDR.md): per PQ or HLG frame an "hdr" object, and over
// the file MaxCLL and MaxFALL (CTA-861.3: the largest frame maximum and the largest frame
// average of max(R,G,B) luminance) in the summary. Header-only: ReportWriter uses it.
#pragma once
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <cstdint>

#include "core/Hdr.h"

namespace cs {

inline QJsonObject hdrFrameJson(const HdrStats& h) {
    return {{"transfer", QString::fromUtf8(transferName(h.transfer).data(), qsizetype(transferName(h.transfer).size()))},
            {"max_nits", h.maxNits},
            {"avg_nits", h.avgNits},
            {"above_203_nits", h.above[0]},
            {"above_1000_nits", h.above[1]},
            {"above_4000_nits", h.above[2]}};
}

struct HdrSummary {
    int64_t frames = 0;        // frames with an "hdr" object
    double maxCll = 0.0, maxFall = 0.0;
    void add(const QJsonObject& hdr) {
        ++frames;
        maxCll = std::max(maxCll, hdr.value(QStringLiteral("max_nits")).toDouble());
        maxFall = std::max(maxFall, hdr.value(QStringLiteral("avg_nits")).toDouble());
    }
    // "max_cll" and "max_fall" (cd/m2) and the frames they cover, when any frame was HDR.
    void addTo(QJsonObject& summary) const {
        if (frames == 0) return;
        summary[QStringLiteral("hdr_frames")] = qint64(frames);
        summary[QStringLiteral("max_cll")] = maxCll;
        summary[QStringLiteral("max_fall")] = maxFall;
    }
};

}  // namespace cs
