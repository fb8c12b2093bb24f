// Reference lines (see ReferenceLines.h).
#include "ReferenceLines.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/Parse.h"

namespace cs {
namespace {

constexpr const char* kSyntax =
    "must be a comma list of levels (5%, 16:8, 64:10 or a code value at the source's depth) or none";

// Digits with at most one '.', digits before it and one or two after: "16", "2.5", "2.25".
bool parseDecimal(std::string_view t, double& out) {
    if (t.empty() || t.size() > 12) return false;
    int dots = 0, digits = 0;
    const size_t dot = t.find('.');
    if (dot != std::string_view::npos && t.size() - dot - 1 > 2) return false;   // two decimals at most
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '.') {
            if (++dots > 1 || i == 0 || i + 1 == t.size()) return false;
        } else if (t[i] >= '0' && t[i] <= '9') {
            ++digits;
        } else {
            return false;
        }
    }
    if (digits == 0) return false;
    out = std::strtod(std::string(t).c_str(), nullptr);
    return std::isfinite(out);
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

double depthScale(int depth, int from) { return std::ldexp(1.0, depth - from); }

// The level's code value at the source's depth.
double referenceCode(const ReferenceLevel& l, int depth, Range range) {
    switch (l.unit) {
        case ReferenceLevel::Unit::Percent: return ireToCode(double(l.value), depth, range);
        case ReferenceLevel::Unit::Code: return double(l.value);
        case ReferenceLevel::Unit::Code8: return double(l.value) * depthScale(depth, 8);
        case ReferenceLevel::Unit::Code10: return double(l.value) * depthScale(depth, 10);
    }
    return 0.0;
}

}  // namespace

Result<ReferenceLines> parseReferenceLines(std::string_view text) {
    ReferenceLines lines;
    if (text == "none") return lines;
    const auto bad = [&](std::string why) { return Status::error(why + ", not " + quotedValue(text)); };
    if (text.empty()) return bad(kSyntax);
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        ReferenceLevel level;
        std::string_view num = item;
        double limit = 65535.0;
        if (!item.empty() && item.back() == '%') {
            level.unit = ReferenceLevel::Unit::Percent;
            num = item.substr(0, item.size() - 1);
            limit = 109.0;
        } else if (item.size() > 2 && item.substr(item.size() - 2) == ":8") {
            level.unit = ReferenceLevel::Unit::Code8;
            num = item.substr(0, item.size() - 2);
            limit = 255.0;
        } else if (item.size() > 3 && item.substr(item.size() - 3) == ":10") {
            level.unit = ReferenceLevel::Unit::Code10;
            num = item.substr(0, item.size() - 3);
            limit = 1023.0;
        } else {
            level.unit = ReferenceLevel::Unit::Code;
        }
        double v = 0.0;
        if (!parseDecimal(num, v)) return bad(kSyntax);
        if (v > limit)
            return bad("has " + quotedValue(item) + " beyond " + number(limit) +
                       (level.unit == ReferenceLevel::Unit::Percent ? "%" : " (the largest code of its depth)"));
        level.value = float(v);
        for (int i = 0; i < lines.count; ++i)
            if (lines.levels[size_t(i)] == level) return bad("has " + quotedValue(item) + " twice");
        if (lines.count == ReferenceLines::kMax)
            return bad("has more than " + std::to_string(ReferenceLines::kMax) + " levels");
        lines.levels[size_t(lines.count++)] = level;
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return lines;
}

std::string referenceLinesText(const ReferenceLines& lines) {
    if (lines.count <= 0) return "none";
    std::string out;
    for (int i = 0; i < lines.count && i < ReferenceLines::kMax; ++i) {
        const ReferenceLevel& l = lines.levels[size_t(i)];
        if (!out.empty()) out += ',';
        out += number(double(l.value));
        switch (l.unit) {
            case ReferenceLevel::Unit::Percent: out += '%'; break;
            case ReferenceLevel::Unit::Code8: out += ":8"; break;
            case ReferenceLevel::Unit::Code10: out += ":10"; break;
            case ReferenceLevel::Unit::Code: break;
        }
    }
    return out;
}

double referenceIre(const ReferenceLevel& level, int depth, Range range) {
    return codeToIre(referenceCode(level, depth, range), depth, range);
}

std::string referenceLabel(const ReferenceLevel& level, int depth, Range range) {
    if (level.unit == ReferenceLevel::Unit::Percent) return number(double(level.value)) + "%";
    return number(referenceCode(level, depth, range));
}

void addReferenceLines(Graticule& g, const ReferenceLines& lines, int depth, Range sourceRange, Range scaleRange) {
    const int d = std::clamp(depth, 8, 16);
    const double top = double((1 << d) - 1);
    for (int i = 0; i < lines.count && i < ReferenceLines::kMax; ++i) {
        const ReferenceLevel& l = lines.levels[size_t(i)];
        const double code = ireToCode(referenceIre(l, d, sourceRange), d, scaleRange);
        const double y = code / top;
        if (!(y >= 0.0 && y <= 1.0)) continue;   // beyond the scale (a 10-bit code on an 8-bit source)
        g.lines.push_back({0.0, y, 1.0, y, Emphasis::Reference});
        g.labels.push_back({1.0, y, referenceLabel(l, d, sourceRange), HAlign::Right, VAlign::Bottom, Emphasis::Reference});
    }
}

}  // namespace cs
