// The per-frame values qc draws over time, for NAME.qc.png (QcGraph.h) and NAME.qc.html's
// graphs (QcHtml.h): each value's min and max per bucket of frames, with the bucket's first
// frame, time and timecode for the time axis. Memory is flat: at most 2 x `columns` buckets;
// when they fill up, neighbours are merged and each bucket covers twice the frames. NaN is
// "no value" (no audio, silence, no signalstats): it is skipped, and a bucket with none is
// NaN. Not thread-safe: one per input and picture.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cs {

class QcSeries {
public:
    enum Series { YMin, YAvg, YMax, UAvg, VAvg, YDif, Legal, R103, Momentary, ShortTerm, kSeries };
    using Values = std::array<double, kSeries>;
    struct Bucket {
        int64_t firstFrame = 0;
        double firstPts = 0;
        std::string timecode;                 // the first frame's
        std::array<float, kSeries> min, max;  // NaN: no value in the bucket
    };

    explicit QcSeries(size_t columns) : columns_(columns < 1 ? 1 : columns) {}
    // One frame (its index, pts and timecode); NaN for a value it does not have.
    void add(int64_t index, double pts, const std::string& timecode, const Values& values);
    const std::vector<Bucket>& buckets() const { return buckets_; }
    int64_t frames() const { return frames_; }
    int64_t framesPerBucket() const { return framesPerBucket_; }
    // Whether any frame had a value of `s`.
    bool has(Series s) const;

private:
    size_t columns_;
    std::vector<Bucket> buckets_;
    int64_t framesPerBucket_ = 1, inLast_ = 0, frames_ = 0;
};

}  // namespace cs
