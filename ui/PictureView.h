// The viewer: the current frame's picture (or its filtered preview) fitted or zoomed,
// with the pixel picker. It owns the shared frame textures (render/FrameTextures.h), so
// they live and die with its context; the scope views draw from them.
#pragma once
#include <functional>
#include <optional>

#include "GlView.h"
#include "render/FrameTextures.h"
#include "render/ImageRenderer.h"
#include "render/Layout.h"
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
    void setShowPreview(bool preview);
    bool showsPreview() const { return showPreview_; }
    // The pinned pixel (click), drawn as a crosshair; nothing clears it.
    void setPinned(std::optional<PixelPos> pixel);
    std::optional<PixelPos> pinned() const { return pinned_; }
    const PictureLayout& layout() const { return layout_; }

public slots:
    void zoomToFit();
    void zoomTo(double scale);   // 1 = one frame pixel per device pixel

signals:
    // The frame pixel under the pointer (nothing when it leaves the picture).
    void hovered(std::optional<cs::PixelPos> pixel);
    void clicked(cs::PixelPos pixel);
    void pinnedChanged();
    void zoomChanged(double scale);

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

    gl::FrameTextures textures_;
    std::function<void()> beforeRelease_;
    gl::ImageRenderer images_;
    gl::YcbcrRenderer ycbcr_;
    gl::LineRenderer lines_;
    PictureLayout layout_;
    bool showPreview_ = false;
    std::optional<PixelPos> pinned_;
    QPointF pressPos_, lastDragPos_;
    bool dragging_ = false;
};

}  // namespace cs
