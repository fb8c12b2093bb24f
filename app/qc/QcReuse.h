// Whether an earlier report of an input stands for this run of `cudascope qc`. Each
// NAME.qc.json records what it was made from ("made_from" in its head): the input (its
// absolute path, size and modification time), the settings that shape the report (the
// thresholds' values, --gamut-target) and the program's version. A re-run reuses a report
// only when NAME.qc.json parses whole, the input's other files are there, and all of that
// matches this run; otherwise the input is checked again and the line says why. The engine
// and the decoder are not settings: every engine writes the same report.
// Plain functions of the files and the options; called from runQcInput (app/qc/QcRun.cpp).
#pragma once
#include <QJsonObject>

#include <string>

#include "QcRun.h"

namespace cs {

// The thresholds as NAME.qc.json lists them ("thresholds" in its head, and in "made_from").
QJsonObject qcThresholdsJson(const QcThresholds& t);

// What a report of `input` made with `o` records under "made_from": {"input": {"path",
// "size", "modified_ns"}, "settings": {"thresholds", "gamut_target"}, "program"}. An input
// that is not a file (pattern:...) has its text as the path and no size or time.
QJsonObject qcMadeFrom(const std::string& input, const QcRunOptions& o);

struct QcReuse {
    bool reuse = false;
    // reuse: the skip's sentence; else why the report is redone ("" when there is none).
    std::string reason;
};

// Whether the report `name` in o.outDir can stand for `input` checked with `o`.
// `madeFrom`: qcMadeFrom(input, o), taken once before the input is read.
QcReuse qcReuse(const std::string& name, const QJsonObject& madeFrom, const QcRunOptions& o);

}  // namespace cs
