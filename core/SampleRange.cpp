// Counting samples above the format's range, and the warnings per run (core/SampleRange.h).
#include "SampleRange.h"

namespace cs {

bool canExceedRange(PixelFormat f) {
    const PixelFormatInfo& info = formatInfo(f);
    return info.bytesPerSample == 2 && sampleShift(f) == 0 && info.bitDepth < 16 && !info.isRgb;
}

std::optional<int64_t> samplesAboveRange(const FrameView& f) {
    if (!canExceedRange(f.format)) return 0;
    if (f.onDevice) return std::nullopt;
    const PixelFormatInfo& info = formatInfo(f.format);
    const uint16_t max = uint16_t((1u << info.bitDepth) - 1);
    int64_t above = 0;
    for (int plane = 0; plane < info.planeCount; ++plane) {
        const int rows = planeRows(f.format, f.height, plane);
        const size_t words = planeRowBytes(f.format, f.width, plane) / 2;
        for (int y = 0; y < rows; ++y) {
            const uint8_t* row = f.data[size_t(plane)] + std::ptrdiff_t(y) * f.pitch[size_t(plane)];
            uint32_t n = 0;   // a row's count (vectorises): at most kMaxDimension words
            for (size_t x = 0; x < words; ++x) {
                const uint16_t w = uint16_t(row[2 * x] | (row[2 * x + 1] << 8));   // little-endian, as PixelAccess.h
                n += w > max;
            }
            above += n;
        }
    }
    return above;
}

std::optional<std::string> AboveRangeRuns::frame(int64_t index, int64_t count, int bitDepth) {
    if (count <= 0) return finish();
    if (open_ && bitDepth != bitDepth_) {   // a change of depth ends the run: its range is another
        std::optional<std::string> ended = finish();
        frame(index, count, bitDepth);
        return ended;
    }
    if (!open_) {
        open_ = true;
        first_ = index;
        samples_ = 0;
        bitDepth_ = bitDepth;
    }
    last_ = index;
    samples_ += count;
    return std::nullopt;
}

std::optional<std::string> AboveRangeRuns::finish() {
    if (!open_) return std::nullopt;
    open_ = false;
    const std::string frames = first_ == last_ ? "frame " + std::to_string(first_)
                                               : "frames " + std::to_string(first_) + " to " + std::to_string(last_);
    const int depth = bitDepth_;
    return frames + ": " + std::to_string(samples_) + (samples_ == 1 ? " sample" : " samples") + " above the " +
           std::to_string(depth) + "-bit range (codes over " + std::to_string((1 << depth) - 1) +
           "; read with the bits above the depth ignored)";
}

}  // namespace cs
