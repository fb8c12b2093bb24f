// Pixel formats the engines read natively, and how their samples are laid out.
// Names are FFmpeg's so that probe output and report.json match ffprobe.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cs {

enum class PixelFormat : uint8_t {
    Yuv420p, Yuv422p, Yuv444p,           // planar 8-bit
    Yuv420p10, Yuv422p10, Yuv444p10,     // planar 10-bit, little-endian 16-bit words, value in the low bits
    Nv12,                                // Y plane + interleaved CbCr plane, 4:2:0, 8-bit
    P010,                                // as NV12, 16-bit words, value in the HIGH 10 bits
    Uyvy422, Yuyv422,                    // packed 4:2:2, one plane, 2 bytes a pixel
    Rgb24, Bgr24,                        // packed 3 bytes a pixel
    Rgba, Bgra, Argb,                    // packed 4 bytes a pixel (alpha ignored)
    Gray8, Gray10,                       // luma only (Gray10: 16-bit words, low bits)
    Count
};

enum class PixelLayout : uint8_t { Planar, SemiPlanar, PackedYuv422, PackedRgb, Gray };

struct PixelFormatInfo {
    std::string_view name;      // FFmpeg's name: "yuv420p10le"
    PixelLayout layout;
    int bitDepth;               // 8 or 10: code values run 0 .. 2^bitDepth-1
    int bytesPerSample;         // 1 or 2 (storage of one component)
    int planeCount;
    int log2ChromaW;            // 1 for 4:2:x horizontally subsampled formats
    int log2ChromaH;            // 1 for 4:2:0
    bool isRgb;
    // Byte offsets of components inside a packed pixel (PackedRgb: R,G,B; PackedYuv422: Y0,U,Y1,V).
    int offset[4];
    int bytesPerPixel;          // packed formats: bytes per pixel (PackedYuv422: 2)
};

const PixelFormatInfo& formatInfo(PixelFormat f);
std::optional<PixelFormat> pixelFormatFromName(std::string_view ffmpegName);
inline int bitDepthOf(PixelFormat f) { return formatInfo(f).bitDepth; }
inline int levelsOf(PixelFormat f) { return 1 << formatInfo(f).bitDepth; }

// P010 keeps each 10-bit code in the high bits of its 16-bit word: the code is the word
// shifted right by kP010Shift (the other 16-bit formats keep it in the low bits).
constexpr int kP010Shift = 6;
// The right shift from a stored 16-bit word to its code.
inline int sampleShift(PixelFormat f) { return f == PixelFormat::P010 ? kP010Shift : 0; }

// Size of chroma planes for a frame of width x height (rounded up, as FFmpeg does).
inline int chromaWidth(PixelFormat f, int width) { int s = formatInfo(f).log2ChromaW; return (width + (1 << s) - 1) >> s; }
inline int chromaHeight(PixelFormat f, int height) { int s = formatInfo(f).log2ChromaH; return (height + (1 << s) - 1) >> s; }

// Plane `plane` of a frame as stored: the bytes of one row (no padding) and the number of
// rows (chroma planes subsampled). Also the bytes before column x of a row, for x a
// multiple of the chroma subsampling: planeRowBytes(f, x, plane).
size_t planeRowBytes(PixelFormat f, int width, int plane);
int planeRows(PixelFormat f, int height, int plane);

}  // namespace cs
