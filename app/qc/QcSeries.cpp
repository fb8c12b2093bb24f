#include "QcSeries.h"

#include <algorithm>
#include <cmath>

namespace cs {

void QcSeries::add(int64_t index, double pts, const std::string& timecode, const Values& values) {
    ++frames_;
    if (!buckets_.empty() && inLast_ < framesPerBucket_) {
        Bucket& b = buckets_.back();
        for (size_t s = 0; s < kSeries; ++s) {
            const float v = float(values[s]);
            if (std::isnan(v)) continue;
            b.min[s] = std::isnan(b.min[s]) ? v : std::min(b.min[s], v);
            b.max[s] = std::isnan(b.max[s]) ? v : std::max(b.max[s], v);
        }
        ++inLast_;
        return;
    }
    if (buckets_.size() == 2 * columns_) {   // full: merge neighbours, twice the frames each
        for (size_t i = 0; i < columns_; ++i) {
            Bucket b = std::move(buckets_[2 * i]);
            const Bucket& n = buckets_[2 * i + 1];
            for (size_t s = 0; s < kSeries; ++s) {
                if (std::isnan(b.min[s]) || n.min[s] < b.min[s]) b.min[s] = n.min[s];
                if (std::isnan(b.max[s]) || n.max[s] > b.max[s]) b.max[s] = n.max[s];
            }
            buckets_[i] = std::move(b);
        }
        buckets_.resize(columns_);
        framesPerBucket_ *= 2;
    }
    Bucket b;
    b.firstFrame = index;
    b.firstPts = pts;
    b.timecode = timecode;
    for (size_t s = 0; s < kSeries; ++s) b.min[s] = b.max[s] = float(values[s]);
    buckets_.push_back(std::move(b));
    inLast_ = 1;
}

bool QcSeries::has(Series s) const {
    return std::any_of(buckets_.begin(), buckets_.end(), [&](const Bucket& b) { return !std::isnan(b.max[size_t(s)]); });
}

}  // namespace cs
