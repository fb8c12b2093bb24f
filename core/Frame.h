// FrameView: a non-owning view of one picture (planes, pitches in bytes, size, format,
// colour tags). Frame: an owning frame in host memory, for tests, patterns and filters.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "Color.h"
#include "PixelFormat.h"

namespace cs {

struct FrameView {
    PixelFormat format = PixelFormat::Yuv420p;
    int width = 0;
    int height = 0;
    std::array<const uint8_t*, 3> data{};      // plane base pointers (host or device memory)
    std::array<std::ptrdiff_t, 3> pitch{};     // bytes between rows of each plane
    ColorInfo color;
    double pts = 0.0;                          // seconds
    bool onDevice = false;                     // planes are CUDA device memory (NVDEC, uploads)
    // onDevice frames written on a stream of their producer's (NVDEC's decode stream): the
    // cudaEvent_t recorded there once the planes are queued (core/DeviceStream.h), owned by
    // whoever holds the frame (decode/'s VideoFrame::ready). Null: the planes were written on
    // the legacy default stream or synchronously.
    void* deviceReady = nullptr;

    int bitDepth() const { return formatInfo(format).bitDepth; }
    int levels() const { return 1 << bitDepth(); }
    bool valid() const;                        // size positive and sane, every needed plane present
};

// Largest frame any engine accepts: 16K x 16K (an "absurd size" beyond this is refused).
constexpr int kMaxDimension = 16384;

class Frame {
public:
    Frame() = default;
    Frame(PixelFormat format, int width, int height, ColorInfo color = {});
    FrameView view() const;
    uint8_t* plane(int i) { return planes_[size_t(i)].data(); }
    const uint8_t* plane(int i) const { return planes_[size_t(i)].data(); }
    std::ptrdiff_t pitch(int i) const { return pitch_[size_t(i)]; }
    PixelFormat format() const { return format_; }
    int width() const { return width_; }
    int height() const { return height_; }
    ColorInfo& color() { return color_; }
    double pts = 0.0;

    // Writes one pixel's components in native code values (Y'CbCr or R'G'B'; chroma is
    // written to the chroma sample that covers (x, y)).
    void setPixel(int x, int y, int c0, int c1, int c2);
    void fill(int c0, int c1, int c2);

private:
    PixelFormat format_ = PixelFormat::Yuv420p;
    int width_ = 0, height_ = 0;
    ColorInfo color_;
    std::array<std::vector<uint8_t>, 3> planes_;
    std::array<std::ptrdiff_t, 3> pitch_{};
};

}  // namespace cs
