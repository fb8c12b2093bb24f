// The textures of the displayed frame: the picture, the filtered preview and the four
// scope images. One set, created in the viewer's GL context and read by every view (all
// of the window's contexts share objects), so that the picture and every scope on
// screen always come from the same engine call.
//
// CPU engine: the ScopeResults images are copied in (glTexSubImage2D into textures
// sized once). CUDA engine: the engine writes these textures through interop.
#pragma once
#include <array>
#include <cstdint>

#include "Texture.h"
#include "GlObjects.h"
#include "core/ScopeResults.h"

namespace cs::gl {

enum class Plane : uint8_t { Picture, Preview, Histogram, Waveform, Parade, Vectorscope, Count };
constexpr int kPlaneCount = int(Plane::Count);

class FrameTextures {
public:
    // Uploads one image; an empty image marks the plane empty (its texture is kept for reuse).
    Status upload(Plane plane, const RgbaImage& image);
    // Sizes a plane's texture for an engine that writes it itself (CUDA interop).
    Status allocate(Plane plane, int width, int height);
    void setFilled(Plane plane, bool filled) { filled_[size_t(plane)] = filled; }
    void release();

    RgbaTexture& texture(Plane plane) { return textures_[size_t(plane)]; }
    const RgbaTexture& texture(Plane plane) const { return textures_[size_t(plane)]; }
    // Whether the plane holds an image of the current frame.
    bool filled(Plane plane) const { return filled_[size_t(plane)] && textures_[size_t(plane)].valid(); }
    // Bumped on every change: views compare it to know what they last drew.
    uint64_t version() const { return version_; }
    void touch() { ++version_; }

private:
    std::array<RgbaTexture, kPlaneCount> textures_;
    std::array<bool, kPlaneCount> filled_{};
    uint64_t version_ = 0;
};

}  // namespace cs::gl
