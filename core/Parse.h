// The one parser of the numbers, sizes, rates and lists that users type: command-line
// options (`--every 5`, `--size 1024x540`, `--scopes waveform,stats`) and the options inside
// input strings (`pattern:bars:1280x720`, `v4l2:/dev/video0?size=640x480&fps=30`, a URL's
// `?timeout=1000000`). Strict: the whole text or nothing — no spaces, signs, exponents,
// trailing characters or silent wrap-around.
//
// A failure's message is a phrase that reads after the name of what was parsed, so the
// caller says what it was: "--max-frames" + " " + "must be a positive whole number, not ' 5'".
// Values are echoed through quotedValue(), so a message stays one line whatever was typed.
#pragma once
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "Status.h"

namespace cs {

struct Size {
    int width = 0, height = 0;
    bool operator==(const Size&) const = default;
};

// "1280x720" (also "1280X720").
std::string sizeText(Size size);

// text between single quotes, with control characters escaped (\n, \t, \xNN) and anything
// past 64 bytes cut to "...": what every parse message echoes.
std::string quotedValue(std::string_view text);

// ASCII digits only, value in [min, max] (min >= 0: no sign is ever accepted).
Result<int64_t> parseWholeNumber(std::string_view text, int64_t min, int64_t max);

// A whole number from 1 to max.
Result<int64_t> parseCount(std::string_view text, int64_t max = INT64_MAX);

// True when text has a size's shape: digits, 'x' or 'X', digits (whatever their values).
bool isSizeSyntax(std::string_view text);

// "WxH" with min.width <= W <= max.width and min.height <= H <= max.height.
Result<Size> parseSize(std::string_view text, Size min, Size max);

// A frame rate: "30", "29.97" or "30000/1001", above 0 and at most 100000 per second.
Result<double> parseFrameRate(std::string_view text);

// One of `names`.
Result<std::string> parseChoice(std::string_view text, const std::vector<std::string_view>& names);

// A comma list of `names`, at least one, none empty, none twice; in the order given.
Result<std::vector<std::string>> parseList(std::string_view text, const std::vector<std::string_view>& names);

// "a, b or c": how messages list the accepted names.
std::string joinNames(const std::vector<std::string_view>& names, std::string_view lastSeparator = " or ");

}  // namespace cs
