// An RGBA8 texture sized once: uploads of the same size go through glTexSubImage2D into
// the existing storage; only a size change reallocates (and, for the CUDA path, forces
// the texture's interop registration to be renewed, which `generation` tells).
#pragma once
#include <cstdint>

#include "GlObjects.h"
#include "core/ScopeResults.h"
#include "core/Status.h"

namespace cs::gl {

class RgbaTexture {
public:
    // Allocates width x height RGBA8 storage (contents undefined) when the size differs.
    Status allocate(int width, int height);
    // Copies the image in (allocating on a size change). Empty images are ignored.
    Status upload(const RgbaImage& image);
    // The same from raw tightly packed RGBA rows, top row first.
    Status upload(const uint8_t* rgba, int width, int height);
    void release() { texture_.reset(); width_ = height_ = 0; generation_ = 0; }

    Name name() const { return texture_.get(); }
    int width() const { return width_; }
    int height() const { return height_; }
    bool valid() const { return bool(texture_) && width_ > 0 && height_ > 0; }
    // The storage's identity: a value no texture of this process had before, taken on every
    // (re)specification of the storage (0: none). GL reuses the names of deleted textures, so
    // a name alone does not tell storages apart: CUDA-GL interop registrations are keyed by
    // this (cuda/engine/CudaEngine.h: GlTexture::generation) and renewed when it changes.
    uint64_t generation() const { return generation_; }

private:
    Texture texture_;
    int width_ = 0, height_ = 0;
    uint64_t generation_ = 0;
};

}  // namespace cs::gl
