// Picture B's scope trace over picture A's scope (render/CompareTrace.h): the trace's
// brightness (its largest channel) in one tint, added to what is drawn. With uUseBase the
// image is a whole scope image (trace, background and graticule) and uBase the same scope
// drawn without counts: their difference is the trace alone.
#version 330 core
uniform sampler2D uImage;
uniform sampler2D uBase;
uniform int uUseBase;
uniform vec3 uTint;
in vec2 vTexCoord;
out vec4 fragColour;
void main() {
    vec3 c = texture(uImage, vTexCoord).rgb;
    if (uUseBase != 0) c = max(c - texture(uBase, vTexCoord).rgb, vec3(0.0));
    float level = max(c.r, max(c.g, c.b));
    fragColour = vec4(uTint * level, 1.0);
}
