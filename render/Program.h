// Shader programs built from the GLSL sources compiled into the binary (resources/shaders,
// Qt resource prefix /shaders). Compile and link errors come back with the driver's log.
#pragma once
#include <string>

#include "GlObjects.h"
#include "core/Status.h"

namespace cs::gl {

// The text of a shader resource, e.g. "image.vert" -> ":/shaders/image.vert".
Result<std::string> shaderSource(const std::string& name);
// Compiles and links a program from two shader resources.
Result<Program> buildProgram(const std::string& vertexName, const std::string& fragmentName);

}  // namespace cs::gl
