// One CPU and one CUDA engine shared by the tests (creating a CUDA engine costs a context).
#pragma once
#include <gtest/gtest.h>

#include <memory>

#include "core/Engine.h"
#include "cuda/engine/CudaEngine.h"
#include "cpu/CpuEngine.h"

namespace cs::test {

inline Engine& cpuEngine() {
    static std::unique_ptr<Engine> e = makeCpuEngine(0);
    return *e;
}

inline CudaEngine* cudaEngine() {
    static auto made = makeCudaEngine(0);
    return made.ok() ? made.value().get() : nullptr;
}

}  // namespace cs::test
