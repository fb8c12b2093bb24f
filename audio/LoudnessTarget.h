// Loudness targets as data: the level a programme's integrated loudness is normalised to,
// how far it may be off, and the true-peak ceiling.
//  - EBU R128 (2020): target -23.0 LUFS; "the permitted deviation from the Target Level shall
//    generally not exceed +-0.5 LU" for file-based programmes (+-1.0 LU where exact
//    normalisation is impractical, e.g. live); maximum true peak -1 dBTP.
//  - ATSC A/85 (2013), the US CALM Act's reference: target -24 LKFS with a tolerance of
//    +-2 dB; maximum true peak -2 dBTP.
//  - custom: any of the three numbers (the thresholds file's "loudness" member).
#pragma once
#include <optional>
#include <string>

namespace cs::audio {

struct LoudnessTarget {
    std::string name = "r128";     // r128, a85, custom
    double integrated = -23.0;     // LUFS (= LKFS)
    double tolerance = 0.5;        // LU either side
    double maxTruePeak = -1.0;     // dBTP

    bool integratedOk(double lufs) const { return lufs >= integrated - tolerance - 1e-9 && lufs <= integrated + tolerance + 1e-9; }
    bool truePeakOk(double dbtp) const { return dbtp <= maxTruePeak + 1e-9; }
};

LoudnessTarget ebuR128Target();
LoudnessTarget atscA85Target();
// "r128" or "a85" (also "ebu-r128", "atsc-a85"); nullopt for any other name.
std::optional<LoudnessTarget> loudnessPreset(const std::string& name);

}  // namespace cs::audio
