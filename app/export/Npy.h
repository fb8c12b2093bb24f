// NumPy .npy writer (format version 1.0) for uint32 little-endian arrays, so exported
// scope counts open with numpy.load() as they are. Written through an AtomicFile: the
// file appears whole or not at all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"

namespace cs {

Status writeNpyUint32(const std::string& path, const std::vector<uint32_t>& data, const std::vector<size_t>& shape);

}  // namespace cs
