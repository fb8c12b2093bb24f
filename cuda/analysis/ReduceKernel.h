// The reduction of a frame in GPU memory to a small picture: core/FrameReduce.h's rule (the
// same CS_HD per-pixel code, so the result equals reduceFrame's to the code value), shaped
// like CUB: the source read through a PixelSource of device pointers (NV12, P010 from NVDEC,
// and every format the CUDA engine takes), pitched output planes, an explicit stream, no
// allocation, nothing synchronised. One thread writes one output pixel; the source is read
// only at the sampled pixels (a 4K frame to a 480 x 270 tile reads 0.1 % of it).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/FrameReduce.h"

namespace cs::cuda {

// Reduces the srcWidth x srcHeight frame `src` (device pointers) to outWidth x outHeight into
// d_out: Y'CbCr 4:4:4 planes p0, p1, p2 (one byte a sample, or two with `wide`), or one RGB24
// plane p0 with `rgb`; rows outPitch bytes apart. `mid`: the source's mid level. Enqueues one
// kernel on `stream` and returns the launch's error, if any.
cudaError_t reduceFrameOnDevice(const PixelSource& src, int srcWidth, int srcHeight, int32_t mid, bool rgb, bool wide,
                                const ReducedRow& d_out, size_t outPitch, int outWidth, int outHeight, cudaStream_t stream);

}  // namespace cs::cuda
