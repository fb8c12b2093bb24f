// Which of a wall tile's drawn canvases a display refresh shows (playback/WallTile.h keeps the queue,
// ui/wall/WallRenderer.h asks once per refresh). Files are paced by their timestamps: each canvas is
// stamped with the time its frame is due on the tile's clock, and the refresh at time R shows the
// canvas whose due time is the latest at or before R - delay, the delay being about one refresh
// period, so the worker's jitter (two canvases published within one refresh interval) loses
// nothing: a 60 fps source on a 60 Hz refresh shows every frame. Live sources are newest-wins
// (latency matters more than pacing there). Canvases passed over are dropped (never shown).
#pragma once
#include <chrono>
#include <span>

namespace cs {

struct CanvasPick {
    int index = -1;   // the canvas to show now, -1: none is due yet (keep showing the current one)
    int dropped = 0;  // canvases before it, discarded unshown (they were due earlier and never shown)
};

// `due`: the queued canvases' due times in publication order. The picked canvas and every
// canvas before it leave the queue; those after it stay for a later refresh.
CanvasPick pickDueCanvas(std::span<const std::chrono::steady_clock::time_point> due,
                         std::chrono::steady_clock::time_point refresh, std::chrono::steady_clock::duration delay,
                         bool newestWins);

}  // namespace cs
