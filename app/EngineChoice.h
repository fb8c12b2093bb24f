// Picks the scope engine for the command line: auto (CUDA where a device exists, else
// CPU), cpu, or cuda; and the decoder options that go with it (NVDEC on the engine's stream).
#pragma once
#include <memory>
#include <string>

#include "core/Engine.h"
#include "decode/Source.h"

namespace cs {

struct EngineChoice {
    std::unique_ptr<Engine> engine;
    void* cudaStream = nullptr;   // the CUDA engine's stream, for NVDEC to share
    std::string note;             // why auto fell back to the CPU, if it did
};

// name: "auto", "cpu" or "cuda". Asking for "cuda" where none can run is an error.
Result<EngineChoice> chooseEngine(const std::string& name);

}  // namespace cs
