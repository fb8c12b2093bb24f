// Textured rectangles and flat lines with the shaders of resources/shaders.
#include "ImageRenderer.h"

#include <GL/glew.h>

#include "Program.h"
#include "ToneMapShader.h"

namespace cs::gl {

Status ImageRenderer::create() {
    auto toneMap = toneMapDefines();
    if (!toneMap) return toneMap.status();
    for (int i = 0; i < 2; ++i) {
        auto program = buildProgram("image.vert", "image.frag", i == 1 ? toneMap.value() : std::string());
        if (!program) {
            release();
            return program.status();
        }
        Variant& v = variants_[i];
        v.program = std::move(program.value());
        const GLuint p = v.program.get();
        v.uRect = glGetUniformLocation(p, "uRect");
        v.uTexRect = glGetUniformLocation(p, "uTexRect");
        v.uOpacity = glGetUniformLocation(p, "uOpacity");
        v.uImage = glGetUniformLocation(p, "uImage");
        v.toneMap.locate(p);
    }
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    vao_.reset(vao);
    glGenSamplers(2, samplers_);
    for (int i = 0; i < 2; ++i) {
        const GLint filter = i == 0 ? GL_NEAREST : GL_LINEAR;
        glSamplerParameteri(samplers_[i], GL_TEXTURE_MIN_FILTER, filter);
        glSamplerParameteri(samplers_[i], GL_TEXTURE_MAG_FILTER, filter);
        glSamplerParameteri(samplers_[i], GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glSamplerParameteri(samplers_[i], GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    if (auto e = takeErrors("ImageRenderer::create"); !e.empty()) { release(); return Status::error(e); }
    return {};
}

void ImageRenderer::release() {
    if (samplers_[0] || samplers_[1]) glDeleteSamplers(2, samplers_);
    samplers_[0] = samplers_[1] = 0;
    vao_.reset();
    for (Variant& v : variants_) v.program.reset();
}

void ImageRenderer::clear(int viewWidth, int viewHeight, float grey) {
    glViewport(0, 0, viewWidth, viewHeight);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(grey, grey, grey, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void ImageRenderer::draw(Name texture, const RectF& dst, int viewWidth, int viewHeight, const Options& options) const {
    if (!ready() || texture == 0 || dst.empty() || viewWidth <= 0 || viewHeight <= 0) return;
    glViewport(0, 0, viewWidth, viewHeight);
    glDisable(GL_DEPTH_TEST);
    if (options.blend) {
        glEnable(GL_BLEND);
        glBlendFuncSeparate(options.premultiplied ? GL_ONE : GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    } else {
        glDisable(GL_BLEND);
    }
    const Variant& v = variants_[options.toneMap ? 1 : 0];
    glUseProgram(v.program.get());
    const auto ndcX = [&](double px) { return float(px / viewWidth * 2.0 - 1.0); };
    const auto ndcY = [&](double py) { return float(1.0 - py / viewHeight * 2.0); };
    glUniform4f(v.uRect, ndcX(dst.x), ndcY(dst.y), ndcX(dst.x + dst.w), ndcY(dst.y + dst.h));
    glUniform4f(v.uTexRect, float(options.uv.x), float(options.uv.y), float(options.uv.x + options.uv.w),
                float(options.uv.y + options.uv.h));
    glUniform1f(v.uOpacity, options.opacity);
    glUniform1i(v.uImage, 0);
    if (options.toneMap) v.toneMap.set(*options.toneMap);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(0, samplers_[options.smooth ? 1 : 0]);
    glBindVertexArray(vao_.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
    glBindSampler(0, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    glDisable(GL_BLEND);
}

Status LineRenderer::create() {
    auto program = buildProgram("lines.vert", "lines.frag");
    if (!program) return program.status();
    program_ = std::move(program.value());
    GLuint vao = 0, vbo = 0;
    glGenVertexArrays(1, &vao);
    vao_.reset(vao);
    glGenBuffers(1, &vbo);
    vbo_.reset(vbo);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    uViewport_ = glGetUniformLocation(program_.get(), "uViewport");
    uColour_ = glGetUniformLocation(program_.get(), "uColour");
    if (auto e = takeErrors("LineRenderer::create"); !e.empty()) { release(); return Status::error(e); }
    return {};
}

void LineRenderer::release() {
    vbo_.reset();
    vao_.reset();
    program_.reset();
}

void LineRenderer::draw(const float* xy, int segmentCount, int viewWidth, int viewHeight, unsigned rgba) {
    if (!ready() || segmentCount <= 0 || viewWidth <= 0 || viewHeight <= 0) return;
    glViewport(0, 0, viewWidth, viewHeight);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glUseProgram(program_.get());
    glUniform2f(uViewport_, float(viewWidth), float(viewHeight));
    glUniform4f(uColour_, float(rgba & 0xff) / 255.0f, float((rgba >> 8) & 0xff) / 255.0f,
                float((rgba >> 16) & 0xff) / 255.0f, float((rgba >> 24) & 0xff) / 255.0f);
    glBindVertexArray(vao_.get());
    glBindBuffer(GL_ARRAY_BUFFER, vbo_.get());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(sizeof(float)) * 4 * segmentCount, xy, GL_STREAM_DRAW);
    glDrawArrays(GL_LINES, 0, 2 * segmentCount);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_BLEND);
}

}  // namespace cs::gl
