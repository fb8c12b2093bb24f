// OpenGL object names as RAII handles, and the GLEW loader. This header stays free of
// GL/glew.h on purpose: Qt's qopengl.h (pulled in by QOpenGLWidget) refuses to live
// beside glew.h, so ui/ sees GL names only as unsigned integers and every GL call is
// made inside render/*.cpp.
//
// Every handle must be released with its context current: the owners (ui's GL views)
// release them from QOpenGLContext::aboutToBeDestroyed after makeCurrent().
#pragma once
#include <string>
#include <utility>

#include "core/Status.h"

namespace cs::gl {

using Name = unsigned int;   // GLuint

// glewExperimental + glewInit on the current context. GLEW_ERROR_NO_GLX_DISPLAY (an EGL
// context, e.g. Wayland) is not an error: the core entry points still resolve. Fails when
// the context is older than OpenGL 3.3.
Status initLoader();
// The GL version string of the current context, for logs and the About box.
std::string versionString();
// Drains glGetError; returns "" when no error was pending, else "call: GL_INVALID_ENUM...".
std::string takeErrors(const char* call);
// glFlush: textures written in one context become visible to the contexts sharing them
// once the writer has flushed.
void flush();
// Drawing limited to a rectangle of the viewport (view pixels, origin top-left, y down, in a
// view viewHeight pixels high), and unlimited again.
void setClip(int x, int y, int width, int height, int viewHeight);
void clearClip();

// An owned GL name; Release deletes it. Move-only.
template <void (*Release)(Name)>
class Handle {
public:
    Handle() = default;
    explicit Handle(Name n) : name_(n) {}
    ~Handle() { reset(); }
    Handle(Handle&& o) noexcept : name_(std::exchange(o.name_, 0)) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) { reset(); name_ = std::exchange(o.name_, 0); }
        return *this;
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    Name get() const { return name_; }
    explicit operator bool() const { return name_ != 0; }
    void reset(Name n = 0) {
        if (name_ != 0) Release(name_);
        name_ = n;
    }

private:
    Name name_ = 0;
};

void releaseTexture(Name n);
void releaseBuffer(Name n);
void releaseVertexArray(Name n);
void releaseProgram(Name n);
void releaseShader(Name n);

using Texture = Handle<releaseTexture>;
using Buffer = Handle<releaseBuffer>;
using VertexArray = Handle<releaseVertexArray>;
using Program = Handle<releaseProgram>;
using Shader = Handle<releaseShader>;

}  // namespace cs::gl
