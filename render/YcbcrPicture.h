// The picture drawn straight from the frame's planar Y'CbCr samples: three integer
// textures (the planes as decoded, a third of the bytes of an RGBA picture at 4:2:0),
// converted to R'G'B' per displayed pixel by resources/shaders/ycbcr.frag with the very
// fixed-point expressions of core/Color.h (yuvToRgb to 8 bits), so a pixel shown 1:1 has
// the code values of the CPU engine's picture. The same shader paints focus peaking over
// it (the Sobel test of core/Filters.h on the luma plane, exact integers), so neither the
// picture nor that preview is converted or uploaded as RGBA on the CPU.
#pragma once
#include <cstdint>

#include "GlObjects.h"
#include "Layout.h"
#include "ToneMapShader.h"
#include "core/Color.h"
#include "core/Frame.h"
#include "core/Status.h"
#include "core/ToneMap.h"

namespace cs::gl {

// The Y', Cb and Cr planes of the displayed frame (integer textures, nearest sampling).
class YcbcrTextures {
public:
    // Whether a frame can be shown this way: host memory, planar Y'CbCr (not RGB or grey,
    // not semi-planar or packed), depth at most 12 (the shader's Sobel squares fit 32 bits),
    // even sizes along subsampled axes (each chroma sample covers whole pixels).
    static bool supports(const FrameView& frame);
    // Copies the planes in (storage allocated on size or format changes only). `color` is
    // the matrix and range in effect (tags and override).
    Status upload(const FrameView& frame, const ColorInfo& color);
    void release();

    bool valid() const { return bool(planes_[0]) && width_ > 0 && height_ > 0; }
    int width() const { return width_; }
    int height() const { return height_; }
    int bitDepth() const { return depth_; }
    int bytesPerSample() const { return bytesPerSample_; }
    Name plane(int i) const { return planes_[i].get(); }
    int log2ChromaW() const { return log2cw_; }
    int log2ChromaH() const { return log2ch_; }
    const YuvToRgb& toRgb() const { return toRgb_; }
    // R'G'B' at the planes' own depth (the tone mapping's input, core/ToneMap.h).
    const YuvToRgb& toRgbNative() const { return toRgbNative_; }

private:
    Texture planes_[3];
    int width_ = 0, height_ = 0, depth_ = 8, bytesPerSample_ = 1, log2cw_ = 0, log2ch_ = 0;
    YuvToRgb toRgb_{}, toRgbNative_{};
};

// What the shader draws from the planes: the picture, or the picture with focus peaking.
struct YcbcrShading {
    bool focusPeaking = false;
    int64_t peakingFirstSquare = 0;   // least Sobel gx^2 + gy^2 painted (focusPeakingFirstSquare)
    uint32_t peakingColour = 0;       // RGBA, little-endian bytes R, G, B, A
    int peakingWidth = 1;             // 1..3 px (core/PeakingWidth.h)
    // The HDR to SDR display transform (core/ToneMap.h), applied before the peaking paint.
    bool toneMap = false;
    ToneMap toneMapping;
};

// Draws YcbcrTextures into a rectangle of the current viewport. One per GL context.
class YcbcrRenderer {
public:
    Status create();
    void release();
    bool ready() const {
        for (const Variant& v : variants_)
            if (!v.program) return false;
        return true;
    }
    // `dst` in view pixels (origin top-left). Each view pixel shows the picture's pixel under
    // its centre (nearest sampling, also when scaled: see ycbcr.frag).
    void draw(const YcbcrTextures& planes, const YcbcrShading& shading, const RectF& dst, int viewWidth,
              int viewHeight) const;

private:
    // The shader built four times: the picture, with focus peaking (bit 0), tone mapped (bit 1).
    static constexpr int kVariants = 4;
    struct Variant {
        Program program;
        int uRect = -1, uTexRect = -1, uPlanes[3] = {-1, -1, -1}, uTexel = -1, uMask = -1, uScale = -1, uOffsets = -1,
            uGains = -1, uPeakFirst = -1, uPeakColour = -1, uPeakReach = -1;
        ToneMapUniforms toneMap;
    };
    Variant variants_[kVariants];
    VertexArray vao_;
};

}  // namespace cs::gl
