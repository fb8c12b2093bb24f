// What the engine tests (test_engine_*.cpp, test_scope_pass.cpp, test_preview_kernels.cpp)
// share: the CUDA engine run against the CPU engine on the same picture, a spec that asks for
// every scope, the preview filters, and a frame's label for failure messages.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "CudaTestUtil.h"
#include "EngineFixture.h"

namespace cs::test {

inline std::string label(const Frame& f, const std::string& what) {
    return std::string(formatInfo(f.format()).name) + " " + std::to_string(f.width()) + "x" + std::to_string(f.height()) + " " + what;
}

// The CUDA engine on `gpuView`, the CPU engine on `cpuView` (the same picture in host memory).
inline void compareEngines(const FrameView& gpuView, const FrameView& cpuView, const ScopeSpec& spec, const std::string& where,
                           ScopeResults* gpuOut = nullptr) {
    ScopeResults gpu, cpu;
    CudaEngine* cuda = cudaEngine();
    ASSERT_NE(cuda, nullptr);
    const Status gs = cuda->process(gpuView, spec, gpu);
    ASSERT_TRUE(gs.ok()) << where << ": " << gs.message();
    ASSERT_TRUE(cpuEngine().process(cpuView, spec, cpu).ok()) << where;
    test::expectSameResults(gpu, cpu, where);
    if (gpuOut) *gpuOut = std::move(gpu);
}
inline void compareEngines(const FrameView& view, const ScopeSpec& spec, const std::string& where) { compareEngines(view, view, spec, where); }

inline ScopeSpec everything(PreviewFilter preview = PreviewFilter::None) {
    ScopeSpec s;
    s.preview = preview;
    return s;
}

inline constexpr PreviewFilter kFilters[] = {PreviewFilter::None,   PreviewFilter::BoxBlur, PreviewFilter::Gaussian,
                                             PreviewFilter::Edges,  PreviewFilter::FocusPeaking, PreviewFilter::Median3,
                                             PreviewFilter::Zebra,  PreviewFilter::FalseColour};

}  // namespace cs::test
