// Compare geometry (see CompareLayout.h).
#include "CompareLayout.h"

#include <algorithm>
#include <cmath>

namespace cs {
namespace {

// B's picture inside A's rectangle, with B's aspect (equal aspects: A's rectangle itself).
RectF fitInto(const RectF& r, int width, int height) {
    if (r.empty() || width <= 0 || height <= 0) return {};
    const double s = std::min(r.w / width, r.h / height);
    const double w = width * s, h = height * s;
    return {r.x + (r.w - w) / 2, r.y + (r.h - h) / 2, w, h};
}

RectF shifted(RectF r, double dx) {
    r.x += dx;
    return r;
}

std::optional<PixelPos> pixelIn(const RectF& r, int width, int height, double x, double y) {
    if (r.empty() || width <= 0 || height <= 0 || !r.contains(x, y)) return std::nullopt;
    return PixelPos{std::clamp(int(std::floor((x - r.x) * width / r.w)), 0, width - 1),
                    std::clamp(int(std::floor((y - r.y) * height / r.h)), 0, height - 1)};
}

}  // namespace

CompareGeometry compareGeometry(CompareMode mode, const PictureLayout& layout, int viewWidth, int viewHeight, double wipe,
                                int aWidth, int aHeight, int bWidth, int bHeight) {
    CompareGeometry g;
    g.mode = mode;
    const RectF view{0, 0, double(std::max(viewWidth, 0)), double(std::max(viewHeight, 0))};
    const RectF r = layout.rect();
    g.a = {r, view};
    if (mode == CompareMode::Off || view.empty()) return g;
    const double half = std::floor(view.w / 2);
    const RectF left{0, 0, half, view.h}, right{half, 0, view.w - half, view.h};
    switch (mode) {
        case CompareMode::Wipe: {
            const double x = std::clamp(std::round(r.x + std::clamp(wipe, 0.0, 1.0) * r.w), 0.0, view.w);
            g.divider = x;
            g.a.clip = {0, 0, x, view.h};
            g.b = {fitInto(r, bWidth, bHeight), RectF{x, 0, view.w - x, view.h}};
            break;
        }
        case CompareMode::Split: {
            // A moved left by s, B right by half - s: column x (left) and x + half (right)
            // show the same frame column.
            const double s = std::floor(half / 2);
            g.divider = half;
            g.a = {shifted(r, -s), left};
            g.b = {shifted(fitInto(r, bWidth, bHeight), half - s), right};
            break;
        }
        case CompareMode::SideBySide: {
            PictureLayout la = layout, lb = layout;
            la.setViewSize(int(left.w), viewHeight);
            la.setFrameSize(aWidth, aHeight);
            // Both laid out in `half` columns (an odd view's last column stays empty), so equal
            // pictures show at equal sizes.
            lb.setViewSize(int(half), viewHeight);
            lb.setFrameSize(bWidth, bHeight);
            g.divider = half;
            g.a = {la.rect(), left};
            g.b = {shifted(lb.rect(), half), right};
            break;
        }
        case CompareMode::Off: break;
    }
    return g;
}

std::optional<ComparePick> comparePixelAt(const CompareGeometry& g, int aWidth, int aHeight, int bWidth, int bHeight,
                                          double viewX, double viewY) {
    if (g.mode != CompareMode::Off && g.b.clip.contains(viewX, viewY)) {
        if (auto p = pixelIn(g.b.picture, bWidth, bHeight, viewX, viewY)) return ComparePick{true, *p};
        return std::nullopt;
    }
    if (!g.a.clip.contains(viewX, viewY)) return std::nullopt;
    if (auto p = pixelIn(g.a.picture, aWidth, aHeight, viewX, viewY)) return ComparePick{false, *p};
    return std::nullopt;
}

PixelPos mapPixel(PixelPos p, int fromWidth, int fromHeight, int toWidth, int toHeight) {
    if (fromWidth <= 0 || fromHeight <= 0 || toWidth <= 0 || toHeight <= 0) return p;
    if (fromWidth == toWidth && fromHeight == toHeight) return p;
    return {std::clamp(int(std::floor((p.x + 0.5) * toWidth / fromWidth)), 0, toWidth - 1),
            std::clamp(int(std::floor((p.y + 0.5) * toHeight / fromHeight)), 0, toHeight - 1)};
}

double wipeAt(const RectF& picture, double viewX) {
    if (picture.empty()) return 0.5;
    return std::clamp((viewX - picture.x) / picture.w, 0.0, 1.0);
}

}  // namespace cs
