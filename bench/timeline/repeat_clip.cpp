// repeat_clip: a long file from a short one, by stream copy: IN's packets written N times into
// OUT, each copy's timestamps moved on by the copy before it, so OUT is one file of N times
// IN's length with continuous timestamps (no re-encoding, no decoder reset at the joins). It
// makes the input of the Timeline pass's target (an hour of 1080p25: a 10-s clip 360 times)
// on a GPU machine that has FFmpeg's libraries (a bundle's) but not the ffmpeg CLI, from a
// clip small enough to carry there.
//
//   repeat_clip IN N OUT
//
// Exit: 0 written; 1 IN unreadable or OUT unwritable (one line naming it and the reason);
// 2 usage.
extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/mathematics.h>
}

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::string averror(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

int fail(const std::string& what, int code) {
    std::fprintf(stderr, "repeat_clip: %s: %s\n", what.c_str(), averror(code).c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 || std::atoi(argv[2]) < 1) {
        std::fprintf(stderr, "usage: repeat_clip IN N OUT (N >= 1)\n");
        return 2;
    }
    const std::string in = argv[1], out = argv[3];
    const int copies = std::atoi(argv[2]);
    AVFormatContext* input = nullptr;
    if (int e = avformat_open_input(&input, in.c_str(), nullptr, nullptr); e < 0) return fail(in, e);
    if (int e = avformat_find_stream_info(input, nullptr); e < 0) return fail(in, e);
    AVFormatContext* output = nullptr;
    if (int e = avformat_alloc_output_context2(&output, nullptr, nullptr, out.c_str()); e < 0) return fail(out, e);
    // The video and audio streams (a MOV timecode track is left out: the container cannot
    // take it as a copied stream).
    std::vector<int> map(input->nb_streams, -1);
    for (unsigned i = 0; i < input->nb_streams; ++i) {
        const AVMediaType type = input->streams[i]->codecpar->codec_type;
        if (type != AVMEDIA_TYPE_VIDEO && type != AVMEDIA_TYPE_AUDIO) continue;
        map[i] = int(output->nb_streams);
        AVStream* s = avformat_new_stream(output, nullptr);
        if (!s) return fail(out, AVERROR(ENOMEM));
        avcodec_parameters_copy(s->codecpar, input->streams[i]->codecpar);
        s->codecpar->codec_tag = 0;
        s->time_base = input->streams[i]->time_base;
    }
    if (int e = avio_open(&output->pb, out.c_str(), AVIO_FLAG_WRITE); e < 0) return fail(out, e);
    if (int e = avformat_write_header(output, nullptr); e < 0) return fail(out, e);
    // Copy k is moved on by k spans, per stream in its time base: a span is the first copy's
    // presentation time from its earliest pts to its latest pts + duration (an AAC stream's
    // priming packet, at a negative pts, included), so each copy starts where the last ended.
    std::vector<int64_t> first(input->nb_streams, INT64_MAX), end(input->nb_streams, INT64_MIN);
    AVPacket* packet = av_packet_alloc();
    for (int copy = 0; copy < copies; ++copy) {
        if (copy > 0)
            if (int e = av_seek_frame(input, -1, 0, AVSEEK_FLAG_BACKWARD); e < 0) return fail(in, e);
        while (av_read_frame(input, packet) >= 0) {
            const int i = packet->stream_index;
            if (map[size_t(i)] < 0 || packet->pts == AV_NOPTS_VALUE) {
                av_packet_unref(packet);
                continue;
            }
            if (copy == 0) {
                first[size_t(i)] = std::min(first[size_t(i)], packet->pts);
                end[size_t(i)] = std::max(end[size_t(i)], packet->pts + packet->duration);
            }
            const int64_t shift = copy == 0 ? 0 : int64_t(copy) * (end[size_t(i)] - first[size_t(i)]);
            packet->pts += shift;
            if (packet->dts != AV_NOPTS_VALUE) packet->dts += shift;
            av_packet_rescale_ts(packet, input->streams[i]->time_base, output->streams[map[size_t(i)]]->time_base);
            packet->stream_index = map[size_t(i)];
            if (int e = av_interleaved_write_frame(output, packet); e < 0) return fail(out, e);
        }
    }
    if (int e = av_write_trailer(output); e < 0) return fail(out, e);
    av_packet_free(&packet);
    avio_closep(&output->pb);
    avformat_free_context(output);
    avformat_close_input(&input);
    return 0;
}
