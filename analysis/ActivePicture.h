// The active picture (letterbox and pillarbox bars) by FFmpeg 5.1's cropdetect
// (libavfilter/vf_cropdetect.c) with its defaults: limit 24/255 of the luma range (a fraction
// below 1 times 2^depth - 1, rounded), round 16, skip 2, reset 0, max_outliers 0. A row or
// column is black when the integer mean of its luma samples is at most the limit; from each
// edge the bounds x1, x2, y1, y2 move outwards over the frames (they only grow while reset is
// 0) to the first line that is not black; x and y are x1 and y1 rounded up to even, w and h
// shrunk to multiples of `round` with x and y moved by half the shrink, rounded up to even.
// The first `skip` frames give nothing. Host frames only (the planes SignalStatsMeter
// unpacked). Not thread-safe: one per input.
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>

#include "SignalStats.h"
#include "core/Frame.h"

namespace cs {

struct CropArea {
    int x1 = 0, x2 = 0, y1 = 0, y2 = 0, w = 0, h = 0, x = 0, y = 0;
    bool operator==(const CropArea&) const = default;
};

class CropDetector {
public:
    explicit CropDetector(double limit = 24.0 / 255, int round = 16, int skip = 2) : limit_(float(limit)), round_(round), frameNb_(-skip) {}

    std::optional<CropArea> add(const YuvPlanes& p) {
        const auto row = [&](int y) { return mean(&p.y[size_t(y) * size_t(p.width)], 1, p.width); };
        const auto column = [&](int x) { return mean(&p.y[size_t(x)], p.width, p.height); };
        return addLines(p.width, p.height, p.bitDepth, row, column);
    }

    // The same for a frame whose lines' integer luma means `row(y)` and `column(x)` give.
    template <class Row, class Column>
    std::optional<CropArea> addLines(int width, int height, int bitDepth, Row row, Column column) {
        if (width_ == 0) {   // cropdetect's config_input: the first frame's size and depth
            width_ = width;
            height_ = height;
            if (limit_ < 1.0f) limit_ *= float((1 << bitDepth) - 1);
            a_.x1 = width - 1;
            a_.y1 = height - 1;
        }
        if (++frameNb_ <= 0 || width != width_ || height != height_) return std::nullopt;
        const long limit = std::lrint(limit_);
        // FIND: from `from` while `more`, the bound is the last black line stepped past.
        const auto find = [&](int& bound, int from, int step, auto more, auto line) {
            int last = from;
            for (int i = from; more(i); i += step) {
                if (line(i) > limit) {
                    bound = last;
                    return;
                }
                last = i + step;
            }
        };
        find(a_.y1, 0, 1, [&](int i) { return i < a_.y1; }, row);
        find(a_.y2, height - 1, -1, [&](int i) { return i > std::max(a_.y2, a_.y1); }, row);
        find(a_.x1, 0, 1, [&](int i) { return i < a_.x1; }, column);
        find(a_.x2, width - 1, -1, [&](int i) { return i > std::max(a_.x2, a_.x1); }, column);
        CropArea out = a_;
        out.x = (a_.x1 + 1) & ~1;
        out.y = (a_.y1 + 1) & ~1;
        out.w = a_.x2 - out.x + 1;
        out.h = a_.y2 - out.y + 1;
        const int round = round_ <= 1 ? 16 : (round_ % 2 ? round_ * 2 : round_);
        int shrink = out.w % round;
        out.w -= shrink;
        out.x += (shrink / 2 + 1) & ~1;
        shrink = out.h % round;
        out.h -= shrink;
        out.y += (shrink / 2 + 1) & ~1;
        return out;
    }

private:
    // checkline: the integer mean of `len` samples `stride` apart.
    static long mean(const uint16_t* s, int stride, int len) {
        int64_t total = 0;
        for (int i = 0; i < len; ++i) total += s[size_t(i) * size_t(stride)];
        return long(total / len);
    }
    float limit_;
    int round_, frameNb_;
    int width_ = 0, height_ = 0;
    CropArea a_;
};

// The active picture of one frame on its own: cropdetect's rule and defaults with nothing
// carried from earlier frames (no skip, no growing bounds), as the window's View > Guides >
// Active Picture draws it over each frame. The luma is read where it lies (core/PixelAccess.h),
// only the lines the scan reaches. Host Y'CbCr and gray frames; nullopt for R'G'B' frames,
// frames in device memory, and a frame too small to have a line.
std::optional<CropArea> activePictureOf(const FrameView& frame);

}  // namespace cs
