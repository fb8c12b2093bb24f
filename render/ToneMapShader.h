// The HDR to SDR display transform in the viewer's shaders (core/ToneMap.h): the fragment
// defines that make a shader's tone-mapped variant (TONE_MAP and resources/shaders/tonemap.glsl)
// and its uniforms.
#pragma once
#include <string>

#include "GlObjects.h"
#include "core/Status.h"
#include "core/ToneMap.h"

namespace cs::gl {

// "#define TONE_MAP 1\n" and tonemap.glsl: buildProgram's fragmentDefines (plus any others).
Result<std::string> toneMapDefines();

// The tone map's uniforms in one program (-1 where the variant has none: setting is then ignored).
struct ToneMapUniforms {
    int mode = -1, knee = -1, gamut = -1;
    void locate(Name program);
    // The program must be in use.
    void set(const ToneMap& tm) const;
};

}  // namespace cs::gl
