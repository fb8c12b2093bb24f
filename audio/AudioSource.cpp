#include "AudioSource.h"

extern "C" {
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
}

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "decode/FFmpegHandles.h"

namespace cs::audio {

namespace {
using SwrPtr = ff::Handle<SwrContext, swr_free>;

constexpr double kTimingTolerance = 0.020;    // seconds a block may start off its expected place unnoticed
constexpr size_t kMaxWarnings = 200;           // more are counted, not kept

std::string seconds(double t) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f s", t);
    return b;
}

std::string layoutName(const AVChannelLayout& l) {
    char b[128] = {};
    if (av_channel_layout_describe(&l, b, sizeof b) > 0) return b;
    return std::to_string(l.nb_channels) + " channels";
}

// The picture's origin in seconds: the best video stream's start (decode/FileSource's pts 0).
double pictureOrigin(AVFormatContext* f, const AVStream* audio) {
    const int v = av_find_best_stream(f, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    const AVStream* s = v >= 0 ? f->streams[v] : audio;
    const int64_t start = s->start_time != AV_NOPTS_VALUE ? s->start_time : 0;
    return double(start) * av_q2d(s->time_base);
}

AudioStreamInfo describe(AVFormatContext* f, const AVStream* s, double origin) {
    const AVCodecParameters* p = s->codecpar;
    AudioStreamInfo i;
    i.index = s->index;
    i.codec = avcodec_get_name(p->codec_id);
    if (const char* fmt = av_get_sample_fmt_name(AVSampleFormat(p->format))) i.sampleFormat = fmt;
    i.sampleRate = p->sample_rate;
    i.bitDepth = p->bits_per_raw_sample > 0 ? p->bits_per_raw_sample : 0;
    const AVCodecDescriptor* d = avcodec_descriptor_get(p->codec_id);
    if (i.bitDepth == 0 && d && (d->props & AV_CODEC_PROP_LOSSLESS)) {
        if (p->bits_per_coded_sample > 0) i.bitDepth = p->bits_per_coded_sample;
        else if (p->format >= 0) i.bitDepth = 8 * av_get_bytes_per_sample(AVSampleFormat(p->format));
    }
    i.layout = describeLayout(p->ch_layout);
    if (const AVDictionaryEntry* e = av_dict_get(s->metadata, "language", nullptr, 0)) i.language = e->value;
    if (s->start_time != AV_NOPTS_VALUE) i.start = double(s->start_time) * av_q2d(s->time_base) - origin;
    if (s->duration != AV_NOPTS_VALUE && s->duration > 0) i.duration = double(s->duration) * av_q2d(s->time_base);
    else if (f->duration != AV_NOPTS_VALUE && f->duration > 0) i.duration = double(f->duration) / AV_TIME_BASE;
    i.bitRate = p->bit_rate;
    return i;
}

Result<ff::InputContextPtr> openDemuxer(const std::string& input) {
    AVFormatContext* raw = nullptr;
    if (int ret = avformat_open_input(&raw, input.c_str(), nullptr, nullptr); ret < 0)
        return Status::error(input + ": cannot be opened (" + ff::errorText(ret) + ")");
    ff::InputContextPtr f(raw);
    if (int ret = avformat_find_stream_info(raw, nullptr); ret < 0)
        return Status::error(input + ": its streams cannot be read (" + ff::errorText(ret) + ")");
    return f;
}
}  // namespace

Result<std::vector<AudioStreamInfo>> listAudioStreams(const std::string& input) {
    auto f = openDemuxer(input);
    if (!f) return f.status();
    AVFormatContext* fc = f->get();
    const int best = av_find_best_stream(fc, AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
    std::vector<AudioStreamInfo> out;
    for (unsigned i = 0; i < fc->nb_streams; ++i) {
        const AVStream* s = fc->streams[i];
        if (s->codecpar->codec_type != AVMEDIA_TYPE_AUDIO) continue;
        out.push_back(describe(fc, s, pictureOrigin(fc, s)));
        out.back().isDefault = int(i) == best;
    }
    return out;
}

struct AudioSource::Impl {
    std::string input;
    ff::InputContextPtr format;
    ff::CodecContextPtr codec;
    const AVStream* stream = nullptr;
    ff::PacketPtr packet{av_packet_alloc()};
    ff::FramePtr frame{av_frame_alloc()};
    SwrPtr swr;
    AVChannelLayout outLayout{};       // the stream's first layout: every block has it
    AVChannelLayout inLayout{};        // what swr converts from now
    int inRate = 0, outRate = 0;
    int inFormat = -1;
    double origin = 0;                 // the picture's origin, seconds
    int64_t next = 0;                  // the sample the next block starts at
    bool started = false, draining = false, ended = false;
    bool seeked = false;               // a seek: the first block's place is not a late start
    std::vector<std::string> warnings;
    size_t warningsDropped = 0;

    ~Impl() {
        av_channel_layout_uninit(&outLayout);
        av_channel_layout_uninit(&inLayout);
    }

    void warn(double at, const std::string& what) {
        if (warnings.size() < kMaxWarnings) warnings.push_back(input + ": audio at " + seconds(at) + ": " + what);
        else ++warningsDropped;
    }
    double timeOf(int64_t sample) const { return double(sample) / outRate; }

    // swr for the frame's layout, rate and format; a change mid-stream is warned and converted.
    // The error is the reason only (the caller names the position).
    Status prepare(const AVFrame& f, double at) {
        AVChannelLayout frameLayout{};
        if (f.ch_layout.nb_channels > 0) av_channel_layout_copy(&frameLayout, &f.ch_layout);
        else av_channel_layout_copy(&frameLayout, &outLayout);
        // The same number of channels in another spelling (unspecified order, a container
        // that names it differently) is the same audio: no rematrixing.
        if (frameLayout.nb_channels == outLayout.nb_channels) {
            av_channel_layout_uninit(&frameLayout);
            av_channel_layout_copy(&frameLayout, &outLayout);
        }
        const bool same = swr && av_channel_layout_compare(&frameLayout, &inLayout) == 0 && f.sample_rate == inRate &&
                          f.format == inFormat;
        if (same) {
            av_channel_layout_uninit(&frameLayout);
            return {};
        }
        if (swr) {
            if (av_channel_layout_compare(&frameLayout, &inLayout) != 0)
                warn(at, "channel layout changed from " + layoutName(inLayout) + " to " + layoutName(frameLayout) +
                             "; converted to " + layoutName(outLayout));
            if (f.sample_rate != inRate)
                warn(at, "sample rate changed from " + std::to_string(inRate) + " to " + std::to_string(f.sample_rate) +
                             " Hz; resampled to " + std::to_string(outRate) + " Hz");
        }
        // Rematrixing needs layouts with an order: discrete channels get FFmpeg's default.
        AVChannelLayout from{}, to{};
        av_channel_layout_copy(&from, &frameLayout);
        av_channel_layout_copy(&to, &outLayout);
        if (from.nb_channels != to.nb_channels) {
            if (from.order == AV_CHANNEL_ORDER_UNSPEC) av_channel_layout_default(&from, from.nb_channels);
            if (to.order == AV_CHANNEL_ORDER_UNSPEC) av_channel_layout_default(&to, to.nb_channels);
        }
        SwrContext* raw = nullptr;
        int ret = swr_alloc_set_opts2(&raw, &to, AV_SAMPLE_FMT_FLTP, outRate, &from, AVSampleFormat(f.format), f.sample_rate, 0,
                                      nullptr);
        av_channel_layout_uninit(&from);
        av_channel_layout_uninit(&to);
        SwrPtr made(raw);
        if (ret >= 0) ret = swr_init(raw);
        if (ret < 0) {
            av_channel_layout_uninit(&frameLayout);
            return Status::error("cannot be converted from " + layoutName(f.ch_layout) + " (" + ff::errorText(ret) + ")");
        }
        swr = std::move(made);
        av_channel_layout_uninit(&inLayout);
        inLayout = frameLayout;   // owned now
        inRate = f.sample_rate;
        inFormat = f.format;
        return {};
    }

    // Converts `f` (or flushes swr when f is null) into out; false when nothing came out.
    bool convert(const AVFrame* f, AudioBlock& out) {
        const int inSamples = f ? f->nb_samples : 0;
        const int capacity = swr_get_out_samples(swr.get(), inSamples);
        if (capacity <= 0) return false;
        const int ch = outLayout.nb_channels;
        out.channels = ch;
        out.data.resize(size_t(capacity) * size_t(ch));
        std::vector<uint8_t*> planes(static_cast<size_t>(ch));
        for (int c = 0; c < ch; ++c) planes[size_t(c)] = reinterpret_cast<uint8_t*>(out.data.data() + size_t(c) * size_t(capacity));
        const int got = swr_convert(swr.get(), planes.data(), capacity, f ? const_cast<const uint8_t**>(f->extended_data) : nullptr,
                                    inSamples);
        if (got <= 0) return false;
        if (got < capacity)   // close the planes up: channel c at c * got
            for (int c = 1; c < ch; ++c)
                std::copy_n(out.data.data() + size_t(c) * size_t(capacity), size_t(got), out.data.data() + size_t(c) * size_t(got));
        out.frames = got;
        out.data.resize(size_t(got) * size_t(ch));
        return true;
    }

    // Places a converted block on the timeline from its frame's timestamp.
    bool place(int64_t ts, AudioBlock& out) {
        int64_t at = next;
        if (ts != AV_NOPTS_VALUE) {
            const double t = double(ts) * av_q2d(stream->time_base) - origin;
            at = int64_t(std::llround(t * outRate));
        }
        if (!started) {
            started = true;
            if (!seeked && timeOf(at) > kTimingTolerance)
                warn(timeOf(at), "the audio starts " + seconds(timeOf(at)) + " after the picture");
            next = at;
        } else if (double(at - next) > kTimingTolerance * outRate) {
            warn(timeOf(next), "gap of " + seconds(timeOf(at - next)) + " in the audio's timestamps; filled with silence");
            next = at;   // the consumer sees the jump and fills it
        } else if (double(next - at) > kTimingTolerance * outRate) {
            const int64_t overlap = next - at;
            warn(timeOf(at), "audio overlaps the previous " + seconds(timeOf(overlap)) + "; the repeated samples are dropped");
            if (overlap >= out.frames) return false;
            const int keep = out.frames - int(overlap);
            for (int c = 0; c < out.channels; ++c)
                std::copy_n(out.data.data() + size_t(c) * size_t(out.frames) + size_t(overlap), size_t(keep),
                            out.data.data() + size_t(c) * size_t(keep));
            out.frames = keep;
            out.data.resize(size_t(keep) * size_t(out.channels));
            at = next;
        } else {
            at = next;   // jitter within the tolerance: the samples follow on
        }
        out.firstSample = at;
        next = at + out.frames;
        return true;
    }
};

AudioSource::AudioSource() : impl_(std::make_unique<Impl>()) {}
AudioSource::~AudioSource() = default;

Result<std::unique_ptr<AudioSource>> AudioSource::open(const std::string& input, int streamIndex) {
    auto f = openDemuxer(input);
    if (!f) return f.status();
    AVFormatContext* fc = f->get();
    const AVCodec* decoder = nullptr;
    const int index = av_find_best_stream(fc, AVMEDIA_TYPE_AUDIO, streamIndex, -1, &decoder, 0);
    if (index < 0) {
        if (streamIndex >= 0) return Status::error(input + ": stream " + std::to_string(streamIndex) + " is not an audio stream it can decode");
        return Status::error(index == AVERROR_DECODER_NOT_FOUND ? input + ": no decoder for its audio"
                                                                : input + ": has no audio stream");
    }
    const AVStream* s = fc->streams[index];
    const int channels = s->codecpar->ch_layout.nb_channels;
    if (channels < 1 || channels > kMaxChannels)
        return Status::error(input + ": its audio (stream " + std::to_string(index) + ") has " + std::to_string(channels) +
                             " channels; cudascope meters 1 to " + std::to_string(kMaxChannels));
    if (s->codecpar->sample_rate < 8000 || s->codecpar->sample_rate > 384000)
        return Status::error(input + ": its audio's sample rate (" + std::to_string(s->codecpar->sample_rate) +
                             " Hz) is outside 8000 to 384000 Hz");
    for (unsigned i = 0; i < fc->nb_streams; ++i)
        if (int(i) != index) fc->streams[i]->discard = AVDISCARD_ALL;

    std::unique_ptr<AudioSource> src(new AudioSource);
    Impl& m = *src->impl_;
    m.input = input;
    m.codec.reset(avcodec_alloc_context3(decoder));
    if (!m.codec || !m.packet || !m.frame) return Status::error(input + ": out of memory opening its audio");
    if (int ret = avcodec_parameters_to_context(m.codec.get(), s->codecpar); ret < 0)
        return Status::error(input + ": its audio's parameters are unusable (" + ff::errorText(ret) + ")");
    m.codec->pkt_timebase = s->time_base;
    m.codec->thread_count = 1;
    if (int ret = avcodec_open2(m.codec.get(), decoder, nullptr); ret < 0)
        return Status::error(input + ": cannot open the " + std::string(decoder->name) + " audio decoder (" + ff::errorText(ret) + ")");
    m.stream = s;
    m.origin = pictureOrigin(fc, s);
    m.outRate = s->codecpar->sample_rate;
    av_channel_layout_copy(&m.outLayout, &s->codecpar->ch_layout);
    m.format = std::move(f.value());
    src->info_ = describe(m.format.get(), s, m.origin);
    src->info_.isDefault = streamIndex < 0;
    return src;
}

Result<bool> AudioSource::read(AudioBlock& out) {
    Impl& m = *impl_;
    if (m.ended) return false;
    for (;;) {
        int ret = avcodec_receive_frame(m.codec.get(), m.frame.get());
        if (ret == 0) {
            AVFrame& f = *m.frame;
            const int64_t ts = f.best_effort_timestamp;
            const double at = ts != AV_NOPTS_VALUE ? double(ts) * av_q2d(m.stream->time_base) - m.origin : m.timeOf(m.next);
            if (f.decode_error_flags || (f.flags & AV_FRAME_FLAG_CORRUPT))
                m.warn(at, "the decoder concealed damage in this audio frame");
            if (Status st = m.prepare(f, at); !st) {
                m.warn(at, st.message() + "; frame skipped");
                av_frame_unref(&f);
                continue;
            }
            const bool got = m.convert(&f, out);
            av_frame_unref(&f);
            if (got && m.place(ts, out)) return true;
            continue;
        }
        if (ret == AVERROR_EOF) {
            m.ended = true;
            // What the resampler holds back (only when it resamples).
            if (m.swr && m.inRate != m.outRate && m.convert(nullptr, out)) {
                out.firstSample = m.next;
                m.next += out.frames;
                return true;
            }
            return false;
        }
        if (ret != AVERROR(EAGAIN)) {
            m.warn(m.timeOf(m.next), "the audio decoder failed (" + ff::errorText(ret) + ")");
            if (m.draining) {
                m.ended = true;
                return false;
            }
        }
        if (m.draining) {
            // Every frame is out once the decoder says EOF; nothing more to read.
            continue;
        }
        ret = av_read_frame(m.format.get(), m.packet.get());
        if (ret == AVERROR_EOF) {
            m.draining = true;
            avcodec_send_packet(m.codec.get(), nullptr);
            continue;
        }
        if (ret < 0) {
            m.ended = true;
            return Status::error(m.input + ": its audio could not be read on after " + seconds(m.timeOf(m.next)) + " (" +
                                 ff::errorText(ret) + ")");
        }
        if (m.packet->stream_index != m.stream->index) {
            av_packet_unref(m.packet.get());
            continue;
        }
        const double at = m.packet->pts != AV_NOPTS_VALUE ? double(m.packet->pts) * av_q2d(m.stream->time_base) - m.origin
                                                          : m.timeOf(m.next);
        if (m.packet->flags & AV_PKT_FLAG_CORRUPT) m.warn(at, "the demuxer flagged this audio packet as corrupt");
        ret = avcodec_send_packet(m.codec.get(), m.packet.get());
        av_packet_unref(m.packet.get());
        if (ret < 0 && ret != AVERROR(EAGAIN)) m.warn(at, "an audio packet could not be decoded (" + ff::errorText(ret) + ")");
    }
}

Status AudioSource::seek(double to) {
    Impl& m = *impl_;
    const double tb = av_q2d(m.stream->time_base);
    const int64_t ts = int64_t(std::floor((to + m.origin) / tb));
    if (int ret = av_seek_frame(m.format.get(), m.stream->index, ts, AVSEEK_FLAG_BACKWARD); ret < 0)
        return Status::error(m.input + ": its audio cannot seek to " + seconds(to) + " (" + ff::errorText(ret) + ")");
    avcodec_flush_buffers(m.codec.get());
    m.swr.reset();
    av_channel_layout_uninit(&m.inLayout);
    m.inRate = 0;
    m.inFormat = -1;
    m.started = m.draining = m.ended = false;
    m.seeked = true;
    return {};
}

std::vector<std::string> AudioSource::takeWarnings() {
    std::vector<std::string> out;
    out.swap(impl_->warnings);
    if (impl_->warningsDropped > 0) {
        out.push_back(impl_->input + ": " + std::to_string(impl_->warningsDropped) + " more audio warnings not listed");
        impl_->warningsDropped = 0;
    }
    return out;
}

}  // namespace cs::audio
