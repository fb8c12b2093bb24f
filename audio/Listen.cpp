// Listening: channel choice, the stereo downmix, the audio clock (Listen.h).
#include "Listen.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace cs::audio {

std::string listenChoiceName(ListenChoice c) {
    switch (c.mode) {
    case ListenMode::Pair: return "pair:" + std::to_string(c.channel + 1);
    case ListenMode::Solo: return "solo:" + std::to_string(c.channel + 1);
    case ListenMode::Downmix: break;
    }
    return "downmix";
}

std::optional<ListenChoice> parseListenChoice(const std::string& s) {
    if (s == "downmix") return ListenChoice{};
    const bool pair = s.rfind("pair:", 0) == 0;
    if (!pair && s.rfind("solo:", 0) != 0) return std::nullopt;
    const ListenMode mode = pair ? ListenMode::Pair : ListenMode::Solo;
    const std::string_view rest = std::string_view(s).substr(5);
    int n = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
    if (ec != std::errc() || end != rest.data() + rest.size() || n < 1 || n > kMaxChannels) return std::nullopt;
    if (mode == ListenMode::Pair && n % 2 != 1) return std::nullopt;   // pairs start at 1, 3, 5...
    return ListenChoice{mode, n - 1};
}

ListenChoice fitListenChoice(ListenChoice c, int channels) {
    if (c.mode != ListenMode::Downmix && (c.channel < 0 || c.channel >= channels)) return {};
    return c;
}

std::vector<ListenOption> listenOptions(const ChannelLayoutInfo& layout) {
    std::vector<ListenOption> out;
    const int n = layout.channels();
    std::string all;
    bool lfe = false;
    for (int c = 0; c < n; ++c) {
        if (layout.roles[size_t(c)] == ChannelRole::Lfe) {
            lfe = true;
            continue;
        }
        all += (all.empty() ? "" : " ") + layout.labels[size_t(c)];
    }
    out.push_back({{}, "Downmix (" + all + (lfe ? ", no LFE)" : ")")});
    if (n > 1) {
        for (int c = 0; c < n; c += 2) {
            if (c + 1 < n)
                out.push_back({{ListenMode::Pair, c}, std::to_string(c + 1) + "-" + std::to_string(c + 2) + " (" +
                                                          layout.labels[size_t(c)] + " " + layout.labels[size_t(c) + 1] + ")"});
            else
                out.push_back({{ListenMode::Pair, c}, std::to_string(c + 1) + " (" + layout.labels[size_t(c)] + ")"});
        }
        for (int c = 0; c < n; ++c)
            out.push_back({{ListenMode::Solo, c}, std::to_string(c + 1) + " " + layout.labels[size_t(c)] + " solo"});
    }
    return out;
}

StereoMatrix listenMatrix(const ChannelLayoutInfo& layout, ListenChoice choice) {
    const int n = layout.channels();
    StereoMatrix m{std::vector<float>(size_t(n), 0.0f), std::vector<float>(size_t(n), 0.0f)};
    choice = fitListenChoice(choice, n);
    auto both = [&](int c, float g) { m.left[size_t(c)] = m.right[size_t(c)] = g; };
    if (n == 0) return m;
    if (choice.mode == ListenMode::Solo) {
        both(choice.channel, 1.0f);
        return m;
    }
    if (choice.mode == ListenMode::Pair) {
        if (choice.channel + 1 < n) {
            m.left[size_t(choice.channel)] = 1.0f;
            m.right[size_t(choice.channel) + 1] = 1.0f;
        } else {
            both(choice.channel, 1.0f);   // the last of an odd count: heard on both sides
        }
        return m;
    }
    if (n == 1) {
        both(0, 1.0f);
        return m;
    }
    for (int c = 0; c < n; ++c) {
        switch (layout.roles[size_t(c)]) {
        case ChannelRole::Left: m.left[size_t(c)] = 1.0f; break;
        case ChannelRole::Right: m.right[size_t(c)] = 1.0f; break;
        case ChannelRole::Lfe: break;
        case ChannelRole::LeftSurround:
        case ChannelRole::LeftRear: m.left[size_t(c)] = kMinus3Db; break;
        case ChannelRole::RightSurround:
        case ChannelRole::RightRear: m.right[size_t(c)] = kMinus3Db; break;
        case ChannelRole::Centre:
        case ChannelRole::Other: both(c, kMinus3Db); break;
        }
    }
    return m;
}

void mixToStereo(const float* const* planes, size_t frames, const StereoMatrix& m, float gain, float* out) {
    std::fill(out, out + 2 * frames, 0.0f);
    for (size_t c = 0; c < m.left.size(); ++c) {
        const float gl = m.left[c] * gain, gr = m.right[c] * gain;
        if (gl == 0.0f && gr == 0.0f) continue;
        const float* p = planes[c];
        for (size_t i = 0; i < frames; ++i) {
            out[2 * i] += gl * p[i];
            out[2 * i + 1] += gr * p[i];
        }
    }
    for (size_t i = 0; i < 2 * frames; ++i) out[i] = std::clamp(out[i], -1.0f, 1.0f);
}

double heardPosition(double startPts, double playedSeconds, double latencySeconds) {
    return startPts + std::max(0.0, playedSeconds - latencySeconds);
}

int64_t frameAtPosition(double position, double firstPts, double frameRate) {
    if (frameRate <= 0) return -1;
    const double i = std::floor((position - firstPts) * frameRate + 1e-9 * frameRate);
    return i < 0 ? -1 : int64_t(i);
}

// ---- ListenFeed ----------------------------------------------------------------------------

ListenFeed::ListenFeed(std::unique_ptr<AudioSource> source) : source_(std::move(source)) {
    matrix_ = listenMatrix(info().layout, choice_);
}

Result<std::unique_ptr<ListenFeed>> ListenFeed::open(const std::string& input, int streamIndex) {
    auto source = AudioSource::open(input, streamIndex);
    if (!source) return Status::error(source.message());
    return std::unique_ptr<ListenFeed>(new ListenFeed(std::move(*source)));
}

void ListenFeed::setChoice(ListenChoice c) {
    choice_ = fitListenChoice(c, info().layout.channels());
    matrix_ = listenMatrix(info().layout, choice_);
}

Status ListenFeed::start(double pts) {
    if (Status s = source_->seek(pts); !s) return s;
    haveBlock_ = false;
    ended_ = false;
    offset_ = 0;
    startSample_ = pos_ = std::llround(pts * double(sampleRate()));
    return {};
}

size_t ListenFeed::produce(float* out, size_t frames) {
    size_t done = 0;
    const size_t channels = matrix_.left.size();
    planes_.resize(channels);
    while (done < frames && !ended_) {
        if (!haveBlock_ || offset_ >= block_.frames) {
            auto more = source_->read(block_);
            if (!more || !*more) {
                ended_ = true;   // the end, or a read error (the source warned of it)
                break;
            }
            haveBlock_ = true;
            offset_ = 0;
        }
        const int64_t blockPos = block_.firstSample + offset_;
        if (blockPos + (block_.frames - offset_) <= pos_) {   // before the start, or an overlap: dropped
            offset_ = block_.frames;
            continue;
        }
        if (blockPos < pos_) {
            offset_ += int(pos_ - blockPos);
            continue;
        }
        if (blockPos > pos_) {   // a gap (or the stream starts later): silence up to the block
            const size_t n = size_t(std::min<int64_t>(blockPos - pos_, int64_t(frames - done)));
            std::fill(out + 2 * done, out + 2 * (done + n), 0.0f);
            done += n;
            pos_ += int64_t(n);
            continue;
        }
        const size_t n = std::min(size_t(block_.frames - offset_), frames - done);
        for (size_t c = 0; c < channels; ++c) planes_[c] = block_.channel(int(c)) + offset_;
        mixToStereo(planes_.data(), n, matrix_, gain_, out + 2 * done);
        offset_ += int(n);
        done += n;
        pos_ += int64_t(n);
    }
    return done;
}

}  // namespace cs::audio
