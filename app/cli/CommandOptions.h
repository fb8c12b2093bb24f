// The command line's options, read by QCommandLineParser for every command (the window,
// export, probe, bench) with one set of rules:
//   --name VALUE and --name=VALUE; -name is --name; `--` ends the options; options and
//   arguments in any order;
//   an option not in the command's table is "unknown option --name", one without its value
//   "--name needs a value", a flag given a value "--name takes no value", an option that
//   takes one value given twice "--name is given more than once";
//   numbers, sizes and lists go through core/Parse.
// Arguments are kept as the bytes the shell passed (a file name need not be UTF-8).
//
// Each parser is a plain function of the arguments after the command's name, returning the
// options or the usage error's sentence; the caller prints it as
// `cudascope <command>: <sentence>` with the command's usage and exits 2.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

// argv[0..argc) as strings.
std::vector<std::string> argumentsOf(int argc, char** argv);

struct OptionDef {
    std::vector<std::string> names;   // {"h", "help"}, {"out"}
    bool takesValue = false;
};

// What QCommandLineParser found, with the rules above applied.
class ParsedOptions {
public:
    bool isSet(const std::string& name) const;
    // The value of an option that takes one; nullopt when not given.
    std::optional<std::string> value(const std::string& name) const;
    const std::vector<std::string>& positional() const { return positional_; }

private:
    friend Result<ParsedOptions> parseOptions(const std::vector<std::string>&, const std::vector<OptionDef>&);
    std::vector<std::pair<std::string, std::string>> values_;   // name (first of its names), value
    std::vector<std::string> set_;
    std::vector<std::string> positional_;
};

Result<ParsedOptions> parseOptions(const std::vector<std::string>& args, const std::vector<OptionDef>& options);

// Reads each given option's value through its parser, `read("name", [&](const std::string& v)
// -> Status {...})`; after the first failure nothing more is read, and failure() is
// "--name <the parser's sentence>".
class OptionReader {
public:
    explicit OptionReader(const ParsedOptions& parsed) : parsed_(parsed) {}
    template <typename Apply>
    void operator()(const char* name, Apply&& apply) {
        const auto v = parsed_.value(name);
        if (!v || !failed_.ok()) return;
        if (const Status s = apply(*v); !s) failed_ = Status::error(std::string("--") + name + " " + s.message());
    }
    const Status& failure() const { return failed_; }

private:
    const ParsedOptions& parsed_;
    Status failed_;
};

// The values the commands share, each with its one usage sentence:
// --engine auto|cpu|cuda; --hwdec auto|nvdec|none; --preview's filter names (blur, gaussian,
// edges, peaking, median, zebra, falsecolour, gamut; "none" as well where allowNone).
Result<std::string> parseEngineChoice(const std::string& v);
Result<std::string> parseHwdecChoice(const std::string& v);
Result<PreviewFilter> parsePreviewChoice(const std::string& v, bool allowNone);
// The one INPUT of a command that needs one: the usage error for none, an empty one or a second.
Result<std::string> requiredInput(const ParsedOptions& parsed);

// `cudascope [INPUT]`: the window; `cudascope IN1 IN2 ...` or `cudascope --wall FILE`: the
// monitoring wall (ui/wall/WallWindow.h).
struct WindowOptions {
    bool help = false, version = false;
    std::string input;   // "" : the colour bars
    std::string compare;   // --compare B: a second input to compare with ("" : none)
    std::vector<std::string> wallInputs;   // two or more INPUTs: the wall's sources
    std::string wallFile;                  // --wall FILE
    bool wall() const { return !wallInputs.empty() || !wallFile.empty(); }
};
Result<WindowOptions> parseWindowArgs(const std::vector<std::string>& args);

// `cudascope probe INPUT`.
struct ProbeOptions {
    bool help = false;
    std::string input;
};
Result<ProbeOptions> parseProbeArgs(const std::vector<std::string>& args);

// `cudascope bench [INPUT...]`.
struct BenchOptions {
    bool help = false;
    std::vector<std::string> inputs;   // none: the zone plates
    std::string engine = "both";       // cpu, cuda, both
    int frames = 30;
    std::string hwdec = "auto";        // auto, nvdec, none
    int threads = 0;                   // CPU engine threads; 0: every hardware thread
};
Result<BenchOptions> parseBenchArgs(const std::vector<std::string>& args);

}  // namespace cs
