// The per-frame GPU work (ScopePipeline.h): buffers sized once per geometry, then a short
// fixed sequence per frame: the scope pass, the preview (one or two kernels; none for false
// colour into memory from a Y'CbCr frame, which the scope pass writes) with the
// next frame's accumulators cleared beside it, and for the GL view a copy of the picture and
// one kernel per scope trace.
#include "ScopePipeline.h"

namespace cs::cuda {

PipelineWork workFor(const ScopeSpec& spec, PixelFormat format, bool wantPicture) {
    PipelineWork w;
    w.preview = spec.preview;
    uint32_t f = 0;
    if (spec.waveform) f |= kScopeWaveform;
    if (spec.parade) f |= kScopeParade | (spec.paradeMode == ParadeMode::Rgb ? kScopeParadeRgb : 0u);
    if (spec.histogram) f |= kScopeHistogram | kScopeHistogramRgb;
    if (spec.vectorscope) f |= kScopeVectorscope;
    if (spec.stats) f |= kScopeStats;
    if (wantPicture || previewNeedsPicture(spec.preview)) f |= kScopePicture;
    if (previewNeedsLuma(spec.preview)) f |= kScopeLuma;
    (void)format;
    w.flags = f;
    return w;
}

Status ScopePipeline::prepare(PixelFormat format, int width, int height, const ScopeSpec& spec, const PipelineWork& work,
                              Range lumaRange, cudaStream_t stream, Transfer lumaTransfer) {
    format_ = format;
    width_ = width; height_ = height;
    levels_ = levelsOf(format);
    work_ = work;
    spec_ = spec;
    const size_t L = size_t(levels_), W = size_t(width), H = size_t(height);
    statsOffset_ = (L + 768) * sizeof(uint32_t);
    vectorscopeOffset_ = (statsOffset_ + sizeof(DeviceStats) + 255) / 256 * 256;
    accumBytes_ = vectorscopeOffset_ + ((work.flags & kScopeVectorscope) ? L * L * sizeof(uint32_t) : 0);
    const size_t stride = (vectorscopeOffset_ + L * L * sizeof(uint32_t) + 255) / 256 * 256;
    if (stride != accumStride_ || accum_.bytes() < 2 * stride) {
        // New layout: both sets of accumulators start clean.
        CS_TRY(accum_.reserve(2 * stride));
        accumStride_ = stride;
        CS_CUDA_CHECK(cudaMemsetAsync(accum_.get(), 0, 2 * stride, stream));
        dirtyBytes_ = {0, 0};
        current_ = 1;
    }
    if (!sideStream_) {
        cudaStream_t side = nullptr;
        CS_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
        sideStream_.reset(side);
        for (EventHandle* e : {&passDone_, &clearDone_}) {
            cudaEvent_t ev = nullptr;
            CS_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
            e->reset(ev);
        }
    }
    if (work.flags & (kScopeWaveform | kScopeParade)) CS_TRY(columns_.reserve(columnCountsSize(levels_, width) * sizeof(uint16_t)));
    if (work.flags & kScopePicture) CS_TRY(picture_.reserve(W * 4, H));
    if (work.flags & kScopeLuma) CS_TRY(luma_.reserve(W * 2, H));
    if (work.preview != PreviewFilter::None) CS_TRY(preview_.reserve(W * 4, H));
    CS_TRY(traceScratch_.reserve(2 * sizeof(uint32_t)));
    ScopeSpec filterSpec = spec;
    filterSpec.preview = work.preview;
    return filters_.prepare(filterSpec, width, height, bitDepthOf(format), lumaRange, stream, lumaTransfer);
}

Status ScopePipeline::enqueue(const PlaneSet& planes, const ScopeColour& colour, cudaStream_t stream, const SurfaceTargets* surfaces) {
    // This frame counts into the clean set of accumulators; the other set (the last frame's,
    // whose readers come before this point in the stream) is cleared for the next frame on a
    // side branch beside the preview, so no clearing step precedes the pass. (A memset before
    // the pass, or the pass's blocks clearing the set, would put the clearing on the pass's
    // critical path; beside the preview it overlaps.)
    const int use = current_ ^ 1, other = current_;
    uint8_t* accum = accumSet(use);
    ScopeOutputs o;
    o.d_histY = reinterpret_cast<uint32_t*>(accum);
    o.d_histRgb = o.d_histY + levels_;
    o.d_stats = reinterpret_cast<DeviceStats*>(accum + statsOffset_);
    o.d_vectorscope = reinterpret_cast<uint32_t*>(accum + vectorscopeOffset_);
    o.d_columns = columns_.get<uint16_t>();
    o.d_picture = picture_.get();
    o.picturePitch = picture_.pitch();
    o.d_luma = luma_.get<uint16_t>();
    o.lumaPitch = luma_.pitch();
    uint32_t flags = work_.flags;
    // False colour into device memory: the scope pass writes it (no luma plane, no launch).
    // (Not zebra the same way: a run-time branch for it in the counting kernel slows every
    // other pipeline by more than the zebra's own launch costs.)
    const bool fusedPreview = work_.preview == PreviewFilter::FalseColour && !(surfaces && surfaces->preview) &&
                              filters_.lookupTable() && scopePassWritesLookupPreview(format_, width_, height_, flags);
    if (fusedPreview) {
        o.d_previewLut = filters_.lookupTable();
        o.d_preview = preview_.get();
        o.previewPitch = preview_.pitch();
        flags &= ~uint32_t(kScopeLuma);   // only previews read the luma plane
    }
    CS_CUDA_CHECK(scopePass(planes, format_, width_, height_, colour, flags, o, stream));
    dirtyBytes_[size_t(use)] = accumBytes_;
    current_ = use;
    const bool clear = dirtyBytes_[size_t(other)] > 0;
    if (clear) {
        CS_CUDA_CHECK(cudaEventRecord(passDone_.get(), stream));
        CS_CUDA_CHECK(cudaStreamWaitEvent(sideStream_.get(), passDone_.get(), 0));
        CS_CUDA_CHECK(cudaMemsetAsync(accumSet(other), 0, dirtyBytes_[size_t(other)], sideStream_.get()));
        CS_CUDA_CHECK(cudaEventRecord(clearDone_.get(), sideStream_.get()));
        dirtyBytes_[size_t(other)] = 0;
    }

    cudaError_t previewError = cudaSuccess;
    if (work_.preview != PreviewFilter::None && work_.preview != PreviewFilter::Gamut && !fusedPreview)
        previewError = filters_.enqueue(picture_.get(), picture_.pitch(), luma_.get<uint16_t>(), luma_.pitch(), previewSink(surfaces),
                                        stream);
    // Joined even when the preview failed: the next frame counts into the set being cleared,
    // and a captured graph needs every fork joined.
    if (clear) CS_CUDA_CHECK(cudaStreamWaitEvent(stream, clearDone_.get(), 0));
    if (previewError != cudaSuccess) return errorStatus(previewError, "the preview filter");
    if (!surfaces) return {};
    if (surfaces->picture && (work_.flags & kScopePicture))
        CS_CUDA_CHECK(copyImage(picture_.get(), picture_.pitch(), width_, height_, ImageSink{nullptr, 0, surfaces->picture}, stream));
    TraceSources src;
    src.d_histY = o.d_histY; src.d_histRgb = o.d_histRgb; src.d_vectorscope = o.d_vectorscope;
    src.d_columns = o.d_columns;
    src.width = width_; src.height = height_; src.levels = levels_;
    setTraceColourSpace(src, surfaces->matrix, surfaces->range, formatInfo(format_).bitDepth);
    const TraceKind kinds[4] = {TraceKind::Histogram, TraceKind::Waveform, TraceKind::Parade, TraceKind::Vectorscope};
    const uint32_t needed[4] = {kScopeHistogram, kScopeWaveform, kScopeParade, kScopeVectorscope};
    for (size_t i = 0; i < 4; ++i) {
        if (!surfaces->traces[i] || !(work_.flags & needed[i])) continue;
        CS_CUDA_CHECK(renderTrace(kinds[i], src, spec_, traceScratch_.get<uint32_t>(), surfaces->traceWidth[i], surfaces->traceHeight[i],
                                  ImageSink{nullptr, 0, surfaces->traces[i]}, stream));
    }
    return {};
}

ImageSink ScopePipeline::previewSink(const SurfaceTargets* surfaces) const {
    if (surfaces && surfaces->preview) return ImageSink{nullptr, 0, surfaces->preview};
    return ImageSink{preview_.get(), preview_.pitch(), 0};
}

}  // namespace cs::cuda
