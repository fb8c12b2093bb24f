#include "AudioDetectors.h"

#include <algorithm>
#include <cmath>

namespace cs::audio {

AudioDetectors::AudioDetectors(const AudioDetectRules& rules, int sampleRate, const ChannelLayoutInfo& layout)
    : rules_(rules), rate_(sampleRate), channels_(layout.channels()), layout_(layout) {
    silenceNoise_ = float(std::pow(10.0, rules.silenceNoiseDb / 20.0));
    channelNoise_ = float(std::pow(10.0, rules.silentChannelNoiseDb / 20.0));
    // silencedetect counts whole samples: a run is an event at duration * rate samples.
    minSilence_ = int64_t(std::ceil(rules.silenceMinDuration * rate_ - 1e-9));
    minChannelSilence_ = int64_t(std::ceil(rules.silentChannelMinDuration * rate_ - 1e-9));
    mergeGap_ = int64_t(std::llround(rules.clippingMergeGap * rate_));
    runs_.resize(size_t(channels_));
    clips_.resize(size_t(channels_));
}

void AudioDetectors::closeSilence(int64_t end) {
    silent_ = false;
    if (end - silenceStart_ >= minSilence_) {
        AudioEvent e;
        e.type = "silence";
        e.start = silenceStart_;
        e.end = end;
        e.firstFrame = silenceFrame_;
        e.firstPts = silencePts_;
        e.lastFrame = frame_;
        e.lastPts = framePts_;
        events_.push_back(std::move(e));
    }
}

void AudioDetectors::closeChannel(int c, int64_t end) {
    ChannelRun& r = runs_[size_t(c)];
    r.open = false;
    if (r.othersActive && end - r.start >= minChannelSilence_) {
        AudioEvent e;
        e.type = "silent_channel";
        e.channel = c;
        e.label = layout_.labels[size_t(c)];
        e.start = r.start;
        e.end = end;
        e.firstFrame = r.startFrame;
        e.firstPts = r.startPts;
        e.lastFrame = frame_;
        e.lastPts = framePts_;
        events_.push_back(std::move(e));
    }
    r.othersActive = false;
}

void AudioDetectors::flushClipEvent() {
    if (!clipOpen_) return;
    clipOpen_ = false;
    events_.push_back(clip_);
}

void AudioDetectors::closeClip(int c, int64_t end) {
    ClipRun& r = clips_[size_t(c)];
    const int64_t length = r.length;
    r.length = 0;
    if (length < rules_.clippingMinRun) return;
    const int64_t start = end - length;
    if (clipOpen_ && start - lastClipEnd_ <= mergeGap_) {
        clip_.end = std::max(clip_.end, end);
        clip_.lastFrame = frame_;
        clip_.lastPts = framePts_;
        ++clip_.runs;
        clip_.samples += length;
    } else {
        flushClipEvent();
        clipOpen_ = true;
        clip_ = AudioEvent{};
        clip_.type = "clipping";
        clip_.channel = c;
        clip_.label = layout_.labels[size_t(c)];
        clip_.start = start;
        clip_.end = end;
        clip_.firstFrame = r.startFrame;
        clip_.firstPts = r.startPts;
        clip_.lastFrame = frame_;
        clip_.lastPts = framePts_;
        clip_.runs = 1;
        clip_.samples = length;
    }
    lastClipEnd_ = std::max(lastClipEnd_, end);
}

void AudioDetectors::add(const float* const* planes, int64_t first, size_t frames) {
    if (frames == 0) return;
    if (any_ && first != pos_) {   // a jump: what was open ends at the last sample seen
        if (silent_) closeSilence(pos_);
        for (int c = 0; c < channels_; ++c) {
            if (runs_[size_t(c)].open) closeChannel(c, pos_);
            if (clips_[size_t(c)].length > 0) closeClip(c, pos_);
        }
    }
    any_ = true;
    const size_t ch = size_t(channels_);
    for (size_t i = 0; i < frames; ++i) {
        const int64_t p = first + int64_t(i);
        float peak = 0;
        int active = 0;
        for (size_t c = 0; c < ch; ++c) {
            const float a = std::fabs(planes[c][i]);
            peak = std::max(peak, a);
            active += a >= channelNoise_;
            ClipRun& clip = clips_[c];
            if (a >= kFullScale) {
                if (clip.length++ == 0) {
                    clip.startFrame = frame_;
                    clip.startPts = framePts_;
                }
            } else if (clip.length > 0) {
                closeClip(int(c), p);
            }
        }
        if (peak < silenceNoise_) {
            if (!silent_) {
                silent_ = true;
                silenceStart_ = p;
                silenceFrame_ = frame_;
                silencePts_ = framePts_;
            }
        } else if (silent_) {
            closeSilence(p);
        }
        for (size_t c = 0; c < ch; ++c) {
            ChannelRun& r = runs_[c];
            const bool quiet = std::fabs(planes[c][i]) < channelNoise_;
            if (quiet) {
                if (!r.open) {
                    r.open = true;
                    r.start = p;
                    r.startFrame = frame_;
                    r.startPts = framePts_;
                }
                if (active > 0) r.othersActive = true;
            } else if (r.open) {
                closeChannel(int(c), p);
            }
        }
    }
    pos_ = first + int64_t(frames);
    // A clipping event closes once the merge gap has passed with no channel at full scale.
    if (clipOpen_ && pos_ - lastClipEnd_ > mergeGap_ &&
        std::none_of(clips_.begin(), clips_.end(), [](const ClipRun& r) { return r.length > 0; }))
        flushClipEvent();
}

void AudioDetectors::finish() {
    if (!any_) return;
    if (silent_) closeSilence(pos_);
    for (int c = 0; c < channels_; ++c) {
        if (runs_[size_t(c)].open) closeChannel(c, pos_);
        if (clips_[size_t(c)].length > 0) closeClip(c, pos_);
    }
    flushClipEvent();
}

std::vector<AudioEvent> AudioDetectors::takeEvents() {
    std::vector<AudioEvent> out;
    out.swap(events_);
    return out;
}

}  // namespace cs::audio
