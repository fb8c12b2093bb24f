#include "HdrGraticule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/Hdr.h"

namespace cs {
namespace {

double topCode(int depth) { return double((1 << depth) - 1); }

std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace

// Scene light of an HLG display level, in % of the HLG peak.
std::string hlgScenePercent(double nits) {
    const double scene = 100.0 * std::pow(nits / kHlgPeakNits, 1.0 / kHlgSystemGamma);
    return fixed(scene, scene < 1.0 ? 1 : 0) + "%";
}

double hdrNitsToCode(Transfer t, double nits, int bitDepth, Range range) {
    const int depth = std::clamp(bitDepth, 8, 16);
    const double e = hdrNitsToSignal(t, nits);
    if (range == Range::Limited) {
        const double s = double(1 << (depth - 8));
        return 16.0 * s + 219.0 * s * e;
    }
    return e * topCode(depth);
}

std::vector<NitsMark> hdrNitsMarks(Transfer t) {
    if (t == Transfer::Hlg)
        return {{1, "1", Emphasis::Minor}, {10, "10", Emphasis::Minor}, {100, "100", Emphasis::Major},
                {203, "203", Emphasis::Limit}, {1000, "1K", Emphasis::Limit}};
    return {{0.1, "0.1", Emphasis::Minor}, {1, "1", Emphasis::Minor},       {10, "10", Emphasis::Minor},
            {100, "100", Emphasis::Major}, {203, "203", Emphasis::Limit},   {1000, "1K", Emphasis::Major},
            {4000, "4K", Emphasis::Minor}, {10000, "10K", Emphasis::Limit}};
}

Graticule hdrWaveformGraticule(int bitDepth, Range range, Transfer t) {
    const int depth = std::clamp(bitDepth, 8, 16);
    const double top = topCode(depth);
    Graticule g;
    for (const NitsMark& m : hdrNitsMarks(t)) {
        const double y = hdrNitsToCode(t, m.nits, depth, range) / top;
        g.lines.push_back({0.0, y, 1.0, y, m.emphasis});
        g.labels.push_back({0.0, y, m.label, HAlign::Right, VAlign::Middle, m.emphasis});
        if (t == Transfer::Hlg) g.labels.push_back({1.0, y, hlgScenePercent(m.nits), HAlign::Right, VAlign::Bottom, Emphasis::Minor});
    }
    g.labels.push_back({0.0, 1.0, t == Transfer::Hlg ? "HLG NITS (SCENE %)" : "PQ NITS", HAlign::Left, VAlign::Top,
                        Emphasis::Minor});
    // A dim frame, as the SDR scales have.
    g.lines.push_back({0.0, 0.0, 1.0, 0.0, Emphasis::Minor});
    g.lines.push_back({0.0, 1.0, 1.0, 1.0, Emphasis::Minor});
    g.lines.push_back({0.0, 0.0, 0.0, 1.0, Emphasis::Minor});
    g.lines.push_back({1.0, 0.0, 1.0, 1.0, Emphasis::Minor});
    return g;
}

Graticule hdrHistogramGraticule(int bitDepth, Range range, Transfer t, HistogramScale scale) {
    const int depth = std::clamp(bitDepth, 8, 16);
    const double top = topCode(depth);
    Graticule g;
    for (const NitsMark& m : hdrNitsMarks(t)) {
        const double x = hdrNitsToCode(t, m.nits, depth, range) / top;
        g.lines.push_back({x, 0.0, x, 1.0, m.emphasis});
        g.labels.push_back({x, 0.0, m.label, HAlign::Center, VAlign::Top, m.emphasis});
        // Stops from reference white, on the major levels (the others would crowd the top).
        if (m.emphasis != Emphasis::Minor) {
            const double stops = std::log2(m.nits / kHdrReferenceWhiteNits);
            char text[16] = "0";
            if (std::abs(stops) >= 0.05) std::snprintf(text, sizeof text, "%+.1f", stops);
            g.labels.push_back({x, 1.0, text, HAlign::Center, VAlign::Top, Emphasis::Minor});
        }
    }
    for (int q = 0; q <= 4; ++q) g.lines.push_back({0.0, q / 4.0, 1.0, q / 4.0, Emphasis::Minor});
    g.labels.push_back({0.0, 1.0, std::string(scale == HistogramScale::Log ? "LOG" : "LIN") + " NITS, STOPS FROM 203",
                        HAlign::Left, VAlign::Top, Emphasis::Minor});
    return g;
}

Graticule waveformGraticuleFor(int bitDepth, Range range, WaveformScale scale, Transfer t, bool ycbcrParade) {
    if (isHdr(t) && scale == WaveformScale::Ire && !ycbcrParade) return hdrWaveformGraticule(bitDepth, range, t);
    return waveformGraticule(bitDepth, range, scale);
}

Graticule histogramGraticuleFor(int bitDepth, Range range, HistogramScale scale, Transfer t) {
    if (isHdr(t)) return hdrHistogramGraticule(bitDepth, range, t, scale);
    return histogramGraticule(bitDepth, range, scale);
}

}  // namespace cs
