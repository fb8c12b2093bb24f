// The start-up check of the build's GPU code (docs/CUDA.md, "GPU code"): whether this device
// can run the CUDA engine's kernels at all, found once per device before an engine is made,
// so that a GPU the build has no code for, or whose driver cannot compile the build's PTX,
// gives one line at start-up (and `auto` takes the CPU engine) instead of a failure per frame.
//
// Each translation unit with kernels is one module of the program: its machine code for the
// device's architecture is picked, or its PTX compiled by the driver, when one of its kernels
// is first used. The check asks for the attributes of one kernel of each (KernelProbes.h),
// which loads that module there and then: cudaErrorNoKernelImageForDevice where the build has
// no code for the device, a JIT error (cudaErrorInvalidPtx...) where its PTX does not compile.
#pragma once
#include <cuda_runtime_api.h>

#include <span>
#include <string>
#include <string_view>

#include "core/Status.h"

namespace cs::cuda {

// One module to probe: a kernel of it, named by its source file.
struct KernelUnit {
    const char* file;     // "GroupFilterKernels.cu"
    const void* kernel;   // a __global__ function of that file
};

// The code a device runs for the build: the probe kernel's PTX version and the architecture of
// its machine code (75, 80, 90...), as cudaFuncGetAttributes reports them. A device running
// JIT-compiled compute_75 PTX reports ptxVersion 75, binaryVersion its own architecture.
struct KernelCode {
    int ptxVersion = 0, binaryVersion = 0;
};

// The one line for a module that cannot run on a device of compute capability major.minor:
// "this build has no kernels for sm_61 (it has machine code for sm_75, sm_80, sm_90; PTX
// compute_90)", or, where the driver could not compile the PTX, "this build has no kernels
// for sm_120: the driver could not compile its PTX (GroupFilterKernels.cu: ...)".
// `buildCode` is the build's list in words (buildCudaCode()); `reason` CUDA's own words for
// `error`. Inline, so that the host tests check it without a GPU or the kernels.
inline std::string kernelCheckMessage(int major, int minor, std::string_view file, cudaError_t error, std::string_view reason,
                                      std::string_view buildCode) {
    const std::string sm = "sm_" + std::to_string(major) + std::to_string(minor);
    const std::string where = std::string(file) + ": " + std::string(reason);
    if (error == cudaErrorNoKernelImageForDevice) return "this build has no kernels for " + sm + " (it has " + std::string(buildCode) + ")";
    if (error == cudaErrorInvalidPtx || error == cudaErrorUnsupportedPtxVersion || error == cudaErrorJitCompilerNotFound ||
        error == cudaErrorJitCompilationDisabled)
        return "this build has no kernels for " + sm + ": the driver could not compile its PTX (" + where + ")";
    return "the CUDA kernels cannot be loaded on " + sm + " (" + where + ")";
}

// What this build carries, in words (configure's summary of CMAKE_CUDA_ARCHITECTURES).
std::string_view buildCudaCode();

// Probes `units` on `device` (made current): {} when every module loads, else the line above
// for the first that does not. Clears the error it met, so later calls do not see it.
Status probeKernelUnits(int device, std::span<const KernelUnit> units);

// The engine's check: every module of cs_cuda, probed once per device for the whole process
// (later calls return the first answer). Thread-safe.
Status checkKernels(int device);

// The code `device` runs for the engine's kernels (after a successful check).
Result<KernelCode> kernelCode(int device);

}  // namespace cs::cuda
