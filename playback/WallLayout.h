// A monitoring wall's layout as the user sets it up: its sources, its grid and the small
// scopes every tile shows (saved as JSON by ui/wall/WallFile.h), and each tile's rectangle.
// Plain data, no Qt: the wall's tiles (playback/WallTile.h) and its window share it.
#pragma once
#include <string>
#include <vector>

namespace cs {

struct WallScopes {
    bool waveform = true;
    bool vectorscope = true;
    bool histogram = false;
    bool any() const { return waveform || vectorscope || histogram; }
    int count() const { return int(waveform) + int(vectorscope) + int(histogram); }
    bool operator==(const WallScopes&) const = default;
};

struct WallConfig {
    std::vector<std::string> sources;
    int columns = 0;   // 0: automatic
    WallScopes scopes;
    bool operator==(const WallConfig&) const = default;
};

// Columns and rows for n tiles: 1x1, 2x1, 2x2, 3x2, 3x3, 4x3, 4x4, 5x4, ... (columns =
// ceil(sqrt(n))), or the given column count.
struct WallGrid {
    int columns = 1, rows = 1;
};
WallGrid wallGrid(int tiles, int columns = 0);
// Tile i's rectangle in a view of w x h pixels (x, y, width, height; row-major, top-left first).
struct TileRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool contains(int px, int py) const { return px >= x && py >= y && px < x + width && py < y + height; }
};
TileRect wallTileRect(const WallGrid& grid, int index, int width, int height);

}  // namespace cs
