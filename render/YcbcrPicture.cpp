// Planar Y'CbCr textures and their shader (see YcbcrPicture.h).
#include "YcbcrPicture.h"

#include <GL/glew.h>

#include <string>

#include "Program.h"
#include "ToneMapShader.h"
#include "core/PeakingWidth.h"
#include "core/PixelFormat.h"

namespace cs::gl {

bool YcbcrTextures::supports(const FrameView& frame) {
    if (frame.onDevice || frame.format >= PixelFormat::Count || !frame.valid()) return false;
    const PixelFormatInfo& info = formatInfo(frame.format);
    if (info.layout != PixelLayout::Planar || info.isRgb || info.planeCount != 3 || info.bitDepth > 12) return false;
    for (int i = 0; i < 3; ++i)
        if (frame.pitch[size_t(i)] <= 0 || frame.pitch[size_t(i)] % info.bytesPerSample != 0) return false;
    // The shader finds a pixel's chroma sample by scaling its coordinate: the chroma planes
    // must be exactly the luma plane over the subsampling (even sizes where subsampled).
    const int cw = (1 << info.log2ChromaW) - 1, ch = (1 << info.log2ChromaH) - 1;
    return (frame.width & cw) == 0 && (frame.height & ch) == 0;
}

Status YcbcrTextures::upload(const FrameView& frame, const ColorInfo& color) {
    if (!supports(frame)) return Status::error("the frame's pixel format cannot be drawn from its planes");
    const PixelFormatInfo& info = formatInfo(frame.format);
    const int w = frame.width, h = frame.height;
    const int cw = chromaWidth(frame.format, w), ch = chromaHeight(frame.format, h);
    const bool resize = !valid() || w != width_ || h != height_ || info.bytesPerSample != bytesPerSample_ ||
                        info.log2ChromaW != log2cw_ || info.log2ChromaH != log2ch_;
    const GLenum internal = info.bytesPerSample == 1 ? GL_R8 : GL_R16;
    const GLenum type = info.bytesPerSample == 1 ? GL_UNSIGNED_BYTE : GL_UNSIGNED_SHORT;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int i = 0; i < 3; ++i) {
        const int pw = i == 0 ? w : cw, ph = i == 0 ? h : ch;
        if (!planes_[i]) {
            GLuint n = 0;
            glGenTextures(1, &n);
            planes_[i].reset(n);
        }
        glBindTexture(GL_TEXTURE_2D, planes_[i].get());
        if (resize) {
            glTexImage2D(GL_TEXTURE_2D, 0, GLint(internal), pw, ph, 0, GL_RED, type, nullptr);
            // Nearest: each sample is read as stored (the shader converts whole pixels).
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        }
        glPixelStorei(GL_UNPACK_ROW_LENGTH, frame.pitch[size_t(i)] / info.bytesPerSample);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, pw, ph, GL_RED, type, frame.data[size_t(i)]);
    }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (auto e = takeErrors("Y'CbCr plane upload"); !e.empty()) {
        release();
        return Status::error("cannot upload the picture's planes (" + e + ")");
    }
    width_ = w;
    height_ = h;
    depth_ = info.bitDepth;
    bytesPerSample_ = info.bytesPerSample;
    log2cw_ = info.log2ChromaW;
    log2ch_ = info.log2ChromaH;
    toRgb_ = makeYuvToRgb(color.matrix, color.range, info.bitDepth, 8);
    toRgbNative_ = makeYuvToRgb(color.matrix, color.range, info.bitDepth, info.bitDepth);
    return {};
}

void YcbcrTextures::release() {
    for (auto& p : planes_) p.reset();
    width_ = height_ = 0;
}

Status YcbcrRenderer::create() {
    for (int i = 0; i < kVariants; ++i) {
        std::string defines;
        if (i & 1) defines += "#define FOCUS_PEAKING 1\n";
        if (i & 2) {
            auto toneMap = toneMapDefines();
            if (!toneMap) {
                release();
                return toneMap.status();
            }
            defines += toneMap.value();
        }
        auto program = buildProgram("image.vert", "ycbcr.frag", defines);
        if (!program) {
            release();
            return program.status();
        }
        Variant& v = variants_[i];
        v.program = std::move(program.value());
        const GLuint p = v.program.get();
        v.uRect = glGetUniformLocation(p, "uRect");
        v.uTexRect = glGetUniformLocation(p, "uTexRect");
        v.uPlanes[0] = glGetUniformLocation(p, "uY");
        v.uPlanes[1] = glGetUniformLocation(p, "uCb");
        v.uPlanes[2] = glGetUniformLocation(p, "uCr");
        v.uTexel = glGetUniformLocation(p, "uTexel");
        v.uMask = glGetUniformLocation(p, "uMask");
        v.uScale = glGetUniformLocation(p, "uScale");
        v.uOffsets = glGetUniformLocation(p, "uOffsets");
        v.uGains = glGetUniformLocation(p, "uGains");
        v.uPeakFirst = glGetUniformLocation(p, "uPeakFirst");     // -1 in the picture variant: ignored
        v.uPeakColour = glGetUniformLocation(p, "uPeakColour");
        v.uPeakReach = glGetUniformLocation(p, "uPeakReach");
        v.toneMap.locate(p);
    }
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    vao_.reset(vao);
    if (auto e = takeErrors("YcbcrRenderer::create"); !e.empty()) {
        release();
        return Status::error(e);
    }
    return {};
}

void YcbcrRenderer::release() {
    vao_.reset();
    for (Variant& v : variants_) v.program.reset();
}

void YcbcrRenderer::draw(const YcbcrTextures& planes, const YcbcrShading& shading, const RectF& dst, int viewWidth,
                         int viewHeight) const {
    if (!ready() || !planes.valid() || dst.empty() || viewWidth <= 0 || viewHeight <= 0) return;
    const Variant& v = variants_[(shading.focusPeaking ? 1 : 0) | (shading.toneMap ? 2 : 0)];
    glViewport(0, 0, viewWidth, viewHeight);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glUseProgram(v.program.get());
    const auto ndcX = [&](double px) { return float(px / viewWidth * 2.0 - 1.0); };
    const auto ndcY = [&](double py) { return float(1.0 - py / viewHeight * 2.0); };
    glUniform4f(v.uRect, ndcX(dst.x), ndcY(dst.y), ndcX(dst.x + dst.w), ndcY(dst.y + dst.h));
    glUniform4f(v.uTexRect, 0.0f, 0.0f, 1.0f, 1.0f);
    glUniform2f(v.uTexel, 1.0f / float(planes.width()), 1.0f / float(planes.height()));
    glUniform1i(v.uMask, (1 << planes.bitDepth()) - 1);
    glUniform1f(v.uScale, planes.bytesPerSample() == 1 ? 255.0f : 65535.0f);
    // Tone mapping converts at the native depth (its input), the plain picture to 8 bits.
    const YuvToRgb& k = shading.toneMap ? planes.toRgbNative() : planes.toRgb();
    glUniform4i(v.uOffsets, k.yOffset, k.cOffset, k.yMul, k.outMax);
    glUniform4i(v.uGains, k.rCr, k.gCb, k.gCr, k.bCb);
    // Squares never reach 2^31 at depths up to 12 (YcbcrTextures::supports): "never" is INT_MAX.
    const int64_t first = shading.peakingFirstSquare;
    glUniform1i(v.uPeakFirst, first > int64_t(0x7fffffff) ? 0x7fffffff : GLint(first));
    const uint32_t c = shading.peakingColour;
    glUniform4f(v.uPeakColour, float(c & 0xffu), float((c >> 8) & 0xffu), float((c >> 16) & 0xffu),
                float(c >> 24) / 255.0f);
    glUniform1i(v.uPeakReach, peakingReach(shading.peakingWidth));
    if (shading.toneMap) v.toneMap.set(shading.toneMapping);
    for (int i = 0; i < 3; ++i) {
        glUniform1i(v.uPlanes[i], i);
        glActiveTexture(GLenum(GL_TEXTURE0 + i));
        glBindTexture(GL_TEXTURE_2D, planes.plane(i));
        glBindSampler(GLuint(i), 0);
    }
    glBindVertexArray(vao_.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
    for (int i = 2; i >= 0; --i) {
        glActiveTexture(GLenum(GL_TEXTURE0 + i));
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    glUseProgram(0);
}

}  // namespace cs::gl
