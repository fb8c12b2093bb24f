// FFmpeg's blackdetect and freezedetect (vf_blackdetect.c, vf_freezedetect.c of FFmpeg 5.1):
// their defaults and their per-frame decisions, once, for `cudascope qc` (app/qc/QcEvents.h) and
// the wall's alarms (analysis/Alarms.h), with the share rules both use for out-of-range pixels. The pixel threshold is blackThresholdFor and the MAFD's
// scale freezeMafd (analysis/SignalStats.h).
#pragma once
#include <cmath>

namespace cs {

// blackdetect: pixel_black_th (pix_th), picture_black_ratio_th (pic_th), black_min_duration (d).
inline constexpr double kBlackPixelRatio = 0.10, kBlackPictureRatio = 0.98, kBlackMinDuration = 2.0;
// freezedetect: noise (n) -60 dB = 0.001, duration (d).
inline constexpr double kFreezeNoiseDb = -60.0, kFreezeMinDuration = 2.0;
// Out of legal, out of gamut, outside the target gamut: frames whose share of such pixels is
// above 1%, for at least 1 s (single damaged frames do not count).
inline constexpr double kShareThreshold = 0.01, kShareMinDuration = 1.0;

// freezedetect's noise tolerance from decibels: 10^(dB / 20).
inline double freezeNoiseFromDb(double db) { return std::pow(10.0, db / 20.0); }
// blackdetect: a picture is black when its share of black pixels reaches the ratio.
inline bool pictureIsBlack(double blackShare, double pictureRatio) { return blackShare >= pictureRatio; }
// freezedetect: a frame is frozen when its MAFD from the reference frame is at most the noise.
inline bool frameIsFrozen(double mafd, double noise) { return mafd <= noise; }

}  // namespace cs
