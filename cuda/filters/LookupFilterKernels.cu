// The lookup previews (FilterKernelsDetail.h): zebra stripes and false colour, a table
// entry per luma code (tables computed by core's own functions), four pixels a thread; and
// the plain copy of an image into a sink. These kernels only move bytes.
#include <cuda_runtime.h>

#include "cuda/DependentLaunch.cuh"
#include "FilterDevice.cuh"
#include "FilterKernelsDetail.h"
#include "cuda/Sinks.cuh"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda::detail {
namespace {

// ---- Copy --------------------------------------------------------------------------------

template <class Sink>
__global__ void copyKernel(const uint8_t* in, size_t pitch, int w, int h, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x < w && y < h) out.store(x, y, pixelAt(in, pitch, x, y));
}

// ---- Zebra, false colour ---------------------------------------------------------------------

// Four luma codes of row y from x (a multiple of 4), clamped to maxCode; n valid.
__device__ __forceinline__ void lumaCodes4(const uint16_t* luma, size_t lumaPitch, int x, int y, int n, int maxCode, int codes[4]) {
    const uint16_t* row = reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(luma) + size_t(y) * lumaPitch) + x;
    if (n == 4) {
        const uint2 q = __ldg(reinterpret_cast<const uint2*>(row));
        codes[0] = int(q.x & 0xffffu); codes[1] = int(q.x >> 16); codes[2] = int(q.y & 0xffffu); codes[3] = int(q.y >> 16);
    } else {
        for (int i = 0; i < 4; ++i) codes[i] = i < n ? int(__ldg(row + i)) : 0;
    }
    for (int i = 0; i < 4; ++i) codes[i] = min(codes[i], maxCode);
}

// Zebra and false colour: four pixels per thread (8-byte luma loads, 16-byte picture loads
// and stores): these kernels only move bytes.
template <class Sink>
__global__ void zebraKernel(const uint16_t* luma, size_t lumaPitch, const uint8_t* picture, size_t picturePitch, int w, int h,
                            const uint32_t* zones, int maxCode, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int x = 4 * int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const int n = min(4, w - x);
    int codes[4];
    lumaCodes4(luma, lumaPitch, x, y, n, maxCode, codes);
    uint32_t px[4];
    const uint32_t* row = reinterpret_cast<const uint32_t*>(picture + size_t(y) * picturePitch) + x;
    if (n == 4) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(row));
        px[0] = q.x; px[1] = q.y; px[2] = q.z; px[3] = q.w;
    } else {
        for (int i = 0; i < 4; ++i) px[i] = i < n ? __ldg(row + i) : 0;
    }
    for (int i = 0; i < 4; ++i) {
        const uint32_t z = __ldg(zones + codes[i]);
        const int xi = x + i;
        if (z == 1 && ((xi + y) & 7) < 4) px[i] &= 0xff000000u;
        else if (z == 2 && ((xi - y) & 7) < 4) px[i] |= 0x00ffffffu;
    }
    out.store4(x, y, px, n);
}

template <class Sink>
__global__ void lookupKernel(const uint16_t* luma, size_t lumaPitch, int w, int h, const uint32_t* lut, int maxCode, Sink out) {
    waitForPrecedingKernel();   // a dependent launch (DependentLaunch.cuh): nothing is touched before it
    const int x = 4 * int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= w || y >= h) return;
    const int n = min(4, w - x);
    int codes[4];
    lumaCodes4(luma, lumaPitch, x, y, n, maxCode, codes);
    const uint32_t v[4] = {__ldg(lut + codes[0]), __ldg(lut + codes[1]), __ldg(lut + codes[2]), __ldg(lut + codes[3])};
    out.store4(x, y, v, n);
}

}  // namespace

cudaError_t enqueueZebra(const uint16_t* d_luma, size_t lumaPitch, const uint8_t* d_picture, size_t picturePitch, int w, int h,
                         const uint32_t* d_zones, int maxCode, const ImageSink& out, cudaStream_t stream, bool dependent) {
    const dim3 grid4 = gridFor((w + 3) / 4, h, kBlock2d);   // four pixels per thread
    return withSink(out, [&](auto sink) {
        launchDependent(dependent, zebraKernel<decltype(sink)>, grid4, kBlock2d, stream, d_luma, lumaPitch, d_picture, picturePitch, w, h,
                        d_zones, maxCode, sink);
    });
}

cudaError_t enqueueLookup(const uint16_t* d_luma, size_t lumaPitch, int w, int h, const uint32_t* d_lut, int maxCode,
                          const ImageSink& out, cudaStream_t stream, bool dependent) {
    const dim3 grid4 = gridFor((w + 3) / 4, h, kBlock2d);
    return withSink(out, [&](auto sink) {
        launchDependent(dependent, lookupKernel<decltype(sink)>, grid4, kBlock2d, stream, d_luma, lumaPitch, w, h, d_lut, maxCode, sink);
    });
}

bool previewLaunchesDependent() { return dependentLaunchSupported(reinterpret_cast<const void*>(lookupKernel<PitchedOut>)); }

}  // namespace cs::cuda::detail

namespace cs::cuda {

cudaError_t copyImage(const uint8_t* d_src, size_t srcPitch, int width, int height, const ImageSink& out, cudaStream_t stream) {
    return withSink(out, [&](auto sink) {
        detail::copyKernel<<<detail::gridFor(width, height, detail::kBlock2d), detail::kBlock2d, 0, stream>>>(d_src, srcPitch, width, height, sink);
    });
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::lookupFilterKernels() { return reinterpret_cast<const void*>(detail::lookupKernel<PitchedOut>); }
