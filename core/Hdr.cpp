#include "Hdr.h"

#include <algorithm>
#include <cmath>

namespace cs {
namespace {
constexpr double kHlgA = 0.17883277, kHlgB = 0.28466892, kHlgC = 0.55991073;
}  // namespace

double hdrSignalToNits(Transfer t, double e) {
    e = std::clamp(e, 0.0, 1.0);
    if (t == Transfer::Hlg) return kHlgPeakNits * std::pow(hlgToRelative(e), kHlgSystemGamma);
    return pqToNits(e);
}

double hlgSceneToSignal(double scene) {
    scene = std::clamp(scene, 0.0, 1.0);
    return scene <= 1.0 / 12.0 ? std::sqrt(3.0 * scene) : kHlgA * std::log(12.0 * scene - kHlgB) + kHlgC;
}

double hdrNitsToSignal(Transfer t, double nits) {
    if (t == Transfer::Hlg) return hlgSceneToSignal(std::pow(std::max(nits, 0.0) / kHlgPeakNits, 1.0 / kHlgSystemGamma));
    return nitsToPq(nits);
}

std::vector<double> hdrNitsTable(Transfer t, int levels) {
    std::vector<double> table(size_t(std::max(levels, 2)));
    const double top = double(table.size() - 1);
    for (size_t c = 0; c < table.size(); ++c) table[c] = hdrSignalToNits(t, double(c) / top);
    return table;
}

void finishHdrStats(HdrStats& s) {
    s.maxNits = s.avgNits = 0.0;
    s.above = {};
    const std::vector<double> nits = hdrNitsTable(s.transfer, int(s.maxCodes.size()));
    uint64_t pixels = 0;
    std::array<uint64_t, 3> above{};
    double sum = 0.0;
    for (size_t c = 0; c < s.maxCodes.size(); ++c) {
        const uint32_t n = s.maxCodes[c];
        if (n == 0) continue;
        pixels += n;
        sum += double(n) * nits[c];
        s.maxNits = nits[c];
        for (size_t i = 0; i < above.size(); ++i)
            if (nits[c] > kHdrShareNits[i]) above[i] += n;
    }
    if (pixels == 0) return;
    s.avgNits = sum / double(pixels);
    for (size_t i = 0; i < above.size(); ++i) s.above[i] = double(above[i]) / double(pixels);
}

}  // namespace cs
