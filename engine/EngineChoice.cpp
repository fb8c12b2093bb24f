// The engine choice (EngineChoice.h).
#include "EngineChoice.h"

#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#include "cpu/CpuEngine.h"
#endif

namespace cs {

Result<std::shared_ptr<DeviceStream>> EngineChoice::decodeStream() const {
#if CS_HAVE_CUDA
    if (cuda) return cuda->makeDecodeStream();
#endif
    return std::shared_ptr<DeviceStream>();
}

Result<EngineChoice> chooseEngine(const std::string& name, CudaUnavailable unavailable, int device) {
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
    choice.engine = makeCpuEngine();
    return choice;
}

}  // namespace cs
