// The start-up check on this GPU (cuda/engine/KernelCheck.h): every module of the engine loads, the
// code the device runs is the one CUDA's rules pick from the build's list (machine code of the
// device's major version, else the newest PTX it can compile; only PTX under
// CUDA_FORCE_PTX_JIT=1), and a module that cannot load is named in one line, with no error
// left behind for the next call.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cuda/engine/KernelCheck.h"

namespace cs::cuda {
namespace {

struct Code { int ptx = 0, binary = 0; };

// What CUDA runs on a device of `cc` (86 for 8.6) from a CMAKE_CUDA_ARCHITECTURES list such as
// "75-real,80-real,90": machine code for the highest architecture of the same major version at
// or below cc, else the highest PTX at or below it compiled for the device; {0, 0}: none.
Code expectedCode(int cc, const std::string& list, bool forcePtxJit) {
    std::vector<int> sass, ptx;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');) {
        const int arch = std::atoi(item.c_str());
        const bool real = item.find("-virtual") == std::string::npos, virt = item.find("-real") == std::string::npos;
        if (real) sass.push_back(arch);
        if (virt) ptx.push_back(arch);
    }
    Code c;
    if (!forcePtxJit)
        for (int a : sass)
            if (a / 10 == cc / 10 && a <= cc && a > c.binary) c = {a, a};
    if (c.binary) return c;
    for (int a : ptx)
        if (a <= cc && a > c.ptx) c = {a, cc};
    return c;
}

int deviceCc() {
    int major = 0, minor = 0;
    EXPECT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    EXPECT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0), cudaSuccess);
    return major * 10 + minor;
}

bool forcedPtxJit() {
    const char* v = std::getenv("CUDA_FORCE_PTX_JIT");
    return v && std::string(v) == "1";
}

TEST(KernelCheck, EveryModuleLoadsAndRunsTheCodeCudaPicks) {
    const Code expected = expectedCode(deviceCc(), CS_TEST_CUDA_ARCHITECTURES, forcedPtxJit());
    ASSERT_NE(expected.ptx, 0) << "this build (" << CS_TEST_CUDA_ARCHITECTURES << ") has no code for this device";
    const Status s = checkKernels(0);
    ASSERT_TRUE(s.ok()) << s.message();
    const auto code = kernelCode(0);
    ASSERT_TRUE(code.ok()) << code.message();
    EXPECT_EQ(code.value().ptxVersion, expected.ptx) << "build " << CS_TEST_CUDA_ARCHITECTURES << (forcedPtxJit() ? ", PTX JIT forced" : "");
    EXPECT_EQ(code.value().binaryVersion, expected.binary);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

void notAKernel() {}

TEST(KernelCheck, AModuleThatCannotLoadIsNamedInOneLine) {
    int major = 0, minor = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0), cudaSuccess);
    const std::array<KernelUnit, 1> units = {{{"NotAKernel.cu", reinterpret_cast<const void*>(&notAKernel)}}};
    const Status s = probeKernelUnits(0, units);
    ASSERT_FALSE(s.ok());
    const std::string sm = "sm_" + std::to_string(major) + std::to_string(minor);
    // (A host function: CUDA 13 answers cudaErrorInvalidResourceHandle; the words are CUDA's.)
    const std::string prefix = "the CUDA kernels cannot be loaded on " + sm + " (NotAKernel.cu: ";
    EXPECT_EQ(s.message().substr(0, prefix.size()), prefix) << s.message();
    EXPECT_EQ(s.message().back(), ')') << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the probe's error was left for the next call";
    EXPECT_TRUE(checkKernels(0).ok()) << "the engine's own check is unaffected";
}

}  // namespace
}  // namespace cs::cuda
