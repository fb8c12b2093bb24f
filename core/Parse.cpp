#include "Parse.h"

#include <algorithm>
#include <charconv>

namespace cs {
namespace {

constexpr size_t kQuotedBytes = 64;
constexpr double kMaxFrameRate = 100000.0;

bool allDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Digits only; false for anything else or a value beyond int64 (flagged by `tooLarge`).
bool digitsValue(std::string_view text, int64_t& value, bool& tooLarge) {
    tooLarge = false;
    if (!allDigits(text)) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
        tooLarge = true;
        return false;
    }
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string sizeText(Size size) { return std::to_string(size.width) + "x" + std::to_string(size.height); }

std::string quotedValue(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    const bool cut = text.size() > kQuotedBytes;
    for (const char c : text.substr(0, kQuotedBytes)) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (u < 0x20 || u == 0x7f) out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
        else out += c;
    }
    return out + (cut ? "...'" : "'");
}

Result<int64_t> parseWholeNumber(std::string_view text, int64_t min, int64_t max) {
    int64_t value = 0;
    bool tooLarge = false;
    if (!digitsValue(text, value, tooLarge) || value < min || value > max) {
        const std::string range = max == INT64_MAX ? "of at least " + std::to_string(min)
                                                   : "from " + std::to_string(min) + " to " + std::to_string(max);
        return Status::error("must be a whole number " + range + ", not " + quotedValue(text));
    }
    return value;
}

Result<int64_t> parseCount(std::string_view text, int64_t max) {
    int64_t value = 0;
    bool tooLarge = false;
    if (!digitsValue(text, value, tooLarge) && !tooLarge) return Status::error("must be a positive whole number, not " + quotedValue(text));
    if (tooLarge || value > max)
        return Status::error("must be a positive whole number up to " + std::to_string(max) + ", not " + quotedValue(text));
    if (value < 1) return Status::error("must be a positive whole number, not " + quotedValue(text));
    return value;
}

bool isSizeSyntax(std::string_view text) {
    const size_t x = text.find_first_of("xX");
    return x != std::string_view::npos && allDigits(text.substr(0, x)) && allDigits(text.substr(x + 1));
}

Result<Size> parseSize(std::string_view text, Size min, Size max) {
    const std::string limits = "from " + sizeText(min) + " to " + sizeText(max);
    if (!isSizeSyntax(text)) return Status::error("must be WxH (" + limits + "), not " + quotedValue(text));
    const size_t x = text.find_first_of("xX");
    int64_t w = 0, h = 0;
    bool tooLarge = false;
    const bool ok = digitsValue(text.substr(0, x), w, tooLarge) && digitsValue(text.substr(x + 1), h, tooLarge);
    if (!ok || w < min.width || w > max.width || h < min.height || h > max.height)
        return Status::error("must be WxH " + limits + ", not " + quotedValue(text));
    return Size{int(w), int(h)};
}

Result<double> parseFrameRate(std::string_view text) {
    const auto refuse = [&] {
        return Status::error("must be a frame rate above 0 and up to 100000 (30, 29.97 or 30000/1001), not " + quotedValue(text));
    };
    double rate = 0.0;
    if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
        int64_t n = 0, d = 0;
        bool tooLarge = false;
        if (!digitsValue(text.substr(0, slash), n, tooLarge) || !digitsValue(text.substr(slash + 1), d, tooLarge) || d == 0)
            return refuse();
        rate = double(n) / double(d);
    } else {
        const size_t dot = text.find('.');
        const bool shape = dot == std::string_view::npos ? allDigits(text)
                                                         : allDigits(text.substr(0, dot)) && allDigits(text.substr(dot + 1));
        if (!shape) return refuse();
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), rate, std::chars_format::fixed);
        if (ec != std::errc() || end != text.data() + text.size()) return refuse();
    }
    if (!(rate > 0.0 && rate <= kMaxFrameRate)) return refuse();
    return rate;
}

std::string joinNames(const std::vector<std::string_view>& names, std::string_view lastSeparator) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? std::string(lastSeparator) : std::string(", ");
        out += names[i];
    }
    return out;
}

Result<std::string> parseChoice(std::string_view text, const std::vector<std::string_view>& names) {
    if (std::find(names.begin(), names.end(), text) == names.end())
        return Status::error("must be " + joinNames(names) + ", not " + quotedValue(text));
    return std::string(text);
}

Result<std::vector<std::string>> parseList(std::string_view text, const std::vector<std::string_view>& names) {
    const std::string expected = " (a comma list of " + joinNames(names, " and ") + ")";
    if (text.empty()) return Status::error("is empty" + expected);
    std::vector<std::string> items;
    for (size_t begin = 0;;) {
        const size_t comma = text.find(',', begin);
        const std::string_view item = text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
        if (item.empty()) return Status::error("has an empty item in " + quotedValue(text) + expected);
        if (std::find(names.begin(), names.end(), item) == names.end())
            return Status::error("has an unknown item " + quotedValue(item) + expected);
        if (std::find(items.begin(), items.end(), item) != items.end())
            return Status::error("names " + quotedValue(item) + " twice");
        items.emplace_back(item);
        if (comma == std::string_view::npos) break;
        begin = comma + 1;
    }
    return items;
}

}  // namespace cs
