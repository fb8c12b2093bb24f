// Where the CUDA kernels write RGBA 8-bit images: pitched device memory or a surface
// object (a mapped GL texture). Kernels are templated on the sink; withSink picks one.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/filters/FilterKernels.h"

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

// A warp's row of 8-pixel groups stored so that every store instruction covers consecutive
// pixels across the warp. Lane l < groups holds pixels x + 8l .. x + 8l + 7 in o (all inside
// the image; x a multiple of 4); every lane of the warp calls it. Stored group by group, a
// warp's 16-byte store spans 1 KB at a 32-byte stride: every 32-byte sector half written, by
// two instructions, which doubles the store traffic into L2 (16 of every 32 bytes of a
// sector written per instruction). Through the warp's 1 KB stage of shared
// memory instead: pitched memory takes 16-byte stores of 512 consecutive bytes a warp, a
// surface 4-byte writes of 128 consecutive bytes. Stage chunks are swizzled (chunk c's bit 0
// flipped by its bit 3) so that both the group-wise writes and the run-wise reads are free of
// bank conflicts.
__device__ __forceinline__ int stageChunk(int c) { return c ^ ((c >> 3) & 1); }
__device__ __forceinline__ void stageGroups(uint4* stage, const uint32_t o[8], int lane, int groups) {
    __syncwarp();   // the stage's previous readers are done
    if (lane < groups) {
        stage[stageChunk(2 * lane)] = make_uint4(o[0], o[1], o[2], o[3]);
        stage[stageChunk(2 * lane + 1)] = make_uint4(o[4], o[5], o[6], o[7]);
    }
    __syncwarp();
}
__device__ __forceinline__ void storeWarpGroups(const PitchedOut& out, uint4* stage, int x, int y, const uint32_t o[8], int lane, int groups) {
    stageGroups(stage, o, lane, groups);
    uint4* row = reinterpret_cast<uint4*>(out.p + size_t(y) * out.pitch) + x / 4;
    if (lane < 2 * groups) row[lane] = stage[stageChunk(lane)];
    if (lane + 32 < 2 * groups) row[lane + 32] = stage[stageChunk(lane + 32)];
}
__device__ __forceinline__ void storeWarpGroups(const SurfaceOut& out, uint4* stage, int x, int y, const uint32_t o[8], int lane, int groups) {
    stageGroups(stage, o, lane, groups);
    const uint32_t* words = reinterpret_cast<const uint32_t*>(stage);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int p = 32 * i + lane;   // pixel x + p: chunk p / 4, word p % 4
        if (p < 8 * groups) out.store(x + p, y, words[4 * stageChunk(p >> 2) + (p & 3)]);
    }
}

// Calls fn(sink) with the sink type matching `out`, then reports the launch error.
template <typename Fn>
cudaError_t withSink(const ImageSink& out, Fn fn) {
    if (out.d_pixels) fn(PitchedOut{out.d_pixels, out.pitch});
    else fn(SurfaceOut{out.surface});
    return cudaGetLastError();
}

}  // namespace cs::cuda
