#include "LoudnessTarget.h"

namespace cs::audio {

LoudnessTarget ebuR128Target() { return {"r128", -23.0, 0.5, -1.0}; }
LoudnessTarget atscA85Target() { return {"a85", -24.0, 2.0, -2.0}; }

std::optional<LoudnessTarget> loudnessPreset(const std::string& name) {
    if (name == "r128" || name == "ebu-r128") return ebuR128Target();
    if (name == "a85" || name == "atsc-a85") return atscA85Target();
    return std::nullopt;
}

}  // namespace cs::audio
