#include "TruePeak.h"

#include <algorithm>
#include <cmath>

namespace cs::audio {

TruePeak::TruePeak(int channels, int sampleRate) : channels_(channels) {
    factor_ = sampleRate < 96000 ? 4 : sampleRate < 192000 ? 2 : 1;
    historyLen_ = (kTaps - 1) / factor_;
    history_.assign(size_t(channels), {});
    if (factor_ == 1) return;
    // libebur128's interpolator (interp_create(49, factor, ...)): tap j of the windowed sinc
    // belongs to phase j % factor and reads the input j / factor samples back.
    phases_.assign(size_t(factor_), std::vector<float>(size_t(historyLen_ + 1), 0.0f));
    for (int j = 0; j < kTaps; ++j) {
        const double m = double(j) - double(kTaps - 1) / 2.0;
        double c = 1.0;
        if (std::fabs(m) > 0.000001) c = std::sin(m * M_PI / factor_) / (m * M_PI / factor_);
        c *= 0.5 * (1 - std::cos(2 * M_PI * j / (kTaps - 1)));
        if (std::fabs(c) > 0.000001) phases_[size_t(j % factor_)][size_t(j / factor_)] = float(c);
    }
}

void TruePeak::reset() {
    for (auto& h : history_) h.fill(0.0f);
}

void TruePeak::add(const float* const* planes, size_t frames, double* samplePeaks, double* truePeaks) {
    if (frames == 0) return;
    const size_t hl = size_t(historyLen_);
    ext_.resize(hl + frames);
    for (int c = 0; c < channels_; ++c) {
        const float* x = planes[c];
        float sp = 0;
        for (size_t n = 0; n < frames; ++n) sp = std::max(sp, std::fabs(x[n]));
        samplePeaks[c] = std::max(samplePeaks[c], double(sp));
        if (factor_ == 1) {
            truePeaks[c] = std::max(truePeaks[c], double(sp));
            continue;
        }
        auto& hist = history_[size_t(c)];
        std::copy_n(hist.begin(), hl, ext_.begin());
        std::copy(x, x + frames, ext_.begin() + ptrdiff_t(hl));
        const float* e = ext_.data() + hl;   // e[n - k] for k up to the history's length
        // Phase 0 is the input itself, delayed (its only tap is the sinc's centre): the sample
        // peak covers it. The others: y[n] = sum_k h[k] e[n - k], a block of n at a time so that
        // the loop over n vectorises.
        float tp = sp;
        constexpr size_t kBlock = 256;
        std::array<float, kBlock> acc{};
        for (size_t f = 1; f < phases_.size(); ++f) {
            const std::vector<float>& h = phases_[f];
            for (size_t at = 0; at < frames; at += kBlock) {
                const size_t len = std::min(kBlock, frames - at);
                std::fill_n(acc.begin(), len, 0.0f);
                for (int k = 0; k <= historyLen_; ++k) {
                    const float hk = h[size_t(k)];
                    const float* src = e + ptrdiff_t(at) - k;
                    for (size_t n = 0; n < len; ++n) acc[n] += hk * src[n];
                }
                for (size_t n = 0; n < len; ++n) tp = std::max(tp, std::fabs(acc[n]));
            }
        }
        truePeaks[c] = std::max(truePeaks[c], double(tp));
        std::copy(ext_.end() - ptrdiff_t(hl), ext_.end(), hist.begin());
    }
}

}  // namespace cs::audio
