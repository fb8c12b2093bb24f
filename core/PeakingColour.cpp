// Focus peaking's colour names (see PeakingColour.h).
#include "PeakingColour.h"

#include <cstdio>

#include "Parse.h"

namespace cs {

const std::array<NamedColour, 7>& peakingColours() {
    static const std::array<NamedColour, 7> colours{{{"red", 0xff2020ffu},
                                                     {"yellow", 0xff20ffffu},
                                                     {"green", 0xff20ff20u},
                                                     {"cyan", 0xffffff20u},
                                                     {"blue", 0xffff6020u},
                                                     {"magenta", 0xffff20ffu},
                                                     {"white", 0xffffffffu}}};
    return colours;
}

Result<uint32_t> parsePeakingColour(std::string_view text) {
    for (const NamedColour& c : peakingColours())
        if (text == c.name) return c.rgba;
    auto hex = [](char ch) {
        if (ch >= '0' && ch <= '9') return ch - '0';
        if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
        if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
        return -1;
    };
    if (text.size() == 6) {
        uint32_t bytes[3];
        bool ok = true;
        for (int i = 0; i < 3 && ok; ++i) {
            const int hi = hex(text[size_t(2 * i)]), lo = hex(text[size_t(2 * i + 1)]);
            ok = hi >= 0 && lo >= 0;
            bytes[i] = uint32_t(hi * 16 + lo);
        }
        if (ok) return bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | 0xff000000u;
    }
    return Status::error("must be red, yellow, green, cyan, blue, magenta, white or RRGGBB (hex), not " + quotedValue(text));
}

std::string peakingColourText(uint32_t rgba) {
    for (const NamedColour& c : peakingColours())
        if ((c.rgba & 0xffffffu) == (rgba & 0xffffffu)) return c.name;
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02x%02x%02x", unsigned(rgba & 0xffu), unsigned((rgba >> 8) & 0xffu), unsigned((rgba >> 16) & 0xffu));
    return buf;
}

}  // namespace cs
