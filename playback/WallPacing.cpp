// The wall's presentation rule (playback/WallPacing.h).
#include "WallPacing.h"

namespace cs {

CanvasPick pickDueCanvas(std::span<const std::chrono::steady_clock::time_point> due,
                         std::chrono::steady_clock::time_point refresh, std::chrono::steady_clock::duration delay,
                         bool newestWins) {
    CanvasPick pick;
    if (due.empty()) return pick;
    if (newestWins) {
        pick.index = int(due.size()) - 1;
    } else {
        // The latest due time at or before the target; a clock that restarted (a loop, a seek)
        // may stamp a later canvas earlier, so every entry is looked at.
        const auto target = refresh - delay;
        for (size_t i = 0; i < due.size(); ++i)
            if (due[i] <= target) pick.index = int(i);
    }
    pick.dropped = pick.index > 0 ? pick.index : 0;
    return pick;
}

}  // namespace cs
