// The viewer widget.
#include "PictureView.h"

#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "scope/ScopeRender.h"

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
    texturesB_.release();
    for (auto& t : compareLabels_) t.release();
    for (auto& t : pinLabels_) t.release();
    images_.release();
    ycbcr_.release();
    lines_.release();
}

void PictureView::setFrameSize(int width, int height) {
    layout_.setFrameSize(width, height);
    update();
}

void PictureView::setRowScale(int rows) {
    layout_.setRowScale(rows);
    update();
}

void PictureView::setShowPreview(bool preview) {
    showPreview_ = preview;
    update();
}

void PictureView::setPinned(std::optional<PixelPos> pixel) {
    pins_.clear();
    if (pixel) pins_.push_back(*pixel);
    update();
    emit pinnedChanged();
}

bool PictureView::addPin(PixelPos pixel) {
    if (int(pins_.size()) >= kMaxPins) return false;
    pins_.push_back(pixel);
    update();
    emit pinnedChanged();
    return true;
}

void PictureView::setRegion(std::optional<FrameRegion> region) {
    region_ = region;
    update();
}

void PictureView::setGuides(const PictureGuides& guides) {
    guides_ = guides;
    update();
}

void PictureView::setActiveArea(std::optional<FrameRegion> area) {
    if (area == activeArea_) return;
    activeArea_ = area;
    update();
}

RectF PictureView::pictureRect() const {
    if (compareMode_ != CompareMode::Off && texturesB_.filled(gl::Plane::Picture)) return compareGeometry().a.picture;
    PictureLayout l = layout_;
    l.setViewSize(pixelWidth(), pixelHeight());
    return l.rect();
}

// Each guide with a dark shadow one pixel down and right, so it shows over light and dark pictures.
void PictureView::drawGuides(int w, int h) {
    if (!guides_.any()) return;
    const GuideSegments g = guideSegments(pictureRect(), guides_, 20.0 * devicePixelRatioF());
    for (const auto& [segments, colour] : {std::pair{&g.safe, 0xe6ffffffu}, std::pair{&g.aspect, 0xff00beffu}, std::pair{&g.cross, 0xffffffffu}})
        drawShadowed(*segments, w, h, colour, 0x90000000u);
    // The active picture: a green outline on its pixels' outer edges.
    if (guides_.activePicture && activeArea_) drawShadowed(frameBox(*activeArea_), w, h, 0xff64dc50u, 0x90000000u);
}

std::vector<float> PictureView::frameBox(const FrameRegion& r) const {
    const int fw = frameWidth(), fh = frameHeight();
    if (fw <= 0 || fh <= 0) return {};
    const RectF p = pictureRect();
    const float x0 = float(p.x + r.x * p.w / fw), x1 = float(p.x + (r.x + r.width) * p.w / fw);
    const float y0 = float(p.y + r.y * p.h / fh), y1 = float(p.y + (r.y + r.height) * p.h / fh);
    return {x0, y0, x1, y0, x1, y0, x1, y1, x1, y1, x0, y1, x0, y1, x0, y0};
}

void PictureView::drawShadowed(const std::vector<float>& segments, int w, int h, uint32_t colour, uint32_t shadowColour) {
    if (segments.empty()) return;
    std::vector<float> shadow = segments;
    for (float& v : shadow) v += 1.0f;
    const int count = int(segments.size() / 4);
    lines_.draw(shadow.data(), count, w, h, shadowColour);
    lines_.draw(segments.data(), count, w, h, colour);
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

void PictureView::setCompare(CompareMode mode, double wipe) {
    compareMode_ = mode;
    wipe_ = std::clamp(wipe, 0.0, 1.0);
    update();
}

CompareGeometry PictureView::compareGeometry() const {
    PictureLayout l = layout_;
    l.setViewSize(pixelWidth(), pixelHeight());
    return cs::compareGeometry(compareMode_, l, pixelWidth(), pixelHeight(), wipe_, textures_.imageWidth(gl::Plane::Picture),
                               textures_.imageHeight(gl::Plane::Picture), texturesB_.imageWidth(gl::Plane::Picture),
                               texturesB_.imageHeight(gl::Plane::Picture));
}

void PictureView::drawPicture(const gl::FrameTextures& textures, const RectF& r, int w, int h) {
    const gl::Plane plane =
        showPreview_ && textures.filled(gl::Plane::Preview) ? gl::Plane::Preview : gl::Plane::Picture;
    if (!textures.filled(plane) || r.empty()) return;
    if (const gl::YcbcrShading* shading = textures.shaded(plane)) {
        ycbcr_.draw(textures.ycbcr(), *shading, r, w, h);
    } else {
        gl::ImageRenderer::Options o;
        o.smooth = layout_.scale() < 2.0;   // at 200% and above, pixels show as squares
        o.toneMap = plane == gl::Plane::Picture ? textures.pictureToneMap() : textures.previewToneMap();
        images_.draw(textures.texture(plane).name(), r, w, h, o);
    }
}

void PictureView::paintView(int w, int h) {
    gl::ImageRenderer::clear(w, h, 0.0f);
    layout_.setViewSize(w, h);
    if (compareMode_ == CompareMode::Off || !texturesB_.filled(gl::Plane::Picture)) {
        drawPicture(textures_, layout_.rect(), w, h);
    } else {
        const CompareGeometry g = cs::compareGeometry(
            compareMode_, layout_, w, h, wipe_, textures_.imageWidth(gl::Plane::Picture), textures_.imageHeight(gl::Plane::Picture),
            texturesB_.imageWidth(gl::Plane::Picture), texturesB_.imageHeight(gl::Plane::Picture));
        // Each picture clipped to its part of the view.
        for (const auto& [textures, pane] : {std::pair{&textures_, g.a}, std::pair{&texturesB_, g.b}}) {
            if (pane.clip.empty()) continue;
            gl::setClip(int(pane.clip.x), int(pane.clip.y), int(pane.clip.w), int(pane.clip.h), h);
            drawPicture(*textures, pane.picture, w, h);
        }
        gl::clearClip();
        // Which is which: "A" in the top-left corner of A's part, "B" in the top-right of B's.
        constexpr int kScale = 2, kPad = 5, kLabelW = 5 * kScale + 2 * kPad, kLabelH = 7 * kScale + 2 * kPad;
        for (int i = 0; i < 2; ++i) {
            if (!compareLabels_[i].valid() && !compareLabels_[i].upload(textTag(i == 0 ? "A" : "B", kScale, kPad, 200))) continue;
            const ComparePane& pane = i == 0 ? g.a : g.b;
            if (pane.clip.w < 3 * kLabelW) continue;
            const double x = i == 0 ? pane.clip.x + 8 : pane.clip.x + pane.clip.w - 8 - kLabelW;
            gl::ImageRenderer::Options o;
            o.smooth = false;
            o.blend = true;
            images_.draw(compareLabels_[i].name(), RectF{x, 8, double(kLabelW), double(kLabelH)}, w, h, o);
        }
        if (g.divider >= 0) {
            const float x = float(g.divider) + 0.5f, fh = float(h);
            const float shadow[] = {x + 1, 0, x + 1, fh};
            const float line[] = {x, 0, x, fh};
            lines_.draw(shadow, 1, w, h, 0xa0000000u);
            lines_.draw(line, 1, w, h, compareMode_ == CompareMode::Wipe ? 0xffffffffu : 0xff808080u);
        }
    }
    drawGuides(w, h);
    drawRegion(w, h);
    drawPins(w, h);
}

// The region's outline (yellow over a dark shadow) on the pixels' outer edges; a line also
// gets ticks beyond the picture's sides, so that one row shows when zoomed out. A Ctrl+drag
// in progress is drawn the same way.
void PictureView::drawRegion(int w, int h) {
    std::optional<FrameRegion> r = region_;
    if (regionStart_ && regionEnd_) {
        const int x0 = std::min(regionStart_->x, regionEnd_->x), y0 = std::min(regionStart_->y, regionEnd_->y);
        r = FrameRegion{x0, y0, std::max(regionStart_->x, regionEnd_->x) - x0 + 1, std::max(regionStart_->y, regionEnd_->y) - y0 + 1};
    }
    if (!r) return;
    std::vector<float> box = frameBox(*r);
    if (box.empty()) return;
    if (r->height == 1 && r->width == frameWidth()) {
        const float x0 = box[0], x1 = box[2], ym = (box[1] + box[5]) / 2, tick = 12.0f * float(devicePixelRatioF());
        for (float v : {x0 - tick, ym, x0, ym, x1, ym, x1 + tick, ym}) box.push_back(v);
    }
    drawShadowed(box, w, h, 0xff00e0ffu, 0xa0000000u);
}

void PictureView::drawPins(int w, int h) {
    constexpr int kScale = 2, kPad = 3, kLabelW = 5 * kScale + 2 * kPad, kLabelH = 7 * kScale + 2 * kPad;
    const bool comparing = compareMode_ != CompareMode::Off && texturesB_.filled(gl::Plane::Picture);
    const RectF a = comparing ? compareGeometry().a.picture : RectF{};
    for (size_t i = 0; i < pins_.size(); ++i) {
        const PixelPos& pin = pins_[i];
        double cx = 0, cy = 0;
        layout_.toView(pin.x, pin.y, cx, cy);
        if (comparing) {
            // On picture A where it is drawn now (side by side and split move it).
            const int fw = std::max(1, textures_.imageWidth(gl::Plane::Picture)), fh = std::max(1, textures_.imageHeight(gl::Plane::Picture));
            cx = a.x + (pin.x + 0.5) * a.w / fw;
            cy = a.y + (pin.y + 0.5) * a.h / fh;
        }
        // A crosshair with a gap, so the pixel itself stays visible.
        const float gap = float(std::max(4.0, layout_.scale())), arm = gap + 10.0f;
        const float x = float(std::floor(cx)) + 0.5f, y = float(std::floor(cy)) + 0.5f;
        const float shadow[] = {x - arm + 1, y + 1, x - gap + 1, y + 1, x + gap + 1, y + 1, x + arm + 1, y + 1,
                                x + 1, y - arm + 1, x + 1, y - gap + 1, x + 1, y + gap + 1, x + 1, y + arm + 1};
        const float cross[] = {x - arm, y, x - gap, y, x + gap, y, x + arm, y,
                               x, y - arm, x, y - gap, x, y + gap, x, y + arm};
        lines_.draw(shadow, 4, w, h, 0xc0000000u);
        lines_.draw(cross, 4, w, h, 0xffffffffu);
        // Its number in the crosshair's upper-right quarter.
        gl::RgbaTexture& label = pinLabels_[i];
        const char digit[2] = {char('1' + i), 0};
        if (!label.valid() && !label.upload(textTag(digit, kScale, kPad, 190))) continue;
        gl::ImageRenderer::Options o;
        o.smooth = false;
        o.blend = true;
        images_.draw(label.name(), RectF{double(x) + gap + 2, double(y) - gap - 2 - kLabelH, double(kLabelW), double(kLabelH)}, w, h, o);
    }
}

std::optional<PixelPos> PictureView::pixelAt(const QPointF& widgetPos) const {
    const double dpr = devicePixelRatioF();
    if (compareMode_ == CompareMode::Off || !texturesB_.filled(gl::Plane::Picture))
        return layout_.frameAt(widgetPos.x() * dpr, widgetPos.y() * dpr);
    // Comparing: the pixel of whichever picture is under the pointer, as a position in A
    // (B's pixels map to A's by proportion when the sizes differ).
    const int aw = textures_.imageWidth(gl::Plane::Picture), ah = textures_.imageHeight(gl::Plane::Picture);
    const int bw = texturesB_.imageWidth(gl::Plane::Picture), bh = texturesB_.imageHeight(gl::Plane::Picture);
    const auto pick = comparePixelAt(compareGeometry(), aw, ah, bw, bh, widgetPos.x() * dpr, widgetPos.y() * dpr);
    if (!pick) return std::nullopt;
    return pick->b ? mapPixel(pick->pixel, bw, bh, aw, ah) : pick->pixel;
}

std::optional<PixelPos> PictureView::clampedPixelAt(const QPointF& widgetPos) const {
    const int fw = frameWidth(), fh = frameHeight();
    const RectF p = pictureRect();
    if (fw <= 0 || fh <= 0 || p.empty()) return std::nullopt;
    const double dpr = devicePixelRatioF();
    const int x = int(std::floor((widgetPos.x() * dpr - p.x) * fw / p.w)), y = int(std::floor((widgetPos.y() * dpr - p.y) * fh / p.h));
    return PixelPos{std::clamp(x, 0, fw - 1), std::clamp(y, 0, fh - 1)};
}

bool PictureView::nearDivider(const QPointF& widgetPos) const {
    if (compareMode_ != CompareMode::Wipe || !texturesB_.filled(gl::Plane::Picture)) return false;
    const CompareGeometry g = compareGeometry();
    return g.divider >= 0 && std::abs(widgetPos.x() * devicePixelRatioF() - g.divider) <= 6.0 * devicePixelRatioF();
}

void PictureView::mouseMoveEvent(QMouseEvent* e) {
    if (wiping_) {
        PictureLayout l = layout_;
        l.setViewSize(pixelWidth(), pixelHeight());
        wipe_ = wipeAt(l.rect(), e->position().x() * devicePixelRatioF());
        update();
        emit wipeMoved(wipe_);
        return;
    }
    if (regionStart_) {
        regionEnd_ = clampedPixelAt(e->position());
        update();
        emit hovered(pixelAt(e->position()));
        return;
    }
    setCursor(nearDivider(e->position()) ? Qt::SplitHCursor : Qt::CrossCursor);
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
    wiping_ = e->button() == Qt::LeftButton && nearDivider(e->position());
    if (e->button() == Qt::MiddleButton) dragging_ = true;
    regionStart_ = regionEnd_ = std::nullopt;
    if (e->button() == Qt::LeftButton && !wiping_ && (e->modifiers() & Qt::ControlModifier) && pixelAt(e->position()))
        regionStart_ = regionEnd_ = clampedPixelAt(e->position());
}

void PictureView::mouseReleaseEvent(QMouseEvent* e) {
    if (wiping_) {
        wiping_ = false;
        return;
    }
    if (regionStart_ && e->button() == Qt::LeftButton) {
        // A Ctrl+click without a drag measures that one pixel.
        regionEnd_ = clampedPixelAt(e->position());
        const PixelPos a = *regionStart_, b = regionEnd_ ? *regionEnd_ : a;
        regionStart_ = regionEnd_ = std::nullopt;
        const int x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
        emit regionDrawn(FrameRegion{x0, y0, std::max(a.x, b.x) - x0 + 1, std::max(a.y, b.y) - y0 + 1});
        update();
        return;
    }
    if (!dragging_ && e->button() == Qt::LeftButton && (e->modifiers() & Qt::AltModifier)) {
        if (auto p = pixelAt(e->position()); p && frameWidth() > 0) emit regionDrawn(FrameRegion{0, p->y, frameWidth(), 1});
        dragging_ = false;
        return;
    }
    if (!dragging_ && e->button() == Qt::LeftButton) {
        if (auto p = pixelAt(e->position())) {
            if (!(e->modifiers() & Qt::ShiftModifier)) setPinned(p);
            else if (!addPin(*p)) emit pinRefused();
            emit clicked(*p);
        }
    }
    dragging_ = false;
}

void PictureView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    zoomToFit();
    emit doubleClicked();
}

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
