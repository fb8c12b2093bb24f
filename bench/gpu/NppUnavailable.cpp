// Used instead of NppBench.cu where NPP is missing or its API did not compile (see CMakeLists.txt).
#include "NppBench.h"

namespace cs::bench {

bool nppAvailable(std::string& why) {
    why = "NPP not found, or NppBench.cu did not compile against it when CMake configured gpu_bench";
    return false;
}

NppTimes runNpp(const NppInputs&, cudaStream_t, const Timer&) { return {}; }

}  // namespace cs::bench
