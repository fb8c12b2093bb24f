// NAME.qc.png: the per-frame graphs a QCTools user reads (Y min/avg/max, Cb/Cr average,
// YDIF, out-of-legal share over time, events shaded), drawn with scope/ScopeRender's lines
// and bitmap font. Memory is flat: the series are kept as at most 2 x kColumns buckets of
// min/max per value; when they fill up, neighbours are merged and each bucket covers twice
// the frames. Not thread-safe: one per input.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "QcEvents.h"
#include "core/ScopeResults.h"
#include "core/Status.h"

namespace cs {

class QcGraph {
public:
    enum Series { YMin, YAvg, YMax, UAvg, VAvg, YDif, Legal, kSeries };
    static constexpr size_t kColumns = 1000;

    void add(const std::array<double, kSeries>& values);
    // The picture (width 1200) for `events` over the frames added; levels: 2^bit depth.
    RgbaImage render(const std::vector<QcEvent>& events, int levels, const std::string& title) const;
    int64_t frames() const { return frames_; }
    size_t buckets() const { return buckets_.size(); }

private:
    struct Bucket {
        std::array<float, kSeries> min, max;
    };
    std::vector<Bucket> buckets_;
    int64_t framesPerBucket_ = 1, frames_ = 0, inLast_ = 0;
};

}  // namespace cs
