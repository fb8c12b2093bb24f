#include "Frame.h"

#include <algorithm>

#include "PixelAccess.h"

namespace cs {

bool FrameView::valid() const {
    if (width <= 0 || height <= 0 || width > kMaxDimension || height > kMaxDimension) return false;
    if (format >= PixelFormat::Count) return false;
    const auto& info = formatInfo(format);
    for (int i = 0; i < info.planeCount; ++i)
        if (!data[size_t(i)] || pitch[size_t(i)] <= 0) return false;
    return true;
}

namespace {
void storeSample(uint8_t* row, int index, int bytesPerSample, int shift, int value) {
    if (bytesPerSample == 1) { row[index] = uint8_t(value); return; }
    const auto w = uint16_t(value << shift);
    row[2 * index] = uint8_t(w & 0xff);
    row[2 * index + 1] = uint8_t(w >> 8);
}
}  // namespace

Frame::Frame(PixelFormat format, int width, int height, ColorInfo color)
    : format_(format), width_(width), height_(height), color_(color) {
    const auto& info = formatInfo(format);
    for (int i = 0; i < info.planeCount; ++i) {
        // Pad rows to 64 bytes, as decoders do, so that pitch != row bytes is always exercised.
        const auto bytes = std::ptrdiff_t(planeRowBytes(format, width, i));
        pitch_[size_t(i)] = (bytes + 63) / 64 * 64 + 64;
        planes_[size_t(i)].assign(size_t(pitch_[size_t(i)]) * size_t(planeRows(format, height, i)), 0);
    }
}

FrameView Frame::view() const {
    FrameView v;
    v.format = format_;
    v.width = width_;
    v.height = height_;
    v.color = color_;
    v.pts = pts;
    for (size_t i = 0; i < 3; ++i) {
        v.data[i] = planes_[i].empty() ? nullptr : planes_[i].data();
        v.pitch[i] = pitch_[i];
    }
    return v;
}

void Frame::setPixel(int x, int y, int c0, int c1, int c2) {
    const auto& info = formatInfo(format_);
    const int shift = sampleShift(format_);
    const int bps = info.bytesPerSample;
    switch (info.layout) {
        case PixelLayout::Planar: {
            const int cx = x >> info.log2ChromaW, cy = y >> info.log2ChromaH;
            storeSample(plane(0) + y * pitch(0), x, bps, 0, c0);
            storeSample(plane(1) + cy * pitch(1), cx, bps, 0, c1);
            storeSample(plane(2) + cy * pitch(2), cx, bps, 0, c2);
            break;
        }
        case PixelLayout::SemiPlanar: {
            const int cx = x >> 1, cy = y >> 1;
            storeSample(plane(0) + y * pitch(0), x, bps, shift, c0);
            storeSample(plane(1) + cy * pitch(1), 2 * cx, bps, shift, c1);
            storeSample(plane(1) + cy * pitch(1), 2 * cx + 1, bps, shift, c2);
            break;
        }
        case PixelLayout::PackedYuv422: {
            uint8_t* pair = plane(0) + y * pitch(0) + (x >> 1) * 4;
            pair[(x & 1) ? info.offset[2] : info.offset[0]] = uint8_t(c0);
            pair[info.offset[1]] = uint8_t(c1);
            pair[info.offset[3]] = uint8_t(c2);
            break;
        }
        case PixelLayout::PackedRgb: {
            uint8_t* px = plane(0) + y * pitch(0) + x * info.bytesPerPixel;
            px[info.offset[0]] = uint8_t(c0);
            px[info.offset[1]] = uint8_t(c1);
            px[info.offset[2]] = uint8_t(c2);
            if (info.bytesPerPixel == 4) px[info.offset[3]] = 255;
            break;
        }
        case PixelLayout::Gray: storeSample(plane(0) + y * pitch(0), x, bps, 0, c0); break;
    }
}

void Frame::fill(int c0, int c1, int c2) {
    for (int y = 0; y < height_; ++y)
        for (int x = 0; x < width_; ++x) setPixel(x, y, c0, c1, c2);
}

PixelSource makePixelSource(const FrameView& f) {
    const auto& info = formatInfo(f.format);
    PixelSource s{};
    s.p0 = f.data[0]; s.p1 = f.data[1]; s.p2 = f.data[2];
    s.pitch0 = f.pitch[0]; s.pitch1 = f.pitch[1]; s.pitch2 = f.pitch[2];
    s.layout = info.layout;
    s.bytesPerSample = info.bytesPerSample;
    s.shift = sampleShift(f.format);
    s.valueMask = (int32_t(1) << info.bitDepth) - 1;
    s.log2cw = info.log2ChromaW; s.log2ch = info.log2ChromaH;
    s.off0 = info.offset[0]; s.off1 = info.offset[1]; s.off2 = info.offset[2]; s.off3 = info.offset[3];
    s.bytesPerPixel = info.bytesPerPixel;
    s.isRgb = info.isRgb;
    return s;
}

}  // namespace cs
