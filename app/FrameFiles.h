// The files `cudascope export` writes for one frame: PNGs of the picture, the preview and
// each scope (graticule included) and the raw counts as .npy, each through an AtomicFile
// (whole or absent). PNGs are encoded in memory, so the encoder never meets a failing
// file (and libpng never prints to stderr); the write reports the failure instead.
#pragma once
#include <cstdint>
#include <filesystem>

#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

// Files named "NNNNNN-<what>" in `dir`, NNNNNN the frame's index. The first failure
// ends the frame (files written before it stay) and names the file and the reason.
Status writeFrameFiles(const std::filesystem::path& dir, int64_t index, const ScopeSpec& spec, const ScopeResults& results);

// One image as a PNG file.
Status writePng(const std::string& path, const RgbaImage& image);

}  // namespace cs
