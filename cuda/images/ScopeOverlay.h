// What scope/ScopeRender draws over a scope image's trace (graticule, labels, the parade's
// channel names), as a map per pixel that the CUDA engine applies on the GPU after drawing the
// trace (ImagePixels.h), so that its images are core's byte for byte.
//
// Every overlay pixel is a chain of source-over blends (core's blendPixel), each channel a
// function of that channel's value beneath alone, and alpha stays 255 over an opaque trace. So
// the overlay of a pixel is exactly three 256-entry tables, found by drawing the overlay with
// core's own functions over uniform images of every value 0..255 (once per image layout and
// spec, on a thread pool; a pixel none of them changes keeps its value). Nothing of core's
// drawing is copied: a change to a graticule is in the tables the next time they are made.
#pragma once
#include <cstdint>
#include <vector>

#include "ImagePixels.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {
class ThreadPool;
}

namespace cs::cuda {

enum class ScopeImageKind { Histogram, Waveform, Parade, Vectorscope };

// Where a scope image's trace goes: the image's size (0 x 0: no image) and its plot rectangle
// and panels, as scope/ScopeRender lays them out (the parade: three panels; the waveform: its
// mode's, ImagePixels.h's waveformModePixel).
struct ScopeLayout {
    int width = 0, height = 0;
    WaveformMode waveformMode = WaveformMode::Luma;
    ShadePlot plot;
    ShadePlot panels[4];
    bool empty() const { return width <= 0 || height <= 0; }
};
ScopeLayout scopeLayout(ScopeImageKind kind, const ScopeSpec& spec, ParadeMode paradeMode);

// What an overlay depends on: equal keys give equal overlays.
struct OverlayKey {
    ScopeImageKind kind = ScopeImageKind::Histogram;
    int width = 0, height = 0, bitDepth = 8;
    Matrix matrix = Matrix::Bt709;
    Range range = Range::Limited;
    ParadeMode paradeMode = ParadeMode::Rgb;
    HistogramScale histogramScale = HistogramScale::Linear;
    WaveformScale waveformScale = WaveformScale::Ire;
    WaveformMode waveformMode = WaveformMode::Luma;   // the waveform's panels and names
    ReferenceLines referenceLines;                    // over the waveform and parade
    Transfer transfer = Transfer::Unspecified;   // PQ and HLG: nits scales (scope/HdrGraticule.h)
    LevelRange levelRange;                            // the waveform's or the parade's zoom
    int zoom = 1;
    bool targets75 = true, skinToneLine = true;
    bool operator==(const OverlayKey&) const = default;
};
// The key of `kind`'s image for results shaped as `r` (bit depth, colour, parade mode).
OverlayKey overlayKey(ScopeImageKind kind, const ScopeSpec& spec, const ScopeResults& r);

struct ScopeOverlay {
    int width = 0, height = 0;
    std::vector<int32_t> index;   // per pixel, row-major: its tables in `tables`, or -1 (untouched)
    std::vector<uint8_t> tables;  // per touched pixel: 3 x 256 bytes, [channel][old value] -> new value
    size_t touched() const { return tables.size() / 768; }
};

// Draws the overlay with core's functions into `img` (already `key`'s size), over whatever
// `img` holds: scope/ScopeRender's drawing after the trace, in its order.
void drawOverlay(const OverlayKey& key, RgbaImage& img);

// The tables of `key`'s overlay, made on `pool`.
ScopeOverlay buildOverlay(const OverlayKey& key, ThreadPool& pool);

// Applies an overlay to an opaque image of its size (the host reference of the GPU's step).
void applyOverlay(const ScopeOverlay& overlay, RgbaImage& img);

// The scope image as the CUDA engine draws it, on the host from `r`'s row-major counts: the
// trace by ImagePixels.h's functions, then the overlay. Equal to scope/ScopeRender's image.
void referenceScopeImage(ScopeImageKind kind, const ScopeResults& r, const ScopeSpec& spec, const ScopeOverlay& overlay, RgbaImage& out);

// The parameters ImagePixels.h's functions take for `r` and `spec`.
WaveShade waveShade(const ScopeResults& r, const ScopeSpec& spec, ScopeImageKind kind);   // its LevelRange
VectorShade vectorShade(const ScopeResults& r, const ScopeSpec& spec);
// The trace hues (core/ScopeStyle.h's traceHue for spec.traceColour): the waveform's luma
// ([0]) and R', G', B' ([1..3]), or the parade's three panels ([0..2]).
void traceHues(ScopeImageKind kind, const ScopeSpec& spec, ParadeMode mode, TraceHue hues[4]);
double histogramGain(const ScopeSpec& spec);

}  // namespace cs::cuda
