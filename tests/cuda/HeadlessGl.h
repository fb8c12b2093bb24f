// For the GL interop tests: a headless desktop GL 4.5 core context through EGL
// (EGL_EXT_platform_device, no window system) on the CUDA device, and GL_RGBA8 textures the
// engine writes and the tests read back with glGetTexImage.
#pragma once
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/ScopeResults.h"
#include "cuda/engine/CudaEngine.h"

namespace cs::test {

// A current GL context on the CUDA device's EGL device, released on destruction.
class HeadlessGl {
public:
    bool open(int cudaDevice, std::string& why) {
        auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
        auto queryAttrib = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(eglGetProcAddress("eglQueryDeviceAttribEXT"));
        auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
        if (!queryDevices || !platformDisplay) { why = "EGL_EXT_device_enumeration or EGL_EXT_platform_base missing"; return false; }
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (!queryDevices(16, devices, &count) || count == 0) { why = "eglQueryDevicesEXT found no EGL device"; return false; }
        int chosen = 0;
        for (int i = 0; i < count && queryAttrib; ++i) {
            EGLAttrib cuda = -1;
            if (queryAttrib(devices[i], EGL_CUDA_DEVICE_NV, &cuda) && cuda == cudaDevice) { chosen = i; break; }
        }
        display_ = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[chosen], nullptr);
        EGLint major = 0, minor = 0;
        if (display_ == EGL_NO_DISPLAY || !eglInitialize(display_, &major, &minor)) { why = "eglInitialize failed on the device display"; return false; }
        if (!eglBindAPI(EGL_OPENGL_API)) { why = "eglBindAPI(EGL_OPENGL_API) failed"; return false; }
        const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                                        EGL_ALPHA_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        EGLConfig config = nullptr;
        EGLint configs = 0;
        if (!eglChooseConfig(display_, configAttribs, &config, 1, &configs) || configs == 0) { why = "no EGL config for desktop GL"; return false; }
        const EGLint pbufferAttribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        surface_ = eglCreatePbufferSurface(display_, config, pbufferAttribs);
        const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, contextAttribs);
        if (context_ == EGL_NO_CONTEXT) { why = "eglCreateContext (GL 4.5 core) failed"; return false; }
        if (!eglMakeCurrent(display_, surface_, surface_, context_)) { why = "eglMakeCurrent failed"; return false; }
        return true;
    }
    ~HeadlessGl() {
        if (display_ == EGL_NO_DISPLAY) return;
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
        if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
        eglTerminate(display_);
    }

private:
    EGLDisplay display_ = EGL_NO_DISPLAY;
    EGLSurface surface_ = EGL_NO_SURFACE;
    EGLContext context_ = EGL_NO_CONTEXT;
};

// A GL_RGBA8 texture, deleted on destruction. Its generation is new whenever its storage is
// specified (as render/Texture's).
struct Texture {
    GLuint name = 0;
    int width = 0, height = 0;
    uint64_t generation = 0;
    Texture(int w, int h) : width(w), height(h) {
        glGenTextures(1, &name);
        glBindTexture(GL_TEXTURE_2D, name);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        respecify();
    }
    ~Texture() { glDeleteTextures(1, &name); }
    Texture(const Texture&) = delete;
    Texture& operator=(const Texture&) = delete;
    // New storage of the same size under the same name, filled with `fill` (RGBA bytes).
    void respecify(uint32_t fill = 0) {
        const std::vector<uint32_t> texels(size_t(width) * size_t(height), fill);
        glBindTexture(GL_TEXTURE_2D, name);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
        static uint64_t lastGeneration = 0;
        generation = ++lastGeneration;
    }
    GlTexture target() const { return {name, width, height, generation}; }
    RgbaImage read() const {
        RgbaImage img;
        img.resize(width, height);
        glBindTexture(GL_TEXTURE_2D, name);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
        return img;
    }
};

}  // namespace cs::test
