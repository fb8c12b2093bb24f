// cuda_tests' entry point: exits 77 (CTest: skipped) with the reason when this machine has
// no usable CUDA device, so the suite passes as "skipped" on CI machines without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char** argv) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        std::printf("cuda_tests: skipped: %s\n", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device found");
        return 77;
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
