// Guides over the picture, as line segments in view pixels: the safe areas (action safe 93%
// and title safe 90% of the width and height, centred: SMPTE ST 2046-1 and EBU R 95 for
// 16:9 pictures), aspect ratio guides (the frame lines of a 4:3, 1.85:1, 2.39:1, 9:16 or 1:1
// extraction, centred: two lines at the sides for a narrower aspect, at the top and bottom for
// a wider one) and a centre cross. Pure arithmetic: no GL, so it is unit-tested without a
// display; ui/main/PictureView draws the segments (render/ImageRenderer.h's LineRenderer).
#pragma once
#include <cstdint>
#include <vector>

#include "Layout.h"

namespace cs {

// The aspect guides offered, width over height.
enum class AspectGuide : uint8_t { A4x3, A1_85, A2_39, A9x16, A1x1 };
constexpr AspectGuide kAspectGuides[] = {AspectGuide::A4x3, AspectGuide::A1_85, AspectGuide::A2_39, AspectGuide::A9x16, AspectGuide::A1x1};
double aspectRatio(AspectGuide g);
const char* aspectName(AspectGuide g);   // "4:3", "1.85:1", "2.39:1", "9:16", "1:1"

constexpr double kActionSafe = 0.93;   // SMPTE ST 2046-1 / EBU R 95 action safe: 93% of width and height
constexpr double kTitleSafe = 0.90;    // title (graphics) safe: 90%

struct PictureGuides {
    bool actionSafe = false, titleSafe = false, centreCross = false;
    bool activePicture = false;   // the frame's active picture (analysis/ActivePicture.h), drawn by PictureView
    uint32_t aspects = 0;   // bit (1 << AspectGuide) per aspect guide shown
    bool any() const { return actionSafe || titleSafe || centreCross || activePicture || aspects != 0; }
    bool shows(AspectGuide g) const { return (aspects >> unsigned(g)) & 1u; }
    void set(AspectGuide g, bool on) { aspects = on ? aspects | (1u << unsigned(g)) : aspects & ~(1u << unsigned(g)); }
};

// A rectangle `share` of the picture's width and height, centred in it.
RectF safeArea(const RectF& picture, double share);
// The part of the picture of aspect `aspect` (display width / height), centred, as large as fits.
RectF aspectArea(const RectF& picture, double aspect);

// The segments (x0, y0, x1, y1 each) of the guides over `picture` (the picture's rectangle
// in the view; its display aspect is the rectangle's): safe areas as rectangles, an aspect
// guide as its two frame lines (none where the aspect is the picture's own), the centre cross
// as two arms of `crossArm` pixels each way. Lines sit on pixel centres (x.5).
struct GuideSegments {
    std::vector<float> safe, aspect, cross;
};
GuideSegments guideSegments(const RectF& picture, const PictureGuides& guides, double crossArm = 20.0);

}  // namespace cs
