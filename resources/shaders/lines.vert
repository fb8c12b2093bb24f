// Line segments given in viewport pixels (origin top-left, y down), as Qt widgets count.
#version 330 core
layout(location = 0) in vec2 aPixel;
uniform vec2 uViewport;
void main() {
    vec2 ndc = vec2(aPixel.x / uViewport.x * 2.0 - 1.0, 1.0 - aPixel.y / uViewport.y * 2.0);
    gl_Position = vec4(ndc, 0.0, 1.0);
}
