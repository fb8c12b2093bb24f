// Draws a texture into a rectangle of the current viewport (the picture, a preview, a
// scope image, a graticule overlay). One per GL context: its vertex array is not shareable.
#pragma once
#include "GlObjects.h"
#include "Layout.h"
#include "core/Status.h"
#include "ToneMapShader.h"
#include "core/ToneMap.h"

namespace cs::gl {

class ImageRenderer {
public:
    struct Options {
        bool smooth = true;     // linear filtering; false: nearest (pixel peeping at zoom > 1)
        float opacity = 1.0f;
        bool blend = false;     // alpha-blend over what is drawn (overlays)
        bool premultiplied = false;   // with blend: the image's colour is already multiplied by its alpha
        RectF uv{0, 0, 1, 1};   // the part of the texture drawn (v = 0: its top row)
        // An R'G'B' picture of a PQ or HLG frame shown through the HDR to SDR display
        // transform (core/ToneMap.h toneMapCode8: the 8-bit codes as its input).
        const ToneMap* toneMap = nullptr;
    };
    // Builds the program, the vertex array and samplers; the context must be current.
    Status create();
    void release();
    bool ready() const { return bool(variants_[0].program) && bool(variants_[1].program); }

    // Clears the bound framebuffer to a grey level (0..1) over the whole viewport.
    static void clear(int viewWidth, int viewHeight, float grey);
    // `dst` in view pixels (origin top-left); the view is viewWidth x viewHeight pixels.
    void draw(Name texture, const RectF& dst, int viewWidth, int viewHeight, const Options& options) const;

private:
    // The shader built twice: as it is, and tone mapped (TONE_MAP).
    struct Variant {
        Program program;
        int uRect = -1, uTexRect = -1, uOpacity = -1, uImage = -1;
        ToneMapUniforms toneMap;
    };
    Variant variants_[2];
    VertexArray vao_;
    Name samplers_[2] = {0, 0};   // nearest, linear
};

// Line segments in view pixels in one flat colour (markers such as the picker's crosshair).
class LineRenderer {
public:
    Status create();
    void release();
    bool ready() const { return bool(program_); }
    // `xy`: x0, y0, x1, y1 per segment; rgba: bytes R,G,B,A little-endian.
    void draw(const float* xy, int segmentCount, int viewWidth, int viewHeight, unsigned rgba);

private:
    Program program_;
    VertexArray vao_;
    Buffer vbo_;
    int uViewport_ = -1, uColour_ = -1;
};

}  // namespace cs::gl
