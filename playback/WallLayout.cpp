// Wall grids and tile rectangles (playback/WallLayout.h).
#include "WallLayout.h"

#include <algorithm>
#include <cmath>

namespace cs {

WallGrid wallGrid(int tiles, int columns) {
    tiles = std::max(tiles, 1);
    WallGrid g;
    g.columns = columns > 0 ? std::min(columns, tiles) : int(std::ceil(std::sqrt(double(tiles)) - 1e-9));
    g.rows = (tiles + g.columns - 1) / g.columns;
    return g;
}

TileRect wallTileRect(const WallGrid& grid, int index, int width, int height) {
    const int col = index % grid.columns, row = index / grid.columns;
    TileRect r;
    r.x = width * col / grid.columns;
    r.y = height * row / grid.rows;
    r.width = width * (col + 1) / grid.columns - r.x;
    r.height = height * (row + 1) / grid.rows - r.y;
    return r;
}

}  // namespace cs
