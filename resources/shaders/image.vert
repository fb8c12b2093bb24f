// A textured rectangle without vertex buffers: four vertices from gl_VertexID, drawn as a
// triangle strip. uRect is the destination in normalised device coordinates (x0, y0, x1, y1
// with y0 the TOP edge); uTexRect the texture window (u0, v0, u1, v1, v0 = the image's top row).
#version 330 core
uniform vec4 uRect;
uniform vec4 uTexRect;
out vec2 vTexCoord;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));   // (0,0) top-left .. (1,1) bottom-right
    gl_Position = vec4(mix(uRect.x, uRect.z, corner.x), mix(uRect.y, uRect.w, corner.y), 0.0, 1.0);
    vTexCoord = vec2(mix(uTexRect.x, uTexRect.z, corner.x), mix(uTexRect.y, uTexRect.w, corner.y));
}
