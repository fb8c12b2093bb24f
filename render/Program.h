// Shader programs built from the GLSL sources compiled into the binary (resources/shaders,
// Qt resource prefix /shaders). Compile and link errors come back with the driver's log.
#pragma once
#include <string>

#include "GlObjects.h"
#include "core/Status.h"

namespace cs::gl {

// The text of a shader resource, e.g. "image.vert" -> ":/shaders/image.vert".
Result<std::string> shaderSource(const std::string& name);
// Compiles and links a program from two shader resources. `fragmentDefines` (lines such as
// "#define FOCUS_PEAKING 1\n") go into the fragment shader right after its #version line:
// variants of one source instead of a branch on a uniform, which software GL runs on every
// pixel, taken or not.
Result<Program> buildProgram(const std::string& vertexName, const std::string& fragmentName,
                             const std::string& fragmentDefines = {});

}  // namespace cs::gl
