#include "ExportOptions.h"

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <string_view>

#include "app/cli/Commands.h"
#include "core/Parse.h"
#include "core/PeakingColour.h"
#include "core/PeakingWidth.h"
#include "scope/ReferenceLines.h"

namespace cs {

namespace {

const std::vector<std::string_view> kScopeNames{"picture", "histogram", "waveform", "parade", "vectorscope", "stats", "cie"};
constexpr Size kMinScopeSize{64, 64}, kMaxScopeSize{8192, 8192};
constexpr double kMaxLiveTimeout = 7 * 24 * 3600.0;   // a week
const std::vector<std::string_view> kCieChoices{"xy", "uv"}, kParadeChoices{"rgb", "ycbcr"},
    kMatrixChoices{"601", "709", "2020"}, kRangeChoices{"limited", "full"}, kTransferChoices{"sdr", "pq", "hlg"},
    kHistogramScaleChoices{"linear", "log"}, kWaveformScaleChoices{"ire", "code"},
    kWaveformModeChoices{"luma", "rgb", "yrgb"}, kTraceColourChoices{"channel", "green", "white"}, kZoomChoices{"1", "2", "4", "8", "16"},
    kGamutDisplayChoices{"diamond", "split-diamond", "arrowhead", "lightning"}, kArrowheadLimitChoices{"ntsc", "ntsc-110", "pal"};

// The names of the files an export writes per frame (see README "Export files"):
// NNNNNN-KIND.png or .npy, six or more digits, KIND a scope, preview-NAME (NAME in a-z) or
// gamut-MODE (a gamut display's name).
// (Not std::regex: GCC 12's <regex> trips -Wmaybe-uninitialized inside libstdc++ under
// the asan preset's -O1 -fsanitize=address.)
bool isExportFileName(std::string_view name) {
    if (name == "report.json") return true;
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    const auto isLower = [](char c) { return c >= 'a' && c <= 'z'; };
    const size_t digits = size_t(std::find_if_not(name.begin(), name.end(), isDigit) - name.begin());
    if (digits < 6 || name.substr(digits, 1) != "-") return false;
    name.remove_prefix(digits + 1);
    if (!name.ends_with(".png") && !name.ends_with(".npy")) return false;
    name.remove_suffix(4);
    for (const std::string_view kind : {"picture", "histogram", "waveform", "parade", "vectorscope", "cie"})
        if (name == kind) return true;
    if (name.starts_with("gamut-")) {
        const auto mode = gamutDisplayFromName(name.substr(6));
        return mode && *mode != GamutDisplay::None;
    }
    if (!name.starts_with("preview-")) return false;
    name.remove_prefix(8);
    return !name.empty() && std::all_of(name.begin(), name.end(), isLower);
}

}  // namespace

const std::vector<OptionDef>& exportOptionTable() {
    static const std::vector<OptionDef> table{
        shared::help(),
        {{"out"}, "DIR", {}, "output folder: new, empty, or holding an earlier export (created if missing)", OptionValue::Folder},
        {{"every"}, "N", {}, "export every Nth frame (default 1)"},
        {{"max-frames"}, "N", {}, "stop after N exported frames (default: all)"},
        shared::engine(),
        shared::hwdec(),
        {{"scopes"}, "LIST", {}, "comma list of picture,histogram,waveform,parade,vectorscope,stats\n"
                                 "(default: all of them), and cie: the CIE chromaticity scope and\n"
                                 "the share of pixels outside --gamut-target (not in the default)"},
        shared::gamutTarget("cie: {|}, the gamut checked against (default bt709)"),
        {{"cie"}, "xy|uv", kCieChoices, "cie: CIE 1931 xy or CIE 1976 u'v' (default xy)"},
        {{"gamut-display"}, "MODE", kGamutDisplayChoices, "also write a gamut display and its counts: {|}\n"
                                                          "(NNNNNN-gamut-MODE.png and .npy)"},
        {{"arrowhead-limit"}, "L", kArrowheadLimitChoices, "arrowhead: the composite limits, {|}: 120 IRE / -24 IRE,\n"
                                                           "110 IRE / -24 IRE, 930 mV / -230 mV (default ntsc)"},
        {{"parade"}, "rgb|ycbcr", kParadeChoices, "parade components (default rgb)"},
        shared::preview(true, "also write a filtered preview: blur, gaussian, edges, peaking,\n"
                              "median, zebra, falsecolour, gamut (pixels outside\n"
                              "--gamut-target painted magenta)"),
        {{"matrix"}, "M", kMatrixChoices, "override the stream's matrix: {|}"},
        {{"range"}, "R", kRangeChoices, "override the stream's range: {|}"},
        {{"transfer"}, "T", kTransferChoices, "override the stream's transfer: {|} (HDR light levels for pq, hlg)"},
        {{"histogram-scale"}, "S", kHistogramScaleChoices, "{|} (default linear)"},
        {{"waveform-scale"}, "S", kWaveformScaleChoices, "{|} (default ire)"},
        {{"waveform-mode"}, "M", kWaveformModeChoices, "{|}: luma, R'G'B' overlaid, or Y R G B panels (default luma;\n"
                                                       "rgb and yrgb read the R'G'B' parade's counts: not with --parade ycbcr)"},
        {{"reference-lines"}, "L", {}, "lines over the waveform and parade: a comma list of 5% (IRE),\n"
                                       "16:8 (8-bit code), 64:10 (10-bit code), 502 (code at the source's depth),\n"
                                       "at most 8, or none (default none)"},
        {{"trace-colour"}, "C", kTraceColourChoices, "{|} (default channel: luma green, R'G'B' in their\n"
                                                     "colours, the vectorscope by hue)"},
        {{"vectorscope-zoom"}, "Z", kZoomChoices, "{|} (default 1)"},
        shared::peakingColour(),
        shared::peakingWidth(),
        {{"size"}, "WxH", {}, "waveform/parade/histogram image size, 64x64 to 8192x8192 (default 1024x540)"},
        {{"timeout"}, "SECONDS", {}, "live: give up (exit 1, report kept) after this long without a picture,\n"
                                     "whether the stream never came or did not come back (default 30)"},
        {{"all-frames"}, "", {}, "live: keep every frame (a bounded backlog) instead of the newest"},
        {{"no-npy"}, "", {}, "no .npy counts (the scope PNGs and report.json only)"}};
    return table;
}

const std::string& exportUsage() {
    static const std::string usage = usageText(
        "usage: cudascope export INPUT --out DIR [options]\n"
        "  INPUT                 a media file, a live URL or camera, or pattern:bars|ramp|zoneplate[:10bit][:WxH]\n",
        exportOptionTable(), 24, "Each option is given at most once.\n");
    return usage;
}

Result<ExportOptions> parseExportArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, exportOptionTable());
    if (!parsed) return parsed.status();
    ExportOptions a;
    a.help = parsed->isSet("h");
    if (a.help) return a;

    OptionReader option(*parsed);
    option("out", [&](const std::string& v) {
        if (v.empty()) return Status::error("must name a folder, not ''");
        a.outDir = v;
        return Status{};
    });
    option("every", [&](const std::string& v) {
        auto n = parseCount(v);
        if (n) a.every = long(*n);
        return n.status();
    });
    option("max-frames", [&](const std::string& v) {
        auto n = parseCount(v);
        if (n) a.maxFrames = long(*n);
        return n.status();
    });
    option("engine", [&](const std::string& v) {
        auto e = parseEngineChoice(v);
        if (e) a.engine = *e;
        return e.status();
    });
    option("hwdec", [&](const std::string& v) {
        auto h = parseHwdecChoice(v);
        if (h) a.hwdec = *h;
        return h.status();
    });
    option("scopes", [&](const std::string& v) {
        auto list = parseList(v, kScopeNames);
        if (list) a.scopes = {list->begin(), list->end()};
        return list.status();
    });
    option("parade", [&](const std::string& v) {
        auto p = parseChoice(v, kParadeChoices);
        if (p) a.spec.paradeMode = *p == "rgb" ? ParadeMode::Rgb : ParadeMode::Ycbcr;
        return p.status();
    });
    option("preview", [&](const std::string& v) {
        auto p = parsePreviewChoice(v, true);
        if (p) a.spec.preview = *p;
        return p.status();
    });
    option("matrix", [&](const std::string& v) {
        auto m = matrixFromName(v);
        if (!m) return Status::error("must be " + joinNames(kMatrixChoices) + ", not " + quotedValue(v));
        a.spec.colorOverride.matrix = m;
        return Status{};
    });
    option("range", [&](const std::string& v) {
        auto r = rangeFromName(v);
        if (!r) return Status::error("must be " + joinNames(kRangeChoices) + ", not " + quotedValue(v));
        a.spec.colorOverride.range = r;
        return Status{};
    });
    option("transfer", [&](const std::string& v) {
        auto t = transferFromName(v);
        if (!t) return Status::error("must be " + joinNames(kTransferChoices) + ", not " + quotedValue(v));
        a.spec.colorOverride.transfer = t;
        return Status{};
    });
    option("histogram-scale", [&](const std::string& v) {
        auto s = parseChoice(v, kHistogramScaleChoices);
        if (s) a.spec.histogramScale = *s == "linear" ? HistogramScale::Linear : HistogramScale::Log;
        return s.status();
    });
    option("waveform-scale", [&](const std::string& v) {
        auto s = parseChoice(v, kWaveformScaleChoices);
        if (s) a.spec.waveformScale = *s == "ire" ? WaveformScale::Ire : WaveformScale::CodeValue;
        return s.status();
    });
    option("waveform-mode", [&](const std::string& v) {
        auto m = parseChoice(v, kWaveformModeChoices);
        if (m) a.spec.waveformMode = *m == "luma" ? WaveformMode::Luma : (*m == "rgb" ? WaveformMode::RgbOverlay : WaveformMode::Yrgb);
        return m.status();
    });
    option("reference-lines", [&](const std::string& v) {
        auto lines = parseReferenceLines(v);
        if (lines) a.spec.referenceLines = *lines;
        return lines.status();
    });
    option("trace-colour", [&](const std::string& v) {
        auto c = parseChoice(v, kTraceColourChoices);
        if (c) a.spec.traceColour = *c == "channel" ? TraceColour::Channel : (*c == "green" ? TraceColour::Green : TraceColour::White);
        return c.status();
    });
    option("vectorscope-zoom", [&](const std::string& v) {
        auto z = parseChoice(v, kZoomChoices);
        if (z) a.spec.vectorscopeZoom = std::stoi(*z);   // one of the choices: 1 to 16
        return z.status();
    });
    option("peaking-colour", [&](const std::string& v) {
        auto c = parsePeakingColour(v);
        if (c) a.spec.filter.peakingColour = *c;
        return c.status();
    });
    option("peaking-width", [&](const std::string& v) {
        auto w = parsePeakingWidth(v);
        if (w) a.spec.filter.peakingWidth = *w;
        return w.status();
    });
    option("size", [&](const std::string& v) {
        auto size = parseSize(v, kMinScopeSize, kMaxScopeSize);
        if (!size) return size.status();
        a.spec.scopeWidth = size->width;
        a.spec.scopeHeight = size->height;
        a.spec.vectorscopeSize = size->height;
        a.spec.cieSize = size->height;
        a.spec.gamutDisplaySize = size->height;
        return Status{};
    });
    option("gamut-target", [&](const std::string& v) {
        auto t = gamutTargetFromName(v);
        if (!t) return Status::error("must be " + joinNames(kGamutTargetChoices) + ", not " + quotedValue(v));
        a.spec.gamutTarget = *t;
        return Status{};
    });
    option("cie", [&](const std::string& v) {
        auto m = parseChoice(v, kCieChoices);
        if (m) a.spec.cieMode = *m == "uv" ? CieMode::Uv : CieMode::Xy;
        return m.status();
    });
    option("gamut-display", [&](const std::string& v) {
        auto m = parseChoice(v, kGamutDisplayChoices);
        if (m) a.spec.gamutDisplay = *gamutDisplayFromName(*m);
        return m.status();
    });
    option("arrowhead-limit", [&](const std::string& v) {
        auto l = parseChoice(v, kArrowheadLimitChoices);
        if (l) a.spec.arrowheadLimit = *arrowheadLimitFromName(*l);
        return l.status();
    });
    option("timeout", [&](const std::string& v) {
        auto t = parseSeconds(v, kMaxLiveTimeout);
        if (t) a.timeout = *t;
        return t.status();
    });
    a.allFrames = parsed->isSet("all-frames");
    a.spec.counts = !parsed->isSet("no-npy");   // the CUDA engine copies the large counts back only for .npy
    if (!option.failure()) return option.failure();
    if (a.spec.waveformMode != WaveformMode::Luma && a.spec.paradeMode == ParadeMode::Ycbcr)
        return Status::error(std::string("--waveform-mode ") + (a.spec.waveformMode == WaveformMode::Yrgb ? "yrgb" : "rgb") +
                             " draws the R'G'B' parade's counts: it cannot go with --parade ycbcr");

    auto input = requiredInput(*parsed);
    if (!input) return input.status();
    a.input = *input;
    if (!parsed->value("out")) return Status::error("missing --out DIR");

    a.spec.histogram = a.scopes.count("histogram") > 0;
    a.spec.waveform = a.scopes.count("waveform") > 0;
    a.spec.parade = a.scopes.count("parade") > 0;
    a.spec.vectorscope = a.scopes.count("vectorscope") > 0;
    a.spec.stats = a.scopes.count("stats") > 0;
    a.spec.picture = a.scopes.count("picture") > 0;
    a.spec.cie = a.scopes.count("cie") > 0;
    a.spec.displayImages = true;
    // Options of a scope that is not asked for would be ignored in silence: refused instead.
    if (parsed->value("cie") && !a.spec.cie)
        return Status::error("--cie " + *parsed->value("cie") + " sets the cie scope's diagram: add cie to --scopes");
    if (parsed->value("arrowhead-limit") && a.spec.gamutDisplay != GamutDisplay::Arrowhead)
        return Status::error("--arrowhead-limit " + *parsed->value("arrowhead-limit") +
                             " sets the arrowhead's limits: add --gamut-display arrowhead");
    if (parsed->value("gamut-target") && !a.spec.cie && a.spec.preview != PreviewFilter::Gamut)
        return Status::error("--gamut-target " + *parsed->value("gamut-target") +
                             " is the gamut checked by the cie scope and --preview gamut: add cie to --scopes or use --preview gamut");
    return a;
}

Status checkOutputFolder(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path path(dir);
    // The root, however it is spelt ("/", "//", "/..", a link to it).
    const fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (!ec && resolved == resolved.root_path())
        return Status::error(dir + ": refusing to write an export into the root of the file system (name a folder for it)");
    const fs::file_status st = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        return Status::error(dir + ": cannot use the output folder (" + ec.message() + ")");
    if (!fs::exists(st)) return {};
    if (!fs::is_directory(st)) return Status::error(dir + ": not a folder");
    bool holdsFiles = false;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (isExportFileName(name)) return {};   // an earlier export: writing over it is expected
        if (name.front() != '.' && name != "lost+found") holdsFiles = true;
    }
    if (ec) return Status::error(dir + ": cannot read the output folder (" + ec.message() + ")");
    if (holdsFiles)
        return Status::error(dir + ": the output folder holds other files and no earlier export (no report.json); "
                                   "name a new or empty folder");
    return {};
}

std::optional<int> readExportOptions(int argc, char** argv, ExportOptions& options) {
    auto parsed = parseExportArgs(argumentsOf(argc, argv));
    if (!parsed) {
        std::fprintf(stderr, "cudascope export: %s\n%s", parsed.message().c_str(), exportUsage().c_str());
        return kExitUsage;
    }
    if (parsed->help) {
        std::fputs(exportUsage().c_str(), stdout);
        return kExitOk;
    }
    if (const Status folder = checkOutputFolder(parsed->outDir); !folder) {
        std::fprintf(stderr, "cudascope export: %s\n", folder.message().c_str());
        return kExitFailure;
    }
    options = std::move(*parsed);
    return std::nullopt;
}

}  // namespace cs
