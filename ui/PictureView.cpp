// The viewer widget.
#include "PictureView.h"

#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace cs {

PictureView::PictureView(QWidget* parent) : GlView(parent, true) {
    setMouseTracking(true);
    setMinimumSize(320, 180);
    setCursor(Qt::CrossCursor);
}

PictureView::~PictureView() { teardownGl(); }

Status PictureView::createGl() {
    if (Status s = images_.create(); !s) return s;
    if (Status s = ycbcr_.create(); !s) return s;
    return lines_.create();
}

void PictureView::releaseGl() {
    if (beforeRelease_) beforeRelease_();
    textures_.release();
    images_.release();
    ycbcr_.release();
    lines_.release();
}

void PictureView::setFrameSize(int width, int height) {
    layout_.setFrameSize(width, height);
    update();
}

void PictureView::setShowPreview(bool preview) {
    showPreview_ = preview;
    update();
}

void PictureView::setPinned(std::optional<PixelPos> pixel) {
    pinned_ = pixel;
    update();
    emit pinnedChanged();
}

void PictureView::zoomToFit() {
    layout_.resetPan();
    layout_.setZoom(0);
    emit zoomChanged(layout_.scale());
    update();
}

void PictureView::zoomTo(double scale) {
    layout_.setViewSize(pixelWidth(), pixelHeight());
    layout_.zoomAt(scale / layout_.scale(), pixelWidth() / 2.0, pixelHeight() / 2.0);
    emit zoomChanged(layout_.scale());
    update();
}

void PictureView::paintView(int w, int h) {
    gl::ImageRenderer::clear(w, h, 0.0f);
    layout_.setViewSize(w, h);
    const gl::Plane plane =
        showPreview_ && textures_.filled(gl::Plane::Preview) ? gl::Plane::Preview : gl::Plane::Picture;
    if (!textures_.filled(plane)) return;
    const RectF r = layout_.rect();
    const bool smooth = layout_.scale() < 2.0;   // at 200% and above, pixels show as squares
    if (const gl::YcbcrShading* shading = textures_.shaded(plane)) {
        ycbcr_.draw(textures_.ycbcr(), *shading, r, w, h);
    } else {
        gl::ImageRenderer::Options o;
        o.smooth = smooth;
        images_.draw(textures_.texture(plane).name(), r, w, h, o);
    }
    if (pinned_) {
        double cx = 0, cy = 0;
        layout_.toView(pinned_->x, pinned_->y, cx, cy);
        // A crosshair with a gap, so the pixel itself stays visible.
        const float gap = float(std::max(4.0, layout_.scale())), arm = gap + 10.0f;
        const float x = float(std::floor(cx)) + 0.5f, y = float(std::floor(cy)) + 0.5f;
        const float shadow[] = {x - arm + 1, y + 1, x - gap + 1, y + 1, x + gap + 1, y + 1, x + arm + 1, y + 1,
                                x + 1, y - arm + 1, x + 1, y - gap + 1, x + 1, y + gap + 1, x + 1, y + arm + 1};
        const float cross[] = {x - arm, y, x - gap, y, x + gap, y, x + arm, y,
                               x, y - arm, x, y - gap, x, y + gap, x, y + arm};
        lines_.draw(shadow, 4, w, h, 0xc0000000u);
        lines_.draw(cross, 4, w, h, 0xffffffffu);
    }
}

std::optional<PixelPos> PictureView::pixelAt(const QPointF& widgetPos) const {
    const double dpr = devicePixelRatioF();
    return layout_.frameAt(widgetPos.x() * dpr, widgetPos.y() * dpr);
}

void PictureView::mouseMoveEvent(QMouseEvent* e) {
    if (dragging_ || ((e->buttons() & Qt::LeftButton) && (e->position() - pressPos_).manhattanLength() > 4 && layout_.zoom() > 0)) {
        dragging_ = true;
        const QPointF d = (e->position() - lastDragPos_) * devicePixelRatioF();
        layout_.panBy(d.x(), d.y());
        lastDragPos_ = e->position();
        update();
    }
    emit hovered(pixelAt(e->position()));
}

void PictureView::mousePressEvent(QMouseEvent* e) {
    pressPos_ = lastDragPos_ = e->position();
    dragging_ = false;
    if (e->button() == Qt::MiddleButton) dragging_ = true;
}

void PictureView::mouseReleaseEvent(QMouseEvent* e) {
    if (!dragging_ && e->button() == Qt::LeftButton) {
        if (auto p = pixelAt(e->position())) {
            setPinned(p);
            emit clicked(*p);
        }
    }
    dragging_ = false;
}

void PictureView::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

void PictureView::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    const double dpr = devicePixelRatioF();
    layout_.setViewSize(pixelWidth(), pixelHeight());
    layout_.zoomAt(std::pow(1.25, steps), e->position().x() * dpr, e->position().y() * dpr);
    emit zoomChanged(layout_.scale());
    update();
}

void PictureView::leaveEvent(QEvent* e) {
    emit hovered(std::nullopt);
    GlView::leaveEvent(e);
}

void PictureView::resizeEvent(QResizeEvent* e) {
    GlView::resizeEvent(e);
    layout_.setViewSize(pixelWidth(), pixelHeight());
}

}  // namespace cs
