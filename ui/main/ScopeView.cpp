// A scope panel's GL surface.
#include "ScopeView.h"

#include <QMouseEvent>
#include <QResizeEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "scope/ScopeRender.h"

namespace cs {

ScopeView::ScopeView(gl::Plane plane, gl::FrameTextures* shared, QWidget* parent)
    : GlView(parent), plane_(plane), shared_(shared) {
    setMinimumSize(160, 120);
}

ScopeView::~ScopeView() { teardownGl(); }

QSize ScopeView::sizeHint() const {
    switch (plane_) {
        case gl::Plane::Vectorscope:
        case gl::Plane::Cie:
        case gl::Plane::GamutDisplay: return {400, 400};
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

void ScopeView::setMarkers(std::vector<ScopeMarker> markers) {
    if (markers.size() == markers_.size() &&
        std::equal(markers.begin(), markers.end(), markers_.begin(), [](const ScopeMarker& a, const ScopeMarker& b) {
            return a.x == b.x && a.y == b.y && a.label == b.label;
        }))
        return;
    markers_ = std::move(markers);
    update();
}

Status ScopeView::createGl() {
    overlayDirty_ = true;
    compareBaseUploaded_.reset();
    if (Status s = images_.create(); !s) return s;
    if (Status s = lines_.create(); !s) return s;
    if (plane_ != gl::Plane::Preview)
        if (Status s = compareTrace_.create(); !s) return s;
    if (plane_ == gl::Plane::Preview) return ycbcr_.create();
    return {};
}

void ScopeView::releaseGl() {
    images_.release();
    lines_.release();
    ycbcr_.release();
    overlayTexture_.release();
    markerLabels_.clear();
    compareTrace_.release();
    compareBaseTexture_.release();
    compareBaseUploaded_.reset();
}

void ScopeView::setCompare(CompareScopes shows, const gl::FrameTextures* b, ScopePlacement bPlacement,
                           std::shared_ptr<const RgbaImage> traceBase, unsigned tint) {
    compareShows_ = b ? shows : CompareScopes::A;
    compareB_ = b;
    comparePlacement_ = std::move(bPlacement);
    compareBase_ = std::move(traceBase);
    compareTint_ = tint;
    update();
}

void ScopeView::setPlacement(ScopePlacement placement) {
    placement_ = std::move(placement);
    update();
}

void ScopeView::paintView(int w, int h) {
    gl::ImageRenderer::clear(w, h, 0.0f);
    // Comparing with B's scopes shown: B's textures in A's place (the graticule overlay, for
    // trace-only textures, is the same for both).
    const bool showB = compareShows_ == CompareScopes::B && compareB_ && compareB_->filled(plane_);
    const gl::FrameTextures* source = showB ? compareB_ : shared_;
    if (!source || !source->filled(plane_)) return;
    const gl::RgbaTexture& t = source->texture(plane_);
    const ScopePlacement whole = ScopePlacement::whole(source->imageWidth(plane_), source->imageHeight(plane_));
    const ScopePlacement& shown = showB ? comparePlacement_ : placement_;
    const ScopePlacement& p = shown.pieces.empty() ? whole : shown;
    const RectF r = fitRect(p.imageWidth, p.imageHeight, w, h);
    if (r.empty()) return;
    const double sx = r.w / p.imageWidth, sy = r.h / p.imageHeight;
    gl::ImageRenderer::Options o;
    // An image made for this panel's size is sampled 1:1; one between two engine runs
    // (the panel just resized) is scaled smoothly.
    o.smooth = !(p.imageWidth == w && p.imageHeight == h);
    if (const gl::YcbcrShading* shading = source->shaded(plane_)) {
        if (ycbcr_.ready()) ycbcr_.draw(source->ycbcr(), *shading, r, w, h);
        return;
    }
    // The preview showing the picture: through the viewer's HDR to SDR transform as well.
    if (plane_ == gl::Plane::Preview) o.toneMap = source->previewToneMap();
    for (const auto& piece : p.pieces) {
        o.uv = piece.uv;
        images_.draw(t.name(), RectF{r.x + piece.dst.x * sx, r.y + piece.dst.y * sy, piece.dst.w * sx, piece.dst.h * sy}, w, h, o);
    }
    if (compareShows_ == CompareScopes::Both && compareB_ && compareB_->filled(plane_) && compareTrace_.ready()) {
        // B's trace in its colour, added over A's scope (its image fitted like A's).
        const ScopePlacement bWhole = ScopePlacement::whole(compareB_->imageWidth(plane_), compareB_->imageHeight(plane_));
        const ScopePlacement& bp = comparePlacement_.pieces.empty() ? bWhole : comparePlacement_;
        if (compareBase_ != compareBaseUploaded_) {
            if (!compareBase_ || compareBase_->empty() || !compareBaseTexture_.upload(*compareBase_)) compareBaseTexture_.release();
            compareBaseUploaded_ = compareBase_;
        }
        const bool baseFits = compareBaseTexture_.valid() && compareBaseTexture_.width() == bp.imageWidth &&
                              compareBaseTexture_.height() == bp.imageHeight;
        const RectF rb = fitRect(bp.imageWidth, bp.imageHeight, w, h);
        if (!rb.empty() && (baseFits || !compareBase_)) {
            const double bx = rb.w / bp.imageWidth, by = rb.h / bp.imageHeight;
            for (const auto& piece : bp.pieces)
                compareTrace_.draw(compareB_->texture(plane_).name(), compareBase_ ? compareBaseTexture_.name() : 0,
                                   RectF{rb.x + piece.dst.x * bx, rb.y + piece.dst.y * by, piece.dst.w * bx, piece.dst.h * by},
                                   piece.uv, w, h, compareTint_);
        }
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
    // The markers over A's scope: a white square around each point, with a dark shadow.
    if (showB || markers_.empty() || !lines_.ready()) return;
    const float half = float(std::max(3.0, 3.0 * devicePixelRatioF()));
    std::vector<float> square, shadow;
    for (const ScopeMarker& m : markers_) {
        const float x = float(std::floor(r.x + (m.x + 0.5) * sx)) + 0.5f, y = float(std::floor(r.y + (m.y + 0.5) * sy)) + 0.5f;
        const float x0 = x - half, x1 = x + half, y0 = y - half, y1 = y + half;
        for (float v : {x0, y0, x1, y0, x1, y0, x1, y1, x1, y1, x0, y1, x0, y1, x0, y0}) square.push_back(v);
    }
    shadow = square;
    for (float& v : shadow) v += 1.0f;
    lines_.draw(shadow.data(), int(shadow.size() / 4), w, h, 0xc0000000u);
    lines_.draw(square.data(), int(square.size() / 4), w, h, 0xffffffffu);
    // The pins' numbers, above and to the right of their squares (as on the picture).
    const int textScale = devicePixelRatioF() >= 1.5 ? 2 : 1;
    for (const ScopeMarker& m : markers_) {
        if (m.label <= 0 || m.label > 9) continue;
        if (markerLabels_.size() < size_t(m.label)) markerLabels_.resize(size_t(m.label));
        gl::RgbaTexture& tag = markerLabels_[size_t(m.label - 1)];
        const char digit[2] = {char('0' + m.label), 0};
        if (!tag.valid() && !tag.upload(textTag(digit, textScale, 2 * textScale, 190))) continue;
        const double x = std::floor(r.x + (m.x + 0.5) * sx) + half + 2, y = std::floor(r.y + (m.y + 0.5) * sy) - half - 2 - tag.height();
        gl::ImageRenderer::Options tagOptions;
        tagOptions.smooth = false;
        tagOptions.blend = true;
        images_.draw(tag.name(), RectF{x, y, double(tag.width()), double(tag.height())}, w, h, tagOptions);
    }
}

QSize ScopeView::imageSize() const {
    if (!placement_.pieces.empty()) return {placement_.imageWidth, placement_.imageHeight};
    if (!shared_ || !shared_->filled(plane_)) return {};
    return {shared_->imageWidth(plane_), shared_->imageHeight(plane_)};
}

// paintView's fitting: the image in device pixels, fitted into the framebuffer.
QPointF ScopeView::imagePoint(QPointF widgetPos) const {
    const QSize image = imageSize();
    if (image.isEmpty()) return {};
    const RectF r = fitRect(image.width(), image.height(), pixelWidth(), pixelHeight());
    if (r.empty()) return {};
    const double dpr = devicePixelRatioF();
    return {(widgetPos.x() * dpr - r.x) * image.width() / r.w - 0.5, (widgetPos.y() * dpr - r.y) * image.height() / r.h - 0.5};
}

bool ScopeView::zoomable() const {
    return plane_ == gl::Plane::Waveform || plane_ == gl::Plane::Parade || plane_ == gl::Plane::Vectorscope;
}

void ScopeView::wheelEvent(QWheelEvent* e) {
    if (!zoomable() || imageSize().isEmpty() || e->angleDelta().y() == 0) return GlView::wheelEvent(e);
    int delta = e->angleDelta().y();
    if (plane_ == gl::Plane::Vectorscope) {
        // The vectorscope zooms in whole steps: a touchpad's small deltas add up to notches.
        wheelRemainder_ += delta;
        delta = wheelRemainder_ / 120 * 120;
        wheelRemainder_ -= delta;
    }
    if (delta != 0) emit scopeWheel(imagePoint(e->position()).y(), delta);
    e->accept();
}

void ScopeView::mousePressEvent(QMouseEvent* e) {
    if (!zoomable() || plane_ == gl::Plane::Vectorscope || e->button() != Qt::LeftButton || imageSize().isEmpty())
        return GlView::mousePressEvent(e);
    dragImageY_ = imagePoint(e->position()).y();
    e->accept();
}

void ScopeView::mouseMoveEvent(QMouseEvent* e) {
    if (!dragImageY_) return GlView::mouseMoveEvent(e);
    const double y = imagePoint(e->position()).y();
    if (y != *dragImageY_) emit scopeDrag(y - *dragImageY_);
    dragImageY_ = y;
    e->accept();
}

void ScopeView::mouseReleaseEvent(QMouseEvent* e) {
    if (!dragImageY_ || e->button() != Qt::LeftButton) return GlView::mouseReleaseEvent(e);
    dragImageY_.reset();
    e->accept();
}

void ScopeView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (!zoomable() || e->button() != Qt::LeftButton) return GlView::mouseDoubleClickEvent(e);
    dragImageY_.reset();
    emit scopeReset();
    e->accept();
}

void ScopeView::resizeEvent(QResizeEvent* e) {
    GlView::resizeEvent(e);
    emit pixelSizeChanged(QSize(pixelWidth(), pixelHeight()));
}

}  // namespace cs
