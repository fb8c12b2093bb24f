// The GL side of the wall: every tile's newest canvas (ui/WallTile.h) uploaded when it changed
// and drawn in one pass into the bound framebuffer: one texture and one quad per tile, the
// selected tile outlined. Used by the wall's view (ui/WallView.h) on the GUI thread and by
// playback_bench --wall --no-window on its refresh thread, with the GL context current.
// It keeps, per tile, what the display showed: frames presented, frames the tile published
// that no refresh showed, and the latency from a frame's arrival (live) or due time (files) to
// the refresh that showed it.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "core/Status.h"
#include "render/ImageRenderer.h"
#include "render/Texture.h"
#include "ui/WallFile.h"

namespace cs {

class WallTile;

struct TileDisplayStats {
    int64_t presented = 0;        // new frames shown
    int64_t unshown = 0;          // frames the tile drew that were replaced before a refresh showed them
    double lastLatencyMs = 0.0, maxLatencyMs = 0.0, sumLatencyMs = 0.0;
    double meanLatencyMs() const { return presented ? sumLatencyMs / double(presented) : 0.0; }
};

class WallRenderer {
public:
    Status create();   // the context current
    void release();    // the context current

    // Sets each tile's canvas size to its rectangle, uploads new canvases and draws every tile.
    // Returns the number of tiles whose canvas changed.
    int draw(const std::vector<WallTile*>& tiles, const WallGrid& grid, int width, int height, int selected);
    TileDisplayStats stats(const WallTile& tile) const;

private:
    struct TileState {
        gl::RgbaTexture texture;
        uint64_t serial = 0;
        int width = 0, height = 0;
        int64_t framesAtLast = 0;
        TileDisplayStats stats;
    };
    gl::ImageRenderer images_;
    gl::LineRenderer lines_;
    std::map<int, TileState> tiles_;   // by WallTile::serial()
};

}  // namespace cs
