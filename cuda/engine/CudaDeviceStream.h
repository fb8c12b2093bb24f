// The CUDA side of core/DeviceStream.h: a stream for one producer of device frames (a
// source's NVDEC decoding), on a device's primary context, with a pool of ready events.
#pragma once
#include <memory>

#include "core/DeviceStream.h"

namespace cs::cuda {

// A non-blocking stream (no implicit ordering with the legacy default stream) on `device`.
Result<std::shared_ptr<DeviceStream>> makeDeviceStream(int device);

}  // namespace cs::cuda
