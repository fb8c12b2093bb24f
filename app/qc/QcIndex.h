// The run's index.html and summary.csv (qc --policy): every input with its outcome (checked,
// skipped: its report stands, failed: no report), its overall verdict and its verdict per
// rule, read back from the JSON each NAME.qc.html embeds (QcHtml.h), so that inputs skipped
// on a re-run are listed as their reports say. Written by qc's main thread once the inputs
// are done, each through an AtomicFile. `qc --summary DIR` writes the same two files from
// every NAME.qc.json in DIR: the index of a run split into shards (--shard K/N), whose
// shards write none, since each knows only its own inputs.
#pragma once
#include <QJsonObject>

#include <string>
#include <vector>

#include "core/Status.h"

namespace cs {

struct QcIndexEntry {
    std::string input, name, outcome;   // outcome: checked, skipped, failed, stopped
    std::string message;                // failed: why
    QJsonObject report;                 // qcHtmlVerdicts of NAME.qc.html; empty when there is none
};

// The entry of one input after its run: its NAME.qc.html read back (when there is one).
QcIndexEntry qcIndexEntry(const std::string& outDir, const std::string& input, const std::string& outcome,
                          const std::string& message);
// `qc --summary DIR`: one entry per DIR/NAME.qc.json (not in sub-folders), sorted by input:
// checked, with the verdicts it carries (none when made without --policy), or failed when it
// is not a whole report (the message names the file and why). An error when DIR cannot be
// read or holds no NAME.qc.json.
Result<std::vector<QcIndexEntry>> qcSummaryEntries(const std::string& dir);
// index.html and summary.csv in outDir.
Status writeQcIndex(const std::string& outDir, const std::vector<QcIndexEntry>& entries);
// Whether the entry counts for --fail-on (fail: a rule failed; any: a rule failed or was not applicable).
bool qcFailsOn(const QcIndexEntry& entry, const std::string& failOn);

}  // namespace cs
