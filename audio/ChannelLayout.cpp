#include "ChannelLayout.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

namespace cs::audio {

namespace {
struct Known {
    AVChannel channel;
    const char* label;
    ChannelRole role;
};

// Broadcast labels (ITU-R BS.2051 / SMPTE ST 428-3 usage); anything else keeps FFmpeg's name.
constexpr Known kKnown[] = {
    {AV_CHAN_FRONT_LEFT, "L", ChannelRole::Left},
    {AV_CHAN_FRONT_RIGHT, "R", ChannelRole::Right},
    {AV_CHAN_FRONT_CENTER, "C", ChannelRole::Centre},
    {AV_CHAN_LOW_FREQUENCY, "LFE", ChannelRole::Lfe},
    {AV_CHAN_LOW_FREQUENCY_2, "LFE2", ChannelRole::Lfe},
    {AV_CHAN_FRONT_LEFT_OF_CENTER, "Lc", ChannelRole::Other},
    {AV_CHAN_FRONT_RIGHT_OF_CENTER, "Rc", ChannelRole::Other},
    {AV_CHAN_BACK_CENTER, "Cs", ChannelRole::Other},
    {AV_CHAN_TOP_CENTER, "Tc", ChannelRole::Other},
    {AV_CHAN_TOP_FRONT_LEFT, "Vhl", ChannelRole::Other},
    {AV_CHAN_TOP_FRONT_CENTER, "Vhc", ChannelRole::Other},
    {AV_CHAN_TOP_FRONT_RIGHT, "Vhr", ChannelRole::Other},
    {AV_CHAN_TOP_BACK_LEFT, "Ltb", ChannelRole::Other},
    {AV_CHAN_TOP_BACK_CENTER, "Tcs", ChannelRole::Other},
    {AV_CHAN_TOP_BACK_RIGHT, "Rtb", ChannelRole::Other},
    {AV_CHAN_STEREO_LEFT, "Lt", ChannelRole::Left},
    {AV_CHAN_STEREO_RIGHT, "Rt", ChannelRole::Right},
};

const Known* known(AVChannel c) {
    for (const Known& k : kKnown)
        if (k.channel == c) return &k;
    return nullptr;
}
}  // namespace

ChannelLayoutInfo describeLayout(const AVChannelLayout& layout) {
    ChannelLayoutInfo info;
    const int n = layout.nb_channels;
    char text[128] = {};
    if (av_channel_layout_describe(&layout, text, sizeof text) > 0) info.name = text;
    else info.name = std::to_string(n) + " channels";

    if (layout.order == AV_CHANNEL_ORDER_UNSPEC && n >= 1 && n <= kGuessedUpTo) {
        // Positions the container did not give: FFmpeg's default layout for the count, as the
        // ffmpeg CLI guesses it (6 channels are 5.1 in SMPTE order).
        AVChannelLayout guessed{};
        av_channel_layout_default(&guessed, n);
        ChannelLayoutInfo g = describeLayout(guessed);
        av_channel_layout_uninit(&guessed);
        g.name += " (assumed)";
        return g;
    }
    if (layout.order == AV_CHANNEL_ORDER_UNSPEC || layout.order == AV_CHANNEL_ORDER_AMBISONIC) {
        for (int c = 0; c < n; ++c) {
            info.labels.push_back(std::to_string(c + 1));
            info.roles.push_back(ChannelRole::Other);
        }
    } else {
        // Which surround pairs the layout has: with both side and back pairs (7.1) the sides are
        // the +-90 degree surrounds (1.41) and the backs the +-135 degree rears (1.0); with one
        // pair alone (5.1 in either of FFmpeg's forms) that pair is the +-110 degree Ls/Rs.
        const bool sides = av_channel_layout_index_from_channel(&layout, AV_CHAN_SIDE_LEFT) >= 0 ||
                           av_channel_layout_index_from_channel(&layout, AV_CHAN_SIDE_RIGHT) >= 0;
        const bool backs = av_channel_layout_index_from_channel(&layout, AV_CHAN_BACK_LEFT) >= 0 ||
                           av_channel_layout_index_from_channel(&layout, AV_CHAN_BACK_RIGHT) >= 0;
        for (int c = 0; c < n; ++c) {
            const AVChannel ch = av_channel_layout_channel_from_index(&layout, unsigned(c));
            const char* fixed = nullptr;   // a broadcast label
            std::string label;
            ChannelRole role = ChannelRole::Other;
            if (ch == AV_CHAN_SIDE_LEFT || ch == AV_CHAN_SIDE_RIGHT) {
                const bool left = ch == AV_CHAN_SIDE_LEFT;
                fixed = backs ? (left ? "Lss" : "Rss") : (left ? "Ls" : "Rs");
                role = left ? ChannelRole::LeftSurround : ChannelRole::RightSurround;
            } else if (ch == AV_CHAN_BACK_LEFT || ch == AV_CHAN_BACK_RIGHT) {
                const bool left = ch == AV_CHAN_BACK_LEFT;
                if (sides) {
                    fixed = left ? "Lrs" : "Rrs";
                    role = left ? ChannelRole::LeftRear : ChannelRole::RightRear;
                } else {
                    fixed = left ? "Ls" : "Rs";
                    role = left ? ChannelRole::LeftSurround : ChannelRole::RightSurround;
                }
            } else if (const Known* k = known(ch)) {
                fixed = k->label;
                role = k->role;
            } else {
                char name[32] = {};
                if (av_channel_name(name, sizeof name, ch) > 0) label = name;
                else label = std::to_string(c + 1);
            }
            info.labels.push_back(fixed ? std::string(fixed) : label);
            info.roles.push_back(role);
        }
        if (n == 1 && info.roles[0] == ChannelRole::Centre) info.labels[0].assign(1, 'M');   // mono
    }
    for (int c = 0; c < n; ++c) {
        if (info.roles[size_t(c)] == ChannelRole::Left && info.pairLeft < 0) info.pairLeft = c;
        if (info.roles[size_t(c)] == ChannelRole::Right && info.pairRight < 0) info.pairRight = c;
    }
    if ((info.pairLeft < 0 || info.pairRight < 0) && n >= 2) {
        info.pairLeft = 0;
        info.pairRight = 1;
    } else if (n < 2) {
        info.pairLeft = info.pairRight = -1;
    }
    return info;
}

}  // namespace cs::audio
