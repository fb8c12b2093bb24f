// RgbaTexture: storage allocated on size changes only, contents replaced in place.
#include "Texture.h"

#include <GL/glew.h>

#include <atomic>
#include <string>

namespace cs::gl {

Status RgbaTexture::allocate(int width, int height) {
    if (width <= 0 || height <= 0) return Status::error("texture size " + std::to_string(width) + "x" + std::to_string(height) + " is empty");
    if (valid() && width == width_ && height == height_) return {};
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    if (width > maxSize || height > maxSize)
        return Status::error("a " + std::to_string(width) + "x" + std::to_string(height) +
                             " image exceeds this GPU's texture limit of " + std::to_string(maxSize));
    if (!texture_) {
        GLuint n = 0;
        glGenTextures(1, &n);
        texture_.reset(n);
    }
    glBindTexture(GL_TEXTURE_2D, texture_.get());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (auto e = takeErrors("glTexImage2D"); !e.empty()) {
        texture_.reset();
        width_ = height_ = 0;
        generation_ = 0;
        return Status::error("cannot allocate a " + std::to_string(width) + "x" + std::to_string(height) + " texture (" + e + ")");
    }
    width_ = width;
    height_ = height;
    static std::atomic<uint64_t> lastGeneration{0};   // shared by every texture (any thread may make one)
    generation_ = ++lastGeneration;
    return {};
}

Status RgbaTexture::upload(const RgbaImage& image) {
    if (image.empty()) return {};
    return upload(image.pixels.data(), image.width, image.height);
}

Status RgbaTexture::upload(const uint8_t* rgba, int width, int height) {
    if (Status s = allocate(width, height); !s) return s;
    glBindTexture(GL_TEXTURE_2D, texture_.get());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (auto e = takeErrors("glTexSubImage2D"); !e.empty()) return Status::error("texture upload failed (" + e + ")");
    return {};
}

}  // namespace cs::gl
