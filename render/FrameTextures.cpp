// The shared set of frame textures.
#include "FrameTextures.h"


namespace cs::gl {

Status FrameTextures::upload(Plane plane, const RgbaImage& image) {
    ++version_;
    if (image.empty()) {
        filled_[size_t(plane)] = false;
        return {};
    }
    Status s = textures_[size_t(plane)].upload(image);
    filled_[size_t(plane)] = s.ok();
    return s;
}

Status FrameTextures::allocate(Plane plane, int width, int height) {
    ++version_;
    return textures_[size_t(plane)].allocate(width, height);
}

void FrameTextures::release() {
    for (auto& t : textures_) t.release();
    filled_.fill(false);
    ++version_;
}

}  // namespace cs::gl
