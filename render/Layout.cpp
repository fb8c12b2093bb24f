// Picture and scope placement arithmetic.
#include "Layout.h"

#include <algorithm>
#include <cmath>

namespace cs {

RectF fitRect(int imageWidth, int imageHeight, int viewWidth, int viewHeight) {
    if (imageWidth <= 0 || imageHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return {};
    const double s = std::min(double(viewWidth) / imageWidth, double(viewHeight) / imageHeight);
    const double w = std::max(1.0, std::round(imageWidth * s)), h = std::max(1.0, std::round(imageHeight * s));
    return {std::floor((viewWidth - w) / 2), std::floor((viewHeight - h) / 2), w, h};
}

double PictureLayout::scale() const {
    if (frameW_ <= 0 || frameH_ <= 0 || viewW_ <= 0 || viewH_ <= 0) return 1.0;
    if (zoom_ > 0) return zoom_;
    return std::min(double(viewW_) / frameW_, double(viewH_) / shownHeight());
}

RectF PictureLayout::rect() const {
    if (frameW_ <= 0 || frameH_ <= 0 || viewW_ <= 0 || viewH_ <= 0) return {};
    if (zoom_ <= 0) return fitRect(frameW_, shownHeight(), viewW_, viewH_);
    const double w = frameW_ * zoom_, h = shownHeight() * zoom_;
    // Whole-pixel origin keeps integer zooms sharp (every frame pixel covers whole view pixels).
    return {std::round((viewW_ - w) / 2 + panX_), std::round((viewH_ - h) / 2 + panY_), w, h};
}

std::optional<PixelPos> PictureLayout::frameAt(double viewX, double viewY) const {
    const RectF r = rect();
    if (r.empty() || !r.contains(viewX, viewY)) return std::nullopt;
    const int x = std::clamp(int(std::floor((viewX - r.x) * frameW_ / r.w)), 0, frameW_ - 1);
    const int y = std::clamp(int(std::floor((viewY - r.y) * frameH_ / r.h)), 0, frameH_ - 1);
    return PixelPos{x, y};
}

void PictureLayout::toView(int frameX, int frameY, double& viewX, double& viewY) const {
    const RectF r = rect();
    viewX = r.x + (frameX + 0.5) * r.w / std::max(1, frameW_);
    viewY = r.y + (frameY + 0.5) * r.h / std::max(1, frameH_);
}

void PictureLayout::zoomAt(double factor, double viewX, double viewY) {
    const RectF before = rect();
    if (before.empty() || factor <= 0) return;
    const double oldScale = scale();
    const double newScale = std::clamp(oldScale * factor, 0.05, 64.0);
    // The frame position under the cursor, kept there after the zoom.
    const double fx = (viewX - before.x) / oldScale, fy = (viewY - before.y) / oldScale;
    if (zoom_ <= 0) panX_ = panY_ = 0;
    zoom_ = newScale;
    const double w = frameW_ * newScale, h = shownHeight() * newScale;
    panX_ = viewX - fx * newScale - (viewW_ - w) / 2;
    panY_ = viewY - fy * newScale - (viewH_ - h) / 2;
    clampPan();
}

void PictureLayout::clampPan() {
    if (zoom_ <= 0) { panX_ = panY_ = 0; return; }
    // At least a quarter of the view keeps showing picture.
    const double w = frameW_ * zoom_, h = shownHeight() * zoom_;
    const double maxX = (w + viewW_) / 2 - viewW_ / 4.0, maxY = (h + viewH_) / 2 - viewH_ / 4.0;
    panX_ = std::clamp(panX_, -std::max(0.0, maxX), std::max(0.0, maxX));
    panY_ = std::clamp(panY_, -std::max(0.0, maxY), std::max(0.0, maxY));
}

}  // namespace cs
