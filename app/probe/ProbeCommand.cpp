// `cudascope probe INPUT`: prints what the source is and how cudascope will read it.
#include <cstdio>
#include <string>

#include "app/cli/CommandOptions.h"
#include "app/cli/Commands.h"
#include "audio/AudioSource.h"
#include "decode/Source.h"

namespace cs {

namespace {
constexpr const char* kProbeUsage =
    "usage: cudascope probe INPUT\n"
    "  prints the video stream's properties (a media file, a live URL or camera, or pattern:...)\n"
    "  and every audio stream's: codec, sample rate, channel layout and labels, bit depth, language\n";
// Every audio stream: "audio #1:    aac, 48000 Hz, stereo (L R), 24-bit, language eng, default".
void printAudioStreams(const std::string& input) {
    auto streams = audio::listAudioStreams(input);
    if (!streams) {
        std::fprintf(stderr, "cudascope probe: warning: %s; its audio is not listed\n", streams.message().c_str());
        return;
    }
    if (streams->empty()) {
        std::printf("audio:       none\n");
        return;
    }
    for (const audio::AudioStreamInfo& a : *streams) {
        std::string labels;
        for (const std::string& l : a.layout.labels) labels += (labels.empty() ? "" : " ") + l;
        std::string line = a.codec + ", " + std::to_string(a.sampleRate) + " Hz, " + a.layout.name + " (" + labels + ")";
        if (a.bitDepth > 0) line += ", " + std::to_string(a.bitDepth) + "-bit";
        if (!a.sampleFormat.empty()) line += ", " + a.sampleFormat;
        if (!a.language.empty()) line += ", language " + a.language;
        if (a.isDefault) line += ", default";
        std::printf("audio #%d:%*s%s\n", a.index, a.index < 10 ? 4 : 3, "", line.c_str());
    }
}

}  // namespace

int runProbe(int argc, char** argv) {
    auto options = parseProbeArgs(argumentsOf(argc, argv));
    if (!options) {
        std::fprintf(stderr, "cudascope probe: %s\n%s", options.message().c_str(), kProbeUsage);
        return kExitUsage;
    }
    if (options->help) {
        std::fputs(kProbeUsage, stdout);
        return kExitOk;
    }
    const std::string& input = options->input;
    auto opened = openSource(input);
    if (!opened) {
        std::fprintf(stderr, "cudascope probe: %s\n", opened.message().c_str());
        return kExitFailure;
    }
    Source& source = *opened.value();
    // Decode the first frame so that what is printed is what frames really carry.
    VideoFrame first;
    const ReadResult rr = source.read(first);
    const SourceInfo& info = source.info();
    const auto tagged = [](bool t) { return t ? "" : " (untagged, assumed)"; };
    std::printf("input:       %s\n", info.input.c_str());
    std::printf("container:   %s\n", info.container.c_str());
    std::printf("codec:       %s\n", info.codec.c_str());
    std::printf("decoder:     %s\n", info.decoder.c_str());
    std::printf("size:        %dx%d\n", info.width, info.height);
    std::printf("pix_fmt:     %s", std::string(formatInfo(info.format).name).c_str());
    if (!info.sourcePixFmt.empty() && info.sourcePixFmt != formatInfo(info.format).name)
        std::printf(" (converted from %s)", info.sourcePixFmt.c_str());
    std::printf("\nbit_depth:   %d\n", formatInfo(info.format).bitDepth);
    std::printf("matrix:      %s%s\n", std::string(matrixName(info.color.matrix)).c_str(), tagged(info.color.matrixTagged));
    std::printf("range:       %s%s\n", std::string(rangeName(info.color.range)).c_str(), tagged(info.color.rangeTagged));
    std::printf("transfer:    %s\n", std::string(transferName(info.color.transfer)).c_str());
    std::printf("frame_rate:  %.3f\n", info.frameRate);
    std::printf("duration:    %.3f s\n", info.duration);
    if (info.frameCount > 0) std::printf("frames:      %lld\n", static_cast<long long>(info.frameCount));
    std::printf("seekable:    %s\n", info.seekable ? "yes" : "no");
    if (info.fieldOrder.empty()) std::printf("field_order: unknown (the stream does not say)\n");
    else if (!isInterlacedFieldOrder(info.fieldOrder)) std::printf("field_order: %s\n", info.fieldOrder.c_str());
    else std::printf("field_order: %s (%s)\n", info.fieldOrder.c_str(), fieldOrderText(info.fieldOrder).c_str());
    // The first frame's source timecode and where the file keeps it (timecode/Timecode.h).
    if (info.timecode.known())
        std::printf("timecode:    %s (%s)\n", info.timecode.text().c_str(), timecodeSourceName(info.timecode.source));
    else
        std::printf("timecode:    none (elapsed time is shown)\n");
    if (input.rfind("pattern:", 0) != 0 && !info.live) printAudioStreams(input);
    for (const auto& w : source.takeWarnings()) std::fprintf(stderr, "cudascope probe: warning: %s\n", w.c_str());
    if (rr.status == ReadStatus::Error) {
        std::fprintf(stderr, "cudascope probe: %s\n", rr.message.c_str());
        return kExitFailure;
    }
    if (rr.status == ReadStatus::EndOfStream) {
        std::fprintf(stderr, "cudascope probe: %s: no frame could be decoded\n", input.c_str());
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace cs
