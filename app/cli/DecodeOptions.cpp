#include "DecodeOptions.h"

#include <utility>

namespace cs {

Result<OpenOptions> decodeOptions(const EngineChoice& engine, const std::string& hwdec) {
    OpenOptions options;
    options.hwdec = hwdec == "nvdec" ? HwDecode::Nvdec
                    : hwdec == "none" ? HwDecode::None
                    : (hwdec == "auto" || (hwdec.empty() && engine.engine->name() == "cuda")) ? HwDecode::Auto
                                                                                             : HwDecode::None;
    auto stream = engine.decodeStream();
    if (!stream) return stream.status();
    options.deviceStream = std::move(stream.value());
    return options;
}

}  // namespace cs
