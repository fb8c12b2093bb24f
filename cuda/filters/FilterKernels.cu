// Preview filters (FilterKernels.h): what each filter needs (prepare(): scratch memory, core's
// tables) and which kernel runs it (enqueue()). The kernels are in a file per family
// (FilterKernelsDetail.h): box blur, Gaussian, median and Sobel, lookups. Each gives
// core/Filters.cpp's results exactly but the tensor-core Gaussian (radius <= 16: within one
// code value). Blurs of radius <= 32 run as one kernel over strips of columns (Gaussians of
// radius <= 16 on tensor cores); larger radii take a two-pass path through scratch memory.
#include "FilterKernels.h"

#include <cuda_runtime.h>

#include <algorithm>

#include "FilterKernelsDetail.h"
#include "core/Filters.h"
#include "core/PeakingWidth.h"

namespace cs::cuda {

Status PreviewFilters::prepare(const ScopeSpec& spec, int width, int height, int bitDepth, Range lumaRange, cudaStream_t stream,
                               Transfer lumaTransfer) {
    const Setup setup{spec.preview, spec.filter, width, height, bitDepth, lumaRange, lumaTransfer};
    if (prepared_ == setup) return {};
    prepared_.reset();   // set again only once everything below has succeeded
    dependentLaunch_ = detail::previewLaunchesDependent();
    filter_ = spec.preview;
    width_ = width; height_ = height; bitDepth_ = bitDepth;
    const FilterParams& f = spec.filter;
    const int levels = 1 << bitDepth;
    lut_.clear();
    switch (filter_) {
        case PreviewFilter::BoxBlur: {
            boxRadius_ = std::clamp(f.blurRadius, 0, kMaxBoxRadius);
            if (boxRadius_ > detail::kBoxStripRadiusMax) {
                CS_TRY(d_scratch_.reserve(size_t(width) * size_t(height) * sizeof(uint4)));
                scratchPitch_ = size_t(width) * sizeof(uint4);
            } else {
                int device = 0;
                CS_CUDA_CHECK(cudaGetDevice(&device));
                CS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device));
            }
            break;
        }
        case PreviewFilter::Gaussian: {
            // Core's weights (none: sigma <= 0, the preview is the picture).
            gaussTensor_ = false;
            gaussWeights_ = gaussianWeights(f.gaussianSigma);
            gaussRadius_ = int(gaussWeights_.size()) / 2;
            if (gaussRadius_ == 0) break;
            if (gaussRadius_ > detail::kGaussStripRadiusMax) {
                CS_TRY(d_scratch_.reserve(size_t(width) * size_t(height) * sizeof(float4)));
                scratchPitch_ = size_t(width) * sizeof(float4);
            } else {
                int device = 0;
                CS_CUDA_CHECK(cudaGetDevice(&device));
                CS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device));
                gaussTensor_ = gaussRadius_ <= detail::kGaussTcRadiusMax && detail::gaussTensorCompiled();
                if (!gaussTensor_) CS_CUDA_CHECK(detail::prepareGaussStrip(gaussRadius_));
            }
            break;
        }
        case PreviewFilter::Edges:
            // The first square of every grey, by core's own bisection (see edgeGrey).
            if (bitDepth > detail::kMaxSobelDepth) return Status::error("edges preview: luma deeper than 12 bits");
            for (int grey = 0; grey < 256; ++grey) lut_.push_back(uint32_t(sobelEdgeFirstSquare(bitDepth, grey)));
            lut_.push_back(0xffffffffu);   // grey 256: never
            break;
        case PreviewFilter::FocusPeaking: {
            if (bitDepth > detail::kMaxSobelDepth) return Status::error("focus peaking preview: luma deeper than 12 bits");
            peakingFirst_ = uint32_t(focusPeakingFirstSquare(bitDepth, f.peakingThreshold));   // <= 2^29 + 1
            // Wider than 1 px: a word of marks a pixel in scratch, which the dilation reads.
            peakingReach_ = peakingReach(f.peakingWidth);
            if (peakingReach_ > 0) {
                scratchPitch_ = (size_t(width) * sizeof(uint32_t) + 15) / 16 * 16;
                CS_TRY(d_scratch_.reserve(scratchPitch_ * size_t(height)));
            }
            // core's blend table; where each channel's is one value (an opaque colour) the
            // kernel paints that value and needs no table.
            const PeakingBlend blend = focusPeakingBlend(f.peakingColour);
            peakingOpaque_ = true;
            peakingPaint_ = 0;
            for (size_t c = 0; c < 3; ++c) {
                peakingOpaque_ = peakingOpaque_ && std::all_of(blend[c].begin(), blend[c].end(), [&](uint8_t v) { return v == blend[c][0]; });
                peakingPaint_ |= uint32_t(blend[c][0]) << (8 * c);
            }
            if (!peakingOpaque_)
                for (size_t i = 0; i < 3 * 256; i += 4) {
                    const uint8_t* b = &blend[i / 256][i % 256];
                    lut_.push_back(uint32_t(b[0]) | (uint32_t(b[1]) << 8) | (uint32_t(b[2]) << 16) | (uint32_t(b[3]) << 24));
                }
            break;
        }
        case PreviewFilter::Zebra: {
            // Zones by core's own zebra(): code c at x = 8c of a one-row frame of mid grey,
            // where both stripe patterns are "on" ((x +- 0) mod 8 = 0): black = the zebra
            // at or above `ire`, white = the low zebra, grey = untouched.
            RgbaImage grey;
            grey.resize(8 * levels, 1);
            for (size_t i = 0; i < grey.pixels.size(); i += 4) { grey.pixels[i] = grey.pixels[i + 1] = grey.pixels[i + 2] = 128; grey.pixels[i + 3] = 255; }
            LumaPlane plane{8 * levels, 1, bitDepth, lumaRange, {}, Transfer::Bt709};
            for (int x = 0; x < 8 * levels; ++x) plane.values.push_back(uint16_t(x / 8));
            RgbaImage zebraOut;
            zebra(grey, plane, f.zebraIre, f.zebraLowIre, zebraOut);
            if (zebraOut.width != 8 * levels) return Status::error("zebra preview: core's zebra() produced no image for the lookup table");
            for (int c = 0; c < levels; ++c) {
                const uint8_t v = zebraOut.at(8 * c, 0)[0];
                lut_.push_back(v == 0 ? 1u : (v == 255 ? 2u : 0u));
            }
            break;
        }
        case PreviewFilter::FalseColour: {
            // Colours by core's own falseColour() over a row holding every code once.
            LumaPlane plane{levels, 1, bitDepth, lumaRange, {}, lumaTransfer};
            for (int c = 0; c < levels; ++c) plane.values.push_back(uint16_t(c));
            RgbaImage colours;
            falseColour(plane, colours);
            if (colours.width != levels) return Status::error("false colour preview: core's falseColour() produced no image for the lookup table");
            for (int c = 0; c < levels; ++c) {
                const uint8_t* p = colours.at(c, 0);
                lut_.push_back(uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24));
            }
            break;
        }
        case PreviewFilter::Gamut:   // painted by the gamut pass (GamutKernels.h), which has the frame's planes
        case PreviewFilter::None:
        case PreviewFilter::Median3: break;
    }
    if (!lut_.empty() && lut_ != lutUploaded_) {
        CS_TRY(d_lut_.reserve(lut_.size() * sizeof(uint32_t)));
        // Pageable source: the call returns once the table is staged, so lut_ may change after.
        CS_CUDA_CHECK(cudaMemcpyAsync(d_lut_.get(), lut_.data(), lut_.size() * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
        lutUploaded_ = lut_;
    }
    prepared_ = setup;
    return {};
}

cudaError_t PreviewFilters::enqueue(const uint8_t* d_picture, size_t picturePitch, const uint16_t* d_luma, size_t lumaPitch,
                                    const ImageSink& out, cudaStream_t stream) const {
    const int w = width_, h = height_;
    const int maxCode = (1 << bitDepth_) - 1;
    const uint32_t* table = d_lut_.get<uint32_t>();
    const detail::SobelParams sp{uint32_t(maxCode), float(255.0 / (4.0 * double(maxCode))), table, peakingFirst_, peakingPaint_, table};
    switch (filter_) {
        case PreviewFilter::None: return cudaSuccess;
        case PreviewFilter::BoxBlur:
            if (boxRadius_ == 0) return copyImage(d_picture, picturePitch, w, h, out, stream);
            if (boxRadius_ <= detail::kBoxStripRadiusMax)
                return detail::enqueueBoxStrips(d_picture, picturePitch, w, h, boxRadius_, multiprocessors_, out, stream, dependentLaunch_);
            return detail::enqueueBoxTwoPass(d_picture, picturePitch, w, h, boxRadius_, d_scratch_.get<uint4>(), scratchPitch_, out, stream,
                                             dependentLaunch_);
        case PreviewFilter::Gaussian:
            if (gaussRadius_ == 0) return copyImage(d_picture, picturePitch, w, h, out, stream);
            if (gaussTensor_)
                return detail::enqueueGaussTensor(d_picture, picturePitch, w, h, gaussWeights_, multiprocessors_, out, stream, dependentLaunch_);
            if (gaussRadius_ <= detail::kGaussStripRadiusMax)
                return detail::enqueueGaussStrip(d_picture, picturePitch, w, h, gaussWeights_, multiprocessors_, out, stream, dependentLaunch_);
            return detail::enqueueGaussTwoPass(d_picture, picturePitch, w, h, gaussWeights_, d_scratch_.get<float4>(), scratchPitch_, out, stream,
                                               dependentLaunch_);
        case PreviewFilter::Median3: return detail::enqueueMedian(d_picture, picturePitch, w, h, out, stream, dependentLaunch_);
        case PreviewFilter::Edges: return detail::enqueueSobelEdges(d_luma, lumaPitch, w, h, sp, out, stream, dependentLaunch_);
        case PreviewFilter::FocusPeaking:
            if (peakingReach_ > 0)
                return detail::enqueueWideFocusPeaking(d_luma, lumaPitch, d_picture, picturePitch, w, h, sp, peakingOpaque_, peakingReach_,
                                                       d_scratch_.get<uint8_t>(), scratchPitch_, out, stream, dependentLaunch_);
            return detail::enqueueFocusPeaking(d_luma, lumaPitch, d_picture, picturePitch, w, h, sp, peakingOpaque_, out, stream,
                                               dependentLaunch_);
        case PreviewFilter::Zebra:
            return detail::enqueueZebra(d_luma, lumaPitch, d_picture, picturePitch, w, h, table, maxCode, out, stream, dependentLaunch_);
        case PreviewFilter::FalseColour: return detail::enqueueLookup(d_luma, lumaPitch, w, h, table, maxCode, out, stream, dependentLaunch_);
        case PreviewFilter::Gamut: return cudaErrorInvalidValue;   // not a filter of the picture: GamutKernels.h's gamutPass paints it
    }
    return cudaErrorInvalidValue;
}

}  // namespace cs::cuda
