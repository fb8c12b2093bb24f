// How a headless command (export, record) opens its input for the engine it chose: the
// decoder asked for by --hwdec ("" = NVDEC where the CUDA engine runs, else software) and,
// with the CUDA engine, a decode stream of the source's own.
#pragma once
#include <string>

#include "core/Status.h"
#include "decode/Source.h"
#include "engine/EngineChoice.h"

namespace cs {

// --hwdec's value (auto, nvdec, none or "") and the engine -> the source's open options; an
// error (one sentence) when the decode stream cannot be made.
Result<OpenOptions> decodeOptions(const EngineChoice& engine, const std::string& hwdec);

}  // namespace cs
