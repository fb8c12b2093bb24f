// What an engine is asked to compute for a frame: which scopes, their modes, display
// scale and gain, and which filtered preview.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "Color.h"
#include "Gamut.h"
#include "GamutDisplay.h"
#include "core/ScopeStyle.h"

namespace cs {

enum class ParadeMode : uint8_t { Rgb, Ycbcr };
enum class HistogramScale : uint8_t { Linear, Log };
enum class WaveformScale : uint8_t { Ire, CodeValue };   // graticule labels
enum class PreviewFilter : uint8_t { None, BoxBlur, Gaussian, Edges, FocusPeaking, Median3, Zebra, FalseColour, Gamut };

std::string_view previewName(PreviewFilter f);                    // "none", "blur", "gaussian", "edges", "peaking", "median", "zebra", "falsecolour", "gamut"
std::optional<PreviewFilter> previewFromName(std::string_view s);
// What a preview filter reads, in every engine: the RGBA picture (blur, Gaussian, median,
// focus peaking, zebra, gamut: painted where outside ScopeSpec::gamutTarget) and the luma plane at native depth (edges, focus peaking, zebra,
// false colour).
bool previewNeedsPicture(PreviewFilter f);
bool previewNeedsLuma(PreviewFilter f);
// Whether the preview shows the picture (none, or a filter reading it: its paint over it
// included), so that it goes through the viewer's HDR to SDR display transform as the
// picture does; edges and false colour are maps of luma, shown as they are.
bool previewShowsPicture(PreviewFilter f);

struct FilterParams {
    int blurRadius = 8;             // box blur: window is (2r+1)^2, cost independent of r
    float gaussianSigma = 3.0f;     // separable Gaussian, kernel radius ceil(3 sigma)
    float peakingThreshold = 0.12f; // Sobel magnitude over full scale (0..1) that counts as "in focus"
    uint32_t peakingColour = 0xff2020ffu;   // RGBA, little-endian bytes R,G,B,A
    int peakingWidth = 1;           // 1..3 px: the edges dilated by a (2w-1)^2 square (core/PeakingWidth.h)
    float zebraIre = 95.0f;         // luma at or above this IRE is striped
    float zebraLowIre = -1.0f;      // optional second zebra at or above this (disabled when < 0)... and below zebraIre
    bool operator==(const FilterParams&) const = default;
};

// The part of a waveform-style panel's code scale that fills the panel (scope zoom): lo and
// hi as fractions of the panel's counted codes (code / (2^d - 1)), so one range means the
// same share of the scale at any depth; {0, 1} is the whole scale. core/ScopeZoom.h maps
// codes to rows with it, for every drawer.
struct LevelRange {
    double lo = 0.0, hi = 1.0;
    bool operator==(const LevelRange&) const = default;
};

struct ScopeSpec {
    // What to count (raw results).
    bool histogram = true;          // luma at native depth + R,G,B at 256 levels
    bool waveform = true;           // luma waveform, levels x width
    bool parade = true;             // 3 x levels x width
    ParadeMode paradeMode = ParadeMode::Rgb;
    bool vectorscope = true;        // levels x levels, [Cr][Cb]
    bool stats = true;
    // The large raw counts (waveform, parade, vectorscope) in ScopeResults: with false an engine
    // may leave them empty (the CUDA engine then copies none back; its images are drawn on the
    // GPU). Histograms and statistics are always filled.
    bool counts = true;
    bool hdr = true;                // HDR light levels (core/Hdr.h), for PQ and HLG frames only
    // CIE chromaticity counts and the share of pixels outside gamutTarget (core/Gamut.h).
    bool cie = false;
    CieMode cieMode = CieMode::Xy;
    Primaries gamutTarget = Primaries::Bt709;
    // With cie: the 512 x 512 counts in ScopeResults::gamut and, with displayImages, the diagram
    // drawn from them. With false only the share outside the target is asked for (the window's
    // gamut check without its CIE panel, qc): no diagram is drawn, and an engine may leave the
    // counts empty (the CUDA engine then copies back 8 bytes instead of 1 MB).
    bool cieCounts = true;
    // A gamut display (core/GamutDisplay.h): its counts in ScopeResults::gamutDisplay and, with
    // displayImages, its image drawn from them (scope/GamutDisplay.h). None: neither.
    GamutDisplay gamutDisplay = GamutDisplay::None;
    ArrowheadLimit arrowheadLimit = ArrowheadLimit::Ntsc;   // the Arrowhead's composite limits

    // What to draw (display images, RGBA, graticule included).
    bool displayImages = true;
    bool picture = true;            // the frame as R'G'B' for display
    PreviewFilter preview = PreviewFilter::None;
    FilterParams filter;
    HistogramScale histogramScale = HistogramScale::Linear;
    WaveformScale waveformScale = WaveformScale::Ire;
    int vectorscopeZoom = 1;        // 1 to 16 (core/ScopeZoom.h's vectorscopeZoomFactor)
    LevelRange waveformRange;       // the waveform's visible codes, each of its mode's panels
    LevelRange paradeRange;         // the parade's, each panel
    bool vectorscopeTargets75 = true;   // 75% targets (100% targets always drawn too)
    bool skinToneLine = true;
    float histogramGain = 1.0f;
    float waveformGain = 1.0f;
    float vectorscopeGain = 1.0f;
    WaveformMode waveformMode = WaveformMode::Luma;   // RgbOverlay, Yrgb: drawn from the parade's R'G'B' counts
    TraceColour traceColour = TraceColour::Channel;  // every trace, both engines (core/ScopeStyle.h)
    ReferenceLines referenceLines;  // over the waveform and parade (scope/ReferenceLines.h)
    int scopeWidth = 1024;          // display image size of the waveform/parade/histogram
    int scopeHeight = 540;
    int vectorscopeSize = 540;      // square
    int cieSize = 540;              // the CIE diagram, square
    int gamutDisplaySize = 540;     // the gamut display, square

    ColorOverride colorOverride;    // over the stream's matrix/range tags
    // Every field: results computed with an equal spec are the same (ui/ reuses them so).
    bool operator==(const ScopeSpec&) const = default;
};

// What the engines count for `spec`: the spec itself, except that a waveform in RgbOverlay
// or Yrgb mode needs the R'G'B' parade's counts, so the parade is counted in R'G'B'.
ScopeSpec countedSpec(const ScopeSpec& spec);
bool countsDiffer(const ScopeSpec& spec);   // countedSpec(spec) != spec

}  // namespace cs
