// A timeline of one hour at 25 fps (90,000 frames) with every series it draws, for the
// timeline's test (tests/ui/test_timeline_units.cpp) and its benchmark (bench/timeline).
#pragma once
#include <QJsonObject>

#include <cmath>

#include "ui/timeline/TimelineData.h"

namespace cs::timeline {

// One hour at 25 fps of frames with every series the timeline draws.
inline void fillHour(TimelineData& d) {
    for (int i = 0; i < 90000; ++i) {
        const double t = i / 25.0;
        QJsonObject y{{"min", 16 + (i % 50)}, {"max", 235 - (i % 30)}, {"avg", 120 + 60 * std::sin(t / 7)}};
        QJsonObject stats{{"y", y}, {"u", QJsonObject{{"avg", 128 + 10 * std::sin(t)}}}, {"v", QJsonObject{{"avg", 128 - 10 * std::cos(t)}}},
                          {"out_of_legal", (i % 997) == 0 ? 0.2 : 0.0}};
        d.addFrame(QJsonObject{{"pts", t}, {"timecode", "00:00:00:00"}, {"stats", stats}, {"ydif", std::fabs(std::sin(t * 3)) * 4},
                               {"satavg", 30 + (i % 11)}, {"gamut", QJsonObject{{"outside_share", (i % 301) * 1e-4}}},
                               {"hdr", QJsonObject{{"max_nits", 100 + (i % 900)}, {"avg_nits", 50 + (i % 40)}}}});
    }
}

}  // namespace cs::timeline
