// RGBA -> NV12 / I420 on the GPU, for the encoders: core/Yuv420.h's conversion (the same
// CS_HD fixed-point functions, so the result equals rgbaToYuv420's byte for byte), shaped
// like CUB: device pointers, pitched planes, an explicit stream, no allocation, nothing
// synchronised (so it can be captured in a graph).
//
// Each thread converts two neighbouring 2x2 blocks: it reads four RGBA pixels of each of
// the two rows with one 128-bit load per row (a warp reads 512 contiguous bytes a row), and
// writes four luma bytes a row and the blocks' chroma with one 32-bit store each (NV12) or
// two 16-bit stores (I420). When a pointer or pitch is not aligned for those vector
// accesses (RGBA: 16 bytes; luma: 4; chroma: 4 for NV12, 2 for I420), or for the last,
// partial group of an odd width, the same arithmetic runs on single bytes.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/Yuv420.h"

namespace cs::cuda {

// True when every pointer and pitch allows the vector loads and stores above.
bool yuv420VectorAligned(const uint8_t* d_rgba, size_t rgbaPitch, const Yuv420Planes& d_out);

// Converts the width x height RGBA image at d_rgba (rows rgbaPitch bytes apart) into the
// planes of d_out (device memory; NV12: Y and CbCr, I420: Y, Cb, Cr; chroma ceil(w/2) x
// ceil(h/2)) with the coefficients k (yuv420Coefficients(matrix, range)). Enqueues one kernel
// on `stream` and returns the launch's error, if any.
cudaError_t rgbaToYuv420(const uint8_t* d_rgba, size_t rgbaPitch, int width, int height, const RgbToYuv& k,
                         const Yuv420Planes& d_out, cudaStream_t stream);

}  // namespace cs::cuda
