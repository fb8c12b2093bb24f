// Focus peaking's width as users give it (see PeakingWidth.h).
#include "PeakingWidth.h"

#include "Parse.h"

namespace cs {

Result<int> parsePeakingWidth(std::string_view text) {
    if (text.size() == 1 && text[0] >= '0' + kMinPeakingWidth && text[0] <= '0' + kMaxPeakingWidth) return int(text[0] - '0');
    return Status::error("must be 1, 2 or 3 (pixels), not " + quotedValue(text));
}

}  // namespace cs
