// One scope panel's drawing surface: the scope's image from the shared frame textures,
// at 1:1 when the engine rendered it for this panel's size (else fitted), plus, for
// engines that write only the trace (CUDA), the graticule overlay rendered from
// scope/Graticule.h geometry for the same image size. Comparing (ui/compare/Compare.h) it shows picture
// B's scope instead, or B's trace in a second colour over A's (render/CompareTrace.h).
// Markers (the picked pixel and the pins, scope/ScopeMarkers.h) are drawn over A's scope as
// small squares, each with its pin's number when it has one.
// Scope zoom: over the waveform, parade and vectorscope the wheel, a vertical drag (with the
// left button) and a double-click are reported in image coordinates (the image as shown,
// fitted into the panel) for the window to zoom, pan and reset the scale (MainWindowScopeZoom.cpp).
#pragma once
#include <memory>
#include <optional>

#include "ui/GlView.h"
#include "core/ScopeResults.h"
#include "scope/ScopeMarkers.h"
#include "render/CompareLayout.h"
#include "render/CompareTrace.h"
#include "render/FrameTextures.h"
#include "render/ImageRenderer.h"
#include "render/Layout.h"
#include "render/Texture.h"
#include "render/YcbcrPicture.h"

namespace cs {

class ScopeView : public GlView {
    Q_OBJECT
public:
    ScopeView(gl::Plane plane, gl::FrameTextures* shared, QWidget* parent = nullptr);
    ~ScopeView() override;

    gl::Plane plane() const { return plane_; }
    // A premultiplied RGBA overlay drawn over the scope image (empty: none), the image's size.
    void setOverlay(RgbaImage overlay);
    // Points of the image (its coordinates, as the overlay's) marked with a small square each,
    // and the marker's label (a pin's number) beside it.
    void setMarkers(std::vector<ScopeMarker> markers);
    const std::vector<ScopeMarker>& markers() const { return markers_; }
    // How the texture makes the image (default: the whole texture is the image).
    void setPlacement(ScopePlacement placement);
    QSize sizeHint() const override;

    // Compare: which scopes show, picture B's textures and how its image is assembled, and
    // for B images that carry background and graticule (the CPU engine's) the same scope
    // drawn without counts (the trace is their difference; null for trace-only textures).
    // `tint`: B's trace colour (bytes R, G, B). shows A, or b null: A alone.
    void setCompare(CompareScopes shows, const gl::FrameTextures* b, ScopePlacement bPlacement,
                    std::shared_ptr<const RgbaImage> traceBase, unsigned tint);
    CompareScopes compareShows() const { return compareShows_; }

    // The image coordinates (pixel centres) under a widget position, and the image's size
    // (empty when nothing is shown).
    QPointF imagePoint(QPointF widgetPos) const;
    QSize imageSize() const;

signals:
    // The panel's size in device pixels changed: scope images are best rendered at this size.
    void pixelSizeChanged(QSize size);
    // Wheel at image row `imageY` (angleDelta in eighths of a degree, > 0 away from the user:
    // zoom in; the vectorscope's in whole notches), a drag by `imageDy` rows (down > 0), a
    // double-click.
    void scopeWheel(double imageY, int angleDelta);
    void scopeDrag(double imageDy);
    void scopeReset();

protected:
    Status createGl() override;
    void releaseGl() override;
    void paintView(int w, int h) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private:
    gl::Plane plane_;
    gl::FrameTextures* shared_;
    gl::ImageRenderer images_;
    gl::YcbcrRenderer ycbcr_;   // the preview panel: a preview drawn from the Y'CbCr planes
    gl::LineRenderer lines_;    // the markers
    std::vector<ScopeMarker> markers_;
    std::vector<gl::RgbaTexture> markerLabels_;   // label n's tag at [n - 1], made on first use
    gl::RgbaTexture overlayTexture_;
    RgbaImage overlay_;
    ScopePlacement placement_;
    bool overlayDirty_ = false;

    CompareScopes compareShows_ = CompareScopes::A;
    const gl::FrameTextures* compareB_ = nullptr;
    ScopePlacement comparePlacement_;
    std::shared_ptr<const RgbaImage> compareBase_, compareBaseUploaded_;
    gl::RgbaTexture compareBaseTexture_;
    gl::CompareTraceRenderer compareTrace_;
    unsigned compareTint_ = 0;
    std::optional<double> dragImageY_;   // the image row under the button while dragging
    int wheelRemainder_ = 0;             // the vectorscope's wheel turned short of a notch
    bool zoomable() const;
};

}  // namespace cs
