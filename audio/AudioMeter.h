// The meter: momentary, short-term and integrated loudness and loudness range measured by
// libebur128 (the field's BS.1770 / EBU Tech 3341-3342 implementation); per channel sample
// peak and true peak (BS.1770-4 Annex 2: 4x oversampling at 48 kHz, libebur128's
// interpolator computed on planar samples: TruePeak.h); the phase correlation of one pair. Samples are added as they
// come; the levels of an interval (a video frame's) are taken at its end.
//
// One thread at a time: a meter belongs to whoever feeds it (qc's loop, the window's audio
// thread), which also reads it.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <cstdint>
#include <memory>
#include <vector>

#include "ChannelLayout.h"
#include "TruePeak.h"
#include "core/Status.h"

namespace cs::audio {

inline constexpr double kSilentDb = -std::numeric_limits<double>::infinity();

// 20 log10 of an amplitude (full scale 1.0); -inf for 0.
inline double amplitudeToDb(double a) { return a > 0 ? 20.0 * std::log10(a) : kSilentDb; }
inline double dbToAmplitude(double db) { return std::pow(10.0, db / 20.0); }

// The audio of one interval: what was added since the previous takeInterval().
struct IntervalLevels {
    int64_t samples = 0;                 // sample frames added in the interval (0: no audio)
    std::vector<double> samplePeak;      // per channel, amplitude (full scale 1.0)
    std::vector<double> truePeak;        // per channel, amplitude of the 4x oversampled signal
    double momentary = kSilentDb;        // LUFS over the 400 ms before the last 100 ms block boundary
    double shortTerm = kSilentDb;        // LUFS over the 3 s before it (updated at 10 Hz, as Tech 3341 asks)
    double correlation = std::numeric_limits<double>::quiet_NaN();   // of the pair; NaN: silent or no pair
};

struct LoudnessSummary {
    double integrated = kSilentDb;       // LUFS, gated (BS.1770-4: -70 LUFS absolute, -10 LU relative)
    double range = 0;                    // LRA, LU (EBU Tech 3342)
    double maxTruePeak = 0;              // amplitude, over every channel
    std::vector<double> truePeak;        // per channel, amplitude
    std::vector<double> samplePeak;      // per channel, amplitude
    int64_t samples = 0;                 // sample frames measured
};

class AudioMeter {
public:
    static Result<std::unique_ptr<AudioMeter>> make(int sampleRate, const ChannelLayoutInfo& layout);
    ~AudioMeter();
    AudioMeter(const AudioMeter&) = delete;
    AudioMeter& operator=(const AudioMeter&) = delete;

    // `frames` sample frames, one array per channel. attribute: they belong to the interval
    // being measured (false: samples outside every interval, which still count for loudness).
    void add(const float* const* planes, size_t frames, bool attribute = true);
    // The interval's levels; the next interval starts empty.
    IntervalLevels takeInterval();
    LoudnessSummary summary() const;
    // Loudness at the last 100 ms block boundary, without ending the interval (the window's panel).
    double momentary() const;
    double shortTerm() const;
    // Everything measured so far is forgotten (the loudness panel's reset).
    void reset();

    int channels() const { return channels_; }
    int sampleRate() const { return rate_; }
    const ChannelLayoutInfo& layout() const { return layout_; }

private:
    AudioMeter() = default;
    struct State;                        // libebur128's state (its header stays in the .cpp)
    Status configure();
    std::unique_ptr<State> state_;
    int rate_ = 0, channels_ = 0;
    ChannelLayoutInfo layout_;
    void endBlock();                     // at each 100 ms boundary: that block's energy kept
    double meanEnergy(size_t blocks) const;
    double loudnessRange() const;
    std::vector<float> interleaved_;     // scratch: libebur128 reads interleaved samples
    // Momentary and short-term loudness from the energies of the last 30 100 ms blocks (each
    // read from libebur128 once, as ebur128_loudness_window over 100 ms): the same sums as
    // libebur128's own M and S at those boundaries, without re-reading 3 s of every channel
    // per video frame (which is what made 16 channels cost a fifth of a core).
    size_t blockFrames_ = 0;             // samples in 100 ms, rounded as libebur128 rounds
    std::vector<double> blocks_;         // ring of the last 30 block energies
    size_t blockNext_ = 0;
    int64_t blockCount_ = 0;
    // Loudness range (EBU Tech 3342) from the short-term loudness every second, kept as
    // libebur128 keeps it in histogram mode (0.1 LU bins from -70 LUFS) and reduced by its
    // rule, so that libebur128 need not sum 3 s of every channel each second itself.
    std::vector<uint32_t> stHistogram_;
    IntervalLevels interval_;
    std::unique_ptr<TruePeak> peaks_;    // sample and true peak, on the planar samples
    std::vector<double> blockSample_, blockTrue_;   // scratch: one piece's peaks
    std::vector<const float*> at_;                  // scratch: the piece's planes
    std::vector<double> samplePeakAll_, truePeakAll_;   // per channel since the start (or reset)
    double sumLR_ = 0, sumLL_ = 0, sumRR_ = 0;
    int64_t total_ = 0;
};

}  // namespace cs::audio
