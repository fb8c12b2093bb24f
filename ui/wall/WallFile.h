// A monitoring wall as the user sets it up: its sources, its grid and the small scopes every
// tile shows; saved and loaded as JSON (`cudascope --wall FILE`):
//   {"cudascope_wall": 1, "sources": ["a.mp4", "udp://127.0.0.1:5000", "pattern:bars"],
//    "columns": 0, "scopes": ["waveform", "vectorscope"]}
// columns 0: chosen for the number of sources (wallGrid). Unknown keys are refused, so that a
// typing error is not silently ignored.
#pragma once
#include <string>
#include <vector>

#include "core/Status.h"
#include "playback/WallLayout.h"

namespace cs {

std::string wallToJson(const WallConfig& wall);
// Errors name the file and the reason: "studio.wall: 'sources' must be a list of inputs".
Result<WallConfig> wallFromJson(const std::string& text, const std::string& name);
Result<WallConfig> loadWall(const std::string& path);
Status saveWall(const WallConfig& wall, const std::string& path);

}  // namespace cs
