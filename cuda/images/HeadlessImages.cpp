// The scope display images on the GPU (HeadlessImages.h).
#include "HeadlessImages.h"

#include "cuda/scope/ScopePipeline.h"

namespace cs::cuda {
namespace {

bool wants(const ScopeSpec& spec, ScopeImageKind k) {
    if (!spec.displayImages) return false;
    switch (k) {
        case ScopeImageKind::Histogram: return spec.histogram;
        case ScopeImageKind::Waveform: return spec.waveform;
        case ScopeImageKind::Parade: return spec.parade;
        case ScopeImageKind::Vectorscope: return spec.vectorscope;
    }
    return false;
}

constexpr ScopeImageKind kKinds[4] = {ScopeImageKind::Histogram, ScopeImageKind::Waveform, ScopeImageKind::Parade,
                                      ScopeImageKind::Vectorscope};

}  // namespace

bool HeadlessImages::anyOnHost() const {
    for (const Placed& p : placed_)
        if (p.wanted && !p.onGpu) return true;
    return false;
}

Status HeadlessImages::prepare(const ScopeSpec& spec, const ScopeResults& meta, ThreadPool& pool, cudaStream_t stream) {
    blockBytes_ = 0;
    int topsWidth = 0;
    for (ScopeImageKind k : kKinds) {
        Placed& p = placed_[size_t(k)];
        p = {};
        p.wanted = wants(spec, k);
        if (!p.wanted) continue;
        const OverlayKey key = overlayKey(k, spec, meta);
        Overlay& o = overlays_[size_t(k)];
        if (!o.made || !(o.key == key)) {
            o.made = true;
            o.key = key;
            // The index alone takes 4 bytes a pixel: a larger image is not tried.
            const size_t pixels = size_t(key.width) * size_t(key.height);
            o.host = pixels * sizeof(int32_t) <= kMaxOverlayBytes / 4 ? buildOverlay(key, pool) : ScopeOverlay{};
            o.fits = pixels * sizeof(int32_t) <= kMaxOverlayBytes / 4 &&
                     o.host.tables.size() + o.host.index.size() * sizeof(int32_t) <= kMaxOverlayBytes;
            if (o.fits) {
                CS_TRY(o.index.reserve(o.host.index.size() * sizeof(int32_t) + 4));
                CS_TRY(o.tables.reserve(o.host.tables.size() + 1));
                if (!o.host.index.empty())
                    CS_CUDA_CHECK(cudaMemcpyAsync(o.index.get(), o.host.index.data(), o.host.index.size() * sizeof(int32_t),
                                                  cudaMemcpyHostToDevice, stream));
                if (!o.host.tables.empty())
                    CS_CUDA_CHECK(cudaMemcpyAsync(o.tables.get(), o.host.tables.data(), o.host.tables.size(), cudaMemcpyHostToDevice, stream));
            } else {
                o.host = {};
            }
        }
        p.onGpu = o.fits;
        p.width = key.width;
        p.height = key.height;
        if (!p.onGpu) continue;
        p.offset = blockBytes_;
        blockBytes_ += (size_t(p.width) * size_t(p.height) * 4 + 255) / 256 * 256;
        if (k == ScopeImageKind::Histogram) topsWidth = scopeLayout(k, spec, meta.paradeMode).plot.width;
    }
    CS_TRY(block_.reserve(blockBytes_ + 256));
    CS_TRY(tops_.reserve(size_t(4) * size_t(topsWidth > 0 ? topsWidth : 1) * sizeof(int)));
    return {};
}

Status HeadlessImages::enqueue(const ScopePipeline& pipeline, const ScopeSpec& spec, const ScopeResults& meta, cudaStream_t stream) {
    for (ScopeImageKind k : kKinds) {
        const Placed& p = placed_[size_t(k)];
        if (!p.wanted || !p.onGpu || p.width <= 0 || p.height <= 0) continue;
        const Overlay& o = overlays_[size_t(k)];
        ScopeImageJob j;
        j.kind = k;
        j.layout = scopeLayout(k, spec, meta.paradeMode);
        j.d_out = block_.get() + p.offset;
        j.pitch = size_t(p.width) * 4;
        if (o.host.touched() > 0) {
            j.d_overlayIndex = o.index.get<int32_t>();
            j.d_overlayTables = o.tables.get();
        }
        traceHues(k, spec, meta.paradeMode, j.hues);
        j.wave = waveShade(meta, spec, k);
        j.vector = vectorShade(meta, spec);
        j.d_columns = pipeline.columns();
        j.d_vectorscope = pipeline.vectorscope();
        j.d_histY = pipeline.histY();
        j.d_histRgb = pipeline.histRgb();
        j.levels = meta.levels;
        j.histogramLog = spec.histogramScale == HistogramScale::Log;
        j.histogramGain = histogramGain(spec);
        j.d_tops = tops_.get<int>();
        const cudaError_t e = drawScopeImage(j, stream);
        if (e != cudaSuccess) return errorStatus(e, "drawScopeImage");
    }
    return {};
}

}  // namespace cs::cuda
