// The textures of the displayed frame: the picture, the filtered preview and the four
// scope images. One set, created in the viewer's GL context and read by every view (all
// of the window's contexts share objects), so that the picture and every scope on
// screen always come from the same engine call.
//
// CPU engine: the ScopeResults images are copied in (glTexSubImage2D into textures
// sized once); planar Y'CbCr frames go up as their own planes instead of an RGBA picture,
// and the picture and (focus peaking) preview are drawn from them by the Y'CbCr shader
// (YcbcrPicture.h). CUDA engine: the engine writes these textures through interop.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "GlObjects.h"
#include "Texture.h"
#include "YcbcrPicture.h"
#include "core/ScopeResults.h"

namespace cs::gl {

enum class Plane : uint8_t { Picture, Preview, Histogram, Waveform, Parade, Vectorscope, Cie, GamutDisplay, Count };
constexpr int kPlaneCount = int(Plane::Count);

class FrameTextures {
public:
    // Uploads one image; an empty image marks the plane empty (its texture is kept for reuse).
    Status upload(Plane plane, const RgbaImage& image);
    // Sizes a plane's texture for an engine that writes it itself (CUDA interop).
    Status allocate(Plane plane, int width, int height);
    void setFilled(Plane plane, bool filled) { filled_[size_t(plane)] = filled; }
    // The frame's Y'CbCr planes, and which of the picture and preview are drawn from them
    // (with what shading) rather than from their RGBA textures.
    YcbcrTextures& ycbcr() { return ycbcr_; }
    const YcbcrTextures& ycbcr() const { return ycbcr_; }
    void setShaded(Plane plane, const YcbcrShading& shading);
    void clearShaded(Plane plane);
    const YcbcrShading* shaded(Plane plane) const;
    // The RGBA picture (not drawn from the planes) of a PQ or HLG frame through the HDR to
    // SDR display transform; nullopt: shown as it is.
    void setPictureToneMap(const std::optional<ToneMap>& tm) { pictureToneMap_ = tm; ++version_; }
    const ToneMap* pictureToneMap() const { return pictureToneMap_ ? &*pictureToneMap_ : nullptr; }
    // The same for the RGBA preview (core/ScopeSpec.h previewShowsPicture).
    void setPreviewToneMap(const std::optional<ToneMap>& tm) { previewToneMap_ = tm; ++version_; }
    const ToneMap* previewToneMap() const { return previewToneMap_ ? &*previewToneMap_ : nullptr; }
    // The size of the image a plane holds (its texture's, or the Y'CbCr picture's).
    int imageWidth(Plane plane) const;
    int imageHeight(Plane plane) const;
    void release();

    RgbaTexture& texture(Plane plane) { return textures_[size_t(plane)]; }
    const RgbaTexture& texture(Plane plane) const { return textures_[size_t(plane)]; }
    // Whether the plane holds an image of the current frame.
    bool filled(Plane plane) const;
    // Bumped on every change: views compare it to know what they last drew.
    uint64_t version() const { return version_; }
    void touch() { ++version_; }

private:
    std::array<RgbaTexture, kPlaneCount> textures_;
    std::array<bool, kPlaneCount> filled_{};
    YcbcrTextures ycbcr_;
    std::array<bool, kPlaneCount> shadedOn_{};
    std::array<YcbcrShading, kPlaneCount> shading_{};
    std::optional<ToneMap> pictureToneMap_, previewToneMap_;
    uint64_t version_ = 0;
};

}  // namespace cs::gl
