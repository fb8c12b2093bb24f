// Samples an RGBA8 image (rows uploaded top first) and scales its alpha by uOpacity.
// Scope and picture textures are opaque; graticule overlays carry their own alpha and are
// blended with GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, as the CPU renderer blends them.
// Built with TONE_MAP and tonemap.glsl (render/ToneMapShader.h), the R'G'B' of a PQ or HLG
// picture goes through the HDR to SDR display transform (core/ToneMap.h toneMapCode8).
#version 330 core
uniform sampler2D uImage;
uniform float uOpacity;
in vec2 vTexCoord;
out vec4 fragColour;
void main() {
    vec4 c = texture(uImage, vTexCoord);
#ifdef TONE_MAP
    c.rgb = floor(toneMapRgb(c.rgb) * 255.0 + 0.5) / 255.0;
#endif
    fragColour = vec4(c.rgb, c.a * uOpacity);
}
