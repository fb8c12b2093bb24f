#include "ToneMapShader.h"

#include <GL/glew.h>

#include "Program.h"

namespace cs::gl {

Result<std::string> toneMapDefines() {
    auto source = shaderSource("tonemap.glsl");
    if (!source) return source.status();
    return "#define TONE_MAP 1\n" + source.value();
}

void ToneMapUniforms::locate(Name program) {
    mode = glGetUniformLocation(program, "uToneMap");
    knee = glGetUniformLocation(program, "uToneKnee");
    gamut = glGetUniformLocation(program, "uGamut");
}

void ToneMapUniforms::set(const ToneMap& tm) const {
    glUniform1i(mode, tm.transfer == Transfer::Hlg ? 2 : 1);
    glUniform3f(knee, float(tm.sourcePeakPq), float(tm.maxLum), float(tm.kneeStart));
    float m[9];
    for (int i = 0; i < 9; ++i) m[i] = float(tm.gamut[i]);
    glUniformMatrix3fv(gamut, 1, GL_TRUE, m);   // rows as stored
}

}  // namespace cs::gl
