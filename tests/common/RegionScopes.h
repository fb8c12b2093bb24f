// Region tests' shared parts (core/FrameRegion.h): a frame's components cropped to a region
// (so that the cropped frame is built independently of regionView's pointer arithmetic),
// and every result two engine runs must share.
#pragma once
#include <gtest/gtest.h>

#include "core/FieldView.h"
#include "core/FrameRegion.h"
#include "core/ScopeResults.h"
#include "tests/common/ReferenceScopes.h"

namespace cs::testing {

// `r` must be snapped (snapRegion): its chroma samples are whole ones of the source.
// The lines of one field (core/FieldView.h) and, for 4:2:0, its parity's chroma rows.
inline Components fieldComponents(PixelFormat f, const Components& c, Field field) {
    const int parity = field == Field::Bottom ? 1 : 0;
    const int h = fieldHeight(f, c.height, field);
    Components out{c.width, h, c.cw, chromaHeight(f, h), c.sw, c.sh, {}, {}, {}, {}, {}, {}};
    const bool rgb = formatInfo(f).isRgb;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < c.width; ++x) {
            const size_t i = size_t(2 * y + parity) * size_t(c.width) + size_t(x);
            if (rgb) {
                out.r.push_back(c.r[i]); out.g.push_back(c.g[i]); out.b.push_back(c.b[i]);
            } else {
                out.y.push_back(c.y[i]);
            }
        }
    if (!rgb)
        for (int cy = 0; cy < out.ch; ++cy)
            for (int cx = 0; cx < out.cw; ++cx) {
                const size_t i = size_t(2 * cy + parity) * size_t(c.cw) + size_t(cx);
                out.cb.push_back(c.cb[i]); out.cr.push_back(c.cr[i]);
            }
    return out;
}


inline Components cropComponents(PixelFormat f, const Components& c, const FrameRegion& r) {
    Components out{r.width, r.height, chromaWidth(f, r.width), chromaHeight(f, r.height), c.sw, c.sh, {}, {}, {}, {}, {}, {}};
    const bool rgb = formatInfo(f).isRgb;
    for (int y = r.y; y < r.y + r.height; ++y)
        for (int x = r.x; x < r.x + r.width; ++x) {
            const size_t i = size_t(y) * size_t(c.width) + size_t(x);
            if (rgb) {
                out.r.push_back(c.r[i]); out.g.push_back(c.g[i]); out.b.push_back(c.b[i]);
            } else {
                out.y.push_back(c.y[i]);
            }
        }
    if (!rgb)
        for (int cy = 0; cy < out.ch; ++cy)
            for (int cx = 0; cx < out.cw; ++cx) {
                const size_t i = size_t((r.y >> c.sh) + cy) * size_t(c.cw) + size_t((r.x >> c.sw) + cx);
                out.cb.push_back(c.cb[i]); out.cr.push_back(c.cr[i]);
            }
    return out;
}

inline void expectSameImage(const RgbaImage& a, const RgbaImage& b, const char* name) {
    EXPECT_EQ(a.width, b.width) << name;
    EXPECT_EQ(a.height, b.height) << name;
    EXPECT_TRUE(a.pixels == b.pixels) << name << " differs";
}

// Every count, statistic and image.
inline void expectSameScopes(const ScopeResults& a, const ScopeResults& b) {
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
    EXPECT_EQ(a.levels, b.levels);
    EXPECT_EQ(a.histY, b.histY);
    EXPECT_EQ(a.histR, b.histR);
    EXPECT_EQ(a.histG, b.histG);
    EXPECT_EQ(a.histB, b.histB);
    EXPECT_EQ(a.waveform, b.waveform);
    EXPECT_EQ(a.parade, b.parade);
    EXPECT_EQ(a.vectorscope, b.vectorscope);
    EXPECT_EQ(a.stats.y.min, b.stats.y.min); EXPECT_EQ(a.stats.y.max, b.stats.y.max);
    EXPECT_EQ(a.stats.u.min, b.stats.u.min); EXPECT_EQ(a.stats.u.max, b.stats.u.max);
    EXPECT_EQ(a.stats.v.min, b.stats.v.min); EXPECT_EQ(a.stats.v.max, b.stats.v.max);
    EXPECT_EQ(a.stats.y.avg, b.stats.y.avg);
    EXPECT_EQ(a.stats.u.avg, b.stats.u.avg);
    EXPECT_EQ(a.stats.v.avg, b.stats.v.avg);
    EXPECT_EQ(a.stats.outOfLegal, b.stats.outOfLegal);
    EXPECT_EQ(a.stats.outOfGamut, b.stats.outOfGamut);
    EXPECT_EQ(a.stats.outOfR103, b.stats.outOfR103);
    EXPECT_EQ(a.hdr.measured, b.hdr.measured);
    EXPECT_EQ(a.hdr.maxCodes, b.hdr.maxCodes);
    EXPECT_EQ(a.hdr.maxNits, b.hdr.maxNits);
    EXPECT_EQ(a.gamut.measured, b.gamut.measured);
    EXPECT_EQ(a.gamut.source, b.gamut.source);
    EXPECT_EQ(a.gamut.counts, b.gamut.counts);
    EXPECT_EQ(a.gamut.outside, b.gamut.outside);
    expectSameImage(a.picture, b.picture, "picture");
    expectSameImage(a.histogramImage, b.histogramImage, "histogram image");
    expectSameImage(a.waveformImage, b.waveformImage, "waveform image");
    expectSameImage(a.paradeImage, b.paradeImage, "parade image");
    expectSameImage(a.vectorscopeImage, b.vectorscopeImage, "vectorscope image");
    expectSameImage(a.cieImage, b.cieImage, "CIE image");
}

// A small spec asking for everything an engine makes (images at small sizes, to stay cheap).
inline ScopeSpec everyScope(ParadeMode mode) {
    ScopeSpec spec;
    spec.paradeMode = mode;
    spec.cie = true;
    spec.scopeWidth = 96;
    spec.scopeHeight = 64;
    spec.vectorscopeSize = 64;
    spec.cieSize = 64;
    return spec;
}

}  // namespace cs::testing
