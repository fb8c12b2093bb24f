// Guides over the picture (see PictureGuides.h).
#include "PictureGuides.h"

#include <cmath>

namespace cs {

double aspectRatio(AspectGuide g) {
    switch (g) {
        case AspectGuide::A4x3: return 4.0 / 3.0;
        case AspectGuide::A1_85: return 1.85;
        case AspectGuide::A2_39: return 2.39;
        case AspectGuide::A9x16: return 9.0 / 16.0;
        case AspectGuide::A1x1: return 1.0;
    }
    return 1.0;
}

const char* aspectName(AspectGuide g) {
    switch (g) {
        case AspectGuide::A4x3: return "4:3";
        case AspectGuide::A1_85: return "1.85:1";
        case AspectGuide::A2_39: return "2.39:1";
        case AspectGuide::A9x16: return "9:16";
        case AspectGuide::A1x1: return "1:1";
    }
    return "";
}

RectF safeArea(const RectF& picture, double share) {
    const double w = picture.w * share, h = picture.h * share;
    return RectF{picture.x + (picture.w - w) / 2, picture.y + (picture.h - h) / 2, w, h};
}

RectF aspectArea(const RectF& picture, double aspect) {
    if (picture.empty() || aspect <= 0) return picture;
    double w = picture.w, h = picture.h;
    if (picture.w / picture.h > aspect) w = picture.h * aspect;   // narrower: pillars at the sides
    else h = picture.w / aspect;                                  // wider: bars at the top and bottom
    return RectF{picture.x + (picture.w - w) / 2, picture.y + (picture.h - h) / 2, w, h};
}

namespace {

// The pixel a coordinate falls in, at its centre; `last` keeps a right or bottom edge inside.
float centre(double v, bool last) { return float(std::floor(last ? v - 1.0 : v)) + 0.5f; }

void line(std::vector<float>& out, float x0, float y0, float x1, float y1) { out.insert(out.end(), {x0, y0, x1, y1}); }

void rectangle(std::vector<float>& out, const RectF& r) {
    const float l = centre(r.x, false), t = centre(r.y, false), rt = centre(r.x + r.w, true), b = centre(r.y + r.h, true);
    line(out, l, t, rt, t);
    line(out, rt, t, rt, b);
    line(out, rt, b, l, b);
    line(out, l, b, l, t);
}

}  // namespace

GuideSegments guideSegments(const RectF& picture, const PictureGuides& guides, double crossArm) {
    GuideSegments s;
    if (picture.empty()) return s;
    if (guides.actionSafe) rectangle(s.safe, safeArea(picture, kActionSafe));
    if (guides.titleSafe) rectangle(s.safe, safeArea(picture, kTitleSafe));
    for (AspectGuide g : kAspectGuides) {
        if (!guides.shows(g)) continue;
        const RectF a = aspectArea(picture, aspectRatio(g));
        const float top = centre(picture.y, false), bottom = centre(picture.y + picture.h, true);
        const float left = centre(picture.x, false), right = centre(picture.x + picture.w, true);
        if (a.w < picture.w - 0.5) {   // lines at the sides, the picture's height
            line(s.aspect, centre(a.x, false), top, centre(a.x, false), bottom);
            line(s.aspect, centre(a.x + a.w, true), top, centre(a.x + a.w, true), bottom);
        } else if (a.h < picture.h - 0.5) {   // lines at the top and bottom, the picture's width
            line(s.aspect, left, centre(a.y, false), right, centre(a.y, false));
            line(s.aspect, left, centre(a.y + a.h, true), right, centre(a.y + a.h, true));
        }
    }
    if (guides.centreCross) {
        const double cx = picture.x + picture.w / 2, cy = picture.y + picture.h / 2;
        const float x = centre(cx, false), y = centre(cy, false), arm = float(crossArm);
        line(s.cross, x - arm, y, x + arm + 1, y);
        line(s.cross, x, y - arm, x, y + arm + 1);
    }
    return s;
}

}  // namespace cs
