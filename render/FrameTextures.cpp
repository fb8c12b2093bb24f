// The shared set of frame textures.
#include "FrameTextures.h"


namespace cs::gl {

Status FrameTextures::upload(Plane plane, const RgbaImage& image) {
    ++version_;
    shadedOn_[size_t(plane)] = false;
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

void FrameTextures::setShaded(Plane plane, const YcbcrShading& shading) {
    ++version_;
    shadedOn_[size_t(plane)] = true;
    shading_[size_t(plane)] = shading;
}

void FrameTextures::clearShaded(Plane plane) {
    ++version_;
    shadedOn_[size_t(plane)] = false;
}

const YcbcrShading* FrameTextures::shaded(Plane plane) const {
    return shadedOn_[size_t(plane)] && ycbcr_.valid() ? &shading_[size_t(plane)] : nullptr;
}

bool FrameTextures::filled(Plane plane) const {
    if (shaded(plane)) return true;
    return filled_[size_t(plane)] && textures_[size_t(plane)].valid();
}

int FrameTextures::imageWidth(Plane plane) const { return shaded(plane) ? ycbcr_.width() : textures_[size_t(plane)].width(); }

int FrameTextures::imageHeight(Plane plane) const {
    return shaded(plane) ? ycbcr_.height() : textures_[size_t(plane)].height();
}

void FrameTextures::release() {
    for (auto& t : textures_) t.release();
    ycbcr_.release();
    shadedOn_.fill(false);
    filled_.fill(false);
    ++version_;
}

}  // namespace cs::gl
