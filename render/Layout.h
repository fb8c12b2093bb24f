// Where images land in a view, in view pixels (origin top-left, y down): the picture
// (fitted or zoomed and panned, with the mapping back to frame pixels for the pixel
// picker) and scope images (1:1 when rendered for the panel, else fitted).
// Pure arithmetic: no GL, so it is unit-tested without a display.
#pragma once
#include <optional>
#include <vector>

namespace cs {

struct RectF {
    double x = 0, y = 0, w = 0, h = 0;
    bool empty() const { return w <= 0 || h <= 0; }
    bool contains(double px, double py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

// How a scope panel's image is assembled from its texture: pieces of the texture (uv,
// 0..1) placed at rectangles of an image of imageWidth x imageHeight pixels, which is then
// fitted into the panel. Engine images that carry their graticule are one piece covering
// the image; trace-only textures (CUDA) sit in the graticule's plot rectangles.
struct ScopePlacement {
    struct Piece {
        RectF uv{0, 0, 1, 1};
        RectF dst;
    };
    int imageWidth = 0, imageHeight = 0;
    std::vector<Piece> pieces;
    // The whole texture as the whole image.
    static ScopePlacement whole(int width, int height) { return {width, height, {{RectF{0, 0, 1, 1}, RectF{0, 0, double(width), double(height)}}}}; }
};

// The largest rectangle of the image's aspect that fits the view, centred, snapped to
// whole pixels; an image exactly the view's size lands at (0, 0) 1:1.
RectF fitRect(int imageWidth, int imageHeight, int viewWidth, int viewHeight);

struct PixelPos { int x = 0, y = 0; };

// The viewer's picture placement. zoom <= 0: fit the view; otherwise view pixels per frame
// pixel (1 = 100%). The pan is the offset of the picture's centre from the view's centre,
// in view pixels, limited so that the picture cannot leave the view entirely. A row scale of
// 2 shows each frame row twice as tall as a pixel is wide: a field (core/FieldView.h) at its
// frame's shape; the zoom is then per column, each row taking twice the zoom's height.
class PictureLayout {
public:
    void setFrameSize(int width, int height) { frameW_ = width; frameH_ = height; }
    void setRowScale(int rows) { rowScale_ = rows < 1 ? 1 : rows; clampPan(); }
    int rowScale() const { return rowScale_; }
    int frameWidth() const { return frameW_; }
    int frameHeight() const { return frameH_; }
    void setViewSize(int width, int height) { viewW_ = width; viewH_ = height; }
    void setZoom(double zoom) { zoom_ = zoom; clampPan(); }
    void panBy(double dx, double dy) { panX_ += dx; panY_ += dy; clampPan(); }
    void resetPan() { panX_ = panY_ = 0; }
    // Zooms by `factor` keeping the frame point under (viewX, viewY) in place.
    void zoomAt(double factor, double viewX, double viewY);

    double zoom() const { return zoom_; }
    // Effective scale (view pixels per frame pixel), also when fitting.
    double scale() const;
    RectF rect() const;
    // The frame pixel under a view position, or nothing outside the picture.
    std::optional<PixelPos> frameAt(double viewX, double viewY) const;
    // The view position of a frame pixel's centre.
    void toView(int frameX, int frameY, double& viewX, double& viewY) const;

private:
    void clampPan();
    int shownHeight() const { return frameH_ * rowScale_; }   // the frame's height as shown, in pixel widths
    int frameW_ = 0, frameH_ = 0, viewW_ = 0, viewH_ = 0, rowScale_ = 1;
    double zoom_ = 0, panX_ = 0, panY_ = 0;
};

}  // namespace cs
