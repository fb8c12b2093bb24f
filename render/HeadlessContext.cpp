#include "HeadlessContext.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "GlObjects.h"

namespace cs::gl {

namespace {

// The first EGL device whose display initialises, else the default display.
EGLDisplay initialisedDisplay() {
    auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    EGLint major = 0, minor = 0;
    if (queryDevices && platformDisplay) {
        EGLDeviceEXT devices[8];
        EGLint count = 0;
        if (queryDevices(8, devices, &count))
            for (EGLint i = 0; i < count; ++i) {
                EGLDisplay d = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) return d;
            }
    }
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) return d;
    return EGL_NO_DISPLAY;
}

}  // namespace

Status makeHeadlessContext() {
    EGLDisplay display = initialisedDisplay();
    if (display == EGL_NO_DISPLAY) return Status::error("no EGL display");
    if (!eglBindAPI(EGL_OPENGL_API)) return Status::error("EGL has no desktop OpenGL");
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                                    EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint configs = 0;
    if (!eglChooseConfig(display, configAttribs, &config, 1, &configs) || configs < 1)
        return Status::error("no EGL pbuffer config");
    const EGLint surfaceAttribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(display, config, surfaceAttribs);
    if (surface == EGL_NO_SURFACE) return Status::error("no EGL pbuffer");
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttribs);
    if (context == EGL_NO_CONTEXT) return Status::error("no OpenGL 3.3 core context");
    if (!eglMakeCurrent(display, surface, surface, context)) return Status::error("eglMakeCurrent failed");
    return initLoader();
}

}  // namespace cs::gl
