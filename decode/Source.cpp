// openSource: picks the kind of source an input names (a test pattern or a file/URL).
#include "decode/Source.h"

#include "FileSource.h"
#include "PatternSource.h"

namespace cs {

Result<std::unique_ptr<Source>> openSource(const std::string& input, const OpenOptions& options) {
    if (input.empty()) return Status::error("no input given (a file, a URL or pattern:bars)");
    if (isPatternInput(input)) return openPatternSource(input);
    return openFileSource(input, options);
}

}  // namespace cs
