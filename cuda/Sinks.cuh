// Where the CUDA kernels write RGBA 8-bit images: pitched device memory or a surface
// object (a mapped GL texture). Kernels are templated on the sink; withSink picks one.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "FilterKernels.h"

namespace cs::cuda {

struct PitchedOut {
    uint8_t* p;
    size_t pitch;
    __device__ __forceinline__ void store(int x, int y, uint32_t rgba) const {
        reinterpret_cast<uint32_t*>(p + size_t(y) * pitch)[x] = rgba;
    }
    // n (1..4) pixels from x, a multiple of 4: one 16-byte store when all four are inside.
    __device__ __forceinline__ void store4(int x, int y, const uint32_t v[4], int n) const {
        uint32_t* row = reinterpret_cast<uint32_t*>(p + size_t(y) * pitch);
        if (n == 4) *reinterpret_cast<uint4*>(row + x) = make_uint4(v[0], v[1], v[2], v[3]);
        else for (int i = 0; i < n; ++i) row[x + i] = v[i];
    }
};
struct SurfaceOut {
    cudaSurfaceObject_t s;
    __device__ __forceinline__ void store(int x, int y, uint32_t rgba) const { surf2Dwrite(rgba, s, x * 4, y); }
    __device__ __forceinline__ void store4(int x, int y, const uint32_t v[4], int n) const {
        for (int i = 0; i < n; ++i) surf2Dwrite(v[i], s, (x + i) * 4, y);
    }
};

// Calls fn(sink) with the sink type matching `out`, then reports the launch error.
template <typename Fn>
cudaError_t withSink(const ImageSink& out, Fn fn) {
    if (out.d_pixels) fn(PitchedOut{out.d_pixels, out.pitch});
    else fn(SurfaceOut{out.surface});
    return cudaGetLastError();
}

}  // namespace cs::cuda
