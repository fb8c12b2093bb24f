// Graticule overlays for the GL scope views of engines that write only the trace (the
// CUDA engine through interop). The overlay is drawn once per size or mode change from
// scope/Graticule.h geometry, with core's line and text primitives and the plot
// rectangles core's renderer uses, onto a transparent image: the result is premultiplied
// RGBA that, blended with (ONE, ONE_MINUS_SRC_ALPHA) over the trace, gives the very
// image scope/ScopeRender draws (its graticule is blended "source over" the trace too).
#pragma once
#include "FrameTextures.h"
#include "Layout.h"
#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

// The overlay of `plane` (Histogram, Waveform, Parade or Vectorscope) for an image of
// width x height; other planes give an empty image. `r` supplies depth, matrix, range and
// the parade mode in effect.
void renderGraticuleOverlay(gl::Plane plane, const ScopeResults& r, const ScopeSpec& spec, int width, int height,
                            RgbaImage& out);

// Where a trace-only texture goes in a scope image of width x height, and the texture size
// that fills it texel for pixel: the plot rectangle of core's layout (the parade: its three
// panels, a third of the texture each). Histogram, Waveform, Parade, Vectorscope; other
// planes: the whole image. `mode`: the parade's (R'G'B' panels keep head- and footroom,
// see paradePanelRect).
// `waveformMode`: the waveform's (RGB overlay: one panel with headroom; YRGB: four panels, a
// quarter of the texture each).
ScopePlacement tracePlacement(gl::Plane plane, int width, int height, ParadeMode mode = ParadeMode::Ycbcr,
                              WaveformMode waveformMode = WaveformMode::Luma);
void traceTextureSize(gl::Plane plane, int width, int height, int& textureWidth, int& textureHeight,
                      ParadeMode mode = ParadeMode::Ycbcr, WaveformMode waveformMode = WaveformMode::Luma);

}  // namespace cs
