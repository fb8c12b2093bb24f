// A current OpenGL 3.3 core context with no window system: a 16x16 pbuffer on the first EGL
// device that gives one (EGL_EXT_platform_device: the NVIDIA driver's EGL, or Mesa's), else
// on EGL's default display; the GLEW loader initialised on it. For the GPU view test and
// playback_bench --no-window, on machines where no X server gives the GPU's OpenGL. The
// context lives until the process ends.
#pragma once
#include "core/Status.h"

namespace cs::gl {

Status makeHeadlessContext();

}  // namespace cs::gl
