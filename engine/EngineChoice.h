// The one place that picks the scope engine, for the window (playback/EngineHost) and the command
// line (app/): "auto" (CUDA where a device can run it, else the CPU), "cpu" or "cuda". With
// the CUDA engine it also makes each source's decode stream (NVDEC decodes on a stream of its
// own; the engine orders itself after each frame's ready event).
#pragma once
#include <memory>
#include <string>

#include "core/DeviceStream.h"
#include "core/Engine.h"
#include "core/Status.h"
#include "core/Yuv420Converter.h"

namespace cs {

class CudaEngine;   // cuda/engine/CudaEngine.h (in builds with CUDA)

struct EngineChoice {
    std::unique_ptr<Engine> engine;
    CudaEngine* cuda = nullptr;   // `engine` itself when it is the CUDA engine, else null
    std::string note;             // why the choice ended on the CPU engine when CUDA was wanted ("" otherwise)
    // A stream for one source's NVDEC decoding (OpenOptions::deviceStream); null with the CPU engine.
    Result<std::shared_ptr<DeviceStream>> decodeStream() const;
};

// What "cuda" means where no CUDA engine can run: an error (the command line), or the CPU
// engine with a note saying why (the window, which must open whatever the machine).
enum class CudaUnavailable { Error, UseCpu };

// name: "auto", "cpu" or "cuda"; anything else is an error naming it. device: the CUDA
// device the CUDA engine runs on (qc --devices spreads its jobs over several); cpuThreads: the
// CPU engine's pool (0: one per hardware thread).
Result<EngineChoice> chooseEngine(const std::string& name, CudaUnavailable unavailable = CudaUnavailable::Error,
                                  int device = 0, int cpuThreads = 0);

// The recording's RGBA -> 4:2:0 conversion on a GPU (cuda/convert): on the CUDA engine's own
// device, or on device 0 beside the CPU engine. An error says why there is none (no CUDA in
// this build, no device, no memory). Callers never need the engine's concrete type.
Result<std::shared_ptr<Yuv420Converter>> makeGpuConverter(const Engine& engine);

}  // namespace cs
