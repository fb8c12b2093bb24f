// Display images of the scopes: raw counts in, RGBA with graticule out. Used by the
// CPU engine, by headless export, and (as overlays) by the GL views, so all agree.
#pragma once
#include "Graticule.h"
#include "ScopeResults.h"
#include "ScopeSpec.h"

namespace cs {

// Each renders from `r`'s counts into the image, sized from the spec
// (scopeWidth x scopeHeight, vectorscopeSize square), graticule and labels included.
void renderHistogram(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);
void renderWaveform(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);
void renderParade(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);
void renderVectorscope(const ScopeResults& r, const ScopeSpec& spec, RgbaImage& out);

// Text in a built-in bitmap font (ASCII 32..126), for graticule labels; scale >= 1.
void drawText(RgbaImage& img, int x, int y, const char* text, uint32_t rgba, int scale = 1);
void drawLine(RgbaImage& img, double x0, double y0, double x1, double y1, uint32_t rgba);

}  // namespace cs
