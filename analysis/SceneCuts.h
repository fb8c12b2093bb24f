// Scene cuts and repeated frames for `cudascope qc`, by FFmpeg 5.1's scdet
// (libavfilter/vf_scdet.c): a frame's MAFD is the sum of absolute differences of luma from
// the previous frame (scdet reads the luma plane alone of planar Y'CbCr: its config_input
// sets nb_planes to 1 there), times 100, divided by the samples and by 2^depth; its score is min(MAFD, |MAFD - the previous frame's MAFD|)
// clipped to 0..100 (0 for the first frame and after a change of size); a cut is a frame
// whose score is above the threshold (default 10). A repeated frame is one whose MAFD from
// the previous frame is at most freezedetect's noise (as a share: MAFD / 100 <= 10^(dB/20));
// qc reports runs of them shorter than a freeze (docs/QC.md). Host frames only: the planes
// SignalStatsMeter unpacked and keeps, and its YDIF sum. Not thread-safe: one per input.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "SignalStats.h"
#include "core/ThreadPool.h"

namespace cs {

inline constexpr double kSceneThreshold = 10.0;   // scdet's threshold (t)

// scdet's score from this frame's MAFD and the previous frame's.
inline double sceneScore(double mafd, double previousMafd) {
    return std::clamp(std::min(mafd, std::fabs(mafd - previousMafd)), 0.0, 100.0);
}
// scdet: a cut when the score is above the threshold.
inline bool isSceneCut(double score, double threshold) { return score > threshold; }

class SceneMeter {
public:
    struct Frame {
        bool compared = false;   // false: the first frame, or the size changed (score 0)
        double mafd = 0;         // percent, scdet's lavfi.scd.mafd (the previous value when not compared)
        double score = 0;        // scdet's lavfi.scd.score
    };
    // The frame `meter` has just measured, against the one it measured before (the meter's
    // planes: no copy is kept here).
    Frame add(const SignalStatsMeter& meter) {
        const YuvPlanes& p = meter.current();
        const YuvPlanes* q = meter.previous();
        Frame f;
        f.mafd = prevMafd_;
        if (q && p.width == q->width && p.height == q->height && p.bitDepth == q->bitDepth) {
            const size_t luma = size_t(p.width) * size_t(p.height);
            // signalstats' YDIF sum is this SAD; it is counted apart only where signalstats
            // did not compare (the chroma's size changed under the same luma).
            const uint64_t sum = meter.lumaDifference() ? *meter.lumaDifference() : sad(p.y, q->y, luma);
            const double mafd = double(sum) * 100.0 / double(luma) / double(1ull << p.bitDepth);
            f.compared = true;
            f.score = sceneScore(mafd, prevMafd_);
            f.mafd = mafd;
            prevMafd_ = mafd;
        }
        return f;
    }

private:
    // In bands on the process's workers (core/ThreadPool.h); an integer sum, whatever the banding.
    uint64_t sad(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b, size_t n) const {
        const int bands = pool_.defaultChunks(int(std::min<size_t>(n / 4096 + 1, 1 << 20)));
        std::vector<uint64_t> sums(size_t(bands), 0);
        pool_.parallelFor(bands, [&](int band, int, int) {
            const size_t begin = n * size_t(band) / size_t(bands), end = n * size_t(band + 1) / size_t(bands);
            uint64_t s = 0;
            for (size_t i = begin; i < end; ++i) s += uint64_t(std::abs(int(a[i]) - int(b[i])));
            sums[size_t(band)] = s;
        }, bands);
        uint64_t total = 0;
        for (uint64_t s : sums) total += s;
        return total;
    }
    ThreadPool pool_;
    double prevMafd_ = 0;
};

}  // namespace cs
