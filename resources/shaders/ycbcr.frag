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
// Built with TONE_MAP defined (a variant, so that the SDR picture pays nothing on software
// GL), the R'G'B' converted at the native depth (uOffsets.w is 2^depth - 1) goes through the
// HDR to SDR display transform of uToneMap: a line-for-line transcription of
// core/ToneMap.cpp's toneMapRgb (and of core/Color.cpp's transfer functions it calls), in
// single precision; tests/ui/test_gui_hdr.cpp checks each pixel against the core function
// within one code value.
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
#ifdef TONE_MAP
uniform int uToneMap;         // 1: PQ; 2: HLG (core/ToneMap.h)
uniform vec3 uToneKnee;       // ToneMap sourcePeakPq, maxLum, kneeStart
uniform mat3 uGamut;          // ToneMap::gamut: linear source RGB -> linear BT.709
#endif
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

#ifdef TONE_MAP
// core/Color.cpp pqToNits, nitsToPq, hlgToRelative.
const float kPqM1 = 2610.0 / 16384.0, kPqM2 = 2523.0 / 4096.0 * 128.0, kPqC1 = 3424.0 / 4096.0,
            kPqC2 = 2413.0 / 4096.0 * 32.0, kPqC3 = 2392.0 / 4096.0 * 32.0;
float pqToNits(float e) {
    e = clamp(e, 0.0, 1.0);
    float p = pow(e, 1.0 / kPqM2);
    return 10000.0 * pow(max(p - kPqC1, 0.0) / (kPqC2 - kPqC3 * p), 1.0 / kPqM1);
}
float nitsToPq(float nits) {
    float y = pow(clamp(nits / 10000.0, 0.0, 1.0), kPqM1);
    return pow((kPqC1 + kPqC2 * y) / (1.0 + kPqC3 * y), kPqM2);
}
float hlgToRelative(float e) {
    const float a = 0.17883277, b = 0.28466892, c = 0.55991073;
    e = clamp(e, 0.0, 1.0);
    return e <= 0.5 ? e * e / 3.0 : (exp((e - c) / a) + b) / 12.0;
}

// core/ToneMap.cpp toneMapEetfNits: BT.2390 EETF, Lb = Lmin = 0.
float toneMapEetfNits(float nits) {
    float sourcePeakPq = uToneKnee.x, maxLum = uToneKnee.y, kneeStart = uToneKnee.z;
    float e1 = clamp(nitsToPq(nits) / sourcePeakPq, 0.0, 1.0);
    float e2 = e1;
    if (e1 >= kneeStart) {
        float t = (e1 - kneeStart) / (1.0 - kneeStart);
        float t2 = t * t, t3 = t2 * t;
        e2 = (2.0 * t3 - 3.0 * t2 + 1.0) * kneeStart + (t3 - 2.0 * t2 + t) * (1.0 - kneeStart) +
             (-2.0 * t3 + 3.0 * t2) * maxLum;
    }
    return pqToNits(e2 * sourcePeakPq);
}

// core/ToneMap.cpp toneMapRgb: non-linear HDR R'G'B' 0..1 to SDR BT.709 display R'G'B' 0..1.
// The constants: kHlgPeakNits 1000, kHlgSystemGamma 1.2, BT.2020 luma weights,
// kToneMapSdrWhiteNits 203, kToneMapDisplayGamma 2.4.
vec3 toneMapRgb(vec3 e) {
    vec3 light;
    if (uToneMap == 2) {
        vec3 s = vec3(hlgToRelative(e.r), hlgToRelative(e.g), hlgToRelative(e.b));
        float ys = 0.2627 * s.r + (1.0 - 0.2627 - 0.0593) * s.g + 0.0593 * s.b;
        float gain = ys > 0.0 ? 1000.0 * pow(ys, 1.2 - 1.0) : 0.0;
        light = gain * s;
    } else {
        light = vec3(pqToNits(e.r), pqToNits(e.g), pqToNits(e.b));
    }
    float peak = max(max(light.r, light.g), light.b);
    float scale = peak > 0.0 ? toneMapEetfNits(peak) / peak / 203.0 : 0.0;
    vec3 linear = clamp((uGamut * light) * scale, 0.0, 1.0);
    return pow(linear, vec3(1.0 / 2.4));
}
#endif

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
