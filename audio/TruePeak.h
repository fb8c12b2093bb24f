// Sample peak and true peak of planar float audio, per channel. The true peak is the largest
// magnitude of the signal oversampled 4x (2x from 96 kHz, none from 192 kHz) by the
// interpolator libebur128 uses for BS.1770-4 Annex 2: a 49-tap Hann-windowed sinc in four
// phases. It is computed here, channel by channel on planar samples in float, because
// libebur128's own pass (interleaved, indexed taps, double accumulators) was more than half
// of the meter's cost: 16 channels at 48 kHz took about 2% of a core for the true peak alone.
// The readings equal libebur128's to float rounding (tests/audio/test_true_peak.cpp).
// One thread at a time.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

namespace cs::audio {

class TruePeak {
public:
    TruePeak(int channels, int sampleRate);
    // Adds `frames` samples of every channel; peaks[c] and truePeaks[c] are raised to this
    // block's (amplitudes, full scale 1.0).
    void add(const float* const* planes, size_t frames, double* samplePeaks, double* truePeaks);
    void reset();
    int factor() const { return factor_; }

private:
    static constexpr int kTaps = 49;
    static constexpr int kMaxHistory = 24;       // past samples a phase reaches back: (49 - 1) / factor, at most 24
    int channels_, factor_;
    std::vector<std::vector<float>> phases_;     // per phase: its taps, h[k] for x[n - k]
    int historyLen_ = 0;                        // (49 - 1) / factor
    std::vector<std::array<float, kMaxHistory>> history_;   // per channel: the last historyLen_ samples
    std::vector<float> ext_;                     // scratch: history then the block
};

}  // namespace cs::audio
