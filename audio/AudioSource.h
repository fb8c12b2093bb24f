// Audio decoded beside the picture: a file's audio stream (FFmpeg's best one unless named)
// through libavcodec, converted by libswresample to float planar at the stream's own rate
// and layout. Its own demuxer on the same file, so the picture's decoder is untouched and
// the audio can be read at its own pace.
//
// Positions are on the picture's clock: sample s of a block is at s / rate seconds from the
// origin of the picture's timestamps (the best video stream's start, as decode/FileSource
// counts pts; the audio stream's own start for a file without video). Bad audio is a
// warning naming its position, never a failure or an unnoticed gap: a corrupt packet, one
// that does not decode, a gap in the timestamps (filled with silence), an overlap (the
// repeated samples dropped), a stream that starts after the picture, a change of layout or
// rate mid-stream (converted back to the stream's first layout and rate).
//
// One thread at a time (the one that reads).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ChannelLayout.h"
#include "core/Status.h"

namespace cs::audio {

struct AudioStreamInfo {
    int index = -1;                 // the stream's index in the file
    std::string codec;              // "aac", "pcm_s24le"
    std::string sampleFormat;       // the decoder's: "fltp", "s32", "s16"
    int sampleRate = 0;
    int bitDepth = 0;               // bits per sample the stream carries (PCM, FLAC, ALAC); 0 for lossy codecs
    ChannelLayoutInfo layout;
    std::string language;           // the stream's "language" tag ("" if none)
    double start = 0;               // seconds on the picture's clock
    double duration = 0;            // seconds; 0 if unknown
    int64_t bitRate = 0;            // bits per second; 0 if unknown
    bool isDefault = false;         // the stream chosen when none is named
};

// Every audio stream of a file, in the file's order.
Result<std::vector<AudioStreamInfo>> listAudioStreams(const std::string& input);

// Decoded samples, planar: channel c is data[c * frames .. (c + 1) * frames).
struct AudioBlock {
    int64_t firstSample = 0;        // on the picture's clock (may be negative: audio before the picture)
    int frames = 0;
    int channels = 0;
    std::vector<float> data;
    const float* channel(int c) const { return data.data() + size_t(c) * size_t(frames); }
    float* channel(int c) { return data.data() + size_t(c) * size_t(frames); }
};

class AudioSource {
public:
    // streamIndex -1: FFmpeg's best audio stream (av_find_best_stream). Fails with one
    // sentence naming the input when it has no audio, or audio that cannot be decoded.
    static Result<std::unique_ptr<AudioSource>> open(const std::string& input, int streamIndex = -1);
    ~AudioSource();
    AudioSource(const AudioSource&) = delete;
    AudioSource& operator=(const AudioSource&) = delete;

    const AudioStreamInfo& info() const { return info_; }
    // The next block (true), the end (false), or an error that ends reading (the file could
    // not be read on). Blocks follow each other without overlap; a jump forward is a gap.
    Result<bool> read(AudioBlock& out);
    // Reading from `to` seconds on the picture's clock (the demuxer lands at or before it; the
    // blocks that follow carry their true positions). False when the file cannot seek.
    Status seek(double to);
    // Warnings since the last call ("INPUT: audio at 12.340 s: ...").
    std::vector<std::string> takeWarnings();

private:
    AudioSource();
    struct Impl;
    std::unique_ptr<Impl> impl_;
    AudioStreamInfo info_;
};

}  // namespace cs::audio
