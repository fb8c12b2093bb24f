// The CUDA engine (CudaEngine.h): input planes (pinned upload, device frames in place),
// the per-frame ScopePipeline on the engine's stream, downloads into ScopeResults, and the
// GL interop path (register once, map all of a frame's textures in one call, write through
// surface objects, unmap before returning).
//
// Streams and events (docs/ARCHITECTURE.md, "Threads, streams and frames"): the engine's
// stream is its own, fed only by the thread that calls the engine. A device frame is read
// after its ready event (the device waits: cudaStreamWaitEvent), and a call returns after
// its own completion event (the host waits on that alone, never on a stream other threads
// feed, such as a source's decode stream).
#include "CudaEngine.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <thread>

#include "CudaDeviceStream.h"
#include "cuda/CudaHandle.h"
#include "cuda/analysis/GamutDisplayKernels.h"
#include "cuda/analysis/GamutKernels.h"
#include "cuda/images/HeadlessImages.h"
#include "cuda/scope/ScopePipeline.h"
#include "cuda/analysis/HdrKernels.h"
#include "KernelCheck.h"
#include "cuda/analysis/ReduceKernel.h"
#include "core/FrameReduce.h"
#include "core/PixelFormat.h"
#include "scope/CieDiagram.h"
#include "scope/GamutDisplay.h"
#include "scope/ScopeRender.h"
#include "core/ThreadPool.h"

// From cuda_gl_interop.h, declared here so that cs_cuda (and bench/gpu, built on machines
// without GL headers) needs no GL headers: GLuint and GLenum are both unsigned int.
extern "C" cudaError_t cudaGraphicsGLRegisterImage(cudaGraphicsResource** resource, unsigned int image, unsigned int target,
                                                   unsigned int flags);

namespace cs {
namespace {

constexpr unsigned kGlTexture2D = 0x0DE1;   // GL_TEXTURE_2D

std::string frameName(const FrameView& f) {
    return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::string(formatInfo(f.format).name);
}

// Sizes an image without zero-filling pixels that are about to be overwritten.
void sizeImage(RgbaImage& img, int w, int h) {
    img.width = w;
    img.height = h;
    img.pixels.resize(size_t(w) * size_t(h) * 4);
}

// Host copies into and out of pinned memory run on a few threads: one core copies a 4K frame's
// 25-66 MB at a fraction of the memory's bandwidth, and these copies are most of a headless
// frame's host time.
int copyThreads() { return std::clamp(ThreadPool::processThreads(), 1, 8); }

// `bytes` bytes copied in up to pool.size() pieces of at least 1 MiB.
void parallelCopy(ThreadPool& pool, void* dst, const void* src, size_t bytes) {
    constexpr size_t kPiece = size_t(1) << 20;
    const int pieces = int(std::min(size_t(pool.size()), (bytes + kPiece - 1) / kPiece));
    if (pieces <= 1) {
        if (bytes) std::memcpy(dst, src, bytes);
        return;
    }
    auto* d = static_cast<uint8_t*>(dst);
    const auto* s = static_cast<const uint8_t*>(src);
    pool.parallelFor(pieces, [&](int, int begin, int end) {
        const size_t b = bytes * size_t(begin) / size_t(pieces), e = bytes * size_t(end) / size_t(pieces);
        std::memcpy(d + b, s + b, e - b);
    }, pieces);
}

// Several copies as one job on the pool (one wake-up of its threads, not one per copy): the
// bytes of all of them, in order, split into equal runs.
struct CopyPiece {
    void* dst;
    const void* src;
    size_t bytes;
};
void parallelCopies(ThreadPool& pool, const std::vector<CopyPiece>& pieces) {
    constexpr size_t kRun = size_t(1) << 20;
    size_t total = 0;
    for (const CopyPiece& p : pieces) total += p.bytes;
    const int runs = int(std::min(size_t(pool.size()), (total + kRun - 1) / kRun));
    auto copyRange = [&](size_t begin, size_t end) {   // bytes [begin, end) of the concatenation
        size_t at = 0;
        for (const CopyPiece& p : pieces) {
            const size_t b = std::max(begin, at), e = std::min(end, at + p.bytes);
            if (b < e) std::memcpy(static_cast<uint8_t*>(p.dst) + (b - at), static_cast<const uint8_t*>(p.src) + (b - at), e - b);
            at += p.bytes;
        }
    };
    if (runs <= 1) { copyRange(0, total); return; }
    pool.parallelFor(runs, [&](int, int begin, int end) {
        copyRange(total * size_t(begin) / size_t(runs), total * size_t(end) / size_t(runs));
    }, runs);
}

// `rows` rows of `rowBytes` from a pitched source into tightly packed rows.
void parallelCopyRows(ThreadPool& pool, uint8_t* dst, const uint8_t* src, size_t srcPitch, size_t rowBytes, size_t rows) {
    if (srcPitch == rowBytes) { parallelCopy(pool, dst, src, rowBytes * rows); return; }
    const int pieces = int(std::min(size_t(pool.size()), std::max<size_t>(1, rowBytes * rows >> 20)));
    pool.parallelFor(int(rows), [&](int, int begin, int end) {
        for (int y = begin; y < end; ++y) std::memcpy(dst + size_t(y) * rowBytes, src + size_t(y) * srcPitch, rowBytes);
    }, pieces);
}

Status validateFrame(const FrameView& f) {
    if (f.format >= PixelFormat::Count) return Status::error("unsupported pixel format");
    if (!f.valid()) return Status::error("invalid frame " + frameName(f) + " (size out of range or plane missing)");
    return {};
}

}  // namespace

struct CudaEngine::Impl {
    int device = 0;
    std::string deviceName;
    cuda::StreamHandle stream;   // the engine's own: every kernel and copy of a call, in order
    cuda::ScopePipeline pipeline;
    cuda::HdrPass hdr;   // HDR light levels (PQ, HLG frames), after the scope pass on the same stream
    cuda::GamutPass gamut;   // CIE counts and the share outside the gamut target, on the same stream
    cuda::GamutDisplayPass gamutDisplay;   // the gamut display's counts (drawn on the host), on the same stream
    std::array<cuda::PitchedBuffer, 3> planes;   // device copies of host (or misaligned device) frames
    cuda::PitchedBuffer reduced;                 // downscaleToHost's planes, one above the other

    // What a frame in flight holds on the host's side: its completion event, recorded on the
    // engine's stream after the frame's last copy back (the host waits on it, and on nothing
    // else), the pinned staging its host planes go up through and its column counts on their
    // way down. process() and processToGl() use the one slot and wait for its event before
    // returning. Several frames in flight would each take a slot of their own, reused only
    // once its event has completed; the device buffers need no slots, as the stream orders
    // every frame's kernels after the previous frame's copies.
    struct FrameSlot {
        cuda::EventHandle done;
        cuda::PinnedBuffer staging;
        cuda::PinnedBuffer results;   // everything a call copies back, in one block (download())
    };
    FrameSlot slot;
    cuda::EventHandle legacyMark;   // for device frames without a ready event: the legacy default stream's work so far
    ThreadPool pool{copyThreads()};   // host copies through pinned memory; overlays of the scope images
    cuda::HeadlessImages images;         // process()'s scope images, drawn on the GPU

    struct Registered {
        unsigned name = 0;
        int width = 0, height = 0;
        uint64_t generation = 0;
        cuda::GraphicsResourceHandle resource;
    };
    std::array<Registered, 6> gl;   // picture, preview, histogram, waveform, parade, vectorscope

    // Whether the call in progress has waited for its completion event (finish()). A call that
    // fails part-way may have queued copies out of the slot's pinned staging or into its pinned
    // results, and kernels reading the caller's frame: its CallGuard then waits for the stream
    // before the call returns, so that the next call may overwrite or reallocate that memory and
    // the caller may drop the frame. (The engine's stream is fed by the calling thread alone.)
    bool finished = true;
    struct CallGuard {
        Impl& m;
        explicit CallGuard(Impl& impl) : m(impl) { m.finished = false; }
        ~CallGuard() {
            if (!m.finished) cudaStreamSynchronize(m.stream.get());   // the call's own error is already its result
            m.finished = true;
        }
        CallGuard(const CallGuard&) = delete;
        CallGuard& operator=(const CallGuard&) = delete;
    };

    Status orderAfter(const FrameView& f);
    Status finish();
    Status inputPlanes(const FrameView& f, cuda::PlaneSet& out);
    Status run(const FrameView& f, const ScopeSpec& spec, bool wantPicture, ScopeResults& out, const cuda::SurfaceTargets* surfaces);
    Status download(const FrameView& f, const ScopeSpec& spec, bool bigCounts, bool withImages, ScopeResults& out);
    void unpackColumns(const uint16_t* strips, std::vector<uint32_t>& dst, bool on, int firstChannel, int channels, size_t L, size_t W);
};

// The engine's stream waits, on the device, until a device frame's planes are written: for
// its ready event (core/DeviceStream.h) or, for a frame without one, for the work queued so
// far on the legacy default stream (where FFmpeg decodes when it is given no stream, and
// where synchronous copies run). Host frames are copied in on the engine's stream itself.
Status CudaEngine::Impl::orderAfter(const FrameView& f) {
    if (!f.onDevice) return {};
    auto ready = static_cast<cudaEvent_t>(f.deviceReady);
    if (!ready) {
        CS_CUDA_CHECK(cudaEventRecord(legacyMark.get(), cudaStreamLegacy));
        ready = legacyMark.get();
    }
    CS_CUDA_CHECK(cudaStreamWaitEvent(stream.get(), ready, 0));
    return {};
}

// Records the slot's completion event after everything queued for the frame and waits for it.
Status CudaEngine::Impl::finish() {
    CS_CUDA_CHECK(cudaEventRecord(slot.done.get(), stream.get()));
    CS_CUDA_CHECK(cudaEventSynchronize(slot.done.get()));
    finished = true;
    return {};
}

// Device planes for the frame, meeting PixelGroups.h's alignment contract.
Status CudaEngine::Impl::inputPlanes(const FrameView& f, cuda::PlaneSet& out) {
    const int n = formatInfo(f.format).planeCount;
    out = {};
    if (f.onDevice) {
        for (int i = 0; i < n; ++i) {
            cudaPointerAttributes attr{};
            CS_CUDA_CHECK(cudaPointerGetAttributes(&attr, f.data[size_t(i)]));
            if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
                return Status::error("frame " + frameName(f) + ": plane " + std::to_string(i) +
                                     " is marked as GPU memory but is not CUDA device memory");
            if (attr.device != device)
                return Status::error("frame " + frameName(f) + ": plane " + std::to_string(i) + " is on CUDA device " +
                                     std::to_string(attr.device) + ", the engine runs on device " + std::to_string(device));
            out.data[i] = f.data[size_t(i)];
            out.pitch[i] = size_t(f.pitch[size_t(i)]);
        }
        if (cuda::planesAligned(out, f.format)) return {};
        // Misaligned planes (rare: decoders align to 256 bytes): one device-to-device copy.
        for (int i = 0; i < n; ++i) {
            const size_t rowBytes = planeRowBytes(f.format, f.width, i), rows = size_t(planeRows(f.format, f.height, i));
            CS_TRY(planes[size_t(i)].reserve(rowBytes, rows));
            CS_CUDA_CHECK(cudaMemcpy2DAsync(planes[size_t(i)].get(), planes[size_t(i)].pitch(), f.data[size_t(i)], size_t(f.pitch[size_t(i)]),
                                            rowBytes, rows, cudaMemcpyDeviceToDevice, stream.get()));
            out.data[i] = planes[size_t(i)].get();
            out.pitch[i] = planes[size_t(i)].pitch();
        }
        return {};
    }
    // Host frame: each plane is copied into pinned staging (on the pool) in bands of rows, each
    // band uploaded asynchronously as soon as it is there, so the copy of band k+1 overlaps
    // the upload of band k.
    size_t total = 0;
    for (int i = 0; i < n; ++i) total += planeRowBytes(f.format, f.width, i) * size_t(planeRows(f.format, f.height, i));
    cuda::PinnedBuffer& staging = slot.staging;
    CS_TRY(staging.reserve(total));
    size_t offset = 0;
    for (int i = 0; i < n; ++i) {
        const size_t rowBytes = planeRowBytes(f.format, f.width, i), rows = size_t(planeRows(f.format, f.height, i));
        CS_TRY(planes[size_t(i)].reserve(rowBytes, rows));
        uint8_t* dst = staging.get() + offset;
        const uint8_t* src = f.data[size_t(i)];
        const size_t srcPitch = size_t(f.pitch[size_t(i)]), dstPitch = planes[size_t(i)].pitch();
        constexpr size_t kBand = size_t(4) << 20;
        const size_t bandRows = std::max<size_t>(1, kBand / rowBytes);
        for (size_t y = 0; y < rows; y += bandRows) {
            const size_t count = std::min(bandRows, rows - y);
            parallelCopyRows(pool, dst + y * rowBytes, src + y * srcPitch, srcPitch, rowBytes, count);
            CS_CUDA_CHECK(cudaMemcpy2DAsync(planes[size_t(i)].get() + y * dstPitch, dstPitch, dst + y * rowBytes, rowBytes, rowBytes,
                                            count, cudaMemcpyHostToDevice, stream.get()));
        }
        out.data[i] = planes[size_t(i)].get();
        out.pitch[i] = planes[size_t(i)].pitch();
        offset += rowBytes * rows;
    }
    return {};
}

Status CudaEngine::Impl::run(const FrameView& f, const ScopeSpec& spec, bool wantPicture, ScopeResults& out,
                             const cuda::SurfaceTargets* surfaces) {
    const auto& info = formatInfo(f.format);
    const int depth = info.bitDepth;
    out.width = f.width; out.height = f.height; out.bitDepth = depth; out.levels = 1 << depth; out.format = f.format;
    out.color = applyOverride(f.color, spec.colorOverride);
    out.paradeMode = spec.paradeMode;
    const Matrix m = out.color.matrix;
    const Range r = out.color.range;

    const cuda::PipelineWork work = cuda::workFor(spec, f.format, wantPicture);
    CS_TRY(orderAfter(f));
    CS_TRY(pipeline.prepare(f.format, f.width, f.height, spec, work, r, stream.get(), out.color.transfer));
    cuda::PlaneSet planeSet{};
    CS_TRY(inputPlanes(f, planeSet));
    const cuda::ScopeColour colour{makeYuvToRgb(m, r, depth, 8), makeYuvToRgb(m, r, depth, depth), makeRgbToYuv(m, r, 8)};
    cuda::SurfaceTargets withColour;   // the traces' hues follow the matrix and range in use
    if (surfaces) {
        withColour = *surfaces;
        withColour.matrix = m;
        withColour.range = r;
        surfaces = &withColour;
    }
    CS_TRY(pipeline.enqueue(planeSet, colour, stream.get(), surfaces));
    CS_TRY(hdr.enqueue(f, planeSet, out.color, spec.hdr, stream.get()));
    // The gamut preview: painted by the gamut pass over the picture the scope pass wrote.
    const cuda::GamutPaint paint{pipeline.picture(), pipeline.picturePitch(), pipeline.previewSink(surfaces)};
    const bool gamutPreview = spec.preview == PreviewFilter::Gamut;
    CS_TRY(gamutDisplay.enqueue(f, planeSet, out.color, spec, stream.get()));
    return gamut.enqueue(f, planeSet, out.color, spec, gamutPreview ? &paint : nullptr, stream.get());
}

// Copies the results back and waits for the frame's completion event: every piece into one
// block of the slot's pinned memory with asynchronous copies, one event synchronisation, then
// the pieces into ScopeResults (large ones on the pool). `withImages`: the picture, the preview
// and (process()) the scope images drawn on the GPU too.
Status CudaEngine::Impl::download(const FrameView& f, const ScopeSpec& spec, bool bigCounts, bool withImages, ScopeResults& out) {
    cudaStream_t s = stream.get();
    const size_t L = size_t(out.levels), W = size_t(f.width), H = size_t(f.height);
    const uint32_t flags = pipeline.work().flags;
    size_t bytes = 0;
    auto place = [&](size_t n) {
        const size_t at = bytes;
        bytes += (n + 255) / 256 * 256;
        return at;
    };
    // Histograms and statistics are one contiguous piece of the accumulators (histY, histRgb, stats).
    const auto* head = reinterpret_cast<const uint8_t*>(pipeline.histY());
    const size_t statsAt = size_t(reinterpret_cast<const uint8_t*>(pipeline.stats()) - head);
    const size_t headBytes = statsAt + sizeof(cuda::DeviceStats);
    const size_t headAt = place(headBytes);
    // Waveform and parade counts are 16-bit strips on the device: copied as they are, laid out
    // and widened below.
    const bool hist = spec.histogram && (flags & cuda::kScopeHistogram);
    const bool waveform = bigCounts && spec.waveform, parade = bigCounts && spec.parade;
    const bool vectorscope = bigCounts && spec.vectorscope;
    const size_t columnsBytes = (waveform || parade) ? cuda::columnCountsSize(int(L), int(W)) * sizeof(uint16_t) : 0;
    const size_t columnsAt = columnsBytes ? place(columnsBytes) : 0;
    const size_t vectorscopeAt = vectorscope ? place(L * L * sizeof(uint32_t)) : 0;
    const bool scopeImages = withImages && spec.displayImages && images.blockBytes() > 0;
    const size_t imagesAt = scopeImages ? place(images.blockBytes()) : 0;
    const bool picture = withImages && spec.displayImages && spec.picture;
    const size_t pictureAt = picture ? place(W * H * 4) : 0;
    const bool preview = withImages && spec.preview != PreviewFilter::None;
    const size_t previewAt = preview ? place(W * H * 4) : 0;
    const size_t gamutBytes = gamut.downloadBytes(spec.cieCounts);
    const size_t gamutAt = gamutBytes ? place(gamutBytes) : 0;
    const size_t displayBytes = gamutDisplay.downloadBytes();
    const size_t displayAt = displayBytes ? place(displayBytes) : 0;
    CS_TRY(slot.results.reserve(bytes));
    uint8_t* pinned = slot.results.get();

    CS_CUDA_CHECK(cudaMemcpyAsync(pinned + headAt, head, headBytes, cudaMemcpyDeviceToHost, s));
    if (columnsBytes) CS_CUDA_CHECK(cudaMemcpyAsync(pinned + columnsAt, pipeline.columns(), columnsBytes, cudaMemcpyDeviceToHost, s));
    if (vectorscope)
        CS_CUDA_CHECK(cudaMemcpyAsync(pinned + vectorscopeAt, pipeline.vectorscope(), L * L * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    if (scopeImages)
        CS_CUDA_CHECK(cudaMemcpyAsync(pinned + imagesAt, images.block(), images.blockBytes(), cudaMemcpyDeviceToHost, s));
    if (picture)
        CS_CUDA_CHECK(cudaMemcpy2DAsync(pinned + pictureAt, W * 4, pipeline.picture(), pipeline.picturePitch(), W * 4, H,
                                        cudaMemcpyDeviceToHost, s));
    if (preview)
        CS_CUDA_CHECK(cudaMemcpy2DAsync(pinned + previewAt, W * 4, pipeline.preview(), pipeline.previewPitch(), W * 4, H,
                                        cudaMemcpyDeviceToHost, s));
    CS_TRY(hdr.download(out.hdr, s));
    CS_TRY(gamut.download(pinned + gamutAt, spec.cieCounts, s));
    CS_TRY(gamutDisplay.download(pinned + displayAt, s));
    CS_TRY(finish());

    auto hostHist = [&](std::vector<uint32_t>& dst, size_t offset, size_t n) {
        if (!hist) { dst.clear(); return; }
        dst.resize(n);
        std::memcpy(dst.data(), pinned + headAt + offset, n * sizeof(uint32_t));
    };
    hostHist(out.histY, 0, L);
    hostHist(out.histR, L * 4, 256);
    hostHist(out.histG, (L + 256) * 4, 256);
    hostHist(out.histB, (L + 512) * 4, 256);
    const auto* strips = reinterpret_cast<const uint16_t*>(pinned + columnsAt);
    unpackColumns(strips, out.waveform, waveform, 0, 1, L, W);
    unpackColumns(strips, out.parade, parade, 1, 3, L, W);
    std::vector<CopyPiece> pieces;   // from pinned memory into ScopeResults, as one job
    if (vectorscope) {
        out.vectorscope.resize(L * L);
        pieces.push_back({out.vectorscope.data(), pinned + vectorscopeAt, L * L * sizeof(uint32_t)});
    } else {
        out.vectorscope.clear();
    }
    if (picture) {
        sizeImage(out.picture, f.width, f.height);
        pieces.push_back({out.picture.pixels.data(), pinned + pictureAt, W * H * 4});
    } else {
        out.picture = {};
    }
    if (preview) {
        sizeImage(out.preview, f.width, f.height);
        pieces.push_back({out.preview.pixels.data(), pinned + previewAt, W * H * 4});
    } else {
        out.preview = {};
    }
    if (scopeImages) {
        RgbaImage* dst[4] = {&out.histogramImage, &out.waveformImage, &out.paradeImage, &out.vectorscopeImage};
        for (int k = 0; k < 4; ++k) {
            const cuda::HeadlessImages::Placed& p = images.placed(cuda::ScopeImageKind(k));
            if (!p.onGpu) continue;
            sizeImage(*dst[k], p.width, p.height);
            pieces.push_back({dst[k]->pixels.data(), pinned + imagesAt + p.offset, size_t(p.width) * size_t(p.height) * 4});
        }
    }
    parallelCopies(pool, pieces);
    hdr.finish(out.hdr);
    gamut.finish(pinned + gamutAt, out.gamut, f.width, f.height);
    gamutDisplay.finish(pinned + displayAt, out.gamutDisplay);

    out.stats = {};
    if (spec.stats) {
        cuda::DeviceStats st{};
        std::memcpy(&st, pinned + headAt + statsAt, sizeof st);
        const auto& info = formatInfo(f.format);
        const int top = out.levels - 1;
        const double pixels = double(W) * double(H);
        // Chroma samples counted: each stored chroma sample (Y'CbCr), every pixel (RGB, gray).
        const bool perPixel = info.isRgb || info.layout == PixelLayout::Gray;
        const double chroma = perPixel ? pixels : double(chromaWidth(f.format, f.width)) * double(chromaHeight(f.format, f.height));
        out.stats.y = {top - st.yMinInv, st.yMax, double(st.ySum) / pixels};
        out.stats.u = {top - st.uMinInv, st.uMax, double(st.uSum) / chroma};
        out.stats.v = {top - st.vMinInv, st.vMax, double(st.vSum) / chroma};
        out.stats.outOfLegal = double(st.outOfLegal) / pixels;
        out.stats.outOfGamut = double(st.outOfGamut) / pixels;
        out.stats.outOfR103 = double(st.outOfR103) / pixels;
    }
    return {};
}

// Strips into ScopeResults' rows: [channel][level][x], channel 0 the waveform, 1..3 the parade.
void CudaEngine::Impl::unpackColumns(const uint16_t* strips, std::vector<uint32_t>& dst, bool on, int firstChannel, int channels, size_t L,
                                     size_t W) {
    if (!on) { dst.clear(); return; }
    dst.resize(size_t(channels) * L * W);
    const int rows = channels * int(L);
    pool.parallelFor(rows, [&](int, int begin, int end) {
        for (int r = begin; r < end; ++r) {
            const int c = r / int(L);
            const size_t level = size_t(r) % L;
            uint32_t* row = dst.data() + (size_t(c) * L + level) * W;
            for (size_t x0 = 0; x0 < W; x0 += cuda::kColumnStrip) {
                const uint16_t* src = strips + cuda::columnIndex(int(L), firstChannel + c, int(level), int(x0));
                const size_t n = std::min(W - x0, size_t(cuda::kColumnStrip));
                for (size_t i = 0; i < n; ++i) row[x0 + i] = src[i];
            }
        }
    });
}

CudaEngine::CudaEngine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

CudaEngine::~CudaEngine() {
    if (impl_) {
        cudaSetDevice(impl_->device);
        cudaStreamSynchronize(impl_->stream.get());
    }
}

Result<std::shared_ptr<DeviceStream>> CudaEngine::makeDecodeStream() const { return cuda::makeDeviceStream(impl_->device); }
int CudaEngine::device() const { return impl_->device; }
std::string CudaEngine::deviceName() const { return impl_->deviceName; }

Status CudaEngine::process(const FrameView& f, const ScopeSpec& spec, ScopeResults& out) {
    if (countsDiffer(spec)) return process(f, countedSpec(spec), out);   // RGB overlay / YRGB: the R'G'B' parade's counts
    CS_TRY(validateFrame(f));
    const Impl::CallGuard guard(*impl_);
    CS_CUDA_CHECK(cudaSetDevice(impl_->device));
    const bool wantPicture = spec.displayImages && spec.picture;
    Impl& m = *impl_;
    CS_TRY(m.run(f, spec, wantPicture, out, nullptr));
    // The scope images are drawn on the GPU after the pass and come back with the rest; an image
    // too large for its overlay tables is drawn by core from counts copied back for it.
    bool hostImages = false;
    if (spec.displayImages) {
        CS_TRY(m.images.prepare(spec, out, m.pool, m.stream.get()));
        CS_TRY(m.images.enqueue(m.pipeline, spec, out, m.stream.get()));
        hostImages = m.images.anyOnHost();
    }
    CS_TRY(m.download(f, spec, spec.counts || hostImages, true, out));
    using cuda::ScopeImageKind;
    auto image = [&](ScopeImageKind k, RgbaImage& img, void (*render)(const ScopeResults&, const ScopeSpec&, RgbaImage&)) {
        const cuda::HeadlessImages::Placed& p = m.images.placed(k);
        if (!spec.displayImages || !p.wanted) img = {};
        else if (!p.onGpu) render(out, spec, img);
    };
    image(ScopeImageKind::Histogram, out.histogramImage, renderHistogram);
    image(ScopeImageKind::Waveform, out.waveformImage, renderWaveform);
    image(ScopeImageKind::Parade, out.paradeImage, renderParade);
    image(ScopeImageKind::Vectorscope, out.vectorscopeImage, renderVectorscope);
    // The CIE diagram from its counts (512 x 512, copied back with spec.cie and spec.cieCounts).
    if (spec.displayImages && spec.cie && spec.cieCounts) renderCieDiagram(out, spec, out.cieImage); else out.cieImage = {};
    // The gamut display from its counts (512 x 512, copied back with spec.gamutDisplay).
    if (spec.displayImages) renderGamutDisplay(out, spec, out.gamutDisplayImage); else out.gamutDisplayImage = {};
    return {};
}

Status CudaEngine::processToGl(const FrameView& f, const ScopeSpec& spec, ScopeResults& out, const GlTargets& t) {
    CS_TRY(validateFrame(f));
    const Impl::CallGuard guard(*impl_);
    CS_CUDA_CHECK(cudaSetDevice(impl_->device));
    const std::array<const GlTexture*, 6> wanted = {&t.picture, &t.preview, &t.histogram, &t.waveform, &t.parade, &t.vectorscope};
    static constexpr const char* kNames[6] = {"picture", "preview", "histogram", "waveform", "parade", "vectorscope"};
    for (size_t i = 0; i < 6; ++i) {
        const GlTexture& g = *wanted[i];
        if (!g.name) continue;
        if (i < 2 && (g.width != f.width || g.height != f.height))
            return Status::error(std::string("the ") + kNames[i] + " texture is " + std::to_string(g.width) + "x" +
                                 std::to_string(g.height) + ", the frame " + frameName(f));
        if (g.width <= 0 || g.height <= 0 || g.width > kMaxDimension || g.height > kMaxDimension)
            return Status::error(std::string("the ") + kNames[i] + " texture has an invalid size " + std::to_string(g.width) + "x" +
                                 std::to_string(g.height));
    }
    // The scopes the textures need are computed whatever the spec says; a preview only when drawn.
    ScopeSpec effective = spec;
    effective.histogram = spec.histogram || t.histogram.name;
    effective.waveform = spec.waveform || t.waveform.name;
    effective.parade = spec.parade || t.parade.name;
    effective.vectorscope = spec.vectorscope || t.vectorscope.name;
    if (!t.preview.name) effective.preview = PreviewFilter::None;
    effective = countedSpec(effective);   // RGB overlay / YRGB: the R'G'B' parade's counts

    // Register new or changed textures: a new name, size or generation (storage specified
    // again, even under the same name and size) gets a new registration. A texture absent
    // from this call keeps its registration for the next (a region's two calls, EngineHost:
    // the picture's, then the scopes'); releaseGl drops them all.
    auto& gl = impl_->gl;
    for (size_t i = 0; i < 6; ++i) {
        const GlTexture& g = *wanted[i];
        auto& reg = gl[i];
        if (!g.name) continue;
        if (g.name == reg.name && g.generation == reg.generation && g.width == reg.width && g.height == reg.height && reg.resource)
            continue;
        reg.resource.reset();
        reg.name = 0;
        cudaGraphicsResource_t res = nullptr;
        const cudaError_t e = cudaGraphicsGLRegisterImage(&res, g.name, kGlTexture2D,
                                                          cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard);
        if (e != cudaSuccess)
            return Status::error(std::string("cannot register the ") + kNames[i] + " texture (GL name " + std::to_string(g.name) +
                                 ") with CUDA: " + cudaGetErrorString(e) + " (it must be a GL_TEXTURE_2D with GL_RGBA8 storage, "
                                 "and its GL context current)");
        reg.resource.reset(res);
        reg.name = g.name; reg.width = g.width; reg.height = g.height; reg.generation = g.generation;
    }

    // Map every texture of the frame in one call; unmap on every path out.
    std::array<cudaGraphicsResource_t, 6> resources{};
    std::array<int, 6> slotOf{};
    int mapped = 0;
    for (size_t i = 0; i < 6; ++i)
        if (wanted[i]->name) { slotOf[size_t(mapped)] = int(i); resources[size_t(mapped++)] = gl[i].resource.get(); }
    cudaStream_t s = impl_->stream.get();
    // Surfaces are destroyed last, after the guard below has unmapped and waited for the stream.
    std::array<cuda::SurfaceHandle, 6> surfaces;
    if (mapped) CS_CUDA_CHECK(cudaGraphicsMapResources(mapped, resources.data(), s));
    struct Unmap {
        int n; cudaGraphicsResource_t* r; cudaStream_t s; bool done = false;
        cudaError_t now() { done = true; return n ? cudaGraphicsUnmapResources(n, r, s) : cudaSuccess; }
        ~Unmap() {
            if (done) return;
            if (n) cudaGraphicsUnmapResources(n, r, s);
            cudaStreamSynchronize(s);   // an error path: let queued kernels finish before the surfaces go
        }
    } unmap{mapped, resources.data(), s};

    cuda::SurfaceTargets targets;
    for (int k = 0; k < mapped; ++k) {
        const size_t i = size_t(slotOf[size_t(k)]);
        cudaArray_t array = nullptr;
        CS_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, resources[size_t(k)], 0, 0));
        cudaChannelFormatDesc desc{};
        cudaExtent extent{};
        unsigned int arrayFlags = 0;
        CS_CUDA_CHECK(cudaArrayGetInfo(&desc, &extent, &arrayFlags, array));
        if (int(extent.width) != gl[i].width || int(extent.height) != gl[i].height || desc.x + desc.y + desc.z + desc.w != 32)
            return Status::error(std::string("the ") + kNames[i] + " texture (GL name " + std::to_string(gl[i].name) + ") is " +
                                 std::to_string(extent.width) + "x" + std::to_string(extent.height) + " with " +
                                 std::to_string(desc.x + desc.y + desc.z + desc.w) + "-bit texels, not the declared " +
                                 std::to_string(gl[i].width) + "x" + std::to_string(gl[i].height) + " RGBA8");
        cudaResourceDesc rd{};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = array;
        CS_CUDA_CHECK(cudaCreateSurfaceObject(surfaces[i].out(), &rd));
        if (i == 0) targets.picture = surfaces[i].get();
        else if (i == 1) targets.preview = surfaces[i].get();
        else {
            targets.traces[i - 2] = surfaces[i].get();
            targets.traceWidth[i - 2] = gl[i].width;
            targets.traceHeight[i - 2] = gl[i].height;
        }
    }
    CS_TRY(impl_->run(f, effective, t.picture.name != 0, out, &targets));
    CS_CUDA_CHECK(unmap.now());
    ScopeSpec downloadSpec = spec;
    downloadSpec.preview = PreviewFilter::None;
    CS_TRY(impl_->download(f, downloadSpec, t.downloadCounts, false, out));
    out.histogramImage = out.waveformImage = out.paradeImage = out.vectorscopeImage = {};
    return {};   // surfaces are destroyed here, after the stream finished with them
}

Result<Frame> CudaEngine::copyRegion(const FrameView& f, int x, int y, int width, int height) {
    Frame region;
    CS_TRY(copyRegion(f, x, y, width, height, region));
    return region;
}

Status CudaEngine::copyRegion(const FrameView& f, int x, int y, int width, int height, Frame& region) {
    CS_TRY(validateFrame(f));
    if (!f.onDevice) return Status::error("frame " + frameName(f) + " is not in GPU memory");
    const auto& info = formatInfo(f.format);
    if (x < 0 || y < 0 || width <= 0 || height <= 0 || width > f.width - x || height > f.height - y ||
        x % (1 << info.log2ChromaW) != 0 || y % (1 << info.log2ChromaH) != 0)
        return Status::error("region " + std::to_string(width) + "x" + std::to_string(height) + " at (" + std::to_string(x) + ", " +
                             std::to_string(y) + ") is not inside frame " + frameName(f) + " on its chroma grid");
    CS_CUDA_CHECK(cudaSetDevice(impl_->device));
    const Impl::CallGuard guard(*impl_);
    CS_TRY(impl_->orderAfter(f));
    cudaStream_t s = impl_->stream.get();
    if (region.format() != f.format || region.width() != width || region.height() != height) region = Frame(f.format, width, height, f.color);
    region.color() = f.color;
    region.pts = f.pts;
    for (int i = 0; i < info.planeCount; ++i) {
        // Bytes and rows before the region: those of a region from the origin to (x, y).
        const uint8_t* src = f.data[size_t(i)] + std::ptrdiff_t(planeRows(f.format, y, i)) * f.pitch[size_t(i)] +
                             std::ptrdiff_t(planeRowBytes(f.format, x, i));
        CS_CUDA_CHECK(cudaMemcpy2DAsync(region.plane(i), size_t(region.pitch(i)), src, size_t(f.pitch[size_t(i)]),
                                        planeRowBytes(f.format, width, i), size_t(planeRows(f.format, height, i)),
                                        cudaMemcpyDeviceToHost, s));
    }
    return impl_->finish();
}

Status CudaEngine::downscaleToHost(const FrameView& f, int width, int height, Frame& out) {
    CS_TRY(validateFrame(f));
    if (width <= 0 || height <= 0)
        return Status::error("cannot reduce frame " + frameName(f) + " to " + std::to_string(width) + "x" + std::to_string(height));
    if (!f.onDevice) {
        reduceFrame(f, width, height, out);
        return {};
    }
    const PixelFormatInfo& info = formatInfo(f.format);
    const PixelFormat format = reducedFormat(f.format);
    const bool wide = format == PixelFormat::Yuv444p10;
    const int planeCount = info.isRgb ? 1 : 3;
    const size_t rowBytes = size_t(width) * (info.isRgb ? 3 : wide ? 2 : 1);
    CS_CUDA_CHECK(cudaSetDevice(impl_->device));
    const Impl::CallGuard guard(*impl_);
    CS_TRY(impl_->reduced.reserve(rowBytes, size_t(height) * size_t(planeCount)));
    CS_TRY(impl_->slot.staging.reserve(rowBytes * size_t(height) * size_t(planeCount)));
    CS_TRY(impl_->orderAfter(f));
    cudaStream_t s = impl_->stream.get();
    const size_t pitch = impl_->reduced.pitch(), planeBytes = pitch * size_t(height);
    uint8_t* const d = impl_->reduced.get();
    const ReducedRow d_out{d, info.isRgb ? nullptr : d + planeBytes, info.isRgb ? nullptr : d + 2 * planeBytes};
    CS_CUDA_CHECK(cuda::reduceFrameOnDevice(makePixelSource(f), f.width, f.height, int32_t(1) << (info.bitDepth - 1), info.isRgb,
                                            wide, d_out, pitch, width, height, s));
    uint8_t* const staging = impl_->slot.staging.get();
    CS_CUDA_CHECK(cudaMemcpy2DAsync(staging, rowBytes, d, pitch, rowBytes, size_t(height) * size_t(planeCount),
                                    cudaMemcpyDeviceToHost, s));
    CS_TRY(impl_->finish());
    if (out.format() != format || out.width() != width || out.height() != height) out = Frame(format, width, height);
    out.color() = f.color;
    out.pts = f.pts;
    for (int p = 0; p < planeCount; ++p)
        for (int y = 0; y < height; ++y)
            std::memcpy(out.plane(p) + y * out.pitch(p), staging + (size_t(p) * size_t(height) + size_t(y)) * rowBytes, rowBytes);
    return {};
}

void CudaEngine::releaseGl() {
    cudaSetDevice(impl_->device);
    cudaStreamSynchronize(impl_->stream.get());
    for (auto& reg : impl_->gl) { reg.resource.reset(); reg.name = 0; reg.width = reg.height = 0; reg.generation = 0; }
}

Result<std::unique_ptr<CudaEngine>> makeCudaEngine(int device) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    // Without an NVIDIA GPU the runtime finds no driver and says "CUDA driver version is
    // insufficient for CUDA runtime version": what the user needs to hear is the cause.
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice)
        return Status::error("no NVIDIA GPU or driver");
    if (e != cudaSuccess) return Status::error(std::string("no usable CUDA device: ") + cudaGetErrorString(e));
    if (count == 0) return Status::error("no CUDA device found");
    if (device < 0 || device >= count)
        return Status::error("CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(count) + " found)");
    CS_TRY(cuda::checkKernels(device));   // once per device: a GPU this build has no code for is found here
    auto impl = std::make_unique<CudaEngine::Impl>();
    impl->device = device;
    CS_CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp props{};
    CS_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
    impl->deviceName = props.name;
    CS_CUDA_CHECK(cudaStreamCreateWithFlags(impl->stream.out(), cudaStreamNonBlocking));
    CS_CUDA_CHECK(cudaEventCreateWithFlags(impl->slot.done.out(), cudaEventDisableTiming));
    CS_CUDA_CHECK(cudaEventCreateWithFlags(impl->legacyMark.out(), cudaEventDisableTiming));
    return std::make_unique<CudaEngine>(std::move(impl));
}

}  // namespace cs
