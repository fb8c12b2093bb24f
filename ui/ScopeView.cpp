// A scope panel's GL surface.
#include "ScopeView.h"

#include <QResizeEvent>

namespace cs {

ScopeView::ScopeView(gl::Plane plane, gl::FrameTextures* shared, QWidget* parent)
    : GlView(parent), plane_(plane), shared_(shared) {
    setMinimumSize(160, 120);
}

ScopeView::~ScopeView() { teardownGl(); }

QSize ScopeView::sizeHint() const {
    switch (plane_) {
        case gl::Plane::Vectorscope: return {400, 400};
        case gl::Plane::Histogram: return {400, 220};
        case gl::Plane::Preview: return {400, 225};
        default: return {640, 340};
    }
}

void ScopeView::setOverlay(RgbaImage overlay) {
    overlay_ = std::move(overlay);
    overlayDirty_ = true;
    update();
}

Status ScopeView::createGl() {
    overlayDirty_ = true;
    if (Status s = images_.create(); !s) return s;
    if (plane_ == gl::Plane::Preview) return ycbcr_.create();
    return {};
}

void ScopeView::releaseGl() {
    images_.release();
    ycbcr_.release();
    overlayTexture_.release();
}

void ScopeView::setPlacement(ScopePlacement placement) {
    placement_ = std::move(placement);
    update();
}

void ScopeView::paintView(int w, int h) {
    gl::ImageRenderer::clear(w, h, 0.0f);
    if (!shared_ || !shared_->filled(plane_)) return;
    const gl::RgbaTexture& t = shared_->texture(plane_);
    const ScopePlacement whole = ScopePlacement::whole(shared_->imageWidth(plane_), shared_->imageHeight(plane_));
    const ScopePlacement& p = placement_.pieces.empty() ? whole : placement_;
    const RectF r = fitRect(p.imageWidth, p.imageHeight, w, h);
    if (r.empty()) return;
    const double sx = r.w / p.imageWidth, sy = r.h / p.imageHeight;
    gl::ImageRenderer::Options o;
    // An image made for this panel's size is sampled 1:1; one between two engine runs
    // (the panel just resized) is scaled smoothly.
    o.smooth = !(p.imageWidth == w && p.imageHeight == h);
    if (const gl::YcbcrShading* shading = shared_->shaded(plane_)) {
        if (ycbcr_.ready()) ycbcr_.draw(shared_->ycbcr(), *shading, r, w, h);
        return;
    }
    for (const auto& piece : p.pieces) {
        o.uv = piece.uv;
        images_.draw(t.name(), RectF{r.x + piece.dst.x * sx, r.y + piece.dst.y * sy, piece.dst.w * sx, piece.dst.h * sy}, w, h, o);
    }
    if (overlayDirty_) {
        if (overlay_.empty()) overlayTexture_.release();
        else if (Status s = overlayTexture_.upload(overlay_); !s) overlayTexture_.release();
        overlayDirty_ = false;
    }
    if (overlayTexture_.valid() && overlayTexture_.width() == p.imageWidth && overlayTexture_.height() == p.imageHeight) {
        o = {};
        o.smooth = !(p.imageWidth == w && p.imageHeight == h);
        o.blend = true;
        o.premultiplied = true;
        images_.draw(overlayTexture_.name(), r, w, h, o);
    }
}

void ScopeView::resizeEvent(QResizeEvent* e) {
    GlView::resizeEvent(e);
    emit pixelSizeChanged(QSize(pixelWidth(), pixelHeight()));
}

}  // namespace cs
