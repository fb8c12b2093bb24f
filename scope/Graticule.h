// Graticule geometry for the scopes: lines, labels, target boxes and circles in
// normalised plot coordinates, so the CPU renderer (scope/ScopeRender) and the OpenGL
// views draw the very same scale at any size.
//
// Coordinates: x runs 0..1 left to right across the plot, y runs 0..1 BOTTOM to TOP
// (y up, as in a graph or OpenGL). A plot of w x h pixels maps them onto pixel centres:
//     px = left + x * (w - 1),   py = top + (1 - y) * (h - 1)        (PlotRect below)
// so x = 0 and x = 1 are the first and last pixel columns of the plot. Labels may sit
// outside 0..1: they are anchored at the plot's edge and extend into the margin.
//
// Waveform and parade:  code c at y = c / (2^d - 1), so 0 and 2^d - 1 are the bottom
//                       and top rows: super-white and sub-black are never hidden.
// Histogram:            code c at x = c / (2^d - 1) (R'G'B' at 8 bits: c / 255).
// A zoomed waveform or parade panel (ScopeSpec::waveformRange) has its own scale: LevelZoom.h.
// Vectorscope (square): Cb right, Cr up, the mid code (2^(d-1)) at the centre (0.5, 0.5);
//                       x = 0.5 + zoom * (Cb - 2^(d-1)) / 2^d, y likewise with Cr, so at
//                       zoom 1 the full code range spans the plot and the outer circle
//                       (radius 0.5) touches its edges.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/Color.h"
#include "core/ScopeSpec.h"

namespace cs {

// How prominent a graticule element is; graticuleRgba gives its colour so all views agree.
enum class Emphasis : uint8_t {
    Minor,    // fine steps, frame, ticks: dim grey
    Major,    // key steps (50 IRE, mid code, outer circle, 100% targets): amber
    Limit,    // legal limits (0/100 IRE, codes 16/235): bright amber
    Target,   // 75% colour-bar target boxes
    Skin,     // the skin-tone (flesh) line
    Reference,   // the user's reference lines (scope/ReferenceLines.h): cyan
};
// RGBA (bytes R,G,B,A little-endian, as FilterParams::peakingColour), alpha < 255:
// drawn semi-transparent over the trace.
uint32_t graticuleRgba(Emphasis e);
// The colour for a label of that emphasis (more opaque than the line, to stay legible).
uint32_t graticuleLabelRgba(Emphasis e);

enum class HAlign : uint8_t { Left, Center, Right };    // text starts at / is centred on / ends at x
enum class VAlign : uint8_t { Top, Middle, Bottom };    // text's top at / middle at / bottom at y
// Renderers leave a gap of a few pixels between the anchor and the text on the side the
// text extends to (a Right-aligned label at x = 0 ends just left of the plot).

struct GraticuleLine {
    double x0, y0, x1, y1;
    Emphasis emphasis;
};
struct GraticuleLabel {
    double x, y;
    std::string text;
    HAlign hAlign;
    VAlign vAlign;
    Emphasis emphasis;
};
// An axis-aligned box (vectorscope targets), outline only.
struct GraticuleBox {
    double cx, cy, halfWidth, halfHeight;
    Emphasis emphasis;
};
// A circle outline. Radius in x units; the vectorscope plot is square, so it is round.
struct GraticuleCircle {
    double cx, cy, radius;
    Emphasis emphasis;
};

struct Graticule {
    std::vector<GraticuleLine> lines;
    std::vector<GraticuleLabel> labels;
    std::vector<GraticuleBox> boxes;
    std::vector<GraticuleCircle> circles;
};

// Waveform (and each parade panel): horizontal lines and left labels.
//  Ire:       lines every 10 IRE from 0 to 100 (0 and 100: Limit, 50: Major), labels
//             0, 20, ..., 100; IRE per codeToIre for the range (limited: 16 -> 0, 235 -> 100).
//  CodeValue: limited: 0, 16, 64, 128, 192, 235, 255 scaled by 2^(d-8) (10-bit 0, 64, 256,
//             512, 768, 940, 1023: the top is 2^d - 1); full: 0/25/50/75/100% of the codes
//             (8-bit 0, 64, 128, 192, 255).
// Plus a dim frame (codes 0 and 2^d - 1, x = 0 and 1) where no line lies already.
Graticule waveformGraticule(int bitDepth, Range range, WaveformScale scale);
// An R'G'B' panel's code-value scale for a limited-range source: R'G'B' counted full range
// (code 0 at y = 0, the top code at y = 1: paradePanelRect with headroom) labelled with the
// limited-range codes it stands for (BT.709's 16 + 219 E, scaled by 2^(d-8)), so 75% white
// reads 180 (10-bit 721) on R', G', B' as on the luma waveform beside it: the lines are the
// luma waveform's (waveformGraticule(d, Limited, CodeValue)), 16 at y = 0 and 235 at y = 1,
// 0 and 255 in the panel's room below and above (y < 0, y > 1).
Graticule rgbLimitedCodeGraticule(int bitDepth);

// Vectorscope: outer circle (radius 0.5) with ticks every 10 degrees, Cb/Cr axes, 100%
// colour-bar targets (R, MG, B, CY, G, YL) always and 75% ones when `targets75`, each a
// small box, one label per colour; the skin-tone line (centre to circle) when `skinLine`.
// A zoom (2 to 16, core/ScopeZoom.h) scales the targets around the centre; a colour whose
// targets fall outside the plot square is marked on the square's edge instead (a small box
// at 0.45 from the centre along the target's direction, an arrow outwards, its name
// inside), and a label ("2x", "4x") marks the zoom. 100% green and magenta sit just
// outside the circle, inside the square:
// their Cb and Cr are both near the ends of the code range.
Graticule vectorscopeGraticule(Matrix matrix, Range range, int bitDepth, int zoom, bool targets75, bool skinLine);

// Histogram: vertical lines at the legal limits (limited range: 16 and 235 scaled) and at
// 0/25/50/75/100% of the codes, code labels below the plot, horizontal guides at
// quarters of the height, and a "LIN" or "LOG" label in the top-left corner.
Graticule histogramGraticule(int bitDepth, Range range, HistogramScale scale);

// ---- The colour math behind the vectorscope targets (double precision) ---------------

struct ChromaCodes { double cb, cr; };
// Cb and Cr code values of an R'G'B' colour (each 0..1) through the matrix, at the depth
// and range: Cb = (B' - Y') / (2 (1 - kb)), Cr = (R' - Y') / (2 (1 - kr)), then
// limited: 2^(d-1) + 224 * 2^(d-8) * C;  full: 2^(d-1) + (2^d - 1) * C.
ChromaCodes chromaCodes(Matrix matrix, Range range, int bitDepth, double r, double g, double b);

struct PlotPoint { double x, y; };
// Normalised vectorscope position of a (Cb, Cr) code pair (see the top of this file).
PlotPoint vectorscopePoint(double cb, double cr, int bitDepth, int zoom);

// The skin-tone line's angle, degrees counter-clockwise from +Cb.
constexpr double kSkinToneAngleDegrees = 123.0;

// ---- Layout: where the CPU renderer puts the plot inside a scope image ----------------
// GL views drawing overlays over CPU-rendered images use the same rectangles.

struct PlotRect {
    int left = 0, top = 0, width = 0, height = 0;
    double toPixelX(double x) const { return left + x * double(width - 1); }
    double toPixelY(double y) const { return top + (1.0 - y) * double(height - 1); }
    bool empty() const { return width <= 0 || height <= 0; }
};

// Label scale (1 or more) for an image of that size: the 5x7 font doubled on large images.
int graticuleTextScale(int imageWidth, int imageHeight);
// Waveform and parade: a left margin for the level labels, small margins elsewhere.
PlotRect waveformPlotRect(int imageWidth, int imageHeight);
// Parade panel 0..2 of a waveform-style plot: three equal panels with gaps between. With
// `headroom` (the R'G'B' parade, whose codes are full range) each panel keeps the luma
// waveform's limited-range room: the plot's code 0 sits where the waveform's 16/255 does and
// the top code where its 235/255 does, so 0% and 100% line up with the waveform's 0 and 100
// IRE, off the plot's edges, with room above and below for over- and undershoots of filters.
PlotRect paradePanelRect(const PlotRect& plot, int panel, int textScale, bool headroom = false);
// Panel `panel` of `panels` equal panels with gaps between (the parade is 3 of them; the
// YRGB waveform 4; one panel is the whole plot, with the headroom when asked).
PlotRect waveformPanelRect(const PlotRect& plot, int panel, int panels, int textScale, bool headroom);
// The top row of a parade panel's channel name (R, G, B; Y, Cb, Cr): in the room above the
// panel where it has some (outside the trace), else just inside the panel's top.
int paradeNameTop(const PlotRect& plot, const PlotRect& panel, int textScale);
// Histogram: a bottom margin for the code labels, side margins for labels at the edges.
PlotRect histogramPlotRect(int imageWidth, int imageHeight);
// Vectorscope: a centred square of odd side so the centre lands on a pixel.
PlotRect vectorscopePlotRect(int size);

}  // namespace cs
