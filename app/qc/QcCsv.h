// NAME.qc.csv: the per-frame table of NAME.qc.json, one row per frame, the columns the
// frame object's members flattened (stats.y.min -> stats_y_min), named by the first frame.
// The rule is report/QcCsvRow.h (shared with the flight recorder's export); written through an
// AtomicFile as the frames come. Not thread-safe: one per input.
#pragma once
#include <QJsonObject>

#include <optional>
#include <string>
#include <vector>

#include "app/cli/AtomicFile.h"
#include "core/Status.h"

namespace cs {

class QcCsvWriter {
public:
    Status open(const std::string& path);
    Status addFrame(const QJsonObject& frame);
    Status finish() { return file_->commit(); }

private:
    std::optional<AtomicFile> file_;
    std::vector<std::string> columns_;
};

}  // namespace cs
