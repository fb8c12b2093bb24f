// One frame's active picture (ActivePicture.h).
#include "ActivePicture.h"

#include "core/PixelAccess.h"

namespace cs {

std::optional<CropArea> activePictureOf(const FrameView& frame) {
    if (frame.onDevice || !frame.valid() || frame.width < 1 || frame.height < 1) return std::nullopt;
    const PixelSource s = makePixelSource(frame);
    if (s.isRgb) return std::nullopt;
    const int32_t mid = int32_t(frame.levels() / 2);
    // cropdetect's checkline: the integer mean of a line's luma samples.
    const auto row = [&](int y) {
        int64_t total = 0;
        for (int x = 0; x < frame.width; ++x) total += readYuv(s, x, y, mid).y;
        return long(total / frame.width);
    };
    const auto column = [&](int x) {
        int64_t total = 0;
        for (int y = 0; y < frame.height; ++y) total += readYuv(s, x, y, mid).y;
        return long(total / frame.height);
    };
    CropDetector detector(24.0 / 255, 16, 0);
    return detector.addLines(frame.width, frame.height, frame.bitDepth(), row, column);
}

}  // namespace cs
