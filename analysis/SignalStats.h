// The per-frame measurements of `cudascope qc` beyond ScopeResults::stats, each defined as
// FFmpeg 5.1 defines it, so that numbers read the same as in QCTools:
//
// - SignalStats: libavfilter/vf_signalstats.c. Y/U/V LOW and HIGH are the 10th and 90th
//   percentiles of the plane's histogram (the first level whose cumulative count reaches
//   lrint(samples * 10 / 100.) resp. 90), each plane at its own resolution; SAT is
//   hypotf(Cb - mid, Cr - mid) truncated to an integer, HUE floor(atan2f(Cb - mid, Cr - mid)
//   in degrees + 180) mod 360, both per chroma sample; SATMIN/LOW/AVG/HIGH/MAX as the
//   histogram statistics of SAT, HUEMED the first hue whose cumulative count exceeds half
//   the chroma samples, HUEAVG the mean hue; Y/U/V DIF the mean absolute difference from
//   the previous frame's plane (0 for the first frame); BRNG the share of pixels with
//   Y outside 16..235 or the covering Cb/Cr outside 16..240 (scaled to the depth); VREP the
//   share of pixels on rows whose summed absolute difference from the row four above is
//   below the width (score * width / pixels); TOUT ("temporal outliers", in fact judged
//   within the frame) the share of pixels (x in 1..w-2, y in 1..h-2) whose luma, and that
//   of its left and right neighbours, stands out from the vertical neighbours at distance 1
//   (and 2 where those rows exist): (|a - y| + |b - y|) / 2 - |b - a| > 4 on samples cut to
//   8 bits as FFmpeg's filter_tout_outlier() takes them; Y/U/V BITDEPTH the number of bits
//   set in the OR of every sample of the plane.
// - blackPixels: blackdetect's count of luma samples <= its pixel threshold.
// - FreezeReference: freezedetect's MAFD, the sum of absolute differences over all three
//   planes from a reference frame, divided by the samples and by 2^depth; chroma planes
//   counted over h >> log2 chroma height rows as FFmpeg does. FreezeTracker keeps it for qc
//   from the meter's own sums where they are the same numbers.
//
// Host memory only (the caller downloads device frames); Y'CbCr and gray sources (gray:
// chroma at the mid level). Not thread-safe: one meter per input (its rows are counted on a
// thread pool of its own).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/Frame.h"
#include "core/ThreadPool.h"
#include "core/Status.h"

namespace cs {

struct SignalStats {
    int ymin = 0, ylow = 0, yhigh = 0, ymax = 0;
    int umin = 0, ulow = 0, uhigh = 0, umax = 0;
    int vmin = 0, vlow = 0, vhigh = 0, vmax = 0;
    double yavg = 0, uavg = 0, vavg = 0;
    int satmin = 0, satlow = 0, sathigh = 0, satmax = 0;
    double satavg = 0;
    int huemed = 0;
    double hueavg = 0;
    double ydif = 0, udif = 0, vdif = 0;
    double tout = 0, vrep = 0, brng = 0;
    int ybitdepth = 0, ubitdepth = 0, vbitdepth = 0;   // bits set in any sample (popcount of the OR)
    int64_t blackPixels = 0;   // luma <= the black threshold given to measure()
};

// vf_signalstats' SAT and HUE of one chroma sample (float arithmetic, truncated as FFmpeg
// stores them); the CUDA engine reads tables made by these.
int signalstatsSat(int u, int v, int mid);
int signalstatsHue(int u, int v, int mid);

// What the per-sample passes count (the CPU meter and cuda/analysis/SignalStatsKernels alike); the
// statistics follow from them by finishSignalStats(), the one copy of that arithmetic.
struct SignalStatsCounts {
    const uint32_t* histY = nullptr;   // levels each
    const uint32_t* histU = nullptr;
    const uint32_t* histV = nullptr;
    const uint32_t* histSat = nullptr;
    const uint32_t* histHue = nullptr;   // 360
    int levels = 256, width = 0;
    int64_t lumaSamples = 0, chromaSamples = 0;
    uint64_t difY = 0, difU = 0, difV = 0;   // sums of absolute differences from the previous frame
    uint64_t brng = 0, tout = 0, vrepRows = 0, black = 0;
    unsigned maskY = 0, maskU = 0, maskV = 0;
};
void finishSignalStats(const SignalStatsCounts& c, SignalStats& out);

// A frame's planes unpacked to 16-bit samples: Y at w x h, Cb and Cr at the chroma size.
struct YuvPlanes {
    int width = 0, height = 0, chromaWidth = 0, chromaHeight = 0, bitDepth = 8, log2ch = 0;
    std::vector<uint16_t> y, u, v;
};

class SignalStatsMeter {
public:
    // One frame in host memory; blackThreshold: luma code values at or below it count as
    // black (blackThresholdFor()). An error (one sentence, no input name) for RGB frames.
    Status measure(const FrameView& frame, int blackThreshold, SignalStats& out);
    // The frame measure() last read (valid after a successful measure()).
    const YuvPlanes& current() const { return cur_; }
    // The two frames read before it (nullptr until there were such frames), kept for the
    // detectors that compare a frame with its neighbours (scdet, idet): they read these
    // planes rather than keep copies. Valid until the next measure().
    const YuvPlanes* previous() const { return frames_ >= 2 ? &prev_ : nullptr; }
    const YuvPlanes* beforePrevious() const { return frames_ >= 3 ? &older_ : nullptr; }
    // The sum of |Y - previous Y| over the luma plane (YDIF's numerator, scdet's SAD) when
    // measure() compared the frame with a previous one of the same size; nullopt otherwise.
    std::optional<uint64_t> lumaDifference() const { return lumaDifference_; }
    // The same over both chroma planes (every chroma row), under the same condition.
    std::optional<uint64_t> chromaDifference() const { return chromaDifference_; }

private:
    // measure() turns the three round: the oldest's storage takes the new frame.
    YuvPlanes cur_, prev_, older_;
    int64_t frames_ = 0;   // frames measured, up to 3
    std::optional<uint64_t> lumaDifference_, chromaDifference_;
    std::vector<uint32_t> histY_, histU_, histV_, histSat_;
    std::vector<uint16_t> satTable_, hueTable_;   // [u * levels + v]
    int tableLevels_ = 0;
    // Rows are unpacked and counted in chunks on a pool; each chunk counts into its own
    // Partial (written by that chunk's thread only), summed on the caller's thread.
    struct Partial {
        std::vector<uint32_t> hy, hu, hv, hs;
        uint32_t hh[360] = {};
        uint64_t difY = 0, difU = 0, difV = 0, brng = 0, tout = 0, vrepRows = 0, black = 0;
        unsigned maskY = 0, maskU = 0, maskV = 0;
    };
    std::vector<Partial> partials_;
    std::unique_ptr<ThreadPool> pool_;
};

// blackdetect's pixel threshold: 16 + ratio * 219 (scaled to the depth) for limited range,
// ratio * (2^depth - 1) for full range, truncated to an integer.
int blackThresholdFor(double ratio, int bitDepth, bool fullRange);

// freezedetect's MAFD from the sum of absolute differences over `samples` samples.
inline double freezeMafd(uint64_t sad, uint64_t samples, int bitDepth) {
    return samples ? double(sad) / double(samples) / double(1ull << bitDepth) : 0.0;
}
// The chroma rows freezedetect compares: h >> log2 chroma height (rounded down).
inline int freezeChromaRows(int height, int log2ch, int chromaHeight) {
    return (height >> log2ch) < chromaHeight ? (height >> log2ch) : chromaHeight;
}

// freezedetect's reference frame and MAFD.
class FreezeReference {
public:
    bool empty() const { return !have_; }
    void set(const YuvPlanes& planes) { ref_ = planes; have_ = true; }
    // MAFD of `planes` against the reference (same size; 1.0 when the sizes differ).
    double mafd(const YuvPlanes& planes) const;

private:
    YuvPlanes ref_;
    bool have_ = false;
};
// freezedetect's MAFD of `planes` against `ref` (1.0 when the sizes differ).
double freezeMafdOf(const YuvPlanes& planes, const YuvPlanes& ref);

// freezedetect's reference and MAFD for the frames a SignalStatsMeter measures, each in turn.
// In moving pictures the reference is always the frame before (every frame that moved becomes
// it): then the meter's YDIF/UDIF/VDIF sums are the MAFD's, and no pass or copy is made here. A
// copy is taken only when a frame is frozen (the reference then outlives the meter's frames):
// once per freeze, not per frame.
class FreezeTracker {
public:
    bool empty() const { return at_ == At::None; }
    // MAFD of the frame `meter` just measured against the reference (1.0 without one, or when
    // the sizes differ).
    double mafd(const SignalStatsMeter& meter) const;
    // That frame moved: it is the reference now.
    void set() { at_ = At::Previous; }
    // That frame was frozen: the reference stays, so it is kept if it was the meter's.
    void hold(const SignalStatsMeter& meter);

private:
    enum class At { None, Previous, Copy };   // the meter's frame before the one measured next, or ref_
    At at_ = At::None;
    YuvPlanes ref_;
};

}  // namespace cs
