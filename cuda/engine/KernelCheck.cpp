// The start-up check of the build's GPU code (KernelCheck.h).
#include "KernelCheck.h"

#include <array>
#include <map>
#include <mutex>

#include "cuda/CudaCheck.h"
#include "KernelProbes.h"

namespace cs::cuda {
namespace {

// Every module of cs_cuda (a .cu file with kernels), by one of its kernels.
const std::array<KernelUnit, 16>& kernelUnits() {
    static const std::array<KernelUnit, 16> units = {{
        {"BoxBlurKernels.cu", probe::boxBlurKernels()},
        {"GamutDisplayKernels.cu", probe::gamutDisplayKernels()},
        {"GamutKernels.cu", probe::gamutKernels()},
        {"GaussianKernels.cu", probe::gaussianKernels()},
        {"GroupFilterKernels.cu", probe::groupFilterKernels()},
        {"HdrKernels.cu", probe::hdrKernels()},
        {"LookupFilterKernels.cu", probe::lookupFilterKernels()},
        {"LumaHistogramKernel.cu", probe::lumaHistogramKernel()},
        {"QuadKernel.cu", probe::quadKernel()},
        {"QuadPictureKernels.cu", probe::quadPictureKernels()},
        {"ReduceKernel.cu", probe::reduceKernel()},
        {"ScopeImageKernels.cu", probe::scopeImageKernels()},
        {"ScopeKernels.cu", probe::scopeKernels()},
        {"SignalStatsKernels.cu", probe::signalStatsKernels()},
        {"TraceKernels.cu", probe::traceKernels()},
        {"Yuv420Kernel.cu", probe::yuv420Kernel()},
    }};
    return units;
}

}  // namespace

std::string_view buildCudaCode() { return CS_CUDA_CODE; }

Status probeKernelUnits(int device, std::span<const KernelUnit> units) {
    CS_CUDA_CHECK(cudaSetDevice(device));
    int major = 0, minor = 0;
    CS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CS_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    for (const KernelUnit& u : units) {
        cudaFuncAttributes attributes{};
        const cudaError_t e = cudaFuncGetAttributes(&attributes, u.kernel);
        if (e == cudaSuccess) continue;
        cudaGetLastError();   // not sticky: leave no error behind for the next call to find
        return Status::error(kernelCheckMessage(major, minor, u.file, e, std::string(cudaGetErrorString(e)) + ", " + cudaGetErrorName(e),
                                                buildCudaCode()));
    }
    return {};
}

Status checkKernels(int device) {
    static std::mutex mutex;   // guards `checked`
    static std::map<int, Status> checked;
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = checked.find(device); it != checked.end()) return it->second;
    Status s = probeKernelUnits(device, kernelUnits());
    checked.emplace(device, s);
    return s;
}

Result<KernelCode> kernelCode(int device) {
    CS_CUDA_CHECK(cudaSetDevice(device));
    cudaFuncAttributes a{};
    CS_CUDA_CHECK(cudaFuncGetAttributes(&a, probe::scopeKernels()));
    return KernelCode{a.ptxVersion, a.binaryVersion};
}

}  // namespace cs::cuda
