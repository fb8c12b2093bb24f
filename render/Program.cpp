// Compiling and linking the shader resources.
#include "Program.h"

#include <GL/glew.h>

#include <QFile>
#include <vector>

namespace cs::gl {
namespace {

std::string infoLog(GLuint object, bool program) {
    GLint length = 0;
    if (program) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
    else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> text(size_t(std::max(length, 1)), '\0');
    if (program) glGetProgramInfoLog(object, length, nullptr, text.data());
    else glGetShaderInfoLog(object, length, nullptr, text.data());
    return std::string(text.data());
}

Result<Shader> compile(GLenum type, const std::string& name, const std::string& defines) {
    auto source = shaderSource(name);
    if (!source) return source.status();
    if (!defines.empty()) {
        // After the #version line, which must come first.
        const size_t version = source->find("#version");
        const size_t lineEnd = version == std::string::npos ? std::string::npos : source->find('\n', version);
        if (lineEnd == std::string::npos) return Status::error("shader " + name + " has no #version line to put defines after");
        source->insert(lineEnd + 1, defines);
    }
    Shader shader(glCreateShader(type));
    if (!shader) return Status::error("glCreateShader failed for " + name);
    const char* text = source->c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) return Status::error("shader " + name + " does not compile: " + infoLog(shader.get(), false));
    return shader;
}

}  // namespace

Result<std::string> shaderSource(const std::string& name) {
    QFile file(QStringLiteral(":/shaders/") + QString::fromStdString(name));
    if (!file.open(QIODevice::ReadOnly)) return Status::error("shader resource " + name + " is missing from the build");
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), size_t(bytes.size()));
}

Result<Program> buildProgram(const std::string& vertexName, const std::string& fragmentName,
                             const std::string& fragmentDefines) {
    auto vertex = compile(GL_VERTEX_SHADER, vertexName, {});
    if (!vertex) return vertex.status();
    auto fragment = compile(GL_FRAGMENT_SHADER, fragmentName, fragmentDefines);
    if (!fragment) return fragment.status();
    Program program(glCreateProgram());
    if (!program) return Status::error("glCreateProgram failed");
    glAttachShader(program.get(), vertex->get());
    glAttachShader(program.get(), fragment->get());
    glLinkProgram(program.get());
    GLint ok = GL_FALSE;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    glDetachShader(program.get(), vertex->get());
    glDetachShader(program.get(), fragment->get());
    if (ok != GL_TRUE)
        return Status::error("shaders " + vertexName + " + " + fragmentName + " do not link: " + infoLog(program.get(), true));
    return program;
}

}  // namespace cs::gl
