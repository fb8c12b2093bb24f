// The commands' option tables (app/cli/CommandOptions.h), in process: every option a parser
// accepts is in its table and in its --help, an enumeration's choices are exactly what its
// parser accepts, and the bash completion made from the tables is valid bash that completes
// options and choices.
#include <gtest/gtest.h>

#include <functional>
#include <tuple>

#include <QDir>
#include <QJsonArray>
#include <QFile>
#include <QTemporaryDir>

#include "CliRunner.h"
#include "app/cli/CommandOptions.h"
#include "app/cli/Completion.h"
#include "app/export/ExportOptions.h"
#include "app/qc/QcOptions.h"
#include "app/record/RecordOptions.h"

using namespace cs::testing;

namespace {

using Args = std::vector<std::string>;

struct Command {
    std::string name;
    const std::vector<cs::OptionDef>& options;
    std::string usage;
    std::function<cs::Status(const Args&)> parse;   // the command's parser, its result as a Status
    Args base;                                      // arguments the command needs besides the option tried
};

template <typename T>
cs::Status statusOf(const cs::Result<T>& r) {
    return r ? cs::Status{} : r.status();
}

std::vector<Command> commands() {
    return {{"export", cs::exportOptionTable(), cs::exportUsage(),
             [](const Args& a) { return statusOf(cs::parseExportArgs(a)); }, {"in.mp4", "--out", "dir"}},
            {"record", cs::recordOptionTable(), cs::recordUsage(),
             [](const Args& a) { return statusOf(cs::parseRecordArgs(a)); }, {"in.mp4", "--out", "out.mp4"}},
            {"qc", cs::qcOptionTable(), cs::qcUsage(), [](const Args& a) { return statusOf(cs::parseQcArgs(a)); },
             {"in.mp4", "--out", "dir"}},
            {"bench", cs::benchOptionTable(), cs::benchUsage(),
             [](const Args& a) { return statusOf(cs::parseBenchArgs(a)); }, {}}};
}

Args with(Args base, const std::string& name, const std::string& value) {
    if (name == "out") base.erase(base.begin() + 1, base.begin() + 3);   // given by the case itself
    base.push_back("--" + name);
    if (!value.empty()) base.push_back(value);
    return base;
}

}  // namespace

TEST(OptionTables, EveryOptionIsParsedAndInHelp) {
    for (const Command& c : commands()) {
        for (const cs::OptionDef& o : c.options) {
            const std::string name = o.names.back();
            if (name == "help") continue;
            const cs::Status s = c.parse(with(c.base, name, o.takesValue() ? "x" : ""));
            EXPECT_FALSE(startsWith(s.message(), "unknown option")) << c.name << " --" << name << ": " << s.message();
            // Listed on a line of its own, or (a negation) named in another option's text.
            const std::string listed = o.help.empty() ? "--" + name : "\n  --" + name + (o.takesValue() ? " " + o.value : "") + " ";
            EXPECT_NE(c.usage.find(listed), std::string::npos) << c.name << " --help lacks --" << name << "\n" << c.usage;
        }
        const cs::Status unknown = c.parse(with(c.base, "no-such-option", ""));
        EXPECT_EQ(unknown.message(), "unknown option --no-such-option") << c.name;
    }
}

TEST(OptionTables, ChoicesAreWhatTheParsersAccept) {
    for (const Command& c : commands()) {
        for (const cs::OptionDef& o : c.options) {
            const std::string name = o.names.back();
            for (const auto& choice : o.choices) {
                const cs::Status s = c.parse(with(c.base, name, std::string(choice)));
                EXPECT_FALSE(startsWith(s.message(), "--" + name + " must be")) << c.name << " --" << name << " " << choice << ": " << s.message();
                // In --help, as the value's name or in the text ("none", the export preview's
                // default, goes unsaid).
                if (choice != "none") {
                    EXPECT_NE((o.value + " " + cs::optionHelp(o)).find(choice), std::string::npos) << c.name << " --" << name << " " << choice;
                }
            }
            if (o.choices.empty()) continue;
            const cs::Status bogus = c.parse(with(c.base, name, "zz-bogus"));
            EXPECT_TRUE(startsWith(bogus.message(), "--" + name + " must be")) << c.name << ": " << bogus.message();
            EXPECT_NE(bogus.message().find("not 'zz-bogus'"), std::string::npos) << bogus.message();
        }
    }
}

TEST(OptionTables, UsageLaysOutHelpText) {
    const std::vector<cs::OptionDef> options{cs::shared::help(),
                                             {{"mode"}, "M", {"x", "y"}, "{|} first\nsecond ({or}, {,})"},
                                             {{"flag"}, "", {}, "a flag"},
                                             {{"a-very-long-name"}, "VALUE", {}, "pushed right"}};
    EXPECT_EQ(cs::usageText("head\n", options, 12, "foot\n"),
              "head\n"
              "  --mode M  x|y first\n"
              "            second (x or y, x, y)\n"
              "  --flag    a flag\n"
              "  --a-very-long-name VALUE  pushed right\n"
              "foot\n");
}

namespace {

// `script` run by bash after sourcing the completion, in an empty folder holding `files`.
RunResult bashWithCompletion(const std::string& script, const QStringList& files = {}) {
    QTemporaryDir dir;
    QFile completion(dir.filePath("cudascope.bash"));
    const std::string text = cs::bashCompletion(cs::commandTables(true));
    if (!completion.open(QIODevice::WriteOnly) || completion.write(text.data(), qint64(text.size())) != qint64(text.size()))
        return {};
    completion.close();
    QDir(dir.path()).mkdir("work");
    for (const QString& f : files) QFile(dir.filePath("work/" + f)).open(QIODevice::WriteOnly);
    const QString prelude = "cd '" + dir.filePath("work") + "' && source '" + completion.fileName() + "' && ";
    return runProgram("bash", {"-c", prelude + QString::fromStdString(script), "bash"}, 10000);
}

}  // namespace

TEST(Completion, IsValidBash) {
    const RunResult r = bashWithCompletion("complete -p cudascope");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "complete -F _cudascope cudascope\n");
    QTemporaryDir dir;
    QFile f(dir.filePath("c.bash"));
    const std::string text = cs::bashCompletion(cs::commandTables(true));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(text.data(), qint64(text.size()));
    f.close();
    const RunResult n = runProgram("bash", {"-n", f.fileName()}, 10000);
    EXPECT_EQ(n.exitCode, 0) << n.err;
    EXPECT_EQ(n.err, "");
}

TEST(Completion, CompletesCommandsOptionsChoicesAndFiles) {
    // Each case: COMP_WORDS, COMP_CWORD and the words expected (sorted: compgen lists files
    // in the folder's order), all in one bash, in a folder holding three files.
    const std::vector<std::tuple<std::string, int, std::string>> cases{
        {"cudascope qc --eng", 2, "--engine"},
        {"cudascope export x --engine ''", 4, "auto cpu cuda"},
        {"cudascope export x --engine = c", 5, "cpu cuda"},   // --engine=c, split at '='
        {"cudascope qc x --fail-on ''", 4, "any fail never"},
        {"cudascope bench --engine ''", 3, "both cpu cuda"},
        {"cudascope ex", 1, "export"},
        {"cudascope record clip.mp4 --out c", 4, "c.mkv clip.mp4"},
        {"cudascope probe ''", 2, "a.mov c.mkv clip.mp4"},
        {"cudascope export x --every ''", 4, ""},   // a number: nothing to offer
        {"cudascope completion ''", 2, "--help bash"}};
    std::string script;
    for (const auto& [words, cword, expected] : cases)
        script += "COMP_WORDS=(" + words + "); COMP_CWORD=" + std::to_string(cword) + "; _cudascope; echo \"${COMPREPLY[*]}\"; ";
    const RunResult r = bashWithCompletion(script, {"clip.mp4", "c.mkv", "a.mov"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const QStringList lines = QString::fromStdString(r.out).split('\n');
    ASSERT_EQ(lines.size(), qsizetype(cases.size() + 1)) << r.out;
    for (size_t i = 0; i < cases.size(); ++i) {
        QStringList got = lines[qsizetype(i)].split(' ', Qt::SkipEmptyParts);
        got.sort();
        EXPECT_EQ(got.join(' ').toStdString(), std::get<2>(cases[i])) << std::get<0>(cases[i]);
    }
}

TEST(Completion, CommandRefusesOtherShells) {
    // In process: `cudascope completion zsh` is a usage error, `completion bash` the script.
    std::vector<std::string> args{"zsh"};
    std::vector<char*> argv{args[0].data()};
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(cs::runCompletion(1, argv.data(), true), 2);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.substr(0, err.find('\n')), "cudascope completion: unknown shell 'zsh' (bash is the one written)");
    EXPECT_NE(err.find("\nusage: cudascope completion bash\n"), std::string::npos) << err;
    args = {"bash"};
    argv = {args[0].data()};
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(cs::runCompletion(1, argv.data(), true), 0);
    EXPECT_EQ(::testing::internal::GetCapturedStdout(), cs::bashCompletion(cs::commandTables(true)));
}
