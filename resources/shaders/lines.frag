// One flat colour (straight alpha) for markers such as the pixel picker's crosshair.
#version 330 core
uniform vec4 uColour;
out vec4 fragColour;
void main() { fragColour = uColour; }
