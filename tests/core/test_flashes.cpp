// analysis/Flashes: ITU-R BT.1702's photosensitive flash rule (docs/QC.md) on sequences made
// here, 64x36 8-bit 4:2:0 limited BT.709 at 25 fps: flash rates of 2, 3, 4 and 5 Hz, the count
// at its boundary (7 transitions in a second are three flashes, 8 are four), areas of 24%,
// exactly 25% and 26% of the frame, changes too small or too bright to count, and saturated red.
// The frames' Y'CbCr come from R'G'B' through core/Color.h's converter, so the values below
// are display values: R'G'B' 255 is 200 cd/m2, R'G'B' c is 200 x (c / 255)^2.4.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "analysis/Flashes.h"
#include "core/Color.h"
#include "tests/core/CoreTestUtil.h"

using namespace cs;

namespace {

constexpr int kW = 64, kH = 36;
constexpr double kFps = 25.0;

using cs::testing::Rgb8;

// A frame whose pixel (x, y) has the colour `at(x, y)`; chroma from the top-left sample of
// each 2x2 block (every region here is aligned to 2 pixels).
YuvPlanes frame(const std::function<Rgb8(int, int)>& at) {
    const RgbToYuv k = makeRgbToYuv(Matrix::Bt709, Range::Limited, 8);
    YuvPlanes p;
    p.width = kW;
    p.height = kH;
    p.chromaWidth = kW / 2;
    p.chromaHeight = kH / 2;
    p.log2ch = 1;
    p.y.resize(size_t(kW) * kH);
    p.u.resize(size_t(kW / 2) * (kH / 2));
    p.v.resize(p.u.size());
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const Rgb8 c = at(x, y);
            const Yuv yuv = rgbToYuv(k, c.r, c.g, c.b);
            p.y[size_t(y) * kW + size_t(x)] = uint16_t(yuv.y);
            if (x % 2 == 0 && y % 2 == 0) {
                p.u[size_t(y / 2) * (kW / 2) + size_t(x / 2)] = uint16_t(yuv.cb);
                p.v[size_t(y / 2) * (kW / 2) + size_t(x / 2)] = uint16_t(yuv.cr);
            }
        }
    return p;
}

struct Outcome {
    int maxFlashes = 0, maxRedFlashes = 0, transitions = 0, redTransitions = 0;
    double maxArea = 0;
    bool fails = false, redFails = false;
    int64_t firstFailing = -1, firstFailingWindow = -1;
};

// Runs `frames` frames; `colour(n, x, y)` is frame n's pixel.
Outcome run(int frames, const std::function<Rgb8(int, int, int)>& colour) {
    FlashMeter meter;
    FlashCounter general, red;
    Outcome o;
    for (int n = 0; n < frames; ++n) {
        const FlashFrame f = meter.add(frame([&](int x, int y) { return colour(n, x, y); }), Matrix::Bt709, Range::Limited);
        const FlashCounter::Window g = general.add(n, n / kFps, f.luminanceArea);
        const FlashCounter::Window r = red.add(n, n / kFps, f.redArea);
        o.maxFlashes = std::max(o.maxFlashes, g.flashes);
        o.maxRedFlashes = std::max(o.maxRedFlashes, r.flashes);
        o.transitions += g.transition;
        o.redTransitions += r.transition;
        o.maxArea = std::max(o.maxArea, f.luminanceArea);
        if (FlashCounter::fails(g) && !o.fails) {
            o.firstFailing = n;
            o.firstFailingWindow = g.first;
        }
        o.fails = o.fails || FlashCounter::fails(g);
        o.redFails = o.redFails || FlashCounter::fails(r);
    }
    return o;
}

constexpr Rgb8 kBlack{0, 0, 0}, kWhite{255, 255, 255};

// Frame n of a square wave at `hz`: dark for the first half period, then light (the state
// changes at frame ceil(k x 25 / (2 hz))).
bool light(int n, int hz) { return (n * 2 * hz / 25) % 2 == 1; }

}  // namespace

TEST(Flashes, DisplayModelIsBt1886At200Nits) {
    FlashMeter meter;
    EXPECT_NEAR(meter.add(frame([](int, int) { return kWhite; }), Matrix::Bt709, Range::Limited).luminance, 200.0, 1e-9);
    FlashMeter grey;
    // R'G'B' 128: 200 x (128 / 255)^2.4 = 38.3 cd/m2.
    EXPECT_NEAR(grey.add(frame([](int, int) { return Rgb8{128, 128, 128}; }), Matrix::Bt709, Range::Limited).luminance,
                200.0 * std::pow(128.0 / 255.0, 2.4), 1e-4);
    EXPECT_EQ(meter.columns(), 32);   // 2x2-pixel cells on 64x36
    EXPECT_EQ(meter.rows(), 18);
}

TEST(Flashes, TwoAndThreeHertzPassFourAndFiveFail) {
    // Full-frame black/white: each change is 200 cd/m2. A one-second window (25 frames) holds
    // 2 x hz transitions, hz flashes; more than three fail.
    for (const int hz : {2, 3, 4, 5}) {
        const Outcome o = run(75, [hz](int n, int, int) { return light(n, hz) ? kWhite : kBlack; });
        EXPECT_EQ(o.maxFlashes, hz) << hz << " Hz";
        EXPECT_EQ(o.fails, hz > 3) << hz << " Hz";
        EXPECT_EQ(o.transitions, 3 * 2 * hz - 1) << hz << " Hz";   // 3 s: the first state change starts at frame ceil(25 / 2hz)
        EXPECT_DOUBLE_EQ(o.maxArea, 1.0);
        EXPECT_FALSE(o.redFails);
    }
    // 4 Hz: transitions at frames 4, 7, 10, 13, 16, 19, 22, 25: the window of frames 1..25 is
    // the first with eight.
    const Outcome four = run(75, [](int n, int, int) { return light(n, 4) ? kWhite : kBlack; });
    EXPECT_EQ(four.firstFailing, 25);
    EXPECT_EQ(four.firstFailingWindow, 1);
}

TEST(Flashes, SevenTransitionsInASecondPassEightFail) {
    // A burst of k changes on consecutive frames (from frame 1), then steady: floor(k / 2) flashes.
    for (const int k : {6, 7, 8, 9}) {
        const Outcome o = run(50, [k](int n, int, int) { return std::min(n, k) % 2 == 1 ? kWhite : kBlack; });
        EXPECT_EQ(o.transitions, k) << k;
        EXPECT_EQ(o.maxFlashes, k / 2) << k;
        EXPECT_EQ(o.fails, k >= 8) << k;
    }
    // Eight changes, the last at frame 25 or 26: frames 1 to 25 are one second (25 frames),
    // frames 1 to 26 are more, and no window holds all eight.
    for (const auto& [last, fails] : {std::pair{25, true}, std::pair{26, false}}) {
        const std::vector<int> changes{1, 4, 8, 12, 16, 20, 24, last};
        std::vector<int> states(40);
        int state = 0;
        for (int n = 0; n < 40; ++n) {
            if (std::find(changes.begin(), changes.end(), n) != changes.end()) state = 1 - state;
            states[size_t(n)] = state;
        }
        const Outcome o = run(40, [&](int n, int, int) { return states[size_t(n)] ? kWhite : kBlack; });
        EXPECT_EQ(o.transitions, 8) << last;
        EXPECT_EQ(o.fails, fails) << last;
        EXPECT_EQ(o.maxFlashes, fails ? 4 : 3) << last;
    }
}

TEST(Flashes, AreaAboveAQuarterOfTheScreenFails) {
    // 5 Hz black/white on a patch: 552 pixels (23.96%), 576 (25.00%, not more than a quarter),
    // 600 (26.04%); the rest stays grey.
    struct Patch {
        int fullColumns, extraRows;   // columns 0..fullColumns-1 whole, 2 more columns for extraRows rows
        double area;
        bool fails;
    };
    for (const Patch& patch : {Patch{14, 24, 552.0 / 2304, false}, Patch{16, 0, 576.0 / 2304, false}, Patch{16, 12, 600.0 / 2304, true}}) {
        const Outcome o = run(50, [&](int n, int x, int y) {
            const bool in = x < patch.fullColumns || (x < patch.fullColumns + 2 && y < patch.extraRows);
            return in ? (light(n, 5) ? kWhite : kBlack) : Rgb8{100, 100, 100};
        });
        EXPECT_DOUBLE_EQ(o.maxArea, patch.area) << patch.area;
        EXPECT_EQ(o.fails, patch.fails) << patch.area;
        EXPECT_EQ(o.maxFlashes, patch.fails ? 5 : 0) << patch.area;
    }
}

TEST(Flashes, SmallDarkChangesAndBrightChangesDoNotCount) {
    // R'G'B' 0 <-> 87: 0 <-> 15.1 cd/m2, under 20: no flash at 5 Hz.
    const Outcome dark = run(50, [](int n, int, int) { return light(n, 5) ? Rgb8{87, 87, 87} : kBlack; });
    EXPECT_EQ(dark.transitions, 0);
    EXPECT_FALSE(dark.fails);
    // R'G'B' 0 <-> 112: 0 <-> 27.8 cd/m2: each change counts.
    const Outcome enough = run(50, [](int n, int, int) { return light(n, 5) ? Rgb8{112, 112, 112} : kBlack; });
    EXPECT_EQ(enough.maxFlashes, 5);
    EXPECT_TRUE(enough.fails);
    // R'G'B' 237 <-> 255: 167.8 <-> 200 cd/m2, a change of 32 but the darker image above 160.
    const Outcome bright = run(50, [](int n, int, int) { return light(n, 5) ? kWhite : Rgb8{237, 237, 237}; });
    EXPECT_EQ(bright.transitions, 0);
    // R'G'B' 230 <-> 255: 156.1 <-> 200: the darker image below 160 counts.
    const Outcome below = run(50, [](int n, int, int) { return light(n, 5) ? kWhite : Rgb8{230, 230, 230}; });
    EXPECT_TRUE(below.fails);
    // A slow rise and fall over many frames is one transition each way, however it is split.
    const Outcome slow = run(50, [](int n, int, int) {
        const int v = n < 25 ? n * 10 : (49 - n) * 10;
        return Rgb8{v, v, v};
    });
    EXPECT_EQ(slow.transitions, 2);
}

TEST(Flashes, SaturatedRedFlashesAreCountedApart) {
    // Red (R'G'B' 255, 0, 0: 42.5 cd/m2) against a grey of the same luminance (R'G'B' 134,
    // 42.7 cd/m2): no luminance flash, (R - G - B) x 320 changes by 320 - 0.
    const Outcome red = run(50, [](int n, int, int) { return light(n, 5) ? Rgb8{255, 0, 0} : Rgb8{134, 134, 134}; });
    EXPECT_EQ(red.transitions, 0);
    EXPECT_EQ(red.maxRedFlashes, 5);
    EXPECT_TRUE(red.redFails);
    EXPECT_FALSE(red.fails);
    // At 3 Hz: three red flashes in a second pass.
    const Outcome slow = run(50, [](int n, int, int) { return light(n, 3) ? Rgb8{255, 0, 0} : Rgb8{134, 134, 134}; });
    EXPECT_EQ(slow.maxRedFlashes, 3);
    EXPECT_FALSE(slow.redFails);
    // An orange (255, 160, 0: R / (R + G + B) = 0.75) is not a saturated red.
    const Outcome orange = run(50, [](int n, int, int) { return light(n, 5) ? Rgb8{255, 160, 0} : Rgb8{160, 160, 160}; });
    EXPECT_EQ(orange.redTransitions, 0);
    // Either state saturated is enough (WCAG: "for either or both states"): a dark saturated
    // red (100, 0, 0: R / (R + G + B) = 1, (R - G - B) x 320 = 33.8) against a pink
    // (255, 140, 140: 0.68, 168.2) changes by about 134.
    const Outcome pink = run(50, [](int n, int, int) { return light(n, 5) ? Rgb8{255, 140, 140} : Rgb8{100, 0, 0}; });
    EXPECT_EQ(pink.maxRedFlashes, 5);
}
