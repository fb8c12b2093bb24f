// One scope panel's drawing surface: the scope's image from the shared frame textures,
// at 1:1 when the engine rendered it for this panel's size (else fitted), plus, for
// engines that write only the trace (CUDA), the graticule overlay rendered from
// core/Graticule.h geometry for the same image size.
#pragma once
#include "GlView.h"
#include "core/ScopeResults.h"
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
    // How the texture makes the image (default: the whole texture is the image).
    void setPlacement(ScopePlacement placement);
    QSize sizeHint() const override;

signals:
    // The panel's size in device pixels changed: scope images are best rendered at this size.
    void pixelSizeChanged(QSize size);

protected:
    Status createGl() override;
    void releaseGl() override;
    void paintView(int w, int h) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    gl::Plane plane_;
    gl::FrameTextures* shared_;
    gl::ImageRenderer images_;
    gl::YcbcrRenderer ycbcr_;   // the preview panel: a preview drawn from the Y'CbCr planes
    gl::RgbaTexture overlayTexture_;
    RgbaImage overlay_;
    ScopePlacement placement_;
    bool overlayDirty_ = false;
};

}  // namespace cs
