// fuzz_parsers: what users type, through every parser that reads it.
//   - the input as one string: core/Parse (whole numbers, counts, sizes, frame rates,
//     choices, lists, quoting), the colour and preview names, reference lines, peaking
//     colours and widths, pattern specs
//     (decode/PatternSource; a small pattern's first frame is drawn and measured), live
//     inputs (decode/LiveInput: the string as given and after the prefixes of a camera
//     and of the network schemes, so mutations land in the options);
//   - the input split at NUL bytes (what no shell argument can hold) as a command line:
//     export, the window, probe and bench (app/export/ExportOptions, app/cli/CommandOptions); an
//     accepted export's scope spec is run through the CPU engine on a small frame.
// Checks, beyond the sanitizers: every message is one line (a typed newline is echoed
// escaped) and names what it is about; accepted values are within the stated bounds and
// read back the same.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/CommandOptions.h"
#include "app/export/ExportOptions.h"
#include "core/Color.h"
#include "core/Engine.h"
#include "core/Parse.h"
#include "core/PeakingColour.h"
#include "core/PeakingWidth.h"
#include "scope/ReferenceLines.h"
#include "core/ScopeSpec.h"
#include "decode/LiveInput.h"
#include "decode/PatternSource.h"
#include "cpu/CpuEngine.h"

namespace {

[[noreturn]] void broken(const char* what, std::string_view detail) {
    std::fprintf(stderr, "fuzz_parsers: %s: \"%.*s\"\n", what, int(detail.size()), detail.data());
    std::abort();
}

void oneLine(const std::string& message) {
    if (message.empty()) broken("empty message", message);
    if (message.find_first_of("\r\n") != std::string::npos) broken("message is more than one line", message);
}

// "<input>: <reason>", the reason one line (the input is the user's own text).
void namesInput(const std::string& input, const std::string& message) {
    if (message.rfind(input + ": ", 0) != 0) broken("message does not start with the input", message);
    oneLine(message.substr(input.size() + 2));
}

void coreParsers(const std::string& s) {
    if (auto n = cs::parseWholeNumber(s, 0, INT64_MAX)) {
        if (*n < 0 || cs::parseWholeNumber(std::to_string(*n), 0, INT64_MAX).value() != *n) broken("whole number", s);
    } else {
        oneLine(n.message());
    }
    if (auto n = cs::parseWholeNumber(s, 3, 1000); n && (*n < 3 || *n > 1000)) broken("whole number out of range", s);
    if (auto n = cs::parseCount(s, 1000000)) {
        if (*n < 1 || *n > 1000000) broken("count out of range", s);
    } else {
        oneLine(n.message());
    }
    const cs::Size min{1, 2}, max{16384, 8192};
    const bool sizeShape = cs::isSizeSyntax(s);
    if (auto size = cs::parseSize(s, min, max)) {
        if (!sizeShape) broken("size accepted without a size's shape", s);
        if (size->width < min.width || size->width > max.width || size->height < min.height || size->height > max.height)
            broken("size out of range", s);
        if (cs::parseSize(cs::sizeText(*size), min, max).value() != *size) broken("size does not read back", s);
    } else {
        oneLine(size.message());
    }
    if (auto rate = cs::parseFrameRate(s)) {
        if (!(*rate > 0.0 && *rate <= 100000.0) || !std::isfinite(*rate)) broken("frame rate out of range", s);
    } else {
        oneLine(rate.message());
    }
    const std::vector<std::string_view> names{"picture", "histogram", "waveform", "parade", "vectorscope", "stats"};
    if (auto choice = cs::parseChoice(s, names)) {
        if (*choice != s) broken("choice changed", s);
    } else {
        oneLine(choice.message());
    }
    if (auto list = cs::parseList(s, names)) {
        if (list->empty() || list->size() > names.size()) broken("list size", s);
        std::string joined;
        for (const auto& item : *list) joined += (joined.empty() ? "" : ",") + item;
        if (joined != s) broken("list does not read back", s);
    } else {
        oneLine(list.message());
    }
    const std::string quoted = cs::quotedValue(s);
    oneLine(quoted);
    if (quoted.size() > 2 + 4 * 64 + 3) broken("quoted value too long", quoted);
    if (const auto m = cs::matrixFromName(s)) (void)cs::matrixName(*m);
    if (const auto r = cs::rangeFromName(s)) (void)cs::rangeName(*r);
    if (const auto t = cs::transferFromName(s)) (void)cs::transferName(*t);
    if (const auto p = cs::previewFromName(s); p && cs::previewFromName(cs::previewName(*p)) != p)
        broken("preview name does not read back", s);
    if (auto lines = cs::parseReferenceLines(s)) {
        if (lines->count < 0 || lines->count > cs::ReferenceLines::kMax) broken("reference line count", s);
        auto again = cs::parseReferenceLines(cs::referenceLinesText(*lines));
        if (!again || again->count != lines->count) broken("reference lines do not read back", s);
    } else {
        oneLine(lines.message());
    }
    if (auto colour = cs::parsePeakingColour(s)) {
        if (cs::parsePeakingColour(cs::peakingColourText(*colour)).value() != *colour) broken("peaking colour does not read back", s);
    } else {
        oneLine(colour.message());
    }
    if (auto width = cs::parsePeakingWidth(s)) {
        if (*width < cs::kMinPeakingWidth || *width > cs::kMaxPeakingWidth || std::to_string(*width) != s) broken("peaking width", s);
    } else {
        oneLine(width.message());
    }
}

cs::Engine& engine() {
    static const auto e = cs::makeCpuEngine(1);
    return *e;
}

// The first frame of a pattern, drawn, then measured with `spec`.
void drawAndMeasure(cs::Source& source, const cs::ScopeSpec& spec) {
    cs::VideoFrame frame;
    const cs::ReadResult r = source.read(frame);
    if (r.status != cs::ReadStatus::Frame) {
        namesInput(source.info().input, r.message);
        return;
    }
    if (frame.view.width != source.info().width || frame.view.height != source.info().height)
        broken("pattern frame size differs from its info", source.info().input);
    static cs::ScopeResults results;   // reused, as every caller does
    if (const cs::Status s = engine().process(frame.view, spec, results); !s) broken("engine refused a pattern frame", s.message());
}

cs::ScopeSpec smallSpec() {
    cs::ScopeSpec spec;
    spec.scopeWidth = 64;
    spec.scopeHeight = 64;
    spec.vectorscopeSize = 64;
    return spec;
}

void patternSpec(const std::string& input) {
    auto spec = cs::parsePatternSpec(input);
    if (!spec) {
        namesInput(input, spec.message());
        return;
    }
    if (!cs::isPatternInput(input)) broken("pattern spec without the pattern: prefix", input);
    if (spec->width < 1 || spec->height < 1 || spec->width > cs::kMaxDimension || spec->height > cs::kMaxDimension ||
        (spec->depth != 8 && spec->depth != 10))
        broken("pattern spec out of range", input);
}

void pattern(const std::string& input) {
    auto opened = cs::openPatternSource(input);
    if (!opened) {
        namesInput(input, opened.message());
        return;
    }
    const cs::SourceInfo& info = opened.value()->info();
    if (info.width < 1 || info.height < 1 || info.width > cs::kMaxDimension || info.height > cs::kMaxDimension)
        broken("pattern size out of range", input);
    // Drawing costs per pixel: small patterns only (the odd and tiny sizes are the edge cases).
    if (int64_t(info.width) * info.height <= 64 * 64) drawAndMeasure(*opened.value(), smallSpec());
}

void live(const std::string& input) {
    const bool takes = cs::isNetworkOrCameraInput(input);
    if (cs::isLiveUrlOrCamera(input) && !takes) broken("live but not taken by parseLiveInput", input);
    if (!takes) return;
    auto parsed = cs::parseLiveInput(input);
    if (!parsed) {
        namesInput(input, parsed.message());
        return;
    }
    if (parsed->input != input) broken("live input renamed", input);
    if (parsed->url.empty() && parsed->kind != cs::LiveKind::Camera) broken("live input without a URL", input);
    if (parsed->kind == cs::LiveKind::Camera &&
        (parsed->mode.width < 0 || parsed->mode.height < 0 || parsed->mode.width > cs::kMaxDimension ||
         parsed->mode.height > cs::kMaxDimension))
        broken("camera size out of range", input);
}

std::vector<std::string> splitArgs(const std::string& s) {
    std::vector<std::string> args;
    if (s.empty()) return args;
    size_t begin = 0;
    for (;;) {
        const size_t nul = s.find('\0', begin);
        args.push_back(s.substr(begin, nul == std::string::npos ? std::string::npos : nul - begin));
        if (nul == std::string::npos) break;
        begin = nul + 1;
    }
    return args;
}

// What parseExportArgs accepted must be a spec the engine takes: measured on a small frame
// when its display images are small enough to draw quickly.
void exportSpec(const cs::ExportOptions& o) {
    if (o.help) return;
    if (o.input.empty() || o.outDir.empty()) broken("export accepted without INPUT or --out", o.input);
    if (o.every < 1 || (o.maxFrames != -1 && o.maxFrames < 1)) broken("export counts out of range", o.input);
    const cs::ScopeSpec& spec = o.spec;
    if (spec.scopeWidth < 64 || spec.scopeHeight < 64 || spec.scopeWidth > 8192 || spec.scopeHeight > 8192 ||
        spec.vectorscopeSize != spec.scopeHeight)
        broken("export scope size out of range", o.input);
    if (int64_t(spec.scopeWidth) * spec.scopeHeight > 640 * 360) return;
    static auto bars = cs::openPatternSource("pattern:bars:10bit:34x6");
    drawAndMeasure(*bars.value(), spec);
    (void)bars.value()->seek(0);
}

void commandLines(const std::vector<std::string>& args) {
    if (auto e = cs::parseExportArgs(args)) exportSpec(*e);
    else oneLine(e.message());
    if (auto w = cs::parseWindowArgs(args); !w) oneLine(w.message());
    if (auto p = cs::parseProbeArgs(args); !p) oneLine(p.message());
    if (auto b = cs::parseBenchArgs(args)) {
        if (!b->help && (b->frames < 1 || b->frames > 1000000 || b->threads < 0 || b->threads > 1024))
            broken("bench numbers out of range", "");
    } else {
        oneLine(b.message());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string s(reinterpret_cast<const char*>(data), size);
    coreParsers(s);

    patternSpec(s);
    pattern(s.rfind("pattern:", 0) == 0 ? s : "pattern:" + s);
    live(s);
    if (s.find("://") == std::string::npos && s.rfind("v4l2:", 0) != 0) {
        for (const char* prefix : {"v4l2:/dev/video0?", "udp://127.0.0.1:5000?", "rtsp://camera.local/stream?",
                                   "srt://127.0.0.1:9000?", "rtp://239.0.0.1:5004?"})
            live(prefix + s);
    }

    commandLines(splitArgs(s));
    return 0;
}
