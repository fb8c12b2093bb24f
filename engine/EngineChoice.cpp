// The engine choice (EngineChoice.h).
#include "EngineChoice.h"

#if CS_HAVE_CUDA
#include "cuda/CudaEngine.h"
#endif

namespace cs {

Result<EngineChoice> chooseEngine(const std::string& name, CudaUnavailable unavailable) {
    if (name != "auto" && name != "cpu" && name != "cuda")
        return Status::error("unknown engine '" + name + "' (expected auto, cpu or cuda)");
    EngineChoice choice;
    if (name != "cpu") {
#if CS_HAVE_CUDA
        auto cuda = makeCudaEngine();
        if (cuda) {
            choice.cuda = cuda->get();
            choice.cudaStream = choice.cuda->stream();
            choice.engine = std::move(cuda.value());
            return choice;
        }
        if (name == "cuda" && unavailable == CudaUnavailable::Error) return Status::error("CUDA engine unavailable: " + cuda.message());
        choice.note = "CUDA engine unavailable (" + cuda.message() + "): using the CPU engine";
#else
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
