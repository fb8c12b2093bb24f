// CUDA errors as cs::Status values: CS_CUDA_CHECK(expr) returns a failed Status from the
// enclosing function (Status or Result<T>) naming the call and CUDA's own message.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "core/Status.h"

namespace cs::cuda {

// "cudaMalloc(&p, n) failed: out of memory (cudaErrorMemoryAllocation)"
inline Status errorStatus(cudaError_t err, const char* expr) {
    return Status::error(std::string(expr) + " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")");
}

inline Status check(cudaError_t err, const char* expr) { return err == cudaSuccess ? Status{} : errorStatus(err, expr); }

}  // namespace cs::cuda

#define CS_CUDA_CHECK(expr)                                                      \
    do {                                                                         \
        const cudaError_t cs_cuda_err_ = (expr);                                 \
        if (cs_cuda_err_ != cudaSuccess) return ::cs::cuda::errorStatus(cs_cuda_err_, #expr); \
    } while (0)

// For a Status-returning helper: CS_TRY(prepare()) returns its failure unchanged.
#define CS_TRY(expr)                                   \
    do {                                               \
        ::cs::Status cs_try_status_ = (expr);          \
        if (!cs_try_status_.ok()) return cs_try_status_; \
    } while (0)
