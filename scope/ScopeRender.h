// Display images of the scopes: raw counts in, RGBA with graticule out. Used by the
// CPU engine, by headless export, and (as overlays) by the GL views, so all agree.
#pragma once
#include <vector>

#include "Graticule.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

// Each renders from `r`'s counts into the image, sized from the spec
// (scopeWidth x scopeHeight, vectorscopeSize square), graticule and labels included.
void renderHistogram(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);
void renderWaveform(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);
void renderParade(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);
void renderVectorscope(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);

// The waveform's (in its WaveformMode) or the parade's graticules, reference lines and
// panel names, as renderWaveform / renderParade draw them over the traces; into a
// transparent image, the GL views' overlay for traces drawn elsewhere.
void drawLevelGraticules(RgbaImage& out, const ScopeResults& r, const ScopeSpec& spec, bool parade);

// Label rectangles already drawn, so that the labels of several graticules drawn into one
// image (the parade's panels) never overlap.
struct LabelLayout {
    struct Rect { int x, y, w, h; };
    std::vector<Rect> placed;
};
// A graticule's circles, lines, boxes and (when `labels`) labels, drawn within `plot`.
// Into an opaque image this is the scope images' graticule; into a transparent one the
// same pixels in premultiplied form, an overlay for the GL views.
void drawGraticule(RgbaImage& img, const PlotRect& plot, const Graticule& g, int textScale, bool labels,
                   LabelLayout& layout);

// Text in a built-in bitmap font (ASCII 32..126), for graticule labels; scale >= 1.
void drawText(RgbaImage& img, int x, int y, const char* text, uint32_t rgba, int scale = 1);
void drawLine(RgbaImage& img, double x0, double y0, double x1, double y1, uint32_t rgba);
// A tag for the views' overlays: white `text` at `scale` on a dark translucent tile (alpha
// `alpha`) with `pad` pixels around it (the picture's A and B, the pins' numbers).
RgbaImage textTag(const char* text, int scale, int pad, uint8_t alpha);

}  // namespace cs
