// Scope display images on the GPU: one thread per image pixel, the trace by ImagePixels.h's
// functions, then the overlay's tables. Compiled without FMA contraction (-fmad=false, see
// CMakeLists.txt), so float and double operations round as core's host code does.
#include "ScopeImageKernels.h"

#include <cuda_runtime.h>
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

const dim3 kBlock(32, 8);

__device__ __forceinline__ uint32_t overlaid(const ScopeImageJob& j, int x, int y, uint32_t px) {
    if (!j.d_overlayIndex) return px;
    const int32_t t = j.d_overlayIndex[(long long)y * j.layout.width + x];
    if (t < 0) return px;
    const uint8_t* tab = j.d_overlayTables + (long long)t * 768;
    uint32_t out = px & 0xff000000u;
    for (int c = 0; c < 3; ++c) out |= uint32_t(tab[c * 256 + ((px >> (8 * c)) & 0xffu)]) << (8 * c);
    return out;
}

__device__ __forceinline__ void store(const ScopeImageJob& j, int x, int y, uint32_t px) {
    *reinterpret_cast<uint32_t*>(j.d_out + (size_t)y * j.pitch + (size_t)x * 4) = overlaid(j, x, y, px);
}

__global__ void waveformImageKernel(ScopeImageJob j) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= j.layout.width || y >= j.layout.height) return;
    const StripColumns cols{j.d_columns, j.levels};
    uint32_t px = kShadeBlack;
    if (j.kind == ScopeImageKind::Waveform) {
        // Luma is channel 0 of the strips, the R'G'B' parade's channels 1..3.
        px = waveformModePixel(j.layout.waveformMode, j.layout.panels, j.hues, cols, 0, cols, 1, j.wave, x, y);
    } else {
        for (int c = 0; c < 3; ++c)
            if (j.layout.panels[c].contains(x, y)) {
                px = waveShadePixel(cols, 1 + c, j.wave, j.hues[c], j.layout.panels[c], x, y);
                break;
            }
    }
    store(j, x, y, px);
}

__global__ void vectorscopeImageKernel(ScopeImageJob j) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= j.layout.width || y >= j.layout.height) return;
    uint32_t px = kShadeBlack;
    if (j.layout.plot.contains(x, y)) px = vectorShadePixel(j.d_vectorscope, j.vector, j.layout.plot, x, y);
    store(j, x, y, px);
}

// One block: every column's sums (luma, R, G, B), the largest luma and R'G'B' sums, then the
// bar tops.
__global__ void histogramTopsKernel(ScopeImageJob j) {
    __shared__ unsigned long long maxY, maxRgb;
    if (threadIdx.x == 0) { maxY = 0; maxRgb = 0; }
    __syncthreads();
    const int pw = j.layout.plot.width;
    unsigned long long my = 0, mrgb = 0;
    for (int d = int(threadIdx.x); d < pw; d += int(blockDim.x)) {
        const unsigned long long y = histColumnSum(j.d_histY, j.levels, d, pw);
        my = y > my ? y : my;
        for (int c = 0; c < 3; ++c) {
            const unsigned long long s = histColumnSum(j.d_histRgb + 256 * c, 256, d, pw);
            mrgb = s > mrgb ? s : mrgb;
        }
    }
    atomicMax(&maxY, my);
    atomicMax(&maxRgb, mrgb);
    __syncthreads();
    for (int d = int(threadIdx.x); d < pw; d += int(blockDim.x)) {
        j.d_tops[d] = histBarTop(histColumnSum(j.d_histY, j.levels, d, pw), maxY, j.histogramLog, j.histogramGain, j.layout.plot.height);
        for (int c = 0; c < 3; ++c)
            j.d_tops[(c + 1) * pw + d] = histBarTop(histColumnSum(j.d_histRgb + 256 * c, 256, d, pw), maxRgb, j.histogramLog,
                                                    j.histogramGain, j.layout.plot.height);
    }
}

__global__ void histogramImageKernel(ScopeImageJob j) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= j.layout.width || y >= j.layout.height) return;
    uint32_t px = kShadeBlack;
    if (j.layout.plot.contains(x, y)) px = histShadePixel(j.d_tops, j.layout.plot, x, y);
    store(j, x, y, px);
}

}  // namespace

cudaError_t drawScopeImage(const ScopeImageJob& j, cudaStream_t stream) {
    if (j.layout.empty()) return cudaSuccess;
    if (!j.d_out) return cudaErrorInvalidValue;
    const dim3 grid((unsigned(j.layout.width) + kBlock.x - 1) / kBlock.x, (unsigned(j.layout.height) + kBlock.y - 1) / kBlock.y);
    switch (j.kind) {
        case ScopeImageKind::Histogram:
            if (!j.d_histY || !j.d_histRgb || (j.layout.plot.width > 0 && !j.d_tops)) return cudaErrorInvalidValue;
            if (j.layout.plot.width > 0) histogramTopsKernel<<<1, 1024, 0, stream>>>(j);
            histogramImageKernel<<<grid, kBlock, 0, stream>>>(j);
            break;
        case ScopeImageKind::Waveform:
        case ScopeImageKind::Parade:
            if (!j.d_columns) return cudaErrorInvalidValue;
            waveformImageKernel<<<grid, kBlock, 0, stream>>>(j);
            break;
        case ScopeImageKind::Vectorscope:
            if (!j.d_vectorscope) return cudaErrorInvalidValue;
            vectorscopeImageKernel<<<grid, kBlock, 0, stream>>>(j);
            break;
    }
    return cudaGetLastError();
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::scopeImageKernels() { return reinterpret_cast<const void*>(waveformImageKernel); }
