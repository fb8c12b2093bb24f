#include "Flashes.h"

#include <algorithm>
#include <cmath>

namespace cs {

int flashTurn(FlashTurns& t, float value, bool flag, bool luminance) {
    // Whether a move between `low` and `high` (high the larger) qualifies: luminance by at
    // least 20 cd/m2 with the darker end below 160 cd/m2; red by more than 20 with either
    // end saturated.
    const auto qualifies = [luminance](float low, bool lowFlag, float high, bool highFlag) {
        return luminance ? double(high) - double(low) >= kFlashStep - 1e-6 && double(low) < kFlashDarkLimit
                         : double(high) - double(low) > kRedStep && (lowFlag || highFlag);
    };
    const auto turnAt = [&](int direction) {
        t.direction = direction;
        t.turn = value;
        t.turnFlag = flag;
        return direction;
    };
    if (!t.started) {
        t.started = true;
        t.low = t.high = value;
        t.lowFlag = t.highFlag = flag;
        return 0;
    }
    if (t.direction == 0) {   // the first transition: from the lowest or the highest value so far
        const bool up = qualifies(t.low, t.lowFlag, value, flag), down = qualifies(value, flag, t.high, t.highFlag);
        if (up && (!down || value - t.low >= t.high - value)) return turnAt(+1);
        if (down) return turnAt(-1);
        if (value < t.low) {
            t.low = value;
            t.lowFlag = flag;
        }
        if (value > t.high) {
            t.high = value;
            t.highFlag = flag;
        }
        return 0;
    }
    if (t.direction > 0) {   // after a rise: follow the peak, count a fall from it
        if (value >= t.turn) {
            t.turn = value;
            t.turnFlag = flag;
            return 0;
        }
        return qualifies(value, flag, t.turn, t.turnFlag) ? turnAt(-1) : 0;
    }
    if (value <= t.turn) {   // after a fall: follow the trough, count a rise from it
        t.turn = value;
        t.turnFlag = flag;
        return 0;
    }
    return qualifies(t.turn, t.turnFlag, value, flag) ? turnAt(+1) : 0;
}

void FlashMeter::layout(const YuvPlanes& p, Matrix matrix, Range range) {
    width_ = p.width;
    height_ = p.height;
    depth_ = p.bitDepth;
    matrix_ = matrix;
    range_ = range;
    toRgb_ = makeYuvToRgb(matrix, range, p.bitDepth, 8);
    weights_ = lumaWeights(matrix);
    for (int c = 0; c < 256; ++c) linear_[size_t(c)] = float(std::pow(double(c) / 255.0, 2.4));   // BT.1886, black 0
    columns_ = std::max(1, std::min(kFlashGridColumns, p.width));
    rows_ = std::clamp(int(std::lround(double(columns_) * p.height / std::max(1, p.width))), 1, std::max(1, p.height));
    cells_.clear();
    for (int r = 0; r < rows_; ++r)
        for (int c = 0; c < columns_; ++c) {
            FlashCell cell;
            cell.x0 = c * p.width / columns_;
            cell.x1 = (c + 1) * p.width / columns_;
            cell.y0 = r * p.height / rows_;
            cell.y1 = (r + 1) * p.height / rows_;
            cell.pixels = int64_t(cell.x1 - cell.x0) * (cell.y1 - cell.y0);
            cells_.push_back(cell);
        }
    // The samples of a cell: at most kFlashCellSamples evenly spread each way (every pixel of a
    // smaller cell), the chroma sample covering each.
    const auto samples = [](int from, int to, int size, int chromaSize) {
        std::vector<std::pair<int, int>> at;
        const int n = std::min(to - from, kFlashCellSamples);
        for (int k = 0; k < n; ++k) {
            const int v = from + (2 * k + 1) * (to - from) / (2 * n);
            at.emplace_back(v, std::min(chromaSize - 1, v * chromaSize / size));
        }
        return at;
    };
    columnSamples_.clear();
    rowSamples_.clear();
    for (int c = 0; c < columns_; ++c) columnSamples_.push_back(samples(cells_[size_t(c)].x0, cells_[size_t(c)].x1, p.width, p.chromaWidth));
    for (int r = 0; r < rows_; ++r)
        rowSamples_.push_back(samples(cells_[size_t(r * columns_)].y0, cells_[size_t(r * columns_)].y1, p.height, p.chromaHeight));
    luminance_.assign(cells_.size(), FlashTurns{});
    red_.assign(cells_.size(), FlashTurns{});
}

FlashFrame FlashMeter::add(const YuvPlanes& p, Matrix matrix, Range range) {
    if (p.width != width_ || p.height != height_ || p.bitDepth != depth_ || matrix != matrix_ || range != range_ || cells_.empty())
        layout(p, matrix, range);
    FlashFrame out;
    if (p.width <= 0 || p.height <= 0) return out;
    // Each cell's average and turns are its own: rows of cells in bands on the process's workers
    // (core/ThreadPool.h), each row's sums kept apart and added in row order, so the result
    // does not depend on the banding.
    struct RowSums {
        int64_t luminancePixels = 0, redPixels = 0;
        double luminanceSum = 0;
    };
    std::vector<RowSums> byRow(static_cast<size_t>(rows_));
    pool_.parallelFor(rows_, [&](int, int begin, int end) {
        for (int row = begin; row < end; ++row) {
            RowSums& sums = byRow[size_t(row)];
            const auto& ys = rowSamples_[size_t(row)];
            for (int column = 0; column < columns_; ++column) {
                const size_t c = size_t(row) * size_t(columns_) + size_t(column);
                const FlashCell& cell = cells_[c];
                const auto& xs = columnSamples_[size_t(column)];
                if (xs.empty() || ys.empty()) continue;
                double r = 0, g = 0, b = 0;
                for (const auto& [y, cy] : ys) {
                    const uint16_t* yRow = p.y.data() + size_t(y) * size_t(p.width);
                    const uint16_t* uRow = p.u.data() + size_t(cy) * size_t(p.chromaWidth);
                    const uint16_t* vRow = p.v.data() + size_t(cy) * size_t(p.chromaWidth);
                    float rr = 0, gg = 0, bb = 0;
                    for (const auto& [x, cx] : xs) {
                        const Rgb rgb = yuvToRgb(toRgb_, yRow[x], uRow[cx], vRow[cx]);
                        rr += linear_[size_t(rgb.r)];
                        gg += linear_[size_t(rgb.g)];
                        bb += linear_[size_t(rgb.b)];
                    }
                    r += rr;
                    g += gg;
                    b += bb;
                }
                const double n = double(xs.size()) * double(ys.size());
                r /= n;
                g /= n;
                b /= n;
                const double luminance = weights_.kr * r + weights_.kg * g + weights_.kb * b;   // relative: 1 is the peak
                sums.luminanceSum += luminance * double(cell.pixels);
                if (flashTurn(luminance_[c], float(luminance), false, true) != 0) sums.luminancePixels += cell.pixels;
                const double sum = r + g + b;
                const bool saturated = sum > 0 && r / sum >= kRedSaturation;
                if (flashTurn(red_[c], float(std::max(0.0, r - g - b) * 320.0), saturated, false) != 0) sums.redPixels += cell.pixels;
            }
        }
    });
    int64_t luminancePixels = 0, redPixels = 0;
    double luminanceSum = 0;
    for (const RowSums& sums : byRow) {
        luminancePixels += sums.luminancePixels;
        redPixels += sums.redPixels;
        luminanceSum += sums.luminanceSum;
    }
    const double pixels = double(p.width) * double(p.height);
    out.luminanceArea = double(luminancePixels) / pixels;
    out.redArea = double(redPixels) / pixels;
    out.luminance = luminanceSum / pixels * kFlashPeak;
    return out;
}

FlashCounter::Window FlashCounter::add(int64_t index, double pts, double area) {
    frames_.emplace_back(index, pts);
    while (!inWindow(frames_.front().second, pts)) frames_.pop_front();
    Window w;
    w.transition = area > area_;
    if (w.transition) transitions_.emplace_back(pts, area);
    while (!transitions_.empty() && !inWindow(transitions_.front().first, pts)) transitions_.pop_front();
    w.transitions = int(transitions_.size());
    w.flashes = w.transitions / 2;
    w.first = frames_.front().first;
    for (const auto& t : transitions_) w.worstArea = std::max(w.worstArea, t.second);
    return w;
}

}  // namespace cs
