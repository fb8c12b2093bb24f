#include "FrameRegion.h"

#include <algorithm>

#include "Gamut.h"

namespace cs {

std::string regionName(const FrameRegion& r) {
    return std::to_string(r.width) + "x" + std::to_string(r.height) + " at (" + std::to_string(r.x) + "," +
           std::to_string(r.y) + ")";
}

FrameRegion snapRegion(const FrameRegion& r, PixelFormat format, int frameWidth, int frameHeight) {
    const auto& info = formatInfo(format);
    const int gx = 1 << info.log2ChromaW, gy = 1 << info.log2ChromaH;
    int x0 = std::max(r.x, 0), y0 = std::max(r.y, 0);
    int x1 = std::min(r.x + r.width, frameWidth), y1 = std::min(r.y + r.height, frameHeight);
    if (x1 <= x0 || y1 <= y0) return {};
    x0 -= x0 % gx;
    x1 = std::min((x1 + gx - 1) / gx * gx, frameWidth);
    if (y1 - y0 > 1) {   // one line reads its own chroma row (y >> log2ChromaH) whatever its parity
        y0 -= y0 % gy;
        y1 = std::min((y1 + gy - 1) / gy * gy, frameHeight);
    }
    return {x0, y0, x1 - x0, y1 - y0};
}

Result<FrameView> regionView(const FrameView& frame, const FrameRegion& region) {
    const std::string frameName = std::to_string(frame.width) + "x" + std::to_string(frame.height) + " frame";
    if (!frame.valid()) return Status::error("the region " + regionName(region) + " is of an invalid " + frameName);
    if (region.width <= 0 || region.height <= 0)
        return Status::error("the region " + regionName(region) + " is empty: it has no pixel to measure");
    if (region.x < 0 || region.y < 0 || region.x + region.width > frame.width || region.y + region.height > frame.height)
        return Status::error("the region " + regionName(region) + " lies outside the " + frameName);
    const FrameRegion r = snapRegion(region, frame.format, frame.width, frame.height);
    const auto& info = formatInfo(frame.format);
    FrameView v = frame;
    v.width = r.width;
    v.height = r.height;
    for (int p = 0; p < info.planeCount; ++p) {
        const int row = p == 0 ? r.y : r.y >> info.log2ChromaH;
        v.data[size_t(p)] = frame.data[size_t(p)] + std::ptrdiff_t(row) * frame.pitch[size_t(p)] +
                            std::ptrdiff_t(planeRowBytes(frame.format, r.x, p));
    }
    // Untagged primaries are assumed from the height (576 lines: BT.601 625); the region's
    // height must not change the assumption, so it is written in only where it would.
    if (effectivePrimaries(frame.color, frame.height) != effectivePrimaries(frame.color, r.height))
        v.color.primaries = effectivePrimaries(frame.color, frame.height);
    return v;
}

}  // namespace cs
