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
#include <string_view>
#include <utility>
#include <vector>

#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

// argv[0..argc) as strings.
std::vector<std::string> argumentsOf(int argc, char** argv);

// One option of a command, declared once: the command's table of these drives parsing
// (names, whether a value follows), `--help` (usageText) and the bash completion
// (Completion.h). An enumeration's choices are the list its parser checks against, so
// --help, completion and the parser cannot disagree.
enum class OptionValue { Other, File, Folder };   // what completion offers after the option
struct OptionDef {
    std::vector<std::string> names;   // {"h", "help"}, {"out"}: the last is the one --help shows
    std::string value{};              // its value's name in --help ("DIR", "N", "E"); "": a flag
    std::vector<std::string_view> choices{};   // an enumeration's values; empty: any value
    // --help's text, its lines separated by '\n'; "{|}" stands for the choices as "a|b|c", "{,}"
    // as "a, b, c" and "{or}" as "a, b or c". "": not listed (--help itself, a negation named in another's text).
    std::string help{};
    OptionValue completes = OptionValue::Other;
    bool takesValue() const { return !value.empty(); }
    // The same option with another help text (a shared option whose meaning a command narrows).
    OptionDef withHelp(std::string text) const {
        OptionDef o = *this;
        o.help = std::move(text);
        return o;
    }
};

// The options several commands share, declared here once; each command's table includes
// the ones it takes. --engine auto|cpu|cuda; --hwdec auto|nvdec|none; --preview's filters
// (with "none" where allowNone); --gamut-target bt709|p3|bt2020; --peaking-colour,
// --peaking-width; --threads N (each command says what its threads are).
extern const std::vector<std::string_view> kEngineChoices, kHwdecChoices, kPreviewChoices, kGamutTargetChoices;
namespace shared {
OptionDef help();
OptionDef engine();
OptionDef hwdec();
OptionDef preview(bool allowNone, std::string help);
OptionDef gamutTarget(std::string help);
OptionDef peakingColour();
OptionDef peakingWidth();
OptionDef threads(std::string help);
}  // namespace shared

// A command's usage: `head` (its synopsis lines and INPUT's, hand-written), then a line per
// listed option ("  --name VALUE" padded to `column`, the help text, its further lines
// indented to `column`), then `foot` (hand-written: exit codes and the like).
std::string usageText(const std::string& head, const std::vector<OptionDef>& options, size_t column, const std::string& foot);
// An option's help text with {|} and {or} replaced by its choices.
std::string optionHelp(const OptionDef& option);

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
const std::vector<OptionDef>& windowOptionTable();

// `cudascope probe INPUT`.
struct ProbeOptions {
    bool help = false;
    std::string input;
};
Result<ProbeOptions> parseProbeArgs(const std::vector<std::string>& args);
const std::vector<OptionDef>& probeOptionTable();

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
const std::vector<OptionDef>& benchOptionTable();
extern const std::vector<std::string_view> kBenchEngineChoices;   // cpu, cuda, both
// bench's --help.
std::string benchUsage();

}  // namespace cs
