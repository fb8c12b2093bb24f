// The CPU engine's gamut display counts (core/GamutDisplay.h): each pixel through the same CS_HD
// gamutDisplayAt as the CUDA kernel, rows split over the thread pool, each chunk counting into
// its own slot of counts, the slots summed into the result.
#pragma once
#include <cstdint>
#include <vector>

#include "core/Frame.h"
#include "core/GamutDisplay.h"
#include "core/ScopeSpec.h"
#include "core/ThreadPool.h"

namespace cs {

// Owned by one engine, used by one thread at a time (its process()); the pool's chunks each
// write only their own slot.
class GamutDisplayCounter {
public:
    // Fills `out` for spec.gamutDisplay (None: `out` emptied), with `color` (tags + override).
    void count(const FrameView& f, const ColorInfo& color, const ScopeSpec& spec, const ThreadPool& pool,
               GamutDisplayResults& out);

private:
    std::vector<std::vector<uint32_t>> slots_;   // one per chunk; kept zeroed by the merge
};

}  // namespace cs
