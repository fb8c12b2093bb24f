// B's scope trace, tinted and added (see CompareTrace.h).
#include "CompareTrace.h"

#include <GL/glew.h>

#include "Program.h"

namespace cs::gl {

Status CompareTraceRenderer::create() {
    auto program = buildProgram("image.vert", "compare_trace.frag");
    if (!program) return program.status();
    program_ = std::move(program.value());
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    vao_.reset(vao);
    glGenSamplers(1, &sampler_);
    glSamplerParameteri(sampler_, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glSamplerParameteri(sampler_, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(sampler_, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler_, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    const GLuint p = program_.get();
    uRect_ = glGetUniformLocation(p, "uRect");
    uTexRect_ = glGetUniformLocation(p, "uTexRect");
    uImage_ = glGetUniformLocation(p, "uImage");
    uBase_ = glGetUniformLocation(p, "uBase");
    uUseBase_ = glGetUniformLocation(p, "uUseBase");
    uTint_ = glGetUniformLocation(p, "uTint");
    if (auto e = takeErrors("CompareTraceRenderer::create"); !e.empty()) {
        release();
        return Status::error(e);
    }
    return {};
}

void CompareTraceRenderer::release() {
    if (sampler_) glDeleteSamplers(1, &sampler_);
    sampler_ = 0;
    vao_.reset();
    program_.reset();
}

void CompareTraceRenderer::draw(Name texture, Name base, const RectF& dst, const RectF& uv, int viewWidth, int viewHeight,
                                unsigned tint) const {
    if (!ready() || texture == 0 || dst.empty() || viewWidth <= 0 || viewHeight <= 0) return;
    glViewport(0, 0, viewWidth, viewHeight);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE);
    glUseProgram(program_.get());
    const auto ndcX = [&](double px) { return float(px / viewWidth * 2.0 - 1.0); };
    const auto ndcY = [&](double py) { return float(1.0 - py / viewHeight * 2.0); };
    glUniform4f(uRect_, ndcX(dst.x), ndcY(dst.y), ndcX(dst.x + dst.w), ndcY(dst.y + dst.h));
    glUniform4f(uTexRect_, float(uv.x), float(uv.y), float(uv.x + uv.w), float(uv.y + uv.h));
    glUniform3f(uTint_, float(tint & 0xffu) / 255.0f, float((tint >> 8) & 0xffu) / 255.0f, float((tint >> 16) & 0xffu) / 255.0f);
    glUniform1i(uImage_, 0);
    glUniform1i(uBase_, 1);
    glUniform1i(uUseBase_, base != 0 ? 1 : 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, base);
    glBindSampler(1, sampler_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(0, sampler_);
    glBindVertexArray(vao_.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
    glBindSampler(1, 0);
    glBindSampler(0, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    glDisable(GL_BLEND);
}

}  // namespace cs::gl
