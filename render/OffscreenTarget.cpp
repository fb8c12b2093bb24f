#include "OffscreenTarget.h"

#include <GL/glew.h>

#include <cstdint>
#include <string>

namespace cs::gl {

void releaseFramebuffer(Name n) { glDeleteFramebuffers(1, &n); }

Status OffscreenTarget::bind(int width, int height) {
    const uint64_t before = colour_.generation();
    if (Status s = colour_.allocate(width, height); !s) return s;
    if (!framebuffer_) {
        Name n = 0;
        glGenFramebuffers(1, &n);
        framebuffer_.reset(n);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
    if (colour_.generation() != before) {   // new storage: attach it again
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour_.name(), 0);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            unbind();
            return Status::error("offscreen framebuffer of " + std::to_string(width) + "x" + std::to_string(height) +
                                 " is incomplete");
        }
    }
    glViewport(0, 0, width, height);
    return {};
}

void OffscreenTarget::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

void OffscreenTarget::finish() { glFinish(); }

void OffscreenTarget::release() {
    framebuffer_.reset();
    colour_.release();
}

}  // namespace cs::gl
