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

}  // namespace cs::bench
