#include "CommandOptions.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>

#include <algorithm>

#include "app/export/ExportOptions.h"
#include "core/Parse.h"

namespace cs {
namespace {

// Arguments travel through Qt as Latin-1, one character per byte, so that any byte string
// (a file name in another encoding) comes back unchanged; option names are ASCII.
QString toQt(const std::string& s) { return QString::fromLatin1(s.data(), qsizetype(s.size())); }
std::string fromQt(const QString& s) { return s.toLatin1().toStdString(); }

// An argument as a message shows it: as typed when it is plain, else quoted.
std::string shown(const std::string& arg) {
    const bool plain = !arg.empty() && arg.size() <= 64 &&
                       std::all_of(arg.begin(), arg.end(), [](char c) { return c > ' ' && c < 0x7f && c != '\''; });
    return plain ? arg : quotedValue(arg);
}

// The option name an argument names ("--out=x" -> "out", "-h" -> "h"); "" for an argument
// that is not an option.
std::string optionName(const std::string& arg) {
    if (arg.size() < 2 || arg[0] != '-') return {};
    const size_t start = arg[1] == '-' ? 2 : 1;
    return arg.substr(start, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - start);
}

const OptionDef* findOption(const std::vector<OptionDef>& options, const std::string& name) {
    for (const auto& o : options)
        if (std::find(o.names.begin(), o.names.end(), name) != o.names.end()) return &o;
    return nullptr;
}

// The sentence for a failed QCommandLineParser::parse, in our words.
std::string parseFailure(const QCommandLineParser& parser, const std::vector<std::string>& args,
                         const std::vector<OptionDef>& options) {
    // The arguments up to `--` (after it, everything is an argument).
    const auto end = std::find(args.begin(), args.end(), std::string("--"));
    if (!parser.unknownOptionNames().isEmpty()) {
        const std::string name = fromQt(parser.unknownOptionNames().front());
        for (auto it = args.begin(); it != end; ++it)
            if (it->size() > 1 && it->front() == '-' && optionName(*it) == name)
                return "unknown option " + shown(name.empty() ? *it : it->substr(0, it->find('=')));
        return "unknown option " + shown("--" + name);
    }
    if (end == args.end() && !args.empty()) {
        const std::string& last = args.back();
        const OptionDef* o = findOption(options, optionName(last));
        if (o && o->takesValue() && last.find('=') == std::string::npos) return shown(last) + " needs a value";
    }
    for (auto it = args.begin(); it != end; ++it) {
        const OptionDef* o = findOption(options, optionName(*it));
        if (o && !o->takesValue() && it->find('=') != std::string::npos)
            return shown(it->substr(0, it->find('='))) + " takes no value";
    }
    return fromQt(parser.errorText());
}

}  // namespace

std::vector<std::string> argumentsOf(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i) args.emplace_back(argv[i]);
    return args;
}

bool ParsedOptions::isSet(const std::string& name) const { return std::find(set_.begin(), set_.end(), name) != set_.end(); }

std::optional<std::string> ParsedOptions::value(const std::string& name) const {
    for (const auto& [n, v] : values_)
        if (n == name) return v;
    return std::nullopt;
}

Result<ParsedOptions> parseOptions(const std::vector<std::string>& args, const std::vector<OptionDef>& options) {
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    for (const auto& o : options) {
        QStringList names;
        for (const auto& n : o.names) names << toQt(n);
        parser.addOption(QCommandLineOption(names, QString(), o.takesValue() ? QStringLiteral("value") : QString()));
    }
    QStringList qargs{QStringLiteral("cudascope")};   // parse() skips the program's name
    for (const auto& a : args) qargs << toQt(a);
    if (!parser.parse(qargs)) return Status::error(parseFailure(parser, args, options));

    ParsedOptions parsed;
    for (const auto& o : options) {
        const std::string& name = o.names.front();
        if (!parser.isSet(toQt(name))) continue;
        parsed.set_.push_back(name);
        if (!o.takesValue()) continue;
        const QStringList values = parser.values(toQt(name));
        if (values.size() > 1) return Status::error("--" + o.names.back() + " is given more than once");
        parsed.values_.emplace_back(name, fromQt(values.front()));
    }
    for (const auto& p : parser.positionalArguments()) parsed.positional_.push_back(fromQt(p));
    return parsed;
}

const std::vector<std::string_view> kEngineChoices{"auto", "cpu", "cuda"};
const std::vector<std::string_view> kHwdecChoices{"auto", "nvdec", "none"};
const std::vector<std::string_view> kPreviewChoices{"blur", "gaussian", "edges", "peaking", "median", "zebra", "falsecolour", "gamut"};
const std::vector<std::string_view> kGamutTargetChoices{"bt709", "p3", "bt2020"};
const std::vector<std::string_view> kBenchEngineChoices{"cpu", "cuda", "both"};

namespace shared {
OptionDef help() { return {{"h", "help"}}; }
OptionDef engine() { return {{"engine"}, "E", kEngineChoices, "{|} (default auto)"}; }
OptionDef hwdec() { return {{"hwdec"}, "H", kHwdecChoices, "{|} (default auto with the CUDA engine, else none)"}; }
OptionDef preview(bool allowNone, std::string help) {
    std::vector<std::string_view> choices = kPreviewChoices;
    if (allowNone) choices.push_back("none");
    return {{"preview"}, "F", choices, std::move(help)};
}
OptionDef gamutTarget(std::string help) { return {{"gamut-target"}, "G", kGamutTargetChoices, std::move(help)}; }
OptionDef peakingColour() {
    return {{"peaking-colour"}, "C", {}, "focus peaking's colour: red, green, blue, yellow, cyan, magenta, white\nor RRGGBB in hex (default red)"};
}
OptionDef peakingWidth() {
    return {{"peaking-width"}, "W", {"1", "2", "3"},
            "focus peaking's width, 1|2|3 px: the edges widened by W - 1 pixels on every\nside (default 1)"};
}
OptionDef threads(std::string help) { return {{"threads"}, "N", {}, std::move(help)}; }
}  // namespace shared

std::string optionHelp(const OptionDef& option) {
    std::string text = option.help;
    std::string bars, commas;
    for (const auto& c : option.choices) {
        if (!bars.empty()) {
            bars += '|';
            commas += ", ";
        }
        bars += c;
        commas += c;
    }
    for (const auto& [token, with] : {std::pair<std::string, std::string>{"{|}", bars}, {"{,}", commas}, {"{or}", joinNames(option.choices)}})
        for (size_t at; (at = text.find(token)) != std::string::npos;) text.replace(at, token.size(), with);
    return text;
}

std::string usageText(const std::string& head, const std::vector<OptionDef>& options, size_t column, const std::string& foot) {
    std::string out = head;
    for (const OptionDef& o : options) {
        if (o.help.empty()) continue;
        std::string line = "  --" + o.names.back() + (o.takesValue() ? " " + o.value : "");
        line.resize(std::max(column, line.size() + 2), ' ');
        const std::string text = optionHelp(o);
        for (size_t begin = 0;;) {
            const size_t end = text.find('\n', begin);
            out += line + text.substr(begin, end - begin) + "\n";
            if (end == std::string::npos) break;
            line.assign(column, ' ');
            begin = end + 1;
        }
    }
    return out + foot;
}

Result<std::string> parseEngineChoice(const std::string& v) { return parseChoice(v, kEngineChoices); }

Result<std::string> parseHwdecChoice(const std::string& v) { return parseChoice(v, kHwdecChoices); }

Result<PreviewFilter> parsePreviewChoice(const std::string& v, bool allowNone) {
    const auto p = previewFromName(v);
    if (!p || (!allowNone && *p == PreviewFilter::None)) return Status::error("must be " + joinNames(kPreviewChoices) + ", not " + quotedValue(v));
    return *p;
}

namespace {

// The one INPUT a command takes, or the usage error: none, or a second one.
Result<std::string> singleInput(const ParsedOptions& parsed, bool required) {
    const auto& p = parsed.positional();
    if (p.size() > 1) return Status::error("one INPUT only: unexpected argument " + quotedValue(p[1]));
    if (p.empty() || p.front().empty()) {
        if (required) return Status::error(p.empty() ? "missing INPUT" : "INPUT is empty");
        return std::string();
    }
    return p.front();
}

}  // namespace

Result<std::string> requiredInput(const ParsedOptions& parsed) { return singleInput(parsed, true); }

// The window's options; its usage is the program's (app/main.cpp), hand-written.
const std::vector<OptionDef>& windowOptionTable() {
    static const std::vector<OptionDef> table{shared::help(),
                                              {{"version"}},
                                              {{"compare"}, "B", {}, "", OptionValue::File},
                                              {{"wall"}, "FILE", {}, "", OptionValue::File}};
    return table;
}

Result<WindowOptions> parseWindowArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, windowOptionTable());
    if (!parsed) {
        // An export option given to the window: say where it belongs.
        std::string message = parsed.message();
        for (const OptionDef& o : exportOptionTable())
            if (o.takesValue() && message == "unknown option --" + o.names.back())
                message += " (the window takes only INPUT, --compare and --wall; --" + o.names.back() + " is an option of `cudascope export`)";
        return Status::error(message);
    }
    WindowOptions o;
    o.help = parsed->isSet("h");
    o.version = parsed->isSet("version");
    if (o.version && !o.help) {   // `--version` alone: anything more is a mistake, not ignored
        if (!parsed->positional().empty())
            return Status::error("--version takes no other argument: unexpected " + quotedValue(parsed->positional()[0]));
        for (const char* other : {"compare", "wall"})
            if (parsed->value(other)) return Status::error(std::string("--version takes no other argument: unexpected --") + other);
    }
    // The wall: --wall FILE, or several INPUTs.
    const auto& positional = parsed->positional();
    if (parsed->value("compare") && (parsed->value("wall") || positional.size() > 1))
        return Status::error("--compare compares one INPUT with B; a wall (several INPUTs or --wall) has no B");
    if (const auto wall = parsed->value("wall")) {
        if (wall->empty()) return Status::error("--wall needs a file");
        if (!positional.empty()) return Status::error("--wall FILE takes no INPUT: unexpected argument " + quotedValue(positional[0]));
        o.wallFile = *wall;
        return o;
    }
    if (positional.size() > 1) {
        for (const std::string& p : positional)
            if (p.empty()) return Status::error("INPUT is empty");
        o.wallInputs = positional;
        return o;
    }
    auto input = singleInput(*parsed, false);
    if (!input) return input.status();
    o.input = *input;
    if (const auto v = parsed->value("compare")) {
        if (v->empty()) return Status::error("--compare needs an input (a file, pattern:..., a URL or a camera)");
        o.compare = *v;
    }
    return o;
}

const std::vector<OptionDef>& probeOptionTable() {
    static const std::vector<OptionDef> table{shared::help()};
    return table;
}

Result<ProbeOptions> parseProbeArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, probeOptionTable());
    if (!parsed) return parsed.status();
    ProbeOptions o;
    o.help = parsed->isSet("h");
    if (o.help) return o;
    auto input = singleInput(*parsed, true);
    if (!input) return input.status();
    o.input = *input;
    return o;
}

const std::vector<OptionDef>& benchOptionTable() {
    static const std::vector<OptionDef> table{
        shared::help(),
        {{"engine"}, "E", kBenchEngineChoices, "{or} (default: both where CUDA is available)"},
        {{"frames"}, "N", {}, "frames timed per case, 1 to 1000000 (default 30)"},
        shared::hwdec().withHelp("{or}: decoder for the NVDEC rows of a file input (default auto)"),
        shared::threads("CPU engine threads, 0 to 1024 (default 0: all hardware threads)")};
    return table;
}

std::string benchUsage() {
    static const std::string usage = usageText(
        "usage: cudascope bench [INPUT] [options]\n"
        "  INPUT               a media file or a pattern (default: pattern:zoneplate at 1920x1080 and\n"
        "                      3840x2160, 8 and 10 bit)\n",
        benchOptionTable(), 22,
        "Times Engine::process() per frame, headless, as `cudascope export` computes it: all scopes,\n"
        "statistics and display images with the counts (.npy) and without (--no-npy),\n"
        "--scopes stats,histogram, and all scopes with the CIE diagram and the gamut check (target\n"
        "BT.709), with and without the counts; prints the median of each engine and their ratio, and\n"
        "the CPU engine's CPU time per frame.\n");
    return usage;
}

Result<BenchOptions> parseBenchArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, benchOptionTable());
    if (!parsed) return parsed.status();
    BenchOptions o;
    o.help = parsed->isSet("h");
    if (o.help) return o;
    OptionReader option(*parsed);
    option("engine", [&](const std::string& v) {
        auto engine = parseChoice(v, kBenchEngineChoices);
        if (engine) o.engine = *engine;
        return engine.status();
    });
    option("frames", [&](const std::string& v) {
        auto frames = parseCount(v, 1000000);
        if (frames) o.frames = int(*frames);
        return frames.status();
    });
    option("hwdec", [&](const std::string& v) {
        auto hwdec = parseHwdecChoice(v);
        if (hwdec) o.hwdec = *hwdec;
        return hwdec.status();
    });
    option("threads", [&](const std::string& v) {
        auto threads = parseWholeNumber(v, 0, 1024);
        if (threads) o.threads = int(*threads);
        return threads.status();
    });
    if (!option.failure()) return option.failure();
    for (const auto& input : parsed->positional()) {
        if (input.empty()) return Status::error("an INPUT is empty");
        o.inputs.push_back(input);
    }
    return o;
}

}  // namespace cs
