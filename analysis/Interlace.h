// Interlace and field order by FFmpeg 5.1's idet (libavfilter/vf_idet.c) with its defaults
// (intl_thres 1.04, prog_thres 1.5, rep_thres 3, half_life 0: plain counts). Each frame is
// judged against the previous and the next (a frame's delay; the last is judged against a
// copy of itself, as idet does at the end): over every plane (chroma at its own size,
// rounded up) and rows 2..h-3, with d(a, b, c) = sum of |a + c - 2b| along a row,
// alpha[y & 1] += d(row above, prev, row below), alpha[(y ^ 1) & 1] += d(row above, next,
// row below), delta += d(row above, cur, row below). TFF when alpha0 > 1.04 alpha1, BFF when
// alpha1 > 1.04 alpha0, progressive when alpha1 > 1.5 delta, else undetermined, the products
// in float as idet computes them. The multi-frame type is idet's: the history of the last 4
// single types, taken when the determined ones agree (once at first, then 3 times). Host
// frames only: the planes SignalStatsMeter unpacked and keeps. Not thread-safe: one per input.
#pragma once
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "SignalStats.h"
#include "core/ThreadPool.h"

namespace cs {

enum class FieldType : uint8_t { Tff, Bff, Progressive, Undetermined };

class InterlaceDetector {
public:
    struct Judged {
        FieldType single = FieldType::Undetermined, multiple = FieldType::Undetermined;
    };
    // The frame `meter` has just measured (the next in order); the judgement of the frame
    // before it (none for the first). The three frames are the meter's planes (the current,
    // the previous and the one before): no copy is kept here.
    std::optional<Judged> add(const SignalStatsMeter& meter) {
        const YuvPlanes& next = meter.current();
        const YuvPlanes* cur = meter.previous();
        if (!cur) return std::nullopt;
        const YuvPlanes* prev = meter.beforePrevious();
        return judge(prev ? *prev : *cur, *cur, next);   // the first frame is its own previous
    }
    // The end: the last frame `meter` measured, judged against a copy of itself as the next.
    std::optional<Judged> finish(const SignalStatsMeter& meter) {
        const YuvPlanes& last = meter.current();
        if (last.y.empty()) return std::nullopt;   // no frame was measured
        return judge(meter.previous() ? *meter.previous() : last, last, last);   // one frame: against itself
    }
    const std::array<int64_t, 4>& singleCounts() const { return single_; }
    const std::array<int64_t, 4>& multipleCounts() const { return multiple_; }

private:
    static int64_t line(const uint16_t* a, const uint16_t* b, const uint16_t* c, int w) {
        int64_t r = 0;
        for (int x = 0; x < w; ++x) r += std::abs(int(a[x]) + int(c[x]) - 2 * int(b[x]));
        return r;
    }
    Judged judge(const YuvPlanes& prev, const YuvPlanes& cur, const YuvPlanes& next) {
        int64_t alpha[2] = {0, 0}, delta = 0;
        for (int plane = 0; plane < 3; ++plane) {
            const int w = plane ? cur.chromaWidth : cur.width, h = plane ? cur.chromaHeight : cur.height;
            const std::vector<uint16_t>& pp = plane == 0 ? prev.y : plane == 1 ? prev.u : prev.v;
            const std::vector<uint16_t>& cp = plane == 0 ? cur.y : plane == 1 ? cur.u : cur.v;
            const std::vector<uint16_t>& np = plane == 0 ? next.y : plane == 1 ? next.u : next.v;
            if (pp.size() != cp.size() || np.size() != cp.size()) continue;   // a change of size: no judgement there
            if (h <= 4) continue;
            // Rows 2..h-3 in bands on the process's workers (core/ThreadPool.h), each band's
            // sums its own; integer sums, so the total does not depend on the banding.
            const int rows = h - 4, chunks = pool_.defaultChunks(rows);
            std::vector<std::array<int64_t, 3>> sums(size_t(chunks), std::array<int64_t, 3>{});
            pool_.parallelFor(rows, [&](int chunk, int begin, int end) {
                std::array<int64_t, 3>& s = sums[size_t(chunk)];
                for (int y = begin + 2; y < end + 2; ++y) {
                    const uint16_t* c = &cp[size_t(y) * size_t(w)];
                    const uint16_t* above = c - w;
                    const uint16_t* below = c + w;
                    s[y & 1] += line(above, &pp[size_t(y) * size_t(w)], below, w);
                    s[(y ^ 1) & 1] += line(above, &np[size_t(y) * size_t(w)], below, w);
                    s[2] += line(above, c, below, w);
                }
            }, chunks);
            for (const auto& s : sums) {
                alpha[0] += s[0];
                alpha[1] += s[1];
                delta += s[2];
            }
        }
        // idet's thresholds are floats: the int64 sums meet them in float arithmetic.
        const float a0 = float(alpha[0]), a1 = float(alpha[1]), d = float(delta);
        FieldType type = FieldType::Undetermined;
        if (a0 > 1.04f * a1) type = FieldType::Tff;
        else if (a1 > 1.04f * a0) type = FieldType::Bff;
        else if (a1 > 1.5f * d) type = FieldType::Progressive;
        for (size_t i = history_.size() - 1; i > 0; --i) history_[i] = history_[i - 1];
        history_[0] = type;
        FieldType best = FieldType::Undetermined;
        int match = 0;
        for (FieldType h : history_) {
            if (h == FieldType::Undetermined) continue;
            if (best == FieldType::Undetermined) best = h;
            if (h == best) {
                ++match;
            } else {
                match = 0;
                break;
            }
        }
        if (last_ == FieldType::Undetermined ? match > 0 : match > 2) last_ = best;
        ++single_[size_t(type)];
        ++multiple_[size_t(last_)];
        return {type, last_};
    }
    ThreadPool pool_;
    std::array<FieldType, 4> history_{FieldType::Undetermined, FieldType::Undetermined, FieldType::Undetermined,
                                      FieldType::Undetermined};
    FieldType last_ = FieldType::Undetermined;
    std::array<int64_t, 4> single_{}, multiple_{};
};

inline const char* fieldTypeName(FieldType t) {
    switch (t) {
        case FieldType::Tff: return "tff";
        case FieldType::Bff: return "bff";
        case FieldType::Progressive: return "progressive";
        case FieldType::Undetermined: return "undetermined";
    }
    return "undetermined";
}

}  // namespace cs
