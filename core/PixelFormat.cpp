#include "PixelFormat.h"

#include <array>

namespace cs {
namespace {
using L = PixelLayout;
// name, layout, depth, bytes/sample, planes, log2cw, log2ch, rgb, offsets, bytes/pixel
constexpr std::array<PixelFormatInfo, static_cast<size_t>(PixelFormat::Count)> kInfo{{
    {"yuv420p", L::Planar, 8, 1, 3, 1, 1, false, {0, 0, 0, 0}, 1},
    {"yuv422p", L::Planar, 8, 1, 3, 1, 0, false, {0, 0, 0, 0}, 1},
    {"yuv444p", L::Planar, 8, 1, 3, 0, 0, false, {0, 0, 0, 0}, 1},
    {"yuv420p10le", L::Planar, 10, 2, 3, 1, 1, false, {0, 0, 0, 0}, 2},
    {"yuv422p10le", L::Planar, 10, 2, 3, 1, 0, false, {0, 0, 0, 0}, 2},
    {"yuv444p10le", L::Planar, 10, 2, 3, 0, 0, false, {0, 0, 0, 0}, 2},
    {"nv12", L::SemiPlanar, 8, 1, 2, 1, 1, false, {0, 0, 0, 0}, 1},
    {"p010le", L::SemiPlanar, 10, 2, 2, 1, 1, false, {0, 0, 0, 0}, 2},
    {"uyvy422", L::PackedYuv422, 8, 1, 1, 1, 0, false, {1, 0, 3, 2}, 2},
    {"yuyv422", L::PackedYuv422, 8, 1, 1, 1, 0, false, {0, 1, 2, 3}, 2},
    {"rgb24", L::PackedRgb, 8, 1, 1, 0, 0, true, {0, 1, 2, 0}, 3},
    {"bgr24", L::PackedRgb, 8, 1, 1, 0, 0, true, {2, 1, 0, 0}, 3},
    {"rgba", L::PackedRgb, 8, 1, 1, 0, 0, true, {0, 1, 2, 3}, 4},
    {"bgra", L::PackedRgb, 8, 1, 1, 0, 0, true, {2, 1, 0, 3}, 4},
    {"argb", L::PackedRgb, 8, 1, 1, 0, 0, true, {1, 2, 3, 0}, 4},
    {"gray", L::Gray, 8, 1, 1, 0, 0, false, {0, 0, 0, 0}, 1},
    {"gray10le", L::Gray, 10, 2, 1, 0, 0, false, {0, 0, 0, 0}, 2},
}};
}  // namespace

const PixelFormatInfo& formatInfo(PixelFormat f) { return kInfo[static_cast<size_t>(f)]; }

size_t planeRowBytes(PixelFormat f, int width, int plane) {
    const auto& info = formatInfo(f);
    const auto w = size_t(width);
    switch (info.layout) {
        case PixelLayout::Planar: return (plane == 0 ? w : size_t(chromaWidth(f, width))) * size_t(info.bytesPerSample);
        case PixelLayout::SemiPlanar: return (plane == 0 ? w : 2 * size_t(chromaWidth(f, width))) * size_t(info.bytesPerSample);
        case PixelLayout::PackedYuv422: return size_t(chromaWidth(f, width)) * 4;
        case PixelLayout::PackedRgb: return w * size_t(info.bytesPerPixel);
        case PixelLayout::Gray: return w * size_t(info.bytesPerSample);
    }
    return 0;
}

int planeRows(PixelFormat f, int height, int plane) { return plane == 0 ? height : chromaHeight(f, height); }

std::optional<PixelFormat> pixelFormatFromName(std::string_view name) {
    for (size_t i = 0; i < kInfo.size(); ++i)
        if (kInfo[i].name == name) return static_cast<PixelFormat>(i);
    return std::nullopt;
}

}  // namespace cs
