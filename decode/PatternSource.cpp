// Test pattern generation into AVFrames (see PatternSource.h for what each pattern is).
#include "PatternSource.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "FFmpegFormats.h"
#include "FFmpegHandles.h"
#include "FrameLimits.h"
#include "core/Parse.h"

extern "C" {
#include <libavutil/pixdesc.h>
}

namespace cs {
namespace {

static_assert(std::endian::native == std::endian::little, "10-bit samples are written as little-endian words");

constexpr std::string_view kPrefix = "pattern:";
constexpr int kFrameRate = 25;
constexpr int64_t kFrameCount = 250;   // 10 s, so that exports of a pattern end

}  // namespace

Result<PatternSpec> parsePatternSpec(const std::string& input) {
    if (!isPatternInput(input)) return Status::error(input + ": not a pattern (pattern:bars, pattern:ramp or pattern:zoneplate)");
    std::vector<std::string_view> parts;
    std::string_view rest = std::string_view(input).substr(kPrefix.size());
    for (;;) {
        const size_t colon = rest.find(':');
        parts.push_back(rest.substr(0, colon));
        if (colon == std::string_view::npos) break;
        rest = rest.substr(colon + 1);
    }
    PatternSpec spec;
    const std::string_view name = parts.front();
    if (name == "bars") spec.kind = PatternKind::Bars;
    else if (name == "ramp") spec.kind = PatternKind::Ramp;
    else if (name == "zoneplate") spec.kind = PatternKind::ZonePlate;
    else if (name.empty()) return Status::error(input + ": no pattern named (bars, ramp or zoneplate)");
    else return Status::error(input + ": unknown pattern " + quotedValue(name) + " (bars, ramp or zoneplate)");
    spec.name = std::string(name);
    bool depthGiven = false, sizeGiven = false;
    for (size_t i = 1; i < parts.size(); ++i) {
        const std::string_view option = parts[i];
        if (option == "10bit" || option == "8bit") {
            if (depthGiven) return Status::error(input + ": the bit depth is given twice");
            depthGiven = true;
            spec.depth = option == "10bit" ? 10 : 8;
        } else if (isSizeSyntax(option)) {
            if (sizeGiven) return Status::error(input + ": the size is given twice");
            sizeGiven = true;
            auto size = parseSize(option, Size{1, 1}, Size{kMaxDimension, kMaxDimension});
            if (!size) return Status::error(input + ": the size " + size.message());
            spec.width = size->width;
            spec.height = size->height;
        } else {
            return Status::error(input + ": unknown pattern option " + quotedValue(option) + " (10bit, 8bit or WxH)");
        }
    }
    return spec;
}

namespace {

// Y'CbCr code values of one colour at the pattern's depth.
struct Ycc {
    int y, cb, cr;
};

// BT.709 limited range from R'G'B' in 0..1, rounded at the target depth (not scaled from 8 bits).
Ycc bt709(double r, double g, double b, int depth) {
    constexpr double kr = 0.2126, kb = 0.0722, kg = 1.0 - kr - kb;
    const double y = kr * r + kg * g + kb * b;
    const double pb = (b - y) / (2.0 * (1.0 - kb)), pr = (r - y) / (2.0 * (1.0 - kr));
    const double scale = double(1 << (depth - 8));
    return {int(std::lround((16.0 + 219.0 * y) * scale)), int(std::lround((128.0 + 224.0 * pb) * scale)),
            int(std::lround((128.0 + 224.0 * pr) * scale))};
}

// A neutral level in percent of the black-to-white range (negative: below black).
Ycc grey(double percent, int depth) { return bt709(percent / 100.0, percent / 100.0, percent / 100.0, depth); }

// Colours RP 219 defines by their 10-bit values (the I and Q axis signals).
Ycc fromTenBit(int y, int cb, int cr, int depth) {
    if (depth == 10) return {y, cb, cr};
    return {int(std::lround(y / 4.0)), int(std::lround(cb / 4.0)), int(std::lround(cr / 4.0))};
}

// Writes code values into the planes of a planar AVFrame (8-bit bytes or 16-bit words).
class PlaneWriter {
public:
    explicit PlaneWriter(AVFrame& frame) : f_(frame) {
        const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(frame.format));
        wide_ = desc->comp[0].depth > 8;
        log2cw_ = desc->log2_chroma_w;
        log2ch_ = desc->log2_chroma_h;
    }

    // Fills [x0, x1) x [y0, y1) of the picture, clipped to it; chroma covers the samples
    // whose area starts inside the rectangle (even boundaries keep 4:2:x chroma clean).
    void rect(int x0, int x1, int y0, int y1, Ycc c) {
        x0 = std::clamp(x0, 0, f_.width);
        x1 = std::clamp(x1, 0, f_.width);
        y0 = std::clamp(y0, 0, f_.height);
        y1 = std::clamp(y1, 0, f_.height);
        if (x0 >= x1 || y0 >= y1) return;
        fill(0, x0, x1, y0, y1, c.y);
        const int cx0 = x0 >> log2cw_, cx1 = (x1 + (1 << log2cw_) - 1) >> log2cw_;
        const int cy0 = y0 >> log2ch_, cy1 = (y1 + (1 << log2ch_) - 1) >> log2ch_;
        fill(1, cx0, cx1, cy0, cy1, c.cb);
        fill(2, cx0, cx1, cy0, cy1, c.cr);
    }

    void lumaSample(int x, int y, int value) {
        uint8_t* row = f_.data[0] + std::ptrdiff_t(y) * f_.linesize[0];
        if (wide_) reinterpret_cast<uint16_t*>(row)[x] = uint16_t(value);
        else row[x] = uint8_t(value);
    }

    void fillChroma(int value) {
        const int cw = (f_.width + (1 << log2cw_) - 1) >> log2cw_, ch = (f_.height + (1 << log2ch_) - 1) >> log2ch_;
        fill(1, 0, cw, 0, ch, value);
        fill(2, 0, cw, 0, ch, value);
    }

private:
    void fill(int plane, int x0, int x1, int y0, int y1, int value) {
        for (int y = y0; y < y1; ++y) {
            uint8_t* row = f_.data[plane] + std::ptrdiff_t(y) * f_.linesize[plane];
            if (wide_) std::fill(reinterpret_cast<uint16_t*>(row) + x0, reinterpret_cast<uint16_t*>(row) + x1, uint16_t(value));
            else std::memset(row + x0, value, size_t(x1 - x0));
        }
    }

    AVFrame& f_;
    bool wide_ = false;
    int log2cw_ = 0, log2ch_ = 0;
};

// SMPTE RP 219 HD bars. At 1920x1080: 240 px side panels, seven 206 px bars (the right
// panel takes the remaining 238 px so every boundary stays on an even x), rows of 630, 90,
// 90 and 270 lines. Other sizes scale the same proportions.
void drawBars(AVFrame& f, int depth) {
    PlaneWriter w(f);
    const int W = f.width, H = f.height;
    const auto even = [](int v) { return (v + 1) & ~1; };
    const int d = even(W / 8);                    // side panel
    const int c = even(((W + 3) / 4 * 3) / 7);    // one of the seven bars
    const int barsEnd = d + 7 * c;
    const int row1 = H * 7 / 12, row2 = row1 + H / 12, row3 = row2 + H / 12;

    // Pattern 1: 40% grey, 75% bars, 40% grey.
    const Ycc bars75[7] = {bt709(.75, .75, .75, depth), bt709(.75, .75, 0, depth), bt709(0, .75, .75, depth),
                           bt709(0, .75, 0, depth),     bt709(.75, 0, .75, depth), bt709(.75, 0, 0, depth),
                           bt709(0, 0, .75, depth)};
    w.rect(0, d, 0, row1, grey(40, depth));
    for (int i = 0; i < 7; ++i) w.rect(d + i * c, d + (i + 1) * c, 0, row1, bars75[i]);
    w.rect(barsEnd, W, 0, row1, grey(40, depth));

    // Pattern 2: 100% cyan, +I, 75% white, 100% blue.
    w.rect(0, d, row1, row2, bt709(0, 1, 1, depth));
    w.rect(d, d + c, row1, row2, fromTenBit(245, 412, 629, depth));
    w.rect(d + c, barsEnd, row1, row2, bt709(.75, .75, .75, depth));
    w.rect(barsEnd, W, row1, row2, bt709(0, 0, 1, depth));

    // Pattern 3: 100% yellow, +Q, a luma ramp from 0% to 100%, 100% red.
    w.rect(0, d, row2, row3, bt709(1, 1, 0, depth));
    w.rect(d, d + c, row2, row3, fromTenBit(141, 697, 606, depth));
    const Ycc black = grey(0, depth), white = grey(100, depth);
    w.rect(d + c, barsEnd, row2, row3, black);   // chroma at mid level; luma overwritten below
    const int rampStart = d + c, rampWidth = std::min(barsEnd, W) - rampStart;
    for (int y = row2; y < std::min(row3, H); ++y)
        for (int i = 0; i < rampWidth; ++i)
            w.lumaSample(rampStart + i, y,
                         black.y + int(std::lround(double(white.y - black.y) * i / std::max(1, rampWidth - 1))));
    w.rect(barsEnd, W, row2, row3, bt709(1, 0, 0, depth));

    // Pattern 4: 15% grey, 0% black, 100% white, 0% black, the PLUGE (-2%, 0%, +2%, 0%, +4%),
    // 0% black, 15% grey.
    int x = d;
    const auto step = [&](int width, Ycc colour) {
        w.rect(x, x + width, row3, H, colour);
        x += width;
    };
    w.rect(0, d, row3, H, grey(15, depth));
    step(even(c * 3 / 2), black);
    step(even(c * 2), white);
    step(even(c * 5 / 6), black);
    const int pluge = even(c / 3);
    step(pluge, grey(-2, depth));
    step(pluge, black);
    step(pluge, grey(2, depth));
    step(pluge, black);
    step(pluge, grey(4, depth));
    step(std::max(0, barsEnd - x), black);
    w.rect(std::max(x, barsEnd), W, row3, H, grey(15, depth));
}

// Luma rising through every code value from left to right (when the picture is at least
// 2^depth wide), chroma at mid level.
void drawRamp(AVFrame& f, int depth) {
    PlaneWriter w(f);
    const int levels = 1 << depth;
    std::vector<int> column(size_t(f.width));
    for (int x = 0; x < f.width; ++x) column[size_t(x)] = std::min(levels - 1, int(int64_t(x) * levels / f.width));
    for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x) w.lumaSample(x, y, column[size_t(x)]);
    w.fillChroma(levels / 2);
}

// A circular zone plate: luma = cos(pi r^2 / W + phase), black to white. Its spatial
// frequency rises with the radius to Nyquist at the left and right edges; the phase turns
// once a second.
void drawZonePlate(AVFrame& f, int depth, int64_t frameNumber) {
    PlaneWriter w(f);
    constexpr int kSteps = 1024;
    const Ycc black = grey(0, depth), white = grey(100, depth);
    static thread_local std::vector<int> table;
    table.resize(kSteps);
    for (int i = 0; i < kSteps; ++i)
        table[size_t(i)] = black.y + int(std::lround((white.y - black.y) * 0.5 *
                                                      (1.0 + std::cos(2.0 * std::numbers::pi * i / kSteps))));
    const int64_t phase = frameNumber * kSteps / kFrameRate;
    for (int y = 0; y < f.height; ++y) {
        const int64_t dy = 2 * int64_t(y) + 1 - f.height;   // doubled coordinates from the centre
        for (int x = 0; x < f.width; ++x) {
            const int64_t dx = 2 * int64_t(x) + 1 - f.width;
            const int64_t fourRSquared = dx * dx + dy * dy;
            // cycles = r^2 / (2 W) -> table steps = 1024 * 4r^2 / (8 W)
            w.lumaSample(x, y, table[size_t((fourRSquared * (kSteps / 8) / f.width + phase) & (kSteps - 1))]);
        }
    }
    w.fillChroma(1 << (depth - 1));
}

class PatternSource final : public Source {
public:
    explicit PatternSource(PatternSpec spec, std::string input) : spec_(std::move(spec)) {
        switch (spec_.kind) {
            case PatternKind::Bars: format_ = spec_.depth == 10 ? PixelFormat::Yuv422p10 : PixelFormat::Yuv422p; break;
            case PatternKind::Ramp:
            case PatternKind::ZonePlate:
                format_ = spec_.depth == 10 ? PixelFormat::Yuv420p10 : PixelFormat::Yuv420p;
                break;
        }
        info_.input = std::move(input);
        info_.container = "pattern";
        info_.codec = spec_.name;
        info_.decoder = "pattern";
        info_.sourcePixFmt = std::string(formatInfo(format_).name);
        info_.width = spec_.width;
        info_.height = spec_.height;
        info_.format = format_;
        info_.color = ColorInfo{Matrix::Bt709, Range::Limited, Transfer::Bt709, true, true, Primaries::Bt709};
        info_.frameRate = kFrameRate;
        info_.duration = double(kFrameCount) / kFrameRate;
        info_.frameCount = kFrameCount;
        info_.seekable = true;
        info_.live = false;
    }

    const SourceInfo& info() const override { return info_; }

    ReadResult read(VideoFrame& out) override {
        if (next_ >= kFrameCount) return {ReadStatus::EndOfStream, {}};
        std::shared_ptr<AVFrame> frame = still_;
        if (!frame) {
            frame = generate(next_);
            if (!frame) return {ReadStatus::Error, info_.input + ": out of memory for a " +
                                                       frameSizeText(spec_.width, spec_.height) + " pattern frame"};
            if (spec_.kind != PatternKind::ZonePlate) still_ = frame;   // bars and ramp never change: share one
        }
        FrameView& v = out.view;
        v = FrameView{};
        v.format = format_;
        v.width = spec_.width;
        v.height = spec_.height;
        for (int i = 0; i < formatInfo(format_).planeCount; ++i) {
            v.data[size_t(i)] = frame->data[i];
            v.pitch[size_t(i)] = frame->linesize[i];
        }
        v.color = info_.color;
        v.pts = double(next_) / kFrameRate;
        v.onDevice = false;
        out.holder = std::move(frame);
        out.index = index_++;
        out.onDevice = false;
        ++next_;
        return {ReadStatus::Frame, {}};
    }

    Status seek(double seconds) override {
        if (!std::isfinite(seconds)) return Status::error(info_.input + ": cannot seek to a time that is not a number");
        // The frame at or just after `seconds` (a hair of slack for times computed as n / 25).
        const double frame = std::ceil(std::max(0.0, seconds) * kFrameRate - 1e-6);
        next_ = std::min<int64_t>(kFrameCount, int64_t(frame));
        index_ = 0;
        return {};
    }

    std::vector<std::string> takeWarnings() override { return {}; }

private:
    std::shared_ptr<AVFrame> generate(int64_t frameNumber) {
        ff::FramePtr frame(av_frame_alloc());
        if (!frame) return nullptr;
        frame->format = ff::toAVPixelFormat(format_);
        frame->width = spec_.width;
        frame->height = spec_.height;
        if (av_frame_get_buffer(frame.get(), 0) < 0) return nullptr;
        frame->colorspace = AVCOL_SPC_BT709;
        frame->color_range = AVCOL_RANGE_MPEG;
        frame->color_trc = AVCOL_TRC_BT709;
        frame->color_primaries = AVCOL_PRI_BT709;
        frame->pts = frameNumber;
        switch (spec_.kind) {
            case PatternKind::Bars: drawBars(*frame, spec_.depth); break;
            case PatternKind::Ramp: drawRamp(*frame, spec_.depth); break;
            case PatternKind::ZonePlate: drawZonePlate(*frame, spec_.depth, frameNumber); break;
        }
        return ff::share(std::move(frame));
    }

    PatternSpec spec_;
    PixelFormat format_ = PixelFormat::Yuv422p;
    SourceInfo info_;
    std::shared_ptr<AVFrame> still_;
    int64_t next_ = 0;     // frame number the next read returns
    int64_t index_ = 0;    // VideoFrame::index, from the open or the last seek
};

}  // namespace

bool isPatternInput(const std::string& input) { return input.rfind(kPrefix, 0) == 0; }

Result<std::unique_ptr<Source>> openPatternSource(const std::string& input) {
    auto spec = parsePatternSpec(input);
    if (!spec) return spec.status();
    return std::unique_ptr<Source>(std::make_unique<PatternSource>(std::move(spec.value()), input));
}

}  // namespace cs
