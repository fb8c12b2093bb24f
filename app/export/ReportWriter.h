// report.json of `cudascope export`, written as the export goes so that its memory does
// not grow with the input's length. The document:
//
//   {"engine":"cpu",
//   "scopes":{...},
//   "source":{...},
//   "frames":[
//   {"height":1080,"index":0,...}
//   ,{"height":1080,"index":1,...}
//   ],
//   "dropped_frames":..., "restarts":[...],    (live inputs: known only at the end)
//   "warnings":[...],
//   "summary":{"frames":2,"warnings":0,"ended":"end_of_stream"}}
//
// It is written to report.json.part (an AtomicFile) and renamed to report.json by
// finish(). Each frame is one line, handed to write(2) whole as soon as the frame's files
// are written: a run killed outright leaves report.json.part with the head and every
// finished frame; keeping it up to its last newline and appending "]}" makes it one JSON
// document (README.md, "Export files"). Warnings are kept until the end (the first
// kMaxListedWarnings of them; the count covers all) and go last. When the report cannot be
// finished (a full disk), keepPartial() leaves report.json.part as a killed run would.
// Not thread-safe: the export loop's thread owns it.
#pragma once
#include <QJsonObject>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/AtomicFile.h"
#include "HdrReport.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"
#include "decode/Source.h"

namespace cs {

class ReportWriter {
public:
    static constexpr size_t kMaxListedWarnings = 1000;

    // Creates path + ".part"; an error names `path` and the reason.
    Status open(const std::string& path);
    bool begun() const { return begun_; }
    // The members before "frames" (one line each), then the opening of "frames".
    Status begin(const QJsonObject& head);
    // One frame, one line (begin() first).
    Status addFrame(const QJsonObject& frame);
    // Any time, even before open(): listed under "warnings" at the end.
    void addWarning(const std::string& warning);
    // Closes "frames", writes `tail`'s members (what is known only at the end: a live
    // input's drops and restarts), the warnings and the summary (frames written, warnings
    // seen, how the run ended) and renames the file into place. begin() first.
    Status finish(std::string_view ended, const QJsonObject& tail = {});
    // After a failure that finish() cannot mend: keeps report.json.part, cut back to its
    // last whole frame line (readable as a killed run's), when it lists a frame; else
    // removes it. True when it was kept.
    bool keepPartial();
    // Leaves no report: the .part is removed.
    void discard();

    int64_t framesWritten() const { return frames_; }
    const std::string& path() const { return path_; }
    // MaxCLL and MaxFALL over the frames written so far that carry an "hdr" object.
    const HdrSummary& hdrSummary() const { return hdr_; }

private:
    std::optional<AtomicFile> file_;
    std::string path_;
    bool begun_ = false;
    int64_t frames_ = 0, warningCount_ = 0;
    size_t wholeBytes_ = 0;   // the file's size after its last whole line (the head or a frame)
    std::vector<std::string> warnings_;
    HdrSummary hdr_;
    void noteHdrFrame(const QJsonObject& frame);
    void addHdrSummary(QJsonObject& summary) const;
};

// The report's content: the head (source, engine, scopes as used on `results`' frame) and
// one frame's entry (index, pts, size, `extra`'s members, and the stats and histogram when
// asked for).
QJsonObject reportHead(const SourceInfo& info, std::string_view engine, const ScopeSpec& spec, const ScopeResults& results);
// A frame's "stats" object, the same for export's report.json and qc's NAME.qc.json.
QJsonObject reportStats(const ScopeResults& results);
// A frame's "gamut" object (ScopeSpec::cie): the source's primaries (source_tagged false: assumed
// from the matrix, as the head's source.primaries), the target, the pixels outside it and their
// share; export's report.json and qc's NAME.qc.json. `color`: the frame's (ScopeResults::color).
QJsonObject gamutJson(const GamutResults& g, const ColorInfo& color);
QJsonObject reportFrame(int64_t index, double pts, const ScopeSpec& spec, const ScopeResults& results,
                        const QJsonObject& extra = {});

// A live input's members at the end of the report: frames_arrived, dropped_frames and
// restarts (each with its index, pts, source_pts, source_pts_before, gap_seconds, reason
// and dropped_frames); empty for files and patterns.
struct InputSummary;
QJsonObject reportLiveTail(const InputSummary& summary);

}  // namespace cs
