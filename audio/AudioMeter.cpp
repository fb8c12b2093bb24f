#include "AudioMeter.h"

#include <algorithm>

#include <ebur128.h>

namespace cs::audio {

namespace {
// BS.1770-4's channel weights through libebur128's channel names: its LEFT_SURROUND and
// RIGHT_SURROUND (M+-110) are weighted 1.41, M+-135 and everything else 1.0, UNUSED 0.
int ebur128Channel(ChannelRole r) {
    switch (r) {
        case ChannelRole::Left: return EBUR128_LEFT;
        case ChannelRole::Right: return EBUR128_RIGHT;
        case ChannelRole::Centre: return EBUR128_CENTER;
        case ChannelRole::Lfe: return EBUR128_UNUSED;
        case ChannelRole::LeftSurround: return EBUR128_LEFT_SURROUND;
        case ChannelRole::RightSurround: return EBUR128_RIGHT_SURROUND;
        case ChannelRole::LeftRear: return EBUR128_Mp135;
        case ChannelRole::RightRear: return EBUR128_Mm135;
        case ChannelRole::Other: return EBUR128_CENTER;   // weight 1.0
    }
    return EBUR128_CENTER;
}

// Integrated loudness and the 100 ms blocks' energies only: the peaks are TruePeak's, M, S
// and LRA are made from the blocks here (AudioMeter.h). Histogram: memory flat over hours.
constexpr int kMode = EBUR128_MODE_M | EBUR128_MODE_I | EBUR128_MODE_HISTOGRAM;
constexpr int kBins = 1000;   // libebur128's histogram: 0.1 LU bins from -70 LUFS
double binLoudness(int i) { return -69.95 + i / 10.0; }   // a bin's centre, as libebur128 takes it
double energyOf(double lufs) { return std::pow(10.0, (lufs + 0.691) / 10.0); }
double loudnessOf(double energy) { return -0.691 + 10.0 * std::log10(energy); }
constexpr size_t kChunk = 4096;   // sample frames interleaved at a time
}  // namespace

struct AudioMeter::State {
    explicit State(ebur128_state* made) : st(made) {}
    ~State() {
        if (st) ebur128_destroy(&st);
    }
    State(const State&) = delete;
    State& operator=(const State&) = delete;
    ebur128_state* st;
};

Result<std::unique_ptr<AudioMeter>> AudioMeter::make(int sampleRate, const ChannelLayoutInfo& layout) {
    if (layout.channels() < 1 || layout.channels() > kMaxChannels)
        return Status::error("the audio has " + std::to_string(layout.channels()) + " channels; the meter takes 1 to " +
                             std::to_string(kMaxChannels));
    if (sampleRate < 8000 || sampleRate > 384000)
        return Status::error("the audio's sample rate " + std::to_string(sampleRate) + " Hz is outside 8000 to 384000 Hz");
    std::unique_ptr<AudioMeter> m(new AudioMeter);
    m->rate_ = sampleRate;
    m->channels_ = layout.channels();
    m->layout_ = layout;
    if (Status s = m->configure(); !s) return s;
    return m;
}

AudioMeter::~AudioMeter() = default;

Status AudioMeter::configure() {
    state_ = std::make_unique<State>(ebur128_init(unsigned(channels_), static_cast<unsigned long>(rate_), kMode));
    if (!state_->st) return Status::error("the loudness meter could not be made (out of memory)");
    for (int c = 0; c < channels_; ++c)
        if (ebur128_set_channel(state_->st, unsigned(c), ebur128Channel(layout_.roles[size_t(c)])) != EBUR128_SUCCESS)
            return Status::error("the loudness meter refused channel " + std::to_string(c + 1));
    blockFrames_ = size_t((rate_ + 5) / 10);
    blocks_.assign(30, 0.0);
    blockNext_ = 0;
    blockCount_ = 0;
    stHistogram_.assign(kBins, 0);
    interval_ = IntervalLevels{};
    interval_.samplePeak.assign(size_t(channels_), 0.0);
    interval_.truePeak.assign(size_t(channels_), 0.0);
    samplePeakAll_.assign(size_t(channels_), 0.0);
    truePeakAll_.assign(size_t(channels_), 0.0);
    peaks_ = std::make_unique<TruePeak>(channels_, rate_);
    blockSample_.assign(size_t(channels_), 0.0);
    blockTrue_.assign(size_t(channels_), 0.0);
    sumLR_ = sumLL_ = sumRR_ = 0;
    total_ = 0;
    return {};
}

void AudioMeter::add(const float* const* planes, size_t frames, bool attribute) {
    const size_t ch = size_t(channels_);
    interleaved_.resize(kChunk * ch);
    for (size_t done = 0; done < frames;) {
        // Pieces end at the 100 ms block boundaries, where M and S are read.
        const size_t toBoundary = blockFrames_ - size_t(total_ % int64_t(blockFrames_));
        const size_t n = std::min({kChunk, frames - done, toBoundary});
        float* out = interleaved_.data();
        for (size_t c = 0; c < ch; ++c) {
            const float* in = planes[c] + done;
            for (size_t i = 0; i < n; ++i) out[i * ch + c] = in[i];
        }
        ebur128_add_frames_float(state_->st, out, n);
        std::fill(blockSample_.begin(), blockSample_.end(), 0.0);
        std::fill(blockTrue_.begin(), blockTrue_.end(), 0.0);
        at_.resize(ch);
        for (size_t c = 0; c < ch; ++c) at_[c] = planes[c] + done;
        peaks_->add(at_.data(), n, blockSample_.data(), blockTrue_.data());
        for (size_t c = 0; c < ch; ++c) {
            samplePeakAll_[c] = std::max(samplePeakAll_[c], blockSample_[c]);
            truePeakAll_[c] = std::max(truePeakAll_[c], blockTrue_[c]);
        }
        if (attribute) {
            for (size_t c = 0; c < ch; ++c) {
                interval_.samplePeak[c] = std::max(interval_.samplePeak[c], blockSample_[c]);
                interval_.truePeak[c] = std::max(interval_.truePeak[c], blockTrue_[c]);   // never below the samples
            }
            if (layout_.pairLeft >= 0) {
                const float* l = planes[layout_.pairLeft] + done;
                const float* r = planes[layout_.pairRight] + done;
                double lr = 0, ll = 0, rr = 0;
                for (size_t i = 0; i < n; ++i) {
                    lr += double(l[i]) * r[i];
                    ll += double(l[i]) * l[i];
                    rr += double(r[i]) * r[i];
                }
                sumLR_ += lr;
                sumLL_ += ll;
                sumRR_ += rr;
            }
            interval_.samples += int64_t(n);
        }
        total_ += int64_t(n);
        done += n;
        if (total_ % int64_t(blockFrames_) == 0) endBlock();
    }
}

void AudioMeter::endBlock() {
    double l = kSilentDb;
    double e = 0;
    if (ebur128_loudness_window(state_->st, 100, &l) == EBUR128_SUCCESS && std::isfinite(l)) e = std::pow(10.0, (l + 0.691) / 10.0);
    blocks_[blockNext_] = e;
    blockNext_ = (blockNext_ + 1) % blocks_.size();
    // A short-term value for the loudness range once 3 s are in, then every second, as
    // libebur128 takes them; below -70 LUFS (the absolute gate) none.
    ++blockCount_;
    if (blockCount_ >= 30 && (blockCount_ - 30) % 10 == 0) {
        const double st = meanEnergy(30);
        if (st >= energyOf(-70.0)) {
            const int bin = std::min(kBins - 1, int(std::floor((loudnessOf(st) + 70.0) * 10.0)));
            ++stHistogram_[size_t(bin)];
        }
    }
}

// EBU Tech 3342 as libebur128 reduces its histogram: the mean energy of the short-term values
// less 20 LU is the relative gate; the range is the 95th less the 10th percentile of the
// values at or above it.
double AudioMeter::loudnessRange() const {
    uint64_t count = 0;
    double power = 0;
    for (int i = 0; i < kBins; ++i) {
        count += stHistogram_[size_t(i)];
        power += double(stHistogram_[size_t(i)]) * energyOf(binLoudness(i));
    }
    if (count == 0) return 0;
    const double gate = loudnessOf(power / double(count)) - 20.0;
    int first = 0;
    if (gate >= -70.0) {
        first = std::min(kBins - 1, int(std::floor((gate + 70.0) * 10.0)));
        if (gate > binLoudness(first)) ++first;
    }
    uint64_t gated = 0;
    for (int i = first; i < kBins; ++i) gated += stHistogram_[size_t(i)];
    if (gated == 0) return 0;
    const uint64_t low = uint64_t(double(gated - 1) * 0.1 + 0.5), high = uint64_t(double(gated - 1) * 0.95 + 0.5);
    uint64_t seen = 0;
    int i = first;
    while (seen <= low) seen += stHistogram_[size_t(i++)];
    const double lowL = binLoudness(i - 1);
    while (seen <= high) seen += stHistogram_[size_t(i++)];
    return binLoudness(i - 1) - lowL;
}

double AudioMeter::meanEnergy(size_t count) const {
    double sum = 0;
    for (size_t i = 1; i <= count; ++i) sum += blocks_[(blockNext_ + blocks_.size() - i) % blocks_.size()];
    return sum / double(count);
}

IntervalLevels AudioMeter::takeInterval() {
    IntervalLevels out = interval_;
    out.momentary = momentary();
    out.shortTerm = shortTerm();
    if (sumLL_ > 0 && sumRR_ > 0) out.correlation = std::clamp(sumLR_ / std::sqrt(sumLL_ * sumRR_), -1.0, 1.0);
    else if (sumLL_ > 0 || sumRR_ > 0) out.correlation = 0.0;   // one side silent: uncorrelated
    interval_.samples = 0;
    std::fill(interval_.samplePeak.begin(), interval_.samplePeak.end(), 0.0);
    std::fill(interval_.truePeak.begin(), interval_.truePeak.end(), 0.0);
    sumLR_ = sumLL_ = sumRR_ = 0;
    return out;
}

// BS.1770: L = -0.691 + 10 log10(weighted mean square); the mean of whole blocks' energies is
// the energy of the window they make up.
double AudioMeter::momentary() const {
    const double e = meanEnergy(4);
    return e > 0 ? -0.691 + 10.0 * std::log10(e) : kSilentDb;
}

double AudioMeter::shortTerm() const {
    const double e = meanEnergy(30);
    return e > 0 ? -0.691 + 10.0 * std::log10(e) : kSilentDb;
}

LoudnessSummary AudioMeter::summary() const {
    LoudnessSummary s;
    s.samples = total_;
    double v = kSilentDb;
    if (ebur128_loudness_global(state_->st, &v) == EBUR128_SUCCESS) s.integrated = v;
    s.range = loudnessRange();
    for (int c = 0; c < channels_; ++c) {
        const double tp = truePeakAll_[size_t(c)];
        s.truePeak.push_back(tp);
        s.samplePeak.push_back(samplePeakAll_[size_t(c)]);
        s.maxTruePeak = std::max(s.maxTruePeak, tp);
    }
    return s;
}

void AudioMeter::reset() {
    // libebur128 has no reset: a fresh state with the same channel map.
    (void)configure();
}

}  // namespace cs::audio
