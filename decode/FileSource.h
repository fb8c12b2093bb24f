// Files (and any input libavformat can read) as a Source: demux the best video stream and
// decode it, in software (frame and slice threads) or with NVDEC through FFmpeg's CUDA
// hwaccel, falling back to software when NVDEC cannot be had.
#pragma once
#include <memory>
#include <string>

#include "decode/Source.h"

namespace cs {

Result<std::unique_ptr<Source>> openFileSource(const std::string& input, const OpenOptions& options);

}  // namespace cs
