// The CPU engine: every scope, statistic and preview of core/Engine.h computed on the host,
// strips of rows across a thread pool (core/ThreadPool.h), merged in a fixed order so the
// results do not depend on the thread count. The CUDA engine (cuda/engine/CudaEngine.h)
// equals it byte for byte.
#pragma once
#include <memory>

#include "core/Engine.h"

namespace cs {

// threads = 0: one per hardware thread.
std::unique_ptr<Engine> makeCpuEngine(int threads = 0);

}  // namespace cs
