#include "RecordOptions.h"

#include <charconv>

#include "core/Parse.h"
#include "core/PeakingColour.h"
#include "core/PeakingWidth.h"

namespace cs {

namespace {

const std::vector<std::string_view> kLayoutChoices{"picture", "preview", "scopes", "composite"}, kCodecChoices{"h264", "hevc"},
    kConvertChoices{"auto", "cpu", "cuda", "swscale"};

// Seconds: digits with an optional fraction ("10", "2.5"), above 0 and at most a day.
Result<double> parseSeconds(std::string_view text) {
    const auto bad = [&] { return Status::error("must be a number of seconds above 0 (e.g. 10 or 2.5), not " + quotedValue(text)); };
    const size_t dot = text.find('.');
    const std::string_view whole = text.substr(0, dot), frac = dot == std::string_view::npos ? "" : text.substr(dot + 1);
    const auto digits = [](std::string_view s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (!digits(whole) || (dot != std::string_view::npos && !digits(frac)) || text.size() > 16) return bad();
    double v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || !(v > 0)) return bad();
    if (v > 86400) return Status::error("must be at most 86400 (a day), not " + quotedValue(text));
    return v;
}

}  // namespace

const std::vector<OptionDef>& recordOptionTable() {
    static const std::vector<OptionDef> table{
        shared::help(),
        {{"out"}, "FILE", {}, "the recording: .mp4 (fragmented: playable up to the last second if cut off) or .mkv", OptionValue::File},
        {{"frames"}, "N", {}, "stop after N frames"},
        {{"seconds"}, "S", {}, "stop after S seconds of video (e.g. 10 or 2.5)\n(neither: until the input ends, or Ctrl+C)"},
        {{"layout"}, "L", kLayoutChoices, "{|} (default picture)"},
        {{"size"}, "WxH", {}, "the recording's size, even, 64x64 to 8192x8192 (default: the source's size\n"
                              "for picture and preview, 1920x1080 for scopes and composite)"},
        shared::preview(false, "the preview's filter: {,}\n(default peaking for --layout preview)"),
        shared::peakingColour(),
        shared::peakingWidth(),
        {{"codec"}, "C", kCodecChoices, "{|} (default h264): NVENC where the GPU has it, else libx264/libx265"},
        {{"bitrate"}, "B", {}, "bits per second, e.g. 8000000 (default: constant quality)"},
        {{"quality"}, "Q", {}, "constant quality, 0 (best) to 51 (default 20)"},
        shared::engine(),
        {{"convert"}, "C", kConvertChoices, "{|}: where RGBA becomes 4:2:0 for the encoder (default auto:\n"
                                            "the GPU with the CUDA engine, its frames fed to NVENC or downloaded once for\n"
                                            "libx264; else the CPU; swscale: FFmpeg's conversion, for comparison)"},
        shared::hwdec(),
        {{"realtime"}, "", {}, "a file: each frame at its time, as a live source brings it, and the frames the\n"
                               "encoder cannot take in time dropped and counted (else the file waits for it)"}};
    return table;
}

const std::string& recordUsage() {
    static const std::string usage = usageText(
        "usage: cudascope record INPUT --out FILE [options]\n"
        "  INPUT                 a media file, a live URL or camera, or pattern:bars|ramp|zoneplate[:10bit][:WxH]\n",
        recordOptionTable(), 24,
        "Each option is given at most once; --frames and --seconds exclude each other, as do --bitrate and --quality.\n");
    return usage;
}

Result<RecordOptions> parseRecordArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, recordOptionTable());
    if (!parsed) return parsed.status();
    RecordOptions a;
    a.help = parsed->isSet("h");
    if (a.help) return a;

    OptionReader option(*parsed);
    option("out", [&](const std::string& v) {
        if (v.empty()) return Status::error("must name a file, not ''");
        a.out = v;
        return Status{};
    });
    option("frames", [&](const std::string& v) {
        auto n = parseCount(v, 100000000);
        if (n) a.frames = long(*n);
        return n.status();
    });
    option("seconds", [&](const std::string& v) {
        auto s = parseSeconds(v);
        if (s) a.seconds = *s;
        return s.status();
    });
    option("layout", [&](const std::string& v) {
        auto l = parseChoice(v, kLayoutChoices);
        if (l) a.layout = *l == "picture" ? MonitorLayout::Picture : *l == "preview" ? MonitorLayout::Preview
                          : *l == "scopes" ? MonitorLayout::Scopes : MonitorLayout::Composite;
        return l.status();
    });
    option("size", [&](const std::string& v) {
        auto size = parseSize(v, {64, 64}, {8192, 8192});
        if (!size) return size.status();
        if (size->width % 2 || size->height % 2)
            return Status::error("must have an even width and height (4:2:0 video), not " + quotedValue(v));
        a.width = size->width;
        a.height = size->height;
        return Status{};
    });
    option("preview", [&](const std::string& v) {
        auto p = parsePreviewChoice(v, false);
        if (p) a.preview = *p;
        return p.status();
    });
    option("peaking-colour", [&](const std::string& v) {
        auto c = parsePeakingColour(v);
        if (c) a.filter.peakingColour = *c;
        return c.status();
    });
    option("peaking-width", [&](const std::string& v) {
        auto w = parsePeakingWidth(v);
        if (w) a.filter.peakingWidth = *w;
        return w.status();
    });
    option("codec", [&](const std::string& v) {
        auto c = parseChoice(v, kCodecChoices);
        if (c) a.codec = *c;
        return c.status();
    });
    option("bitrate", [&](const std::string& v) {
        auto b = parseWholeNumber(v, 10000, 1000000000);
        if (b) a.bitrate = *b;
        return b.status();
    });
    option("quality", [&](const std::string& v) {
        auto q = parseWholeNumber(v, 0, 51);
        if (q) a.quality = int(*q);
        return q.status();
    });
    option("engine", [&](const std::string& v) {
        auto e = parseEngineChoice(v);
        if (e) a.engine = *e;
        return e.status();
    });
    option("convert", [&](const std::string& v) {
        auto c = parseChoice(v, kConvertChoices);
        if (c) a.convert = *c;
        return c.status();
    });
    option("hwdec", [&](const std::string& v) {
        auto h = parseHwdecChoice(v);
        if (h) a.hwdec = *h;
        return h.status();
    });
    a.realtime = parsed->isSet("realtime");
    if (!option.failure()) return option.failure();
    if (parsed->value("frames") && parsed->value("seconds")) return Status::error("--frames and --seconds exclude each other");
    if (parsed->value("bitrate") && parsed->value("quality")) return Status::error("--bitrate and --quality exclude each other");

    auto input = requiredInput(*parsed);
    if (!input) return input.status();
    a.input = *input;
    if (!parsed->value("out")) return Status::error("missing --out FILE");
    if (a.layout == MonitorLayout::Preview && a.preview == PreviewFilter::None) a.preview = PreviewFilter::FocusPeaking;
    return a;
}

}  // namespace cs
