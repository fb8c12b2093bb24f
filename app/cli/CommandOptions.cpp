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
        if (o && o->takesValue && last.find('=') == std::string::npos) return shown(last) + " needs a value";
    }
    for (auto it = args.begin(); it != end; ++it) {
        const OptionDef* o = findOption(options, optionName(*it));
        if (o && !o->takesValue && it->find('=') != std::string::npos)
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
        parser.addOption(QCommandLineOption(names, QString(), o.takesValue ? QStringLiteral("value") : QString()));
    }
    QStringList qargs{QStringLiteral("cudascope")};   // parse() skips the program's name
    for (const auto& a : args) qargs << toQt(a);
    if (!parser.parse(qargs)) return Status::error(parseFailure(parser, args, options));

    ParsedOptions parsed;
    for (const auto& o : options) {
        const std::string& name = o.names.front();
        if (!parser.isSet(toQt(name))) continue;
        parsed.set_.push_back(name);
        if (!o.takesValue) continue;
        const QStringList values = parser.values(toQt(name));
        if (values.size() > 1) return Status::error("--" + o.names.back() + " is given more than once");
        parsed.values_.emplace_back(name, fromQt(values.front()));
    }
    for (const auto& p : parser.positionalArguments()) parsed.positional_.push_back(fromQt(p));
    return parsed;
}

Result<std::string> parseEngineChoice(const std::string& v) { return parseChoice(v, {"auto", "cpu", "cuda"}); }

Result<std::string> parseHwdecChoice(const std::string& v) { return parseChoice(v, {"auto", "nvdec", "none"}); }

Result<PreviewFilter> parsePreviewChoice(const std::string& v, bool allowNone) {
    static const std::vector<std::string_view> names{"blur", "gaussian", "edges", "peaking", "median", "zebra", "falsecolour", "gamut"};
    const auto p = previewFromName(v);
    if (!p || (!allowNone && *p == PreviewFilter::None)) return Status::error("must be " + joinNames(names) + ", not " + quotedValue(v));
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

Result<WindowOptions> parseWindowArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, {{{"h", "help"}}, {{"version"}}, {{"compare"}, true}, {{"wall"}, true}});
    if (!parsed) {
        // An export option given to the window: say where it belongs.
        std::string message = parsed.message();
        for (const OptionDef& o : exportOptionTable())
            if (o.takesValue && message == "unknown option --" + o.names.back())
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

Result<ProbeOptions> parseProbeArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, {{{"h", "help"}}});
    if (!parsed) return parsed.status();
    ProbeOptions o;
    o.help = parsed->isSet("h");
    if (o.help) return o;
    auto input = singleInput(*parsed, true);
    if (!input) return input.status();
    o.input = *input;
    return o;
}

Result<BenchOptions> parseBenchArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, {{{"h", "help"}}, {{"engine"}, true}, {{"frames"}, true}, {{"hwdec"}, true},
                                            {{"threads"}, true}});
    if (!parsed) return parsed.status();
    BenchOptions o;
    o.help = parsed->isSet("h");
    if (o.help) return o;
    if (const auto v = parsed->value("engine")) {
        auto engine = parseChoice(*v, {"cpu", "cuda", "both"});
        if (!engine) return Status::error("--engine " + engine.message());
        o.engine = *engine;
    }
    if (const auto v = parsed->value("frames")) {
        auto frames = parseCount(*v, 1000000);
        if (!frames) return Status::error("--frames " + frames.message());
        o.frames = int(*frames);
    }
    if (const auto v = parsed->value("hwdec")) {
        auto hwdec = parseHwdecChoice(*v);
        if (!hwdec) return Status::error("--hwdec " + hwdec.message());
        o.hwdec = *hwdec;
    }
    if (const auto v = parsed->value("threads")) {
        auto threads = parseWholeNumber(*v, 0, 1024);
        if (!threads) return Status::error("--threads " + threads.message());
        o.threads = int(*threads);
    }
    for (const auto& input : parsed->positional()) {
        if (input.empty()) return Status::error("an INPUT is empty");
        o.inputs.push_back(input);
    }
    return o;
}

}  // namespace cs
