// Where an encoder gets its RGBA -> 4:2:0 conversion done, when not by core/Yuv420 on its
// own thread: the CUDA converter (cuda/convert/Yuv420Converter.h) behind this interface, so that
// encode/ needs neither the CUDA toolkit nor the runtime.
//
// Threading: one caller at a time (the encoder's thread); the planes a call returns stay
// valid until the next call.
#pragma once
#include "DeviceStream.h"
#include "ScopeResults.h"
#include "Status.h"
#include "Yuv420.h"

namespace cs {

class Yuv420Converter {
public:
    virtual ~Yuv420Converter() = default;
    // The stream (and so the device and its primary context) the converter works on, where
    // an encoder taking device frames (NVENC) allocates them.
    virtual const DeviceStream& deviceStream() const = 0;
    // Converts `rgba` into planes of the given layout in host memory of the converter's own
    // (page-locked, so the download is one asynchronous copy): complete when this returns.
    virtual Result<Yuv420Planes> convertToHost(const RgbaImage& rgba, const RgbToYuv& k, Yuv420Layout layout) = 0;
    // Converts `rgba` into `d_out`, planes in device memory on deviceStream()'s device (NVENC's
    // CUDA frames): complete when this returns.
    virtual Status convertOnDevice(const RgbaImage& rgba, const RgbToYuv& k, const Yuv420Planes& d_out) = 0;
};

}  // namespace cs
