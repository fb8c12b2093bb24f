// openSource: picks the kind of source an input names (a test pattern, a network stream or
// camera, or a file).
#include "Source.h"

extern "C" {
#include <libavutil/log.h>
}

#include "FileSource.h"
#include "LiveInput.h"
#include "LiveSource.h"
#include "PatternSource.h"

namespace cs {

Result<std::unique_ptr<Source>> openSource(const std::string& input, const OpenOptions& options) {
    if (input.empty()) return Status::error("no input given (a file, a URL or pattern:bars)");
    if (isPatternInput(input)) return openPatternSource(input);
    if (isNetworkOrCameraInput(input)) {
        auto live = parseLiveInput(input);
        if (!live) return live.status();
        return openLiveSource(live.value(), options);
    }
    return openFileSource(input, options);
}

std::string fieldOrderText(const std::string& fieldOrder) {
    if (fieldOrder == "progressive") return "progressive";
    if (fieldOrder == "tff") return "interlaced, top field first";
    if (fieldOrder == "bff") return "interlaced, bottom field first";
    if (fieldOrder == "tb") return "interlaced, top field coded first, bottom shown first";
    if (fieldOrder == "bt") return "interlaced, bottom field coded first, top shown first";
    return {};
}

bool isInterlacedFieldOrder(const std::string& fieldOrder) {
    return fieldOrder == "tff" || fieldOrder == "bff" || fieldOrder == "tb" || fieldOrder == "bt";
}

bool isLiveInput(const std::string& input) { return !isPatternInput(input) && isLiveUrlOrCamera(input); }

void setLibraryLogging(bool enabled) { av_log_set_level(enabled ? AV_LOG_INFO : AV_LOG_QUIET); }

}  // namespace cs
