// The scopes' scales for HDR sources (docs/HDR.md): nits on the waveform, the R'G'B'
// parade and the histogram, placed by the transfer's inverse EOTF at the stream's depth and
// range, and the choice between them and the SDR scales of scope/Graticule.h.
//
//  PQ:  lines at 0.1, 1, 10, 100, 203, 1000, 4000 and 10000 cd/m2, each at the code of
//       its ST 2084 signal (limited: 64 + 876 E' at 10 bits; full: 1023 E').
//  HLG: lines at 1, 10, 100, 203 and 1000 cd/m2 on the BT.2100 reference display (1000
//       cd/m2 peak, system gamma 1.2), nits on the left, the scene light (% of the HLG
//       peak, the inverse OETF) on the right.
//  Histogram: the same levels as vertical lines labelled in nits below, and in stops from
//       203 cd/m2 (BT.2408's reference white) above.
#pragma once
#include "Graticule.h"

namespace cs {

// The code value (0 .. 2^d - 1, fractional) of a grey of `nits` at the depth and range.
double hdrNitsToCode(Transfer t, double nits, int bitDepth, Range range);
// The nits levels of the scales, and their labels ("0.1" .. "10K").
struct NitsMark { double nits; const char* label; Emphasis emphasis; };
std::vector<NitsMark> hdrNitsMarks(Transfer t);

// An HLG display level's scene light as the waveform's right-hand labels give it ("26%").
std::string hlgScenePercent(double nits);

Graticule hdrWaveformGraticule(int bitDepth, Range range, Transfer t);
Graticule hdrHistogramGraticule(int bitDepth, Range range, Transfer t, HistogramScale scale);

// What the renderers draw: for PQ and HLG, the nits scales in place of the IRE waveform scale
// (the code-value scale stays codes; a Y'CbCr parade keeps its SDR scale: Cb and Cr have no
// luminance) and of the histogram's; for other transfers waveformGraticule / histogramGraticule.
Graticule waveformGraticuleFor(int bitDepth, Range range, WaveformScale scale, Transfer t, bool ycbcrParade = false);
Graticule histogramGraticuleFor(int bitDepth, Range range, HistogramScale scale, Transfer t);

}  // namespace cs
