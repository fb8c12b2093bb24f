#include "EngineChoice.h"

#if CS_HAVE_CUDA
#include "cuda/CudaEngine.h"
#endif

namespace cs {

Result<EngineChoice> chooseEngine(const std::string& name) {
    if (name != "auto" && name != "cpu" && name != "cuda")
        return Status::error("unknown engine '" + name + "' (expected auto, cpu or cuda)");
    EngineChoice choice;
    if (name == "cpu") {
        choice.engine = makeCpuEngine();
        return choice;
    }
#if CS_HAVE_CUDA
    auto cuda = makeCudaEngine();
    if (cuda.ok()) {
        choice.cudaStream = (*cuda)->stream();
        choice.engine = std::move(cuda.value());
        return choice;
    }
    if (name == "cuda") return Status::error("CUDA engine unavailable: " + cuda.message());
    choice.note = "CUDA engine unavailable (" + cuda.message() + "): using the CPU engine";
#else
    if (name == "cuda") return Status::error("CUDA engine unavailable: this build has no CUDA support");
#endif
    choice.engine = makeCpuEngine();
    return choice;
}

}  // namespace cs
