// `cudascope export`'s options: what the command line asks of an export, read by the rules
// of CommandOptions.h, and the check of the output folder before anything is written.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/cli/CommandOptions.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

// export --help: the synopsis, then a line per option of exportOptionTable().
const std::string& exportUsage();

struct ExportOptions {
    bool help = false;
    std::string input, outDir, engine = "auto", hwdec;   // hwdec "": auto with the CUDA engine, else none
    long every = 1, maxFrames = -1;                      // maxFrames -1: all
    double timeout = 30.0;    // live: seconds without a picture before giving up
    bool allFrames = false;   // live: every frame (a bounded backlog), not the newest
    std::set<std::string> scopes{"picture", "histogram", "waveform", "parade", "vectorscope", "stats"};
    ScopeSpec spec;   // what the engine computes, from --scopes and the scope options
};

// Export's options: names, value names, choices, help (CommandOptions.h).
const std::vector<OptionDef>& exportOptionTable();

// The arguments after "export" -> the options, or the usage error's sentence.
Result<ExportOptions> parseExportArgs(const std::vector<std::string>& args);

// Where an export may write. Refused, with "DIR: reason": the root of the file system; a
// path that is not a folder; a folder that cannot be read; a folder that holds files but
// none of an earlier export (report.json, or NNNNNN-picture.png and the like from a run
// that stopped before its report), ignoring hidden entries and lost+found. A missing folder
// is fine (export creates it), and so is an earlier export's: re-exporting into it
// overwrites the files of the same names.
Status checkOutputFolder(const std::string& dir);

// For runExport: parses argv after "export"; prints --help (exit 0), a usage error with the
// usage (exit 2) or a refused output folder (exit 1). The exit code when the run ends here.
std::optional<int> readExportOptions(int argc, char** argv, ExportOptions& options);

}  // namespace cs
