// GLEW loading and the release functions behind the RAII handles of GlObjects.h.
#include "GlObjects.h"

#include <algorithm>

#include <GL/glew.h>

namespace cs::gl {

Status initLoader() {
    glewExperimental = GL_TRUE;   // core profiles: load every entry point, not only advertised ones
    const GLenum err = glewInit();
    // glewInit on a core profile asks for GL_EXTENSIONS the legacy way: clear that error.
    while (glGetError() != GL_NO_ERROR) {}
#ifdef GLEW_ERROR_NO_GLX_DISPLAY
    const bool eglContext = err == GLEW_ERROR_NO_GLX_DISPLAY;
#else
    const bool eglContext = false;
#endif
    if (err != GLEW_OK && !eglContext)
        return Status::error(std::string("OpenGL loader (glewInit) failed: ") +
                             reinterpret_cast<const char*>(glewGetErrorString(err)));
    if (!glGenVertexArrays || !glCreateShader || !glGenSamplers)
        return Status::error("OpenGL 3.3 entry points are missing (context: " + versionString() + ")");
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major < 3 || (major == 3 && minor < 3))
        return Status::error("OpenGL 3.3 or newer is needed; this context is " + versionString());
    return {};
}

std::string versionString() {
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return std::string(version ? version : "unknown") + " (" + (renderer ? renderer : "unknown renderer") + ")";
}

std::string takeErrors(const char* call) {
    std::string text;
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        const char* name = e == GL_INVALID_ENUM ? "GL_INVALID_ENUM"
                           : e == GL_INVALID_VALUE ? "GL_INVALID_VALUE"
                           : e == GL_INVALID_OPERATION ? "GL_INVALID_OPERATION"
                           : e == GL_OUT_OF_MEMORY ? "GL_OUT_OF_MEMORY"
                           : e == GL_INVALID_FRAMEBUFFER_OPERATION ? "GL_INVALID_FRAMEBUFFER_OPERATION"
                                                                   : "GL error";
        text += text.empty() ? std::string(call) + ": " + name : std::string(", ") + name;
    }
    return text;
}

void flush() { glFlush(); }

void setClip(int x, int y, int width, int height, int viewHeight) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(x, viewHeight - y - height, std::max(width, 0), std::max(height, 0));   // GL counts rows from the bottom
}

void clearClip() { glDisable(GL_SCISSOR_TEST); }

void releaseTexture(Name n) { glDeleteTextures(1, &n); }
void releaseBuffer(Name n) { glDeleteBuffers(1, &n); }
void releaseVertexArray(Name n) { glDeleteVertexArrays(1, &n); }
void releaseProgram(Name n) { glDeleteProgram(n); }
void releaseShader(Name n) { glDeleteShader(n); }

}  // namespace cs::gl
