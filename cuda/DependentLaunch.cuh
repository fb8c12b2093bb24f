// Programmatic dependent launch (Hopper and later): a kernel launched this way may be
// scheduled while the kernel before it in the stream (or graph) is still finishing, so its
// launch and block dispatch overlap that kernel's last blocks instead of following them.
// The contract, on the dependent's side: call waitForPrecedingKernel() before touching any
// memory the preceding work writes or reads; it returns once that work has completed and
// its writes are visible. On the preceding kernel's side, allowDependentLaunch() lets the
// dependent be scheduled as soon as every block has called it (otherwise, once they exit).
// Both are no-ops where the launch was an ordinary one, and before Hopper.
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace cs::cuda::detail {

__device__ __forceinline__ void waitForPrecedingKernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void allowDependentLaunch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether `kernel` may be launched as a dependent on the current device: compute capability
// 9.0 or later, and the kernel's code compiled for sm_90 or later, so that its wait is there
// (a newer GPU running our compute_75 PTX, compiled just in time, has no griddepcontrol in
// it, and a dependent launch of that code would race with the kernel before it).
inline bool dependentLaunchSupported(const void* kernel) {
    int device = 0, major = 0;
    cudaFuncAttributes code{};
    return cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
           major >= 9 && cudaFuncGetAttributes(&code, kernel) == cudaSuccess && code.ptxVersion >= 90;
}

// kernel<<<grid, block, 0, stream>>>(args...), as a dependent launch where `dependent`
// (dependentLaunchSupported(kernel)); the kernel must begin with waitForPrecedingKernel().
template <class... Params, class... Args>
cudaError_t launchDependent(bool dependent, void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream, Args&&... args) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = 0;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = dependent ? 1 : 0;
    return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace cs::cuda::detail
