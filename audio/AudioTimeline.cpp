#include "AudioTimeline.h"

#include <algorithm>
#include <cmath>

namespace cs::audio {

Result<std::unique_ptr<AudioTimeline>> AudioTimeline::open(const std::string& input, const AudioDetectRules& rules,
                                                           int streamIndex) {
    auto source = AudioSource::open(input, streamIndex);
    if (!source) return source.status();
    const AudioStreamInfo& info = (*source)->info();
    auto meter = AudioMeter::make(info.sampleRate, info.layout);
    if (!meter) return Status::error(input + ": " + meter.message());
    return std::make_unique<AudioTimeline>(std::move(*source), std::move(*meter), rules);
}

AudioTimeline::AudioTimeline(std::unique_ptr<AudioSource> source, std::unique_ptr<AudioMeter> meter, const AudioDetectRules& rules)
    : source_(std::move(source)), meter_(std::move(meter)), detectors_(rules, meter_->sampleRate(), meter_->layout()) {}

bool AudioTimeline::fill() {
    if (ended_) return false;
    auto got = source_->read(block_);
    if (!got || !*got) {
        if (!got) warnings_.push_back(got.message());
        ended_ = true;
        haveBlock_ = false;
        return false;
    }
    offset_ = 0;
    haveBlock_ = true;
    if (!started_) {
        started_ = true;
        pos_ = block_.firstSample;
    }
    return true;
}

void AudioTimeline::feedSamples(const float* const* planes, size_t n, bool attribute) {
    meter_->add(planes, n, attribute);
    const ChannelLayoutInfo& l = meter_->layout();
    if (keepPair_ && attribute && l.pairLeft >= 0) {
        const size_t step = std::max<size_t>(1, n / kPairPoints + 1);
        for (size_t i = 0; i < n && pair_.size() < kPairPoints; i += step)
            pair_.emplace_back(planes[l.pairLeft][i], planes[l.pairRight][i]);
    }
    detectors_.add(planes, pos_, n);
    pos_ += int64_t(n);
}

void AudioTimeline::feed(int64_t until, int64_t from) {
    const int ch = meter_->channels();
    std::vector<const float*> planes(static_cast<size_t>(ch));
    while (pos_ < until || !started_) {
        if (!haveBlock_ || offset_ >= block_.frames) {
            if (!fill()) return;
            continue;
        }
        if (pos_ >= until) return;
        const int64_t blockAt = block_.firstSample + offset_;
        // Stop at the interval's start, so that what is before it is not the interval's.
        const int64_t stop = pos_ < from ? std::min(until, from) : until;
        if (blockAt > pos_) {   // a gap (warned by the source): silence up to the block
            const size_t n = size_t(std::min(blockAt, stop) - pos_);
            if (silence_.size() < n) silence_.assign(std::max<size_t>(n, 4096), 0.0f);
            std::fill(planes.begin(), planes.end(), silence_.data());
            feedSamples(planes.data(), n, pos_ >= from);
            continue;
        }
        const size_t n = size_t(std::min<int64_t>(block_.frames - offset_, stop - pos_));
        for (int c = 0; c < ch; ++c) planes[size_t(c)] = block_.channel(c) + offset_;
        feedSamples(planes.data(), n, pos_ >= from);
        offset_ += int(n);
    }
}

IntervalLevels AudioTimeline::measure(int64_t frame, double start, double end) {
    const double rate = meter_->sampleRate();
    const int64_t from = int64_t(std::llround(start * rate));
    const int64_t until = std::max(from, int64_t(std::llround(end * rate)));
    detectors_.setFrame(frame, start);
    pair_.clear();
    keepPair_ = true;
    feed(until, from);
    keepPair_ = false;
    return meter_->takeInterval();
}

void AudioTimeline::finish() {
    const int ch = meter_->channels();
    std::vector<const float*> planes(static_cast<size_t>(ch));
    for (;;) {
        if (!haveBlock_ || offset_ >= block_.frames) {
            if (!fill()) break;
            continue;
        }
        const int64_t blockAt = block_.firstSample + offset_;
        if (blockAt > pos_) {   // a gap: silence
            const size_t n = size_t(blockAt - pos_);
            if (silence_.size() < n) silence_.assign(n, 0.0f);
            std::fill(planes.begin(), planes.end(), silence_.data());
            feedSamples(planes.data(), n, false);
        }
        for (int c = 0; c < ch; ++c) planes[size_t(c)] = block_.channel(c) + offset_;
        feedSamples(planes.data(), size_t(block_.frames - offset_), false);
        offset_ = block_.frames;
    }
    detectors_.finish();
}

Status AudioTimeline::seek(double seconds) {
    if (Status s = source_->seek(seconds); !s) return s;
    haveBlock_ = ended_ = started_ = false;
    offset_ = 0;
    return {};
}

std::vector<std::string> AudioTimeline::takeWarnings() {
    std::vector<std::string> out = source_->takeWarnings();
    for (std::string& w : warnings_) out.push_back(std::move(w));
    warnings_.clear();
    return out;
}

}  // namespace cs::audio
