// The HDR to SDR display transform of core/ToneMap.h for the viewer's shaders: a
// line-for-line transcription of core/ToneMap.cpp's toneMapRgb (and of core/Color.cpp's
// transfer functions it calls), in single precision. Inserted after the version line of
// ycbcr.frag and image.frag with TONE_MAP defined (render/ToneMapShader.h);
// tests/ui/test_gui_hdr.cpp checks the viewer's pixels against the core function within one
// code value.
uniform int uToneMap;         // 1: PQ; 2: HLG (ToneMap::transfer)
uniform vec3 uToneKnee;       // ToneMap sourcePeakPq, maxLum, kneeStart
uniform mat3 uGamut;          // ToneMap::gamut: linear source RGB -> linear BT.709

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
