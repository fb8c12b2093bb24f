// What a recording shows, drawn without a GL context from an engine's display images: the
// picture, the filtered preview, the scopes in a grid, or the composite of picture and
// scopes, at a fixed size every frame. The one renderer of recorded frames (the command
// line's `record` and the window's Record button).
#pragma once
#include <string_view>

#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"

namespace cs {

enum class MonitorLayout { Picture, Preview, Scopes, Composite };

std::string_view monitorLayoutName(MonitorLayout l);   // "picture", "preview", "scopes", "composite"

// The scope sizes a layout draws at `width` x `height` (the engine renders its scope images at
// these sizes, so the layout only places them): the spec's scope switches, sizes and
// displayImages set as the layout needs.
void prepareSpecForLayout(MonitorLayout layout, int width, int height, ScopeSpec& spec);

// Draws the layout into `out` (resized to width x height, opaque black behind everything).
//   picture / preview: the image fitted inside, aspect kept, centred;
//   scopes: 2 x 2 cells: histogram | waveform / parade | vectorscope;
//   composite: 3 x 2 cells: picture | waveform | parade / histogram | vectorscope | preview
//   (black when no preview is computed).
void drawMonitorLayout(const ScopeResults& r, MonitorLayout layout, int width, int height, RgbaImage& out);

// `src` scaled (bilinear) to fit the rectangle (x, y, w, h) of `dst`, aspect kept, centred.
// Same-size images are copied as they are.
void drawFitted(const RgbaImage& src, RgbaImage& dst, int x, int y, int w, int h);

}  // namespace cs
