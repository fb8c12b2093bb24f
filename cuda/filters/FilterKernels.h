// Preview filters on the GPU, with core/Filters.cpp's exact arithmetic: box blur by exact
// integer sums, the Gaussian with the same float weights and the same order of rounded
// operations (but radii <= 16 on tensor cores: within one code value, see
// gaussianOnTensorCores), the 3x3 median, Sobel edges and focus peaking by integer
// comparisons with core's thresholds and blend table, and zebra / false colour through lookup
// tables computed by core's own functions. Output goes to pitched device memory or to a surface object (a
// mapped GL texture). Plane pointers and pitches must be multiples of 16 bytes. The gamut
// preview is no filter of the picture: it needs each pixel's gamut test, and the gamut pass
// (GamutKernels.h) paints it.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "cuda/CudaHandle.h"
#include "core/Color.h"
#include "core/ScopeSpec.h"

namespace cs::cuda {

// Where an RGBA 8-bit image is written: pitched device memory, or a surface (when d_pixels is null).
struct ImageSink {
    uint8_t* d_pixels = nullptr;
    size_t pitch = 0;
    cudaSurfaceObject_t surface = 0;
};

// Copies an RGBA image (pitched device memory) into a sink.
cudaError_t copyImage(const uint8_t* d_src, size_t srcPitch, int width, int height, const ImageSink& out,
                      cudaStream_t stream);

// One preview filter for frames of one geometry: prepare() sizes scratch memory and uploads
// lookup tables (allocations: not inside a graph capture), enqueue() only launches kernels.
class PreviewFilters {
public:
    Status prepare(const ScopeSpec& spec, int width, int height, int bitDepth, Range lumaRange, cudaStream_t stream,
                   Transfer lumaTransfer = Transfer::Bt709);   // PQ, HLG: HDR false colour
    // Reads the picture (RGBA, pitched) and/or the luma plane (uint16, pitched) as the filter needs.
    cudaError_t enqueue(const uint8_t* d_picture, size_t picturePitch, const uint16_t* d_luma, size_t lumaPitch,
                        const ImageSink& out, cudaStream_t stream) const;
    PreviewFilter filter() const { return filter_; }
    // The Gaussian runs on tensor cores (radius <= 16, sm_80 or later): every byte within one
    // code value of core's, flat areas exact. Otherwise every filter gives core's bytes exactly.
    bool gaussianOnTensorCores() const { return gaussTensor_; }
    // The false colour table (RGBA per luma code) on the device, for a scope pass that
    // writes the preview itself; null for every other filter.
    const uint32_t* lookupTable() const { return filter_ == PreviewFilter::FalseColour ? d_lut_.get<uint32_t>() : nullptr; }

private:
    // What the last successful prepare() set up: the engine prepares every frame, and the
    // tables (core's bisections, zebra and false-colour rows) are rebuilt only when it changes.
    struct Setup {
        PreviewFilter filter;
        FilterParams params;
        int width, height, bitDepth;
        Range lumaRange;
        Transfer lumaTransfer;
        bool operator==(const Setup&) const = default;
    };
    std::optional<Setup> prepared_;
    PreviewFilter filter_ = PreviewFilter::None;
    int width_ = 0, height_ = 0, bitDepth_ = 8;
    int boxRadius_ = 0;
    int multiprocessors_ = 1;        // sizes the box blur's grid to one wave
    int gaussRadius_ = 0;            // 0: sigma <= 0, the preview is the picture
    bool gaussTensor_ = false;       // radius <= 16 where the tensor-core kernel can run
    bool dependentLaunch_ = false;   // the first kernel may be launched during the scope pass's end (Hopper)
    std::vector<float> gaussWeights_;
    uint32_t peakingFirst_ = 0;      // focusPeakingFirstSquare
    bool peakingOpaque_ = true;      // the paint is one colour, peakingPaint_ (R, G, B)
    uint32_t peakingPaint_ = 0;
    int peakingReach_ = 0;           // peakingReach of the width: above 0, marks in d_scratch_ and a dilation
    // Zebra zones / false colours per luma code, edges' first squares per grey, peaking's
    // blend table (semi-transparent colours), all from core's filters (see prepare()).
    std::vector<uint32_t> lut_;
    std::vector<uint32_t> lutUploaded_;
    DeviceBuffer d_lut_;
    DeviceBuffer d_scratch_;         // the large-radius two-pass paths; wide peaking's marks
    size_t scratchPitch_ = 0;
};

}  // namespace cs::cuda
