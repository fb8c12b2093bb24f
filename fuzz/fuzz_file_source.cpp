// fuzz_file_source: the fuzzer's bytes as a media file, opened from memory through the real
// FileSource (probe, demux, decode, conversion, warnings, one seek), and up to kMaxFrames
// frames through the CPU engine with every scope, a preview (a different one per frame)
// and the display images. Checks, beyond the sanitizers: errors name the input and are one
// line, and each scope's counts cover every pixel once (core/ScopeResults.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <span>
#include <string>

#include "core/Engine.h"
#include "decode/FileSource.h"
#include "decode/MemoryInput.h"
#include "cpu/CpuEngine.h"

namespace {

constexpr int kMaxFrames = 4;
// Frames larger than this are decoded but not measured: a legitimate 8K frame through every
// scope and display image takes seconds under ASan, and the engine's work does not depend
// on the bytes that made the frame.
constexpr int64_t kMaxEnginePixels = int64_t(1920) * 1080;
const std::string kInput = "fuzz-input";

// A message broke the "one sentence naming the input" rule: stop with the message, so the
// input is kept as a crash.
[[noreturn]] void contractBroken(const char* what, const std::string& message) {
    std::fprintf(stderr, "fuzz_file_source: %s: \"%s\"\n", what, message.c_str());
    std::abort();
}

void checkMessage(const std::string& message) {
    if (message.rfind(kInput + ": ", 0) != 0) contractBroken("message does not start with the input", message);
    if (message.find('\n') != std::string::npos) contractBroken("message is more than one line", message);
}

void checkSum(const std::vector<uint32_t>& counts, size_t begin, size_t end, uint64_t expected, const char* scope) {
    const uint64_t sum = std::accumulate(counts.begin() + std::ptrdiff_t(begin), counts.begin() + std::ptrdiff_t(end),
                                         uint64_t(0));
    if (sum != expected)
        contractBroken(scope, "counts " + std::to_string(sum) + " pixels of " + std::to_string(expected));
}

// Every count the spec asked for covers each pixel once.
void checkCounts(const cs::ScopeResults& r, const cs::ScopeSpec& spec) {
    const uint64_t pixels = uint64_t(r.width) * uint64_t(r.height);
    const size_t levels = size_t(r.levels);
    if (spec.histogram) {
        checkSum(r.histY, 0, r.histY.size(), pixels, "luma histogram");
        checkSum(r.histR, 0, r.histR.size(), pixels, "red histogram");
        checkSum(r.histG, 0, r.histG.size(), pixels, "green histogram");
        checkSum(r.histB, 0, r.histB.size(), pixels, "blue histogram");
    }
    if (spec.waveform) checkSum(r.waveform, 0, r.waveform.size(), pixels, "waveform");
    if (spec.parade) {
        const size_t plane = levels * size_t(r.width);
        if (r.parade.size() != 3 * plane) contractBroken("parade", "has the wrong size");
        for (size_t c = 0; c < 3; ++c) checkSum(r.parade, c * plane, (c + 1) * plane, pixels, "parade component");
    }
    if (spec.vectorscope) checkSum(r.vectorscope, 0, r.vectorscope.size(), pixels, "vectorscope");
}

// The spec for the n-th frame of an input: every scope, every display image, and settings
// that change from frame to frame so that an input's frames cover different paths.
cs::ScopeSpec specFor(int n, size_t inputSize) {
    constexpr cs::PreviewFilter kPreviews[] = {
        cs::PreviewFilter::BoxBlur, cs::PreviewFilter::Gaussian, cs::PreviewFilter::Edges,
        cs::PreviewFilter::FocusPeaking, cs::PreviewFilter::Median3, cs::PreviewFilter::Zebra,
        cs::PreviewFilter::FalseColour, cs::PreviewFilter::None};
    constexpr int kPreviewCount = int(std::size(kPreviews));
    const int k = int(inputSize % kPreviewCount) + n;   // which preview each frame gets rotates with the input
    cs::ScopeSpec spec;
    spec.preview = kPreviews[k % kPreviewCount];
    spec.paradeMode = k % 2 ? cs::ParadeMode::Ycbcr : cs::ParadeMode::Rgb;
    spec.histogramScale = k % 3 ? cs::HistogramScale::Linear : cs::HistogramScale::Log;
    spec.waveformScale = k % 2 ? cs::WaveformScale::CodeValue : cs::WaveformScale::Ire;
    spec.vectorscopeZoom = 1 + k % 2;
    spec.filter.blurRadius = 1 + k % 8;
    spec.filter.zebraLowIre = k % 2 ? 70.0f : -1.0f;
    if (k % 4 == 1) spec.colorOverride.matrix = cs::Matrix::Bt2020Ncl;
    if (k % 4 == 2) spec.colorOverride.range = cs::Range::Full;
    // Display images smaller than the defaults: the same drawing code, a quarter of the work.
    spec.scopeWidth = 256 + 64 * (k % 3);
    spec.scopeHeight = 135;
    spec.vectorscopeSize = 135 + 16 * (k % 2);
    return spec;
}

void measure(cs::Engine& engine, const cs::VideoFrame& frame, int n, size_t inputSize) {
    const cs::FrameView& view = frame.view;
    if (int64_t(view.width) * view.height > kMaxEnginePixels) return;
    const cs::ScopeSpec spec = specFor(n, inputSize);
    static cs::ScopeResults results;   // reused from frame to frame, as every caller does
    const cs::Status status = engine.process(view, spec, results);
    if (!status) {
        if (status.message().empty()) contractBroken("engine error", "(empty)");
        return;
    }
    checkCounts(results, spec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    cs::setLibraryLogging(false);   // FFmpeg's own lines would drown the fuzzer's output
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const auto engine = cs::makeCpuEngine(2);   // two strips: the merge of slots runs too

    cs::MemoryInput memory(std::span<const uint8_t>(data, size));
    if (!memory.io()) return 0;
    cs::DemuxSetup setup;
    setup.io = memory.io();
    // The bytes are all there is: no playlist, reference or segment may open another file or URL.
    setup.options = {{"protocol_whitelist", "none"}};
    cs::OpenOptions options;
    options.hwdec = cs::HwDecode::None;
    options.decoderThreads = 1;   // one decoding thread: a crash reproduces from its input alone

    auto opened = cs::openFileSource(kInput, options, setup);
    if (!opened) {
        checkMessage(opened.message());
        return 0;
    }
    cs::Source& source = *opened.value();
    for (const std::string& warning : source.takeWarnings()) checkMessage(warning);

    cs::VideoFrame frame;
    for (int n = 0; n < kMaxFrames; ++n) {
        const cs::ReadResult r = source.read(frame);
        for (const std::string& warning : source.takeWarnings()) checkMessage(warning);
        if (r.status == cs::ReadStatus::Error) checkMessage(r.message);
        if (r.status != cs::ReadStatus::Frame) break;
        measure(*engine, frame, n, size);
        frame = {};
        // Half-way, a seek to the middle of the stream, as the window's slider does.
        if (n == kMaxFrames / 2 - 1 && source.info().seekable && source.info().duration > 0) {
            const cs::Status s = source.seek(source.info().duration / 2);
            if (!s) {
                checkMessage(s.message());
                break;
            }
        }
    }
    for (const std::string& warning : source.takeWarnings()) checkMessage(warning);
    return 0;
}
