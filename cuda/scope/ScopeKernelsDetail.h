// Internal to cs_cuda: the specialised scope kernels that cuda::scopePass (ScopeKernels.cu)
// dispatches to, each in a file of its own. docs/CUDA.md explains when each one runs.
#pragma once
#include <cuda_runtime_api.h>

#include "ScopeKernels.h"

namespace cs::cuda::detail {

// The luma histogram alone, for formats whose luma is a plane of its own (planar,
// semi-planar, gray): lane-owned shared counters, 16-byte loads. d_histY must be zero,
// unless d_scratch (ScopeOutputs::d_histScratch) is given: then d_histY is written whole.
// Returns cudaErrorNotSupported when the device lacks the shared memory it needs
// (the caller then uses the general kernel).
cudaError_t lumaHistogramPass(const PlaneSet& planes, PixelFormat format, int width, int height, uint32_t* d_histY,
                              uint32_t* d_scratch, cudaStream_t stream);

// Every scope of a 4:2:0 or 4:2:2 frame (yuv420p, yuv420p10, nv12, p010, yuv422p,
// yuv422p10, uyvy422, yuyv422) in one launch: each thread counts 2x2 quads, conflict-free
// shared atomics (see QuadKernel.cu); with nothing to count, the picture, luma plane and
// lookup preview alone (QuadPictureKernels.cu). Same contract as scopePass. cudaErrorNotSupported: another format,
// nothing to do, or the device lacks the shared memory (the caller then uses the general
// kernel).
cudaError_t quadPass(const PlaneSet& planes, PixelFormat format, int width, int height, const ScopeColour& colour,
                        uint32_t flags, const ScopeOutputs& outputs, cudaStream_t stream);
// The strip width, grid, block and shared memory quadPass would use (gridX = 0 when it
// would not run), for the benchmarks' notes.
ScopeLaunchShape quadShape(PixelFormat format, int width, int height, uint32_t flags);

// Raises a kernel's dynamic shared memory limit once per device and size (not inside a
// graph capture: the first call for a size must come from an uncaptured launch, which the
// engine's prepare()/warm-up and every benchmark provide). Returns the CUDA error, if any.
cudaError_t optInSharedMemory(const void* kernel, size_t bytes);
// The device's largest dynamic shared memory per block (after opting in), cached per device.
size_t maxSharedPerBlock();

}  // namespace cs::cuda::detail
