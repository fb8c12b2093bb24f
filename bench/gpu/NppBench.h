// NPP peers for gpu_bench: histogram, box filter, Sobel and NV12 to RGB, timed on the
// caller's device buffers. Built only where CMake finds NPP and this file compiles against
// it (the NPP API has moved between CUDA versions); otherwise nppAvailable() says why not.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>

namespace cs::bench {

// Times fn(i) for `reps` runs after a warm-up and returns the median in microseconds.
using Timer = std::function<double(const std::function<void(int)>& fn)>;

struct NppInputs {
    const uint8_t* luma8 = nullptr; size_t luma8Pitch = 0;       // 8-bit luma (or null)
    const uint16_t* luma16 = nullptr; size_t luma16Pitch = 0;    // 16-bit luma words (or null)
    int lumaShift = 0;                                            // 16-bit: value = word >> shift
    const uint8_t* nv12Y = nullptr; const uint8_t* nv12UV = nullptr; size_t nv12Pitch = 0;   // 8-bit NV12 (or null)
    const uint8_t* rgba = nullptr; size_t rgbaPitch = 0;          // RGBA picture (or null)
    int width = 0, height = 0;
    int boxRadius = 8;
};

struct NppTimes {
    double histogram = -1, boxFilter = -1, sobel = -1, nv12ToRgb = -1;   // microseconds, -1 = not run
    uint32_t histogramTotal = 0;   // sum of NPP's histogram bins (a check that it counted the frame)
    std::string note;              // errors
};

bool nppAvailable(std::string& why);
NppTimes runNpp(const NppInputs& in, cudaStream_t stream, const Timer& timer);

// RGBA (alpha ignored) to planar YUV 4:2:0 by nppiRGBToYUV420_8u_AC4P3R and
// nppiBGRToYUV420_8u_AC4P3R (NPP's own analog-YUV matrix: a peer in bytes moved, not in
// values), reading rgba[i % copies] on run i, writing the three planes given.
struct NppYuv420Times {
    double rgbToYuv420 = -1, bgrToYuv420 = -1;   // microseconds, -1 = not run
    std::string note;
};
NppYuv420Times runNppYuv420(const uint8_t* const* rgba, int copies, size_t rgbaPitch, int width, int height,
                            uint8_t* const planes[3], const int pitches[3], cudaStream_t stream, const Timer& timer);

}  // namespace cs::bench
