// Used instead of NppBench.cu where NPP is missing or its API did not compile (see CMakeLists.txt).
#include "NppBench.h"

namespace cs::bench {

bool nppAvailable(std::string& why) {
    why = "NPP not found, or NppBench.cu did not compile against it when CMake configured gpu_bench";
    return false;
}

NppTimes runNpp(const NppInputs&, cudaStream_t, const Timer&) { return {}; }

NppYuv420Times runNppYuv420(const uint8_t* const*, int, size_t, int, int, uint8_t* const[3], const int[3], cudaStream_t,
                            const Timer&) {
    return {};
}

}  // namespace cs::bench
