// The GL side of the wall: every tile's canvas (playback/WallTile.h) uploaded when it changed and
// drawn in one pass into the bound framebuffer: one texture and one quad per tile, the
// selected tile outlined. Used by the wall's view (ui/wall/WallView.h) on the GUI thread and by
// playback_bench --wall --no-window on its refresh thread, with the GL context current.
// Each refresh takes, per tile, the canvas due for it (WallTile::takeCanvas, playback/WallPacing.h:
// files paced by their due times with a presentation delay of one refresh period, live
// newest-wins). It keeps, per tile, what the display showed: frames presented, frames the tile
// drew that no refresh showed, and the latency from a frame's arrival (live) or due time
// (files) to the refresh that showed it.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/Status.h"
#include "render/ImageRenderer.h"
#include "render/Texture.h"
#include "WallFile.h"

namespace cs {

class WallTile;

struct TileDisplayStats {
    int64_t presented = 0;        // new frames shown
    int64_t unshown = 0;          // frames the tile drew that no refresh showed (passed over, or out of a full queue)
    double lastLatencyMs = 0.0, maxLatencyMs = 0.0, sumLatencyMs = 0.0;
    double meanLatencyMs() const { return presented ? sumLatencyMs / double(presented) : 0.0; }
};

class WallRenderer {
public:
    Status create();   // the context current
    void release();    // the context current

    // The refresh period the presentation delay follows (default 60 Hz).
    void setRefreshPeriod(std::chrono::steady_clock::duration period) { period_ = period; }
    // The refresh at `refresh` (the vsync slot; now by default): sets each tile's canvas size to
    // its rectangle, uploads the canvases due and draws every tile. Returns the number of tiles
    // whose canvas changed.
    int draw(const std::vector<WallTile*>& tiles, const WallGrid& grid, int width, int height, int selected,
             std::chrono::steady_clock::time_point refresh = std::chrono::steady_clock::now());
    // After draw: when the first frame still queued for a later refresh comes due for one
    // (its due time plus the presentation delay), if any tile has one: the view paints then.
    std::optional<std::chrono::steady_clock::time_point> nextDue() const { return nextDue_; }
    TileDisplayStats stats(const WallTile& tile) const;

private:
    struct TileState {
        gl::RgbaTexture texture;
        uint64_t serial = 0;
        int width = 0, height = 0;
        TileDisplayStats stats;
    };
    gl::ImageRenderer images_;
    gl::LineRenderer lines_;
    std::map<int, TileState> tiles_;   // by WallTile::serial()
    std::chrono::steady_clock::duration period_ = std::chrono::microseconds(16667);
    std::optional<std::chrono::steady_clock::time_point> nextDue_;
};

}  // namespace cs
