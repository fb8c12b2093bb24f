// The engine choice (EngineChoice.h).
#include "EngineChoice.h"

#include "cpu/CpuEngine.h"
#if CS_HAVE_CUDA
#include "cuda/convert/Yuv420Converter.h"
#include "cuda/engine/CudaEngine.h"
#endif

namespace cs {

Result<std::shared_ptr<DeviceStream>> EngineChoice::decodeStream() const {
#if CS_HAVE_CUDA
    if (cuda) return cuda->makeDecodeStream();
#endif
    return std::shared_ptr<DeviceStream>();
}

Result<std::shared_ptr<Yuv420Converter>> makeGpuConverter(const Engine& engine) {
#if CS_HAVE_CUDA
    // The factory made the engine, so its name says its type.
    const int device = engine.name() == "cuda" ? static_cast<const CudaEngine&>(engine).device() : 0;
    return cuda::makeYuv420Converter(device);
#else
    (void)engine;
    return Status::error("this build has no CUDA support");
#endif
}

Result<EngineChoice> chooseEngine(const std::string& name, CudaUnavailable unavailable, int device, int cpuThreads) {
    if (name != "auto" && name != "cpu" && name != "cuda")
        return Status::error("unknown engine '" + name + "' (expected auto, cpu or cuda)");
    EngineChoice choice;
    if (name != "cpu") {
#if CS_HAVE_CUDA
        auto cuda = makeCudaEngine(device);
        if (cuda) {
            choice.cuda = cuda->get();
            choice.engine = std::move(cuda.value());
            return choice;
        }
        if (name == "cuda" && unavailable == CudaUnavailable::Error) return Status::error("CUDA engine unavailable: " + cuda.message());
        choice.note = "CUDA engine unavailable (" + cuda.message() + "): using the CPU engine";
#else
        (void)device;
        if (name == "cuda") {
            if (unavailable == CudaUnavailable::Error) return Status::error("CUDA engine unavailable: this build has no CUDA support");
            choice.note = "this build has no CUDA support: using the CPU engine";
        }
#endif
    }
    choice.engine = makeCpuEngine(cpuThreads);
    return choice;
}

}  // namespace cs
