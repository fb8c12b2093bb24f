// The start-up check's words and its coverage, without a GPU (cuda/engine/KernelCheck.h): the line a
// device gets when the build has no code for it or the driver cannot compile the build's PTX,
// and that every kernel file of cuda/ is probed. cuda_tests runs the check itself on a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cuda/engine/KernelCheck.h"

namespace cs::cuda {
namespace {

constexpr std::string_view kCode = "machine code for sm_75, sm_80, sm_90 and PTX for compute_90";

TEST(KernelCheckMessage, NoCodeForTheDeviceNamesItsArchitectureAndTheBuildsCode) {
    EXPECT_EQ(kernelCheckMessage(6, 1, "ScopeKernels.cu", cudaErrorNoKernelImageForDevice, "no kernel image is available", kCode),
              "this build has no kernels for sm_61 (it has machine code for sm_75, sm_80, sm_90 and PTX for compute_90)");
}

TEST(KernelCheckMessage, AFailedJitNamesTheFileAndTheDriversReason) {
    for (cudaError_t e : {cudaErrorInvalidPtx, cudaErrorUnsupportedPtxVersion, cudaErrorJitCompilerNotFound, cudaErrorJitCompilationDisabled})
        EXPECT_EQ(kernelCheckMessage(12, 0, "GroupFilterKernels.cu", e, "a PTX JIT compilation failed, cudaErrorInvalidPtx", kCode),
                  "this build has no kernels for sm_120: the driver could not compile its PTX (GroupFilterKernels.cu: a PTX JIT "
                  "compilation failed, cudaErrorInvalidPtx)")
            << int(e);
}

TEST(KernelCheckMessage, OtherFailuresSayTheKernelsCannotBeLoaded) {
    const std::string m = kernelCheckMessage(8, 6, "QuadKernel.cu", cudaErrorInvalidDeviceFunction, "invalid device function", kCode);
    EXPECT_EQ(m, "the CUDA kernels cannot be loaded on sm_86 (QuadKernel.cu: invalid device function)");
    EXPECT_EQ(m.find('\n'), std::string::npos);
}

std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Each .cu file of cuda/ that defines a kernel is a module of its own: it must have a probe
// (KernelProbes.h) and be in the check's list, or a GPU that cannot run it goes unnoticed
// until its kernels are first launched.
TEST(KernelCheckCoverage, EveryKernelFileIsProbed) {
    const std::filesystem::path dir = std::filesystem::path(CS_TEST_SOURCE_DIR) / "cuda";
    const std::string check = readText(dir / "engine" / "KernelCheck.cpp"), probes = readText(dir / "engine" / "KernelProbes.h");
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.path().extension() != ".cu") continue;
        const std::string text = readText(entry.path());
        if (text.find("__global__") == std::string::npos) continue;
        ++files;
        const std::string name = entry.path().filename().string();
        const size_t at = text.find("cs::cuda::probe::");
        ASSERT_NE(at, std::string::npos) << name << " defines kernels but no probe for the start-up check";
        const std::string probe = text.substr(at + 17, text.find('(', at) - at - 17);
        EXPECT_NE(probes.find("const void* " + probe + "();"), std::string::npos) << name << ": " << probe << " is not in KernelProbes.h";
        // Inside the probe an unqualified name equal to its own is the probe itself, a host
        // function (the check would then refuse every device): the kernel must be named otherwise.
        const size_t cast = text.find("reinterpret_cast<const void*>(", at);
        ASSERT_NE(cast, std::string::npos) << name;
        const std::string kernel = text.substr(cast + 30, text.find(')', cast + 30) - cast - 30);
        EXPECT_NE(kernel, probe) << name << ": the probe returns itself, not a kernel";
        EXPECT_NE(check.find("{\"" + name + "\", probe::" + probe + "()}"), std::string::npos) << name << " is not in KernelCheck.cpp's list";
    }
    EXPECT_GE(files, 15);
}

}  // namespace
}  // namespace cs::cuda
