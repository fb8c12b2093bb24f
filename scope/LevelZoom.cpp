// Waveform-style scales, whole or zoomed (see LevelZoom.h).
#include "LevelZoom.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "HdrGraticule.h"
#include "ReferenceLines.h"
#include "core/Hdr.h"
#include "core/ScopeZoom.h"

namespace cs {
namespace {

double topCode(int depth) { return double((1 << depth) - 1); }

std::string formatted(const char* format, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// "0.05", "203", "1K", "1.5K".
std::string nitsText(double nits) {
    if (nits >= 1000.0) return formatted("%gK", nits / 1000.0);
    return formatted("%g", nits);
}

// A value with as many decimals as the step needs.
std::string valueText(double v, double step) {
    const int decimals = step >= 1.0 ? 0 : (step >= 0.1 ? 1 : 2);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s == "-0" || s == "-0.0" || s == "-0.00") s.erase(0, 1);
    return s;
}

// 1, 2 or 5 times a power of ten: the smallest at least an eighth of `span` (3 to 8 steps).
double niceStep(double span) {
    const double raw = span / 8.0;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * p >= raw * (1.0 - 1e-9)) return m * p;
    return 10.0 * p;
}

struct Mark {
    double value;
    Emphasis emphasis;
};
// The scale's key levels, whatever the zoom.
std::vector<Mark> keyMarks(const LevelUnits& u) {
    const int s = u.depth - 8;
    switch (u.kind) {
        case LevelUnits::Kind::Ire: return {{0.0, Emphasis::Limit}, {50.0, Emphasis::Major}, {100.0, Emphasis::Limit}};
        case LevelUnits::Kind::Code:
            if (u.range == Range::Limited || u.limitedCodes)
                return {{double(16 << s), Emphasis::Limit}, {double(1 << (u.depth - 1)), Emphasis::Major}, {double(235 << s), Emphasis::Limit}};
            return {{0.0, Emphasis::Limit}, {double(1 << (u.depth - 1)), Emphasis::Major}, {topCode(u.depth), Emphasis::Limit}};
        case LevelUnits::Kind::Nits: {
            std::vector<Mark> marks;
            for (const NitsMark& m : hdrNitsMarks(u.transfer)) marks.push_back({m.nits, m.emphasis});
            return marks;
        }
    }
    return {};
}

void addLevel(Graticule& g, const LevelUnits& u, double value, Emphasis e, const std::string& text) {
    const double y = u.y(value);
    g.lines.push_back({0.0, y, 1.0, y, e});
    g.labels.push_back({0.0, y, text, HAlign::Right, VAlign::Middle, e});
    if (u.kind == LevelUnits::Kind::Nits && u.transfer == Transfer::Hlg)
        g.labels.push_back({1.0, y, hlgScenePercent(value), HAlign::Right, VAlign::Bottom, Emphasis::Minor});
}

bool inside(double y, LevelRange r) { return y >= r.lo - 1e-9 && y <= r.hi + 1e-9; }

}  // namespace

double LevelUnits::value(double y) const {
    const double top = topCode(depth), s = double(1 << (depth - 8));
    switch (kind) {
        case Kind::Code: return limitedCodes ? 16.0 * s + 219.0 * s * y : y * top;
        case Kind::Ire: return codeToIre(y * top, depth, range);
        case Kind::Nits: {
            const double signal = range == Range::Limited ? (y * top - 16.0 * s) / (219.0 * s) : y;
            return hdrSignalToNits(transfer, signal);
        }
    }
    return y;
}

double LevelUnits::y(double v) const {
    const double top = topCode(depth), s = double(1 << (depth - 8));
    switch (kind) {
        case Kind::Code: return limitedCodes ? (v - 16.0 * s) / (219.0 * s) : v / top;
        case Kind::Ire: return ireToCode(v, depth, range) / top;
        case Kind::Nits: return hdrNitsToCode(transfer, v, depth, range) / top;
    }
    return v;
}

LevelUnits levelUnits(int depth, Range sourceRange, Range scaleRange, WaveformScale scale, Transfer transfer, bool ycbcrParade) {
    LevelUnits u;
    u.depth = std::clamp(depth, 8, 16);
    u.range = scaleRange;
    u.transfer = transfer;
    if (scale == WaveformScale::CodeValue) {
        u.kind = LevelUnits::Kind::Code;
        // An R'G'B' panel (full-range scale) of a limited-range source: the limited-range codes
        // the luma waveform beside it uses (Graticule.h's rgbLimitedCodeGraticule).
        u.limitedCodes = !ycbcrParade && scaleRange == Range::Full && sourceRange == Range::Limited;
    } else {
        u.kind = isHdr(transfer) && !ycbcrParade ? LevelUnits::Kind::Nits : LevelUnits::Kind::Ire;
    }
    return u;
}

Graticule zoomedLevelScale(const LevelUnits& u, LevelRange range) {
    const LevelRange r = levelRangeOf(range);
    Graticule g;
    if (u.kind == LevelUnits::Kind::Nits) {
        std::vector<Mark> marks;
        auto collect = [&](std::initializer_list<double> multiples) {
            marks.clear();
            for (int k = -3; k <= 4; ++k)
                for (double m : multiples) {
                    const double nits = m * std::pow(10.0, k);
                    // 200 gives way to 203 (reference white) beside it.
                    const bool besideWhite = std::abs(nits - 203.0) < 10.0 && inside(u.y(203.0), r);
                    if (nits <= 10000.0 && !besideWhite && inside(u.y(nits), r)) marks.push_back({nits, Emphasis::Minor});
                }
            if (inside(u.y(203.0), r)) marks.push_back({203.0, Emphasis::Minor});
            std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.value < b.value; });
        };
        collect({1.0, 2.0, 5.0});
        if (marks.size() > 10) collect({1.0});
        if (marks.size() < 3) collect({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0});
        for (Mark& m : marks)
            for (const Mark& key : keyMarks(u))
                if (std::abs(key.value - m.value) < 1e-9 * key.value) m.emphasis = key.emphasis;
        for (const Mark& m : marks) addLevel(g, u, m.value, m.emphasis, nitsText(m.value));
        return g;
    }
    const double v0 = u.value(r.lo), v1 = u.value(r.hi);
    double step = niceStep(v1 - v0);
    if (u.kind == LevelUnits::Kind::Code) step = std::max(1.0, std::round(step));
    const std::vector<Mark> keys = keyMarks(u);
    for (const Mark& k : keys)
        if (inside(u.y(k.value), r)) addLevel(g, u, k.value, k.emphasis, valueText(k.value, 1.0));
    for (double k = std::ceil(v0 / step - 1e-9); k * step <= v1 + 1e-9 * std::max(1.0, std::abs(v1)); k += 1.0) {
        const double v = k * step;
        if (std::any_of(keys.begin(), keys.end(), [&](const Mark& m) { return std::abs(m.value - v) < step * 0.3; })) continue;
        addLevel(g, u, v, Emphasis::Minor, valueText(v, step));
    }
    return g;
}

void applyLevelZoom(Graticule& g, LevelRange range) {
    const LevelRange r = levelRangeOf(range);
    const double span = r.hi - r.lo;
    auto map = [&](double y) { return (y - r.lo) / span; };
    auto kept = [](double y) { return y >= -1e-9 && y <= 1.0 + 1e-9; };
    std::vector<GraticuleLine> lines;
    // Horizontal lines only (the frame's sides are drawn again below); what lies beyond the
    // range is dropped.
    for (const GraticuleLine& l : g.lines)
        if (l.y0 == l.y1 && kept(map(l.y0))) lines.push_back({l.x0, std::clamp(map(l.y0), 0.0, 1.0), l.x1, std::clamp(map(l.y1), 0.0, 1.0), l.emphasis});
    std::vector<GraticuleLabel> labels;
    for (const GraticuleLabel& l : g.labels)
        if (kept(map(l.y))) labels.push_back({l.x, std::clamp(map(l.y), 0.0, 1.0), l.text, l.hAlign, l.vAlign, l.emphasis});
    g.lines = std::move(lines);
    g.labels = std::move(labels);
    auto hasLevel = [&](double y) {
        return std::any_of(g.lines.begin(), g.lines.end(), [&](const GraticuleLine& l) { return l.y0 == l.y1 && std::abs(l.y0 - y) < 1e-9; });
    };
    if (!hasLevel(0.0)) g.lines.push_back({0.0, 0.0, 1.0, 0.0, Emphasis::Minor});
    if (!hasLevel(1.0)) g.lines.push_back({0.0, 1.0, 1.0, 1.0, Emphasis::Minor});
    g.lines.push_back({0.0, 0.0, 0.0, 1.0, Emphasis::Minor});
    g.lines.push_back({1.0, 0.0, 1.0, 1.0, Emphasis::Minor});
}

Graticule levelGraticule(int depth, Range sourceRange, Range scaleRange, const ScopeSpec& spec, LevelRange range, Transfer transfer,
                         bool ycbcrParade) {
    const LevelUnits units = levelUnits(depth, sourceRange, scaleRange, spec.waveformScale, transfer, ycbcrParade);
    Graticule g;
    const bool zoomed = !isWholeScale(range);
    if (zoomed) g = zoomedLevelScale(units, range);
    else if (units.limitedCodes) g = rgbLimitedCodeGraticule(depth);
    else g = waveformGraticuleFor(depth, scaleRange, spec.waveformScale, transfer, ycbcrParade);
    addReferenceLines(g, spec.referenceLines, depth, sourceRange, scaleRange);
    if (!zoomed) return g;
    applyLevelZoom(g, range);
    if (units.kind == LevelUnits::Kind::Nits)
        g.labels.push_back({0.0, 1.0, transfer == Transfer::Hlg ? "HLG NITS (SCENE %)" : "PQ NITS", HAlign::Left, VAlign::Top,
                            Emphasis::Minor});
    return g;
}

std::string levelRangeText(const LevelUnits& u, LevelRange range) {
    if (isWholeScale(range)) return {};
    const LevelRange r = levelRangeOf(range);
    const double v0 = u.value(r.lo), v1 = u.value(r.hi);
    switch (u.kind) {
        case LevelUnits::Kind::Code: return valueText(std::round(v0), 1.0) + "-" + valueText(std::round(v1), 1.0);
        case LevelUnits::Kind::Ire: {
            const double step = v1 - v0 < 10.0 ? 0.1 : 1.0;
            return valueText(v0, step) + "-" + valueText(v1, step) + " IRE";
        }
        case LevelUnits::Kind::Nits: {
            auto rounded = [](double n) {   // three significant digits
                if (!(n > 0.0)) return 0.0;
                const double p = std::pow(10.0, std::floor(std::log10(n)) - 2.0);
                return std::round(n / p) * p;
            };
            return nitsText(rounded(v0)) + "-" + nitsText(rounded(v1)) + " nits";
        }
    }
    return {};
}

std::string levelZoomText(const ScopeSpec& spec, bool parade, ParadeMode paradeMode, int depth, Range sourceRange, Transfer transfer) {
    const LevelRange range = parade ? spec.paradeRange : spec.waveformRange;
    if (isWholeScale(range)) return {};
    Range scale = sourceRange;
    bool ycbcr = false;
    if (parade) {
        ycbcr = paradeMode == ParadeMode::Ycbcr;
        if (!ycbcr) scale = Range::Full;
    } else if (spec.waveformMode == WaveformMode::RgbOverlay) {
        scale = Range::Full;
    }
    return levelRangeText(levelUnits(depth, sourceRange, scale, spec.waveformScale, transfer, ycbcr), range);
}

LevelRange zoomLevelRange(LevelRange range, double anchor, double factor) {
    const LevelRange r = levelRangeOf(range);
    if (!(factor > 0.0) || !std::isfinite(anchor)) return r;
    const double a = std::clamp(anchor, 0.0, 1.0);
    double span = std::clamp((r.hi - r.lo) * factor, kMinLevelSpan, 1.0);
    if (span >= 1.0 - 1e-9) return LevelRange{};
    // The anchor keeps its place in the panel.
    const double t = (a - r.lo) / (r.hi - r.lo);
    double lo = a - t * span;
    lo = std::clamp(lo, 0.0, 1.0 - span);
    return LevelRange{lo, std::min(1.0, lo + span)};
}

LevelRange panLevelRange(LevelRange range, double delta) {
    const LevelRange r = levelRangeOf(range);
    if (!std::isfinite(delta)) return r;
    const double span = r.hi - r.lo;
    const double lo = std::clamp(r.lo + delta, 0.0, 1.0 - span);
    return LevelRange{lo, std::min(1.0, lo + span)};
}

}  // namespace cs
