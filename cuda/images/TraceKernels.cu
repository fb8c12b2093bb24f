// Trace kernels: one thread per texel, each summing its box of counts (TraceTexels.h).
// This file is compiled without FMA contraction (-fmad=false, see CMakeLists.txt) so its
// double arithmetic rounds as the host reference's does.
#include "TraceKernels.h"

#include <cuda_runtime.h>

#include "TraceTexels.h"
#include "cuda/Sinks.cuh"
#include "cuda/engine/KernelProbes.h"

namespace cs::cuda {
namespace {

const dim3 kBlock(32, 8);

__global__ void histogramMaxKernel(const uint32_t* histY, const uint32_t* histRgb, int levels, uint32_t* maxima) {
    __shared__ uint32_t my, mrgb;
    if (threadIdx.x == 0) { my = 0; mrgb = 0; }
    __syncthreads();
    uint32_t a = 0, b = 0;
    for (int i = int(threadIdx.x); i < levels; i += int(blockDim.x)) a = max(a, histY[i]);
    for (int i = int(threadIdx.x); i < 768; i += int(blockDim.x)) b = max(b, histRgb[i]);
    atomicMax(&my, a);
    atomicMax(&mrgb, b);
    __syncthreads();
    if (threadIdx.x == 0) { maxima[0] = my; maxima[1] = mrgb; }
}

template <class Sink>
__global__ void histogramKernel(TraceSources s, const uint32_t* maxima, bool logScale, float gain, int texW, int texH, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= texW || y >= texH) return;
    out.store(x, y, histogramTexel(s.d_histY, s.d_histRgb, s.levels, maxima[0], maxima[1], logScale, gain, x, y, texW, texH));
}

template <class Sink>
__global__ void waveformKernel(TraceSources s, WaveformMode mode, TraceColour colour, double gain, LevelRange range, int texW, int texH,
                               Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= texW || y >= texH) return;
    out.store(x, y, waveformTexel(StripColumns{s.d_columns, s.levels}, mode, colour, s.width, s.height, s.levels, gain, x, y, texW, texH, range));
}

template <class Sink>
__global__ void paradeKernel(TraceSources s, bool rgbMode, TraceColour colour, double gain, LevelRange range, int texW, int texH, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= texW || y >= texH) return;
    out.store(x, y,
              paradeTexel(StripColumns{s.d_columns, s.levels}, 1, s.width, s.height, s.levels, rgbMode, colour, gain, x, y, texW, texH, range));
}

template <class Sink>
__global__ void vectorscopeKernel(TraceSources s, int zoom, double gain, VectorscopeStyle style, int texW, int texH, Sink out) {
    const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= texW || y >= texH) return;
    out.store(x, y, vectorscopeTexel(s.d_vectorscope, s.width, s.height, s.levels, zoom, gain, style, x, y, texW, texH));
}

}  // namespace

cudaError_t renderTrace(TraceKind kind, const TraceSources& s, const ScopeSpec& spec, uint32_t* d_scratch, int texW, int texH,
                        const ImageSink& out, cudaStream_t stream) {
    if (texW <= 0 || texH <= 0 || s.width <= 0 || s.height <= 0) return cudaErrorInvalidValue;
    const dim3 grid((unsigned(texW) + kBlock.x - 1) / kBlock.x, (unsigned(texH) + kBlock.y - 1) / kBlock.y);
    switch (kind) {
        case TraceKind::Histogram: {
            if (!s.d_histY || !s.d_histRgb || !d_scratch) return cudaErrorInvalidValue;
            histogramMaxKernel<<<1, 256, 0, stream>>>(s.d_histY, s.d_histRgb, s.levels, d_scratch);
            const bool logScale = spec.histogramScale == HistogramScale::Log;
            return withSink(out, [&](auto sink) {
                histogramKernel<<<grid, kBlock, 0, stream>>>(s, d_scratch, logScale, spec.histogramGain, texW, texH, sink);
            });
        }
        case TraceKind::Waveform:
            if (!s.d_columns) return cudaErrorInvalidValue;
            return withSink(out, [&](auto sink) {
                waveformKernel<<<grid, kBlock, 0, stream>>>(s, spec.waveformMode, spec.traceColour, traceGain(spec.waveformGain),
                                                            levelRangeOf(spec.waveformRange), texW, texH, sink);
            });
        case TraceKind::Parade:
            if (!s.d_columns) return cudaErrorInvalidValue;
            return withSink(out, [&](auto sink) {
                paradeKernel<<<grid, kBlock, 0, stream>>>(s, spec.paradeMode == ParadeMode::Rgb, spec.traceColour,
                                                          traceGain(spec.waveformGain), levelRangeOf(spec.paradeRange), texW, texH, sink);
            });
        case TraceKind::Vectorscope:
            if (!s.d_vectorscope) return cudaErrorInvalidValue;
            return withSink(out, [&](auto sink) {
                vectorscopeKernel<<<grid, kBlock, 0, stream>>>(s, spec.vectorscopeZoom, traceGain(spec.vectorscopeGain),
                                                               VectorscopeStyle{spec.traceColour, s.kr, s.kb, s.chromaScale}, texW, texH,
                                                               sink);
            });
    }
    return cudaErrorInvalidValue;
}

}  // namespace cs::cuda

// One kernel of this file, for the start-up check (KernelCheck.h).
const void* cs::cuda::probe::traceKernels() { return reinterpret_cast<const void*>(histogramMaxKernel); }
