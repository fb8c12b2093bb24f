// Photosensitive flashes for `cudascope qc`, by ITU-R BT.1702 and the Ofcom guidance it rests
// on, with the W3C (WCAG 2.x) formulation of the same numbers (docs/QC.md states the rule and
// the source of each number):
//
// - The display: BT.1886 with a 200 cd/m2 peak and a 0 cd/m2 black, L = 200 x V^2.4 for each
//   of R'G'B' (converted by core/Color.h's yuvToRgb at 8 bits, the scopes' own conversion),
//   the relative luminance the matrix's weights over linear R, G, B (BT.709: 0.2126, 0.7152,
//   0.0722, WCAG's).
// - The area: the frame is measured on a grid of cells (32 columns, rows in proportion, each
//   cell the mean over at most 16 x 16 of its pixels, every pixel of a small cell); a cell's
//   luminance takes part in a flash when it moves from its last turning point by at least
//   20 cd/m2 (0.1 of the peak) with the darker end below 160 cd/m2 (0.8); its red when
//   (R - G - B) x 320 (linear, negatives set to 0) changes by more than 20 with either end
//   saturated, R / (R + G + B) >= 0.8. The frame's transition area is the share of the
//   frame whose cells complete such a change at this frame (up and down together: the
//   combined area of concurrent flashes).
// - The count: a frame with a transition area above 25% is a transition of the picture; the
//   flashes of a one-second window are half its transitions, rounded down (a flash is a pair
//   of opposing changes); a window fails with more than three flashes (eight transitions).
//
// Host frames only (the planes SignalStatsMeter unpacked). Not thread-safe: one per input;
// FlashMeter::add measures the rows of cells on the process's workers (core/ThreadPool.h),
// each cell's state written by the one band that holds it.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "SignalStats.h"
#include "core/Color.h"
#include "core/ThreadPool.h"

namespace cs {

inline constexpr double kFlashPeak = 200.0;          // cd/m2: the display's white (Ofcom, W3C: 1.0)
inline constexpr double kFlashStep = 0.1;            // 20 cd/m2 of 200: a luminance transition
inline constexpr double kFlashDarkLimit = 0.8;       // 160 cd/m2 of 200: the darker end below it
inline constexpr double kRedSaturation = 0.8;        // R / (R + G + B) at or above it: saturated red
inline constexpr double kRedStep = 20.0;             // (R - G - B) x 320 changing by more than it
inline constexpr double kFlashArea = 0.25;           // a transition over more than a quarter of the screen
inline constexpr int kFlashMaxPerSecond = 3;         // more than three flashes in any one second fail
inline constexpr int kFlashGridColumns = 32;         // the grid's columns (rows in proportion)
inline constexpr int kFlashCellSamples = 16;         // samples per cell and direction, at most

// One cell's series (luminance, or the red value) with its turning points: a transition is a
// move of at least `step` (more than, where `strict`) from the last turning point, in the
// direction opposite to the last transition (the first may go either way, from the lowest
// or highest value so far). `ok(low, high)` says whether the pair of values qualifies
// (the darker end below 160 cd/m2; either end saturated, carried as each value's flag).
struct FlashTurns {
    int direction = 0;   // of the last transition: +1 up, -1 down, 0 none yet
    bool started = false;
    float low = 0, high = 0, turn = 0;   // before the first transition: extremes; after: the turning point
    bool lowFlag = false, highFlag = false, turnFlag = false;
};

struct FlashCell {   // the grid's cell: pixel bounds and its pixels
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    int64_t pixels = 0;
};

// What one frame shows.
struct FlashFrame {
    double luminanceArea = 0;   // share of the frame completing a luminance transition at this frame
    double redArea = 0;         // the same for saturated red
    double luminance = 0;       // the frame's mean luminance (cd/m2), for the report
};

class FlashMeter {
public:
    // The frame the caller's SignalStatsMeter just unpacked, with its matrix and range. A
    // change of size starts the cells again.
    FlashFrame add(const YuvPlanes& planes, Matrix matrix, Range range);
    // The grid of the last frame.
    int columns() const { return columns_; }
    int rows() const { return rows_; }

private:
    void layout(const YuvPlanes& planes, Matrix matrix, Range range);
    int width_ = 0, height_ = 0, depth_ = 0, columns_ = 0, rows_ = 0;
    Matrix matrix_ = Matrix::Bt709;
    Range range_ = Range::Limited;
    YuvToRgb toRgb_{};
    LumaWeights weights_{};
    std::array<float, 256> linear_{};   // BT.1886: (code / 255)^2.4
    std::vector<FlashCell> cells_;   // row by row
    // The sampled positions of each grid column (luma x, chroma x) and row (luma y, chroma y).
    std::vector<std::vector<std::pair<int, int>>> columnSamples_, rowSamples_;
    std::vector<FlashTurns> luminance_, red_;
    ThreadPool pool_;   // rows of cells in bands (add() is called from one thread at a time)
};

// A move of the series to `value` (with its flag): +1 or -1 when it completes a transition, else 0.
int flashTurn(FlashTurns& t, float value, bool flag, bool luminance);

// The flashes of the one-second window that ends at each frame: frames whose pts is within
// 1 s before the frame's (pts_i - 1 s < pts <= pts_i: 25 frames at 25 fps), transitions
// counted at the frame that completes them.
class FlashCounter {
public:
    explicit FlashCounter(double area = kFlashArea) : area_(area) {}
    struct Window {
        bool transition = false;   // this frame is a transition (its area above the threshold)
        int transitions = 0;       // in the window
        int flashes = 0;           // transitions / 2
        int64_t first = 0;         // the window's first frame
        double worstArea = 0;      // the largest transition area in the window
    };
    Window add(int64_t index, double pts, double area);
    static bool fails(const Window& w) { return w.flashes > kFlashMaxPerSecond; }
    // The one-second window ending at `now`: a frame exactly 1 s before it is outside.
    static bool inWindow(double pts, double now) { return pts > now - 1.0 + 1e-6; }

private:
    double area_;
    std::deque<std::pair<int64_t, double>> frames_;        // (index, pts) of the window
    std::deque<std::pair<double, double>> transitions_;    // (pts, area) of its transitions
};

}  // namespace cs
