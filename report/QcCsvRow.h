// qc.csv's rule: one row per qc.json frame line, the columns the frame object's members
// flattened (stats.y.min -> stats_y_min, in QJsonObject's key order), named by the first
// frame; numbers in their shortest round-trip form, booleans 1/0, strings quoted, null and
// missing members empty. app/qc/QcCsv.h streams it into NAME.qc.csv; the flight recorder's
// export (ui/timeline/FlightExport.h) writes a recorded range with it.
#pragma once
#include <QJsonObject>

#include <string>
#include <vector>

namespace cs {

// The columns a frame line gives (the header's names, in order).
std::vector<std::string> qcCsvColumns(const QJsonObject& frame);
// "a,b,c\n"
std::string qcCsvHeader(const std::vector<std::string>& columns);
// The frame's values under `columns`, "\n"-terminated.
std::string qcCsvRow(const QJsonObject& frame, const std::vector<std::string>& columns);

}  // namespace cs
