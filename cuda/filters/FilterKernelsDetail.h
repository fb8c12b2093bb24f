// Internal to cs_cuda: the preview filters' kernel families, a file each, and the launches
// PreviewFilters (FilterKernels.cu) makes of them. Every launch writes an RGBA image to a
// sink (ImageSink: pitched memory or a surface) and returns the launch error; `dependent`
// launches it as a programmatic dependent of the kernel before it (DependentLaunch.cuh).
// docs/CUDA.md says why each kernel is shaped as it is.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "FilterKernels.h"

namespace cs::cuda::detail {

// ---- Box blur (BoxBlurKernels.cu): exact integer sums ----------------------------------------

constexpr int kBoxStripRadiusMax = 32;   // box radii up to this run as one strip kernel (larger: two passes)
// r <= kBoxStripRadiusMax: one kernel over strips of columns, its grid one wave of the
// device's `multiprocessors`.
cudaError_t enqueueBoxStrips(const uint8_t* d_in, size_t pitch, int w, int h, int r, int multiprocessors, const ImageSink& out,
                             cudaStream_t stream, bool dependent);
// Any radius: vertical sums per column into d_sums (w x h, pitch sumsPitch), then rows.
cudaError_t enqueueBoxTwoPass(const uint8_t* d_in, size_t pitch, int w, int h, int r, uint4* d_sums, size_t sumsPitch,
                              const ImageSink& out, cudaStream_t stream, bool dependent);

// ---- Gaussian (GaussianKernels.cu): core's float arithmetic, rounding for rounding ------------

constexpr int kGaussStripRadiusMax = 32;   // radii up to this run as one strip kernel (larger: two passes)
constexpr int kGaussTcRadiusMax = 16;      // radii up to this may run on tensor cores
// Once per radius before enqueueGaussStrip: the strip kernel's shared memory carveout.
cudaError_t prepareGaussStrip(int r);
// `weights`: the 2r + 1 symmetric taps (core's); r <= kGaussStripRadiusMax.
cudaError_t enqueueGaussStrip(const uint8_t* d_in, size_t pitch, int w, int h, const std::vector<float>& weights, int multiprocessors,
                              const ImageSink& out, cudaStream_t stream, bool dependent);
// Whether the tensor-core kernel runs on this device (its code compiled for sm_80 or later).
bool gaussTensorCompiled();
// r <= kGaussTcRadiusMax, on tensor cores: every byte within one code value of core's.
cudaError_t enqueueGaussTensor(const uint8_t* d_in, size_t pitch, int w, int h, const std::vector<float>& weights, int multiprocessors,
                               const ImageSink& out, cudaStream_t stream, bool dependent);
// Any radius: horizontal sums into d_tmp (w x h, pitch tmpPitch), then vertical.
cudaError_t enqueueGaussTwoPass(const uint8_t* d_in, size_t pitch, int w, int h, const std::vector<float>& weights, float4* d_tmp,
                                size_t tmpPitch, const ImageSink& out, cudaStream_t stream, bool dependent);

// ---- Median and Sobel (GroupFilterKernels.cu): 8 pixels a thread -----------------------------

constexpr int kMaxSobelDepth = 12;   // Sobel squares in 32 bits (every engine format is 8 or 10 bit)
struct SobelParams {
    uint32_t maxCode;
    float greyScale;                  // edges: 255 / (4 maxCode), the grey per unit of sqrt(g2)
    const uint32_t* firstSquares;     // edges: sobelEdgeFirstSquare of greys 0..255, then "never" (device)
    uint32_t peakFirst;               // peaking: focusPeakingFirstSquare (past every g2: none)
    uint32_t paint;                   // PeakOpaque: the colour's R, G, B (alpha byte 0)
    const uint32_t* blend;            // PeakBlend: focusPeakingBlend's 3 x 256 bytes (device)
};
constexpr int kBlendWords = 3 * 256 / 4;
constexpr int kFirstSquares = 257;   // greys 0..255 and a sentinel past every square
cudaError_t enqueueMedian(const uint8_t* d_in, size_t pitch, int w, int h, const ImageSink& out, cudaStream_t stream, bool dependent);
// The edge view's grey of each pixel's luma gradient (sp.firstSquares).
cudaError_t enqueueSobelEdges(const uint16_t* d_luma, size_t lumaPitch, int w, int h, const SobelParams& sp, const ImageSink& out,
                              cudaStream_t stream, bool dependent);
// The picture painted where the gradient reaches sp.peakFirst: in sp.paint (opaque) or
// through sp.blend.
cudaError_t enqueueFocusPeaking(const uint16_t* d_luma, size_t lumaPitch, const uint8_t* d_picture, size_t picturePitch, int w, int h,
                                const SobelParams& sp, bool opaque, const ImageSink& out, cudaStream_t stream, bool dependent);
// Focus peaking wider than 1 px (core/PeakingWidth.h, reach 1..2): the pixels whose gradient
// reaches sp.peakFirst marked (one word each) in d_marks (w x h, pitch marksPitch, a multiple
// of 16), then the picture painted wherever a mark lies within `reach` across and down.
cudaError_t enqueueWideFocusPeaking(const uint16_t* d_luma, size_t lumaPitch, const uint8_t* d_picture, size_t picturePitch, int w, int h,
                                    const SobelParams& sp, bool opaque, int reach, uint8_t* d_marks, size_t marksPitch, const ImageSink& out,
                                    cudaStream_t stream, bool dependent);

// ---- Lookups (LookupFilterKernels.cu): a table entry per luma code ---------------------------

// Zebra stripes over the picture where d_zones[code] is 1 (the zebra) or 2 (the low zebra).
cudaError_t enqueueZebra(const uint16_t* d_luma, size_t lumaPitch, const uint8_t* d_picture, size_t picturePitch, int w, int h,
                         const uint32_t* d_zones, int maxCode, const ImageSink& out, cudaStream_t stream, bool dependent);
// Each pixel the RGBA of d_lut[code] (false colour).
cudaError_t enqueueLookup(const uint16_t* d_luma, size_t lumaPitch, int w, int h, const uint32_t* d_lut, int maxCode,
                          const ImageSink& out, cudaStream_t stream, bool dependent);
// Whether the preview kernels may be launched as dependents on this device: every one is
// compiled alike, so one stands for all.
bool previewLaunchesDependent();

}  // namespace cs::cuda::detail
