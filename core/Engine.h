// The engine interface: one frame plus a ScopeSpec in, ScopeResults out. The CPU
// engine (core/) is the reference; the CUDA engine (cuda/) implements the same.
#pragma once
#include <memory>
#include <string_view>

#include "Frame.h"
#include "ScopeResults.h"
#include "ScopeSpec.h"
#include "Status.h"

namespace cs {

class Engine {
public:
    virtual ~Engine() = default;
    virtual std::string_view name() const = 0;          // "cpu", "cuda"
    // Not thread-safe: one caller at a time. `frame` must stay valid for the call.
    virtual Status process(const FrameView& frame, const ScopeSpec& spec, ScopeResults& out) = 0;
};

}  // namespace cs
