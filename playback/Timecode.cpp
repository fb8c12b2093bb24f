// Timecode formatting.
#include "Timecode.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cs {

int64_t frameNumberAt(double seconds, double fps) {
    if (!(fps > 0)) fps = 25.0;
    if (!(seconds > 0)) return 0;
    return int64_t(std::llround(seconds * fps));
}

std::string timecode(double seconds, double fps) {
    const int64_t nominal = fps > 0 ? std::max<int64_t>(1, std::llround(fps)) : 25;
    const int64_t n = frameNumberAt(seconds, fps);
    const int64_t ff = n % nominal, totalSeconds = n / nominal;
    char text[48];
    std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld:%02lld", static_cast<long long>(totalSeconds / 3600),
                  static_cast<long long>(totalSeconds / 60 % 60), static_cast<long long>(totalSeconds % 60),
                  static_cast<long long>(ff));
    return text;
}

}  // namespace cs
