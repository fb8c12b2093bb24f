// core/Yuv420Converter.h on the GPU: the host RGBA picture uploaded once, converted by
// cuda/convert/Yuv420Kernel.h (equal to core/Yuv420 byte for byte) on a stream of the converter's own
// on the engine's device (its primary context: the one FFmpeg's CUDA frames live in), and
// either left in the caller's device planes (NVENC, no host copy) or downloaded once into
// page-locked memory with one asynchronous copy (libx264 / libx265).
#pragma once
#include <memory>

#include "core/Yuv420Converter.h"

namespace cs::cuda {

// A converter on `device` (CudaEngine::device()); fails with CUDA's reason.
Result<std::shared_ptr<Yuv420Converter>> makeYuv420Converter(int device);

}  // namespace cs::cuda
