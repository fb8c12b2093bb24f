// A framebuffer object with an RGBA8 colour texture, for drawing views where no window
// system gives a surface (playback_bench --no-window on an EGL device): a view draws into it
// as it would into its window. Storage is reallocated only when the size changes.
#pragma once
#include "GlObjects.h"
#include "Texture.h"
#include "core/Status.h"

namespace cs::gl {

void releaseFramebuffer(Name n);
using Framebuffer = Handle<releaseFramebuffer>;

class OffscreenTarget {
public:
    // Sizes the colour texture (on a change only) and binds the framebuffer for drawing,
    // with the viewport over all of it.
    Status bind(int width, int height);
    // Back to the context's default framebuffer.
    static void unbind();
    // glFinish: waits until everything drawn so far is done, as a swap to the screen would
    // before the next frame.
    static void finish();
    void release();
    // What was drawn (bottom row first, as GL stores it).
    const RgbaTexture& colour() const { return colour_; }

private:
    Framebuffer framebuffer_;
    RgbaTexture colour_;
};

}  // namespace cs::gl
