// Draws a scope trace of picture B in one colour over picture A's scope, added to what is
// drawn (where both traces meet, the colours add up): the "both overlaid" scopes of the
// compare mode. The trace comes either from a trace-only texture (the CUDA engine's) or
// from a whole scope image together with the same scope drawn without counts (the CPU
// engine's images carry background and graticule; the difference is the trace).
#pragma once
#include "GlObjects.h"
#include "Layout.h"
#include "core/Status.h"

namespace cs::gl {

class CompareTraceRenderer {
public:
    Status create();
    void release();
    bool ready() const { return bool(program_); }
    // `base`: 0 for a trace-only texture. tint: bytes R, G, B little-endian. `uv`: the part
    // of the texture drawn (and of the base, which has the image's size).
    void draw(Name texture, Name base, const RectF& dst, const RectF& uv, int viewWidth, int viewHeight, unsigned tint) const;

private:
    Program program_;
    VertexArray vao_;
    Name sampler_ = 0;
    int uRect_ = -1, uTexRect_ = -1, uImage_ = -1, uBase_ = -1, uUseBase_ = -1, uTint_ = -1;
};

}  // namespace cs::gl
