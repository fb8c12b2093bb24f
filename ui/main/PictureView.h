// The viewer: the current frame's picture (or its filtered preview) fitted or zoomed,
// with the pixel picker and its pins (up to kMaxPins, numbered) and the measured region or
// line (Ctrl+drag draws a region, Alt+click picks a line; the window measures it). It owns the shared frame textures (render/FrameTextures.h), so
// they live and die with its context; the scope views draw from them. Comparing (ui/compare/Compare.h)
// it draws picture B from a second set of textures beside or across A (render/CompareLayout.h:
// wipe with a draggable divider, split, side by side).
#pragma once
#include <functional>
#include <optional>
#include <vector>

#include "ui/GlView.h"
#include "core/FrameRegion.h"
#include "render/CompareLayout.h"
#include "render/FrameTextures.h"
#include "render/ImageRenderer.h"
#include "render/Texture.h"
#include "render/Layout.h"
#include "render/PictureGuides.h"
#include "render/YcbcrPicture.h"

namespace cs {

class PictureView : public GlView {
    Q_OBJECT
public:
    explicit PictureView(QWidget* parent = nullptr);
    ~PictureView() override;

    gl::FrameTextures& textures() { return textures_; }
    // Called with the context current just before the frame textures are deleted (an engine
    // that registered them with CUDA lets go of them here).
    void setBeforeRelease(std::function<void()> hook) { beforeRelease_ = std::move(hook); }
    void setFrameSize(int width, int height);
    // Each frame row shown `rows` pixels tall for one wide: 2 shows a field at its frame's shape.
    void setRowScale(int rows);
    int rowScale() const { return layout_.rowScale(); }
    void setShowPreview(bool preview);
    bool showsPreview() const { return showPreview_; }
    // The pinned pixels, each drawn as a crosshair with its number (1 for the first). A click
    // pins one pixel in place of all; Shift+click adds one (pinRefused when kMaxPins are pinned).
    static constexpr int kMaxPins = 4;
    void setPinned(std::optional<PixelPos> pixel);   // nothing: no pins
    bool addPin(PixelPos pixel);                     // false when kMaxPins are pinned
    const std::vector<PixelPos>& pins() const { return pins_; }
    std::optional<PixelPos> pinned() const { return pins_.empty() ? std::nullopt : std::optional<PixelPos>(pins_.front()); }
    const PictureLayout& layout() const { return layout_; }
    // The region the scopes measure, outlined over the picture (a line: one row, marked by
    // ticks at both sides as well); nothing: none. Frame pixels of picture A.
    void setRegion(std::optional<FrameRegion> region);
    const std::optional<FrameRegion>& region() const { return region_; }
    // Safe areas, aspect guides and the centre cross drawn over the picture (picture A when comparing).
    void setGuides(const PictureGuides& guides);
    const PictureGuides& guides() const { return guides_; }
    // The shown frame's active picture (frame pixels; nothing: none known), outlined while
    // guides().activePicture is on.
    void setActiveArea(std::optional<FrameRegion> area);
    const std::optional<FrameRegion>& activeArea() const { return activeArea_; }
    // Where the picture (A) is drawn now, view pixels.
    RectF pictureRect() const;

    // Picture B's textures (compare), in this view's context like textures().
    gl::FrameTextures& texturesB() { return texturesB_; }
    // How A and B are shown; Off draws A alone. wipe: the divider's place across the picture.
    void setCompare(CompareMode mode, double wipe);
    CompareMode compareMode() const { return compareMode_; }
    double wipe() const { return wipe_; }
    // Where A and B are drawn now (view pixels).
    CompareGeometry compareGeometry() const;

public slots:
    void zoomToFit();
    void zoomTo(double scale);   // 1 = one frame pixel per device pixel

signals:
    // The frame pixel under the pointer (nothing when it leaves the picture).
    void hovered(std::optional<cs::PixelPos> pixel);
    void clicked(cs::PixelPos pixel);
    void doubleClicked();   // the picture is also fitted to the view
    void pinnedChanged();
    void pinRefused();   // a Shift+click with kMaxPins pinned
    // Ctrl+drag drew a region (both corners' pixels included, inside the frame); Alt+click
    // picked a line (the whole width, one row high). The window measures it (setRegion).
    void regionDrawn(cs::FrameRegion region);
    void zoomChanged(double scale);
    // The wipe's divider was dragged to a new place (0..1 across the picture).
    void wipeMoved(double wipe);

protected:
    Status createGl() override;
    void releaseGl() override;
    void paintView(int w, int h) override;

    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    std::optional<PixelPos> pixelAt(const QPointF& widgetPos) const;
    void drawPicture(const gl::FrameTextures& textures, const RectF& r, int w, int h);
    bool nearDivider(const QPointF& widgetPos) const;
    void drawGuides(int w, int h);
    // The outline of `r` (frame pixels) on its pixels' outer edges, as line segments in view
    // pixels (x0, y0, x1, y1 each); none before there is a frame.
    std::vector<float> frameBox(const FrameRegion& r) const;
    // `segments` over a dark shadow one pixel down and right.
    void drawShadowed(const std::vector<float>& segments, int w, int h, uint32_t colour, uint32_t shadowColour);
    void drawPins(int w, int h);
    void drawRegion(int w, int h);
    // The frame pixel nearest a view position (clamped into the frame), picture A.
    std::optional<PixelPos> clampedPixelAt(const QPointF& widgetPos) const;
    int frameWidth() const { return layout_.frameWidth(); }
    int frameHeight() const { return layout_.frameHeight(); }

    gl::FrameTextures textures_;
    gl::FrameTextures texturesB_;
    CompareMode compareMode_ = CompareMode::Off;
    double wipe_ = 0.5;
    bool wiping_ = false;   // the divider is being dragged
    gl::RgbaTexture compareLabels_[2];   // "A" and "B" in the corners of their parts of the view
    std::function<void()> beforeRelease_;
    gl::ImageRenderer images_;
    gl::YcbcrRenderer ycbcr_;
    gl::LineRenderer lines_;
    PictureLayout layout_;
    bool showPreview_ = false;
    PictureGuides guides_;
    std::vector<PixelPos> pins_;
    gl::RgbaTexture pinLabels_[kMaxPins];   // "1".."4" beside the crosshairs
    QPointF pressPos_, lastDragPos_;
    bool dragging_ = false;
    std::optional<FrameRegion> region_;
    std::optional<FrameRegion> activeArea_;
    std::optional<PixelPos> regionStart_, regionEnd_;   // a Ctrl+drag in progress: its corners
};

}  // namespace cs
