// The wall's one drawing pass (ui/wall/WallRenderer.h).
#include "WallRenderer.h"

#include <algorithm>
#include <set>

#include "playback/WallTile.h"

namespace cs {

Status WallRenderer::create() {
    if (Status s = images_.create(); !s) return s;
    return lines_.create();
}

void WallRenderer::release() {
    tiles_.clear();
    images_.release();
    lines_.release();
}

int WallRenderer::draw(const std::vector<WallTile*>& tiles, const WallGrid& grid, int width, int height, int selected,
                       std::chrono::steady_clock::time_point refresh) {
    gl::ImageRenderer::clear(width, height, 0.05f);
    std::set<int> present;
    int changed = 0;
    nextDue_.reset();
    for (size_t i = 0; i < tiles.size(); ++i) {
        WallTile& tile = *tiles[i];
        present.insert(tile.serial());
        TileState& st = tiles_[tile.serial()];
        const TileRect r = wallTileRect(grid, int(i), width, height);
        if (r.width != st.width || r.height != st.height) {
            st.width = r.width, st.height = r.height;
            tile.setCanvasSize(r.width, r.height);
        }
        const CanvasTake take = tile.takeCanvas(refresh, period_);
        st.stats.unshown += take.unshown;
        if (const auto due = tile.firstQueuedDue()) nextDue_ = std::min(nextDue_.value_or(*due + period_), *due + period_);
        const std::shared_ptr<const TileCanvas>& canvas = take.canvas;
        if (canvas && canvas->serial != st.serial) {
            st.serial = canvas->serial;
            if (st.texture.upload(canvas->image)) ++changed;
            if (canvas->newFrame) {
                ++st.stats.presented;
                const double ms = std::chrono::duration<double, std::milli>(refresh - canvas->origin).count();
                st.stats.lastLatencyMs = ms;
                st.stats.maxLatencyMs = std::max(st.stats.maxLatencyMs, ms);
                st.stats.sumLatencyMs += ms;
            }
        }
        if (!st.texture.valid()) continue;
        // The canvas is drawn 1:1 at its size (it is drawn for the rectangle; a refresh right
        // after a resize shows the old size scaled until the tile draws the new one).
        gl::ImageRenderer::Options o;
        o.smooth = st.texture.width() != r.width || st.texture.height() != r.height;
        images_.draw(st.texture.name(), RectF{double(r.x), double(r.y), double(r.width), double(r.height)}, width, height, o);
    }
    if (selected >= 0 && selected < int(tiles.size())) {
        const TileRect r = wallTileRect(grid, selected, width, height);
        const float x0 = float(r.x) + 1.5f, y0 = float(r.y) + 1.5f, x1 = float(r.x + r.width) - 1.5f, y1 = float(r.y + r.height) - 1.5f;
        const float box[] = {x0, y0, x1, y0, x1, y0, x1, y1, x1, y1, x0, y1, x0, y1, x0, y0};
        lines_.draw(box, 4, width, height, 0xffffffffu);
    }
    for (auto it = tiles_.begin(); it != tiles_.end();)
        it = present.count(it->first) ? std::next(it) : tiles_.erase(it);
    return changed;
}

TileDisplayStats WallRenderer::stats(const WallTile& tile) const {
    const auto it = tiles_.find(tile.serial());
    return it == tiles_.end() ? TileDisplayStats{} : it->second.stats;
}

}  // namespace cs
