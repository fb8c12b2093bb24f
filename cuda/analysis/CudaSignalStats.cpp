#include "CudaSignalStats.h"

#include <array>
#include <vector>

#include "cuda/CudaCheck.h"
#include "cuda/CudaHandle.h"
#include "SignalStatsKernels.h"
#include "core/PixelAccess.h"

namespace cs {

using namespace cs::cuda;

struct CudaSignalStatsMeter::Impl {
    int device = 0;
    StreamHandle stream;
    // Three frames of planes: the current, the previous, freezedetect's reference.
    std::array<DeviceBuffer, 3> planes;
    std::array<SignalStatsPlanes, 3> views{};
    int cur = 0, prev = 1;
    bool havePrev = false, haveRef = false;
    int tableLevels = 0;
    DeviceBuffer satTable, hueTable, counts;
    PinnedBuffer hostCounts;
    int bitDepth = 8, log2ch = 0;
};

namespace {

constexpr size_t kHue = 360;
size_t countBytes(int levels) { return (4 * size_t(levels) + kHue) * 4 + kSumCount * 8 + 3 * 4; }

}  // namespace

CudaSignalStatsMeter::CudaSignalStatsMeter() : impl_(std::make_unique<Impl>()) {}
CudaSignalStatsMeter::~CudaSignalStatsMeter() {
    if (impl_) cudaSetDevice(impl_->device);   // buffers are freed on their device
}

Result<std::unique_ptr<CudaSignalStatsMeter>> CudaSignalStatsMeter::create(int device) {
    std::unique_ptr<CudaSignalStatsMeter> m(new CudaSignalStatsMeter());
    m->impl_->device = device;
    CS_CUDA_CHECK(cudaSetDevice(device));
    // A blocking stream: frames without a ready event were written on the legacy default
    // stream, which it then follows by itself.
    CS_CUDA_CHECK(cudaStreamCreateWithFlags(m->impl_->stream.out(), cudaStreamDefault));
    return m;
}

Status CudaSignalStatsMeter::measure(const FrameView& frame, int blackThreshold, SignalStats& out, double& mafd) {
    Impl& s = *impl_;
    const auto& info = formatInfo(frame.format);
    if (!frame.onDevice) return Status::error("the CUDA signalstats reads frames in GPU memory only");
    if (info.isRgb) return Status::error("signalstats needs a Y'CbCr source, not R'G'B'");
    CS_CUDA_CHECK(cudaSetDevice(s.device));
    const int levels = 1 << info.bitDepth, mid = levels / 2;
    if (s.tableLevels != levels) {   // SAT and HUE of every chroma pair, by core's functions
        std::vector<uint16_t> sat(size_t(levels) * size_t(levels)), hue(sat.size());
        for (int u = 0; u < levels; ++u)
            for (int v = 0; v < levels; ++v) {
                sat[size_t(u) * size_t(levels) + size_t(v)] = uint16_t(signalstatsSat(u, v, mid));
                hue[size_t(u) * size_t(levels) + size_t(v)] = uint16_t(signalstatsHue(u, v, mid));
            }
        CS_TRY(s.satTable.reserve(sat.size() * 2));
        CS_TRY(s.hueTable.reserve(hue.size() * 2));
        CS_CUDA_CHECK(cudaMemcpy(s.satTable.get(), sat.data(), sat.size() * 2, cudaMemcpyHostToDevice));
        CS_CUDA_CHECK(cudaMemcpy(s.hueTable.get(), hue.data(), hue.size() * 2, cudaMemcpyHostToDevice));
        s.tableLevels = levels;
    }
    const int cw = chromaWidth(frame.format, frame.width), ch = chromaHeight(frame.format, frame.height);
    const size_t luma = size_t(frame.width) * size_t(frame.height), chroma = size_t(cw) * size_t(ch);
    std::swap(s.cur, s.prev);
    SignalStatsPlanes& c = s.views[size_t(s.cur)];
    CS_TRY(s.planes[size_t(s.cur)].reserve((luma + 2 * chroma) * 2));
    uint16_t* base = s.planes[size_t(s.cur)].get<uint16_t>();
    c = {base, base + luma, base + luma + chroma, frame.width, frame.height, cw, ch};
    const SignalStatsPlanes& p = s.views[size_t(s.prev)];
    const bool samePrev = s.havePrev && p.width == c.width && p.height == c.height && info.bitDepth == s.bitDepth;
    const SignalStatsPlanes& r = s.views[2];
    const bool sameRef = s.haveRef && r.width == c.width && r.height == c.height && info.bitDepth == s.bitDepth;
    s.bitDepth = info.bitDepth;
    s.log2ch = info.log2ChromaH;

    if (frame.deviceReady) CS_CUDA_CHECK(cudaStreamWaitEvent(s.stream.get(), static_cast<cudaEvent_t>(frame.deviceReady), 0));
    CS_CUDA_CHECK(unpackSignalStatsPlanes(makePixelSource(frame), mid, info.log2ChromaW, info.log2ChromaH, c, s.stream.get()));
    const size_t bytes = countBytes(levels);
    CS_TRY(s.counts.reserve(bytes));
    CS_TRY(s.hostCounts.reserve(bytes));
    uint32_t* d = s.counts.get<uint32_t>();
    SignalStatsDeviceCounts dc;
    dc.d_histY = d;
    dc.d_histU = d + levels;
    dc.d_histV = d + 2 * levels;
    dc.d_histSat = d + 3 * levels;
    dc.d_histHue = d + 4 * levels;
    dc.d_sums = reinterpret_cast<unsigned long long*>(d + 4 * levels + kHue);   // 8-byte aligned: 4 * levels + 360 is even
    dc.d_masks = reinterpret_cast<unsigned int*>(dc.d_sums + kSumCount);
    const int freezeRows = freezeChromaRows(frame.height, info.log2ChromaH, ch);
    CS_CUDA_CHECK(countSignalStats(c, samePrev ? p : c, sameRef ? r : SignalStatsPlanes{}, s.satTable.get<uint16_t>(),
                                   s.hueTable.get<uint16_t>(), levels, blackThreshold, info.log2ChromaW, info.log2ChromaH,
                                   freezeRows, dc, s.stream.get()));
    CS_CUDA_CHECK(cudaMemcpyAsync(s.hostCounts.get(), d, bytes, cudaMemcpyDeviceToHost, s.stream.get()));
    CS_CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
    s.havePrev = true;

    const uint32_t* h = s.hostCounts.get<uint32_t>();
    const auto* sums = reinterpret_cast<const unsigned long long*>(h + 4 * levels + kHue);
    const auto* masks = reinterpret_cast<const unsigned int*>(sums + kSumCount);
    SignalStatsCounts n;
    n.histY = h;
    n.histU = h + levels;
    n.histV = h + 2 * levels;
    n.histSat = h + 3 * levels;
    n.histHue = h + 4 * levels;
    n.levels = levels;
    n.width = frame.width;
    n.lumaSamples = int64_t(luma);
    n.chromaSamples = int64_t(chroma);
    n.difY = sums[kSumDifY];
    n.difU = sums[kSumDifU];
    n.difV = sums[kSumDifV];
    n.brng = sums[kSumBrng];
    n.tout = sums[kSumTout];
    n.vrepRows = sums[kSumVrepRows];
    n.black = sums[kSumBlack];
    n.maskY = masks[0];
    n.maskU = masks[1];
    n.maskV = masks[2];
    finishSignalStats(n, out);
    mafd = sameRef ? freezeMafd(sums[kSumFreezeSad], luma + 2 * size_t(cw) * size_t(freezeRows), info.bitDepth) : 1.0;
    return {};
}

Status CudaSignalStatsMeter::setReference() {
    Impl& s = *impl_;
    if (!s.havePrev) return Status::error("no frame measured yet");
    CS_CUDA_CHECK(cudaSetDevice(s.device));
    const SignalStatsPlanes& c = s.views[size_t(s.cur)];
    const size_t luma = size_t(c.width) * size_t(c.height), chroma = size_t(c.chromaWidth) * size_t(c.chromaHeight);
    CS_TRY(s.planes[2].reserve((luma + 2 * chroma) * 2));
    uint16_t* base = s.planes[2].get<uint16_t>();
    s.views[2] = {base, base + luma, base + luma + chroma, c.width, c.height, c.chromaWidth, c.chromaHeight};
    CS_CUDA_CHECK(cudaMemcpyAsync(base, c.d_y, (luma + 2 * chroma) * 2, cudaMemcpyDeviceToDevice, s.stream.get()));
    s.haveRef = true;
    return {};
}

}  // namespace cs
