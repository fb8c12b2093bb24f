// The files `cudascope export` writes for one frame: PNGs of the picture, the preview and
// each scope (graticule included) and the raw counts as .npy (unless ScopeSpec::counts is
// off), each through an AtomicFile (whole or absent). PNGs are encoded in memory, so the
// encoder never meets a failing file (and libpng never prints to stderr); the write reports
// the failure instead.
#pragma once
#include <QByteArray>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/ScopeResults.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

// One file of a frame: an image written as PNG, or counts written as .npy.
struct FrameFile {
    std::string path;
    const RgbaImage* image = nullptr;
    const std::vector<uint32_t>* counts = nullptr;
    std::vector<size_t> shape;
    std::shared_ptr<const RgbaImage> owned;  // an image made for this file (a preview with its legend); `image` points at it
};
// The frame's files, named "NNNNNN-<what>" in `dir` (NNNNNN the frame's index), in the order
// they are written; they point into `results`.
std::vector<FrameFile> frameFiles(const std::filesystem::path& dir, int64_t index, const ScopeSpec& spec, const ScopeResults& results);

// Writes the frame's files in order. The first failure ends the frame (files written before
// it stay) and names the file and the reason.
Status writeFrameFiles(const std::filesystem::path& dir, int64_t index, const ScopeSpec& spec, const ScopeResults& results);

// One image as PNG bytes in memory (empty for an empty image), or the reason it failed.
Status encodePng(const std::string& path, const RgbaImage& image, QByteArray& png);
// One image as a PNG file.
Status writePng(const std::string& path, const RgbaImage& image);
// A file of frameFiles(): `png` holds the image's encoding (encodePng), or is ignored for counts.
Status writeFrameFile(const FrameFile& file, const QByteArray& png);

}  // namespace cs
