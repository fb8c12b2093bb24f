// The picture from its planar Y'CbCr samples (render/YcbcrPicture.h): core/Color.h's
// yuvToRgb to 8 bits in the same 32-bit integer steps (so a pixel shown 1:1 carries the
// CPU picture's code values); built with FOCUS_PEAKING defined, it paints focus peaking
// where core/Filters' Sobel square of luma reaches uPeakFirst (a variant rather than a
// branch: software GL would fetch the eight neighbours for every pixel either way). Wider
// peaking (uPeakReach 1 or 2, core/PeakingWidth.h) paints where any pixel of the frame within
// the reach across and down is an edge: the luma around them is fetched once into an array
// and each one's Sobel square taken from it.
//
// Each fragment shows the pixel under its centre: the planes are sampled with nearest
// filtering at the fragment's own coordinate (the chroma planes are exactly the luma
// plane's size over the subsampling, so the chroma texel found is the one covering that
// pixel), and clamping at the edges repeats the border as core's Sobel does. One plain
// texture lookup per plane and one conversion per fragment: on software GL (llvmpipe)
// integer fetches, or mixing four converted pixels, cost several times as much.
//
// Built with TONE_MAP defined and tonemap.glsl inserted after the version line (a variant,
// so that the SDR picture pays nothing on software GL), the R'G'B' converted at the native
// depth (uOffsets.w is 2^depth - 1) goes through the HDR to SDR display transform
// (toneMapRgb, core/ToneMap.h).
#version 330 core
uniform sampler2D uY;
uniform sampler2D uCb;
uniform sampler2D uCr;
uniform float uScale;         // 255 or 65535: the samples' storage maximum (normalised textures)
uniform vec2 uTexel;          // one luma pixel in texture coordinates
uniform int uMask;            // (1 << depth) - 1: bits above the depth are ignored
uniform ivec4 uOffsets;       // YuvToRgb yOffset, cOffset, yMul, outMax
uniform ivec4 uGains;         // YuvToRgb rCr, gCb, gCr, bCb
uniform int uPeakFirst;       // least gx^2 + gy^2 painted
uniform vec4 uPeakColour;     // R, G, B as codes 0..255; alpha 0..1
uniform int uPeakReach;       // peakingReach of the width: 0 (the edges alone), 1 or 2
in vec2 vTexCoord;
out vec4 fragColour;

// A stored sample as its integer (normalised fetches are exact to well under half a step).
int sampleAt(sampler2D plane, vec2 uv) {
    return int(texture(plane, uv).r * uScale + 0.5) & uMask;
}

vec3 pictureAt(vec2 uv) {
    int y = sampleAt(uY, uv);
    int u = sampleAt(uCb, uv) - uOffsets.y;
    int v = sampleAt(uCr, uv) - uOffsets.y;
    int yy = uOffsets.z * (y - uOffsets.x) + (1 << 15);
    ivec3 rgb = ivec3(yy + uGains.x * v, yy - uGains.y * u - uGains.z * v, yy + uGains.w * u) >> 16;
    return vec3(clamp(rgb, ivec3(0), ivec3(uOffsets.w)));
}


int lumaAt(vec2 uv, float dx, float dy) {
    return sampleAt(uY, uv + vec2(dx, dy) * uTexel);
}

#ifdef FOCUS_PEAKING
// The luma code at pixel p, clamped to the frame as core's Sobel clamps it.
int lumaFetch(ivec2 p, ivec2 size) {
    return int(texelFetch(uY, clamp(p, ivec2(0), size - 1), 0).r * uScale + 0.5) & uMask;
}

// Whether a pixel of the frame within uPeakReach of the one under uv is an edge.
bool edgeWithinReach(vec2 uv) {
    ivec2 size = textureSize(uY, 0);
    ivec2 base = ivec2(floor(uv * vec2(size)));
    int n = 2 * uPeakReach + 3;   // the square's pixels and a ring around them for their gradients
    int l[49];                    // row-major, 7 a row (reach 2 at most)
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) l[j * 7 + i] = lumaFetch(base + ivec2(i, j) - ivec2(uPeakReach + 1), size);
    for (int dy = -uPeakReach; dy <= uPeakReach; ++dy)
        for (int dx = -uPeakReach; dx <= uPeakReach; ++dx) {
            ivec2 p = base + ivec2(dx, dy);
            if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, size))) continue;
            int k = (dy + uPeakReach + 1) * 7 + dx + uPeakReach + 1;
            int gx = (l[k - 6] + 2 * l[k + 1] + l[k + 8]) - (l[k - 8] + 2 * l[k - 1] + l[k + 6]);
            int gy = (l[k + 6] + 2 * l[k + 7] + l[k + 8]) - (l[k - 8] + 2 * l[k - 7] + l[k - 6]);
            if (gx * gx + gy * gy >= uPeakFirst) return true;
        }
    return false;
}
#endif

void main() {
    vec3 c = pictureAt(vTexCoord);
#ifdef TONE_MAP
    c = floor(toneMapRgb(c / float(uOffsets.w)) * 255.0 + 0.5);
#endif
#ifdef FOCUS_PEAKING
    if (uPeakReach > 0) {
        if (edgeWithinReach(vTexCoord)) c = floor(c + (uPeakColour.rgb - c) * uPeakColour.a + 0.5);
    } else {
        int a = lumaAt(vTexCoord, -1.0, -1.0), b = lumaAt(vTexCoord, 0.0, -1.0), d = lumaAt(vTexCoord, 1.0, -1.0);
        int e = lumaAt(vTexCoord, -1.0, 0.0), f = lumaAt(vTexCoord, 1.0, 0.0);
        int g = lumaAt(vTexCoord, -1.0, 1.0), h = lumaAt(vTexCoord, 0.0, 1.0), i = lumaAt(vTexCoord, 1.0, 1.0);
        int gx = (d + 2 * f + i) - (a + 2 * e + g);
        int gy = (g + 2 * h + i) - (a + 2 * b + d);
        if (gx * gx + gy * gy >= uPeakFirst) c = floor(c + (uPeakColour.rgb - c) * uPeakColour.a + 0.5);
    }
#endif
    fragColour = vec4(c / 255.0, 1.0);
}
