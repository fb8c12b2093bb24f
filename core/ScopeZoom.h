// Scope zoom, one rule for every drawer: where a code lands on a zoomed waveform or parade
// row (ScopeSpec::waveformRange / paradeRange) and on a zoomed vectorscope axis
// (ScopeSpec::vectorscopeZoom). scope/ScopeRender (the CPU images), cuda/images/ImagePixels.h
// (the CUDA engine's images) and cuda/images/TraceTexels.h (its window traces) all call these
// functions (CS_HD), so the engines put a code on the same pixel by construction.
//
// Waveform rows, indexed from the top of a panel `display` rows tall showing `codes` codes:
//     loCode = lo (codes - 1),  hiCode = hi (codes - 1),  step = (display - 1) / (hiCode - loCode)
//     row(c) = (display - 1) - (c - loCode) step
// so loCode sits on the bottom row and hiCode on the top one; codes outside [loCode, hiCode]
// fall off the panel. With the whole scale (lo 0, hi 1) this is, operation for operation,
// the unzoomed rule (display - 1) - c (display - 1) / (codes - 1): nothing moves. A zoom is
// a re-binning of the counts, not a magnified picture: each row shows the codes landing on
// it, and a row no code lands on (more rows than codes) shows its nearest code.
//
// Vectorscope axes (Cb right, Cr up; scope/Graticule.h's vectorscopePoint):
//     pos(c) = (0.5 + zoom (c - codes / 2) / codes) (display - 1)
// around the centre; codes beyond the plot are cropped.
#pragma once
#include "core/Color.h"
#include "core/ScopeSpec.h"

namespace cs {

constexpr int kMaxVectorscopeZoom = 16;
// The narrowest zoomed range, as a share of the scale (4 codes at 10 bits, 1 at 8).
constexpr double kMinLevelSpan = 1.0 / 256.0;

// The zoom factor the drawers use: 1 to kMaxVectorscopeZoom (1 for anything else).
CS_HD int vectorscopeZoomFactor(int zoom) { return zoom < 1 ? 1 : (zoom > kMaxVectorscopeZoom ? kMaxVectorscopeZoom : zoom); }

// A range the drawers accept: 0 <= lo < hi <= 1, at least kMinLevelSpan wide; anything else
// (NaN, reversed, too narrow) is the whole scale.
CS_HD LevelRange levelRangeOf(LevelRange r) {
    if (!(r.lo >= 0.0) || !(r.hi <= 1.0) || !(r.hi - r.lo >= kMinLevelSpan * 0.999)) return LevelRange{};
    return r;
}
CS_HD bool isWholeScale(LevelRange r) {
    const LevelRange s = levelRangeOf(r);
    return s.lo == 0.0 && s.hi == 1.0;
}

// A waveform panel's rows (see the top of this file).
struct LevelAxis {
    double loCode = 0.0, step = 1.0, last = 0.0;
    CS_HD LevelAxis(LevelRange range, int codes, int display) {
        const LevelRange r = levelRangeOf(range);
        loCode = r.lo * double(codes - 1);
        const double hiCode = r.hi * double(codes - 1);
        last = double(display - 1);
        step = double(display - 1) / (hiCode - loCode);
    }
    CS_HD double row(int c) const { return last - (double(c) - loCode) * step; }
    CS_HD double code(double row) const { return (last - row) / step + loCode; }
};

// A vectorscope axis's display position of code c, and back.
CS_HD double vectorscopeAxisPos(int c, int codes, int zoom, double last) {
    return (0.5 + double(zoom) * (double(c) - codes / 2.0) / double(codes)) * last;
}
CS_HD double vectorscopeAxisCode(double d, int codes, int zoom, double last) {
    return codes / 2.0 + (d / last - 0.5) * double(codes) / double(zoom);
}

}  // namespace cs
