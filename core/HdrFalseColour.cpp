#include "HdrFalseColour.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "Hdr.h"

namespace cs {
namespace {

constexpr uint32_t rgbaOf(uint32_t r, uint32_t g, uint32_t b) { return r | (g << 8) | (b << 16) | 0xff000000u; }
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr HdrFalseColourBand kPqBands[] = {
    {0.0, 0.1, rgbaOf(120, 40, 165), "black"},
    {0.1, 1.0, rgbaOf(30, 70, 255), "deep shadows"},
    {1.0, 10.0, rgbaOf(0, 135, 150), "shadows"},
    {10.0, 100.0, 0, "mid tones"},
    {100.0, 203.0, rgbaOf(40, 190, 60), "to reference white"},
    {203.0, 1000.0, rgbaOf(250, 230, 30), "above reference white"},
    {1000.0, 4000.0, rgbaOf(255, 140, 20), "above 1000 nits"},
    {4000.0, 10000.0, rgbaOf(235, 30, 30), "above 4000 nits"},
    {10000.0, kInf, rgbaOf(255, 120, 220), "peak"},
};
constexpr HdrFalseColourBand kHlgBands[] = {
    {0.0, 0.1, rgbaOf(120, 40, 165), "black"},
    {0.1, 1.0, rgbaOf(30, 70, 255), "deep shadows"},
    {1.0, 10.0, rgbaOf(0, 135, 150), "shadows"},
    {10.0, 100.0, 0, "mid tones"},
    {100.0, 203.0, rgbaOf(40, 190, 60), "to reference white"},
    {203.0, 1000.0, rgbaOf(250, 230, 30), "above reference white"},
    {1000.0, kInf, rgbaOf(255, 120, 220), "peak"},
};

}  // namespace

std::span<const HdrFalseColourBand> hdrFalseColourBands(Transfer t) {
    if (t == Transfer::Hlg) return kHlgBands;
    return kPqBands;
}

void hdrFalseColourTable(Transfer t, int bitDepth, Range range, uint32_t* table) {
    const int depth = std::clamp(bitDepth, 8, 16), levels = 1 << depth;
    const double s = double(1 << (depth - 8)), top = double(levels - 1);
    const std::span<const HdrFalseColourBand> bands = hdrFalseColourBands(t);
    for (int code = 0; code < levels; ++code) {
        const double e = range == Range::Limited ? (code - 16.0 * s) / (219.0 * s) : code / top;
        const double nits = e < 0.0 ? -1.0 : hdrSignalToNits(t, std::min(e, 1.0));
        // Above the top code of the signal (limited super-whites past E' = 1): the top band.
        const double level = e > 1.0 ? kInf : nits;
        size_t band = 0;
        while (band + 1 < bands.size() && level >= bands[band + 1].loNits) ++band;
        if (bands[band].rgba != 0) {
            table[code] = bands[band].rgba;
        } else {
            const uint32_t grey = uint32_t(std::clamp(std::lround(e * 255.0), 0L, 255L));
            table[code] = rgbaOf(grey, grey, grey);
        }
    }
}

}  // namespace cs
