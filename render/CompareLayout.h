// Where the viewer draws picture A and picture B when comparing, in view pixels (origin
// top-left, y down), and which picture (and pixel) lies under a view position.
//
// - Wipe: both pictures at A's place (B fitted into A's rectangle); A left of the divider,
//   B right of it. The divider sits at a fraction of the picture's width (0.5: its middle),
//   so it stays on the same picture column when zooming and panning.
// - Split: the view in two halves that show the same part of the picture: A in the left
//   half, B in the right, each the picture as laid out for the whole view, shifted so that
//   view column x of the left half and x + half of the right half show the same frame
//   column (the middle of the picture at the middle of each half).
// - Side by side: the view in two halves, each holding its whole picture, fitted (or at
//   the viewer's zoom and pan, applied to each half).
// Pure arithmetic, no GL: unit-tested without a display.
#pragma once
#include <cstdint>
#include <optional>

#include "Layout.h"

namespace cs {

enum class CompareMode : uint8_t { Off, Wipe, Split, SideBySide };
// What the scope panels show while comparing: A's scopes, B's, or B's traces in a second
// colour over A's.
enum class CompareScopes : uint8_t { A, B, Both };

// One picture's place: where the whole picture is drawn, and the part of the view it may
// cover (drawing is clipped to it).
struct ComparePane {
    RectF picture;
    RectF clip;
};

struct CompareGeometry {
    CompareMode mode = CompareMode::Off;
    ComparePane a, b;
    double divider = -1;   // view x of the wipe's divider or the halves' border; -1 when none
};

// `layout`: the viewer's layout of picture A for the whole view (view size set). wipe: the
// divider's place across A's picture, 0..1. bWidth x bHeight: picture B's frame size.
CompareGeometry compareGeometry(CompareMode mode, const PictureLayout& layout, int viewWidth, int viewHeight, double wipe,
                                int aWidth, int aHeight, int bWidth, int bHeight);

// The picture under a view position and its frame pixel there.
struct ComparePick {
    bool b = false;
    PixelPos pixel;
};
std::optional<ComparePick> comparePixelAt(const CompareGeometry& g, int aWidth, int aHeight, int bWidth, int bHeight,
                                          double viewX, double viewY);

// A frame pixel of one picture at the same relative place in the other (frames of other
// sizes are compared by proportion).
PixelPos mapPixel(PixelPos p, int fromWidth, int fromHeight, int toWidth, int toHeight);

// The wipe's position (0..1) that puts the divider at view x, for A's picture rectangle.
double wipeAt(const RectF& picture, double viewX);

}  // namespace cs
