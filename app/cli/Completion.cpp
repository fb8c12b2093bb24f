#include "Completion.h"

#include <cstdio>

#include "app/cli/Commands.h"
#include "app/export/ExportOptions.h"
#include "app/qc/QcOptions.h"
#include "app/record/RecordOptions.h"
#include "core/Parse.h"

namespace cs {
namespace {

constexpr const char* kCompletionUsage =
    "usage: cudascope completion bash\n"
    "  prints a bash completion script for cudascope's commands and options (the package installs it\n"
    "  as share/bash-completion/completions/cudascope; else: source <(cudascope completion bash))\n";

std::string joined(const std::vector<std::string>& words, char separator = ' ') {
    std::string out;
    for (const auto& w : words) {
        if (!out.empty()) out += separator;
        out += w;
    }
    return out;
}

// The `case $prev` arms of one command: what follows each option that takes a value.
std::string valueArms(const std::vector<OptionDef>& options, const std::string& indent) {
    std::string out;
    std::vector<std::string> free;   // values completion cannot guess (numbers, lists)
    for (const OptionDef& o : options) {
        if (!o.takesValue()) continue;
        std::vector<std::string> names;
        for (const auto& n : o.names) names.push_back("--" + n);
        const std::string pattern = joined(names, '|');
        if (!o.choices.empty()) {
            std::vector<std::string> choices(o.choices.begin(), o.choices.end());
            out += indent + pattern + ") _cudascope_words \"" + joined(choices) + "\"; return 0 ;;\n";
        } else if (o.completes == OptionValue::File) {
            out += indent + pattern + ") _cudascope_files -f; return 0 ;;\n";
        } else if (o.completes == OptionValue::Folder) {
            out += indent + pattern + ") _cudascope_files -d; return 0 ;;\n";
        } else {
            free.insert(free.end(), names.begin(), names.end());
        }
    }
    if (!free.empty()) out += indent + joined(free, '|') + ") return 0 ;;\n";
    return out;
}

std::string optionWords(const std::vector<OptionDef>& options) {
    std::vector<std::string> words;
    for (const OptionDef& o : options) words.push_back("--" + o.names.back());
    return joined(words);
}

}  // namespace

std::vector<CommandTable> commandTables(bool withBench) {
    std::vector<CommandTable> tables{{"", &windowOptionTable()},    {"export", &exportOptionTable()},
                                     {"probe", &probeOptionTable()}, {"record", &recordOptionTable()},
                                     {"qc", &qcOptionTable()}};
    if (withBench) tables.push_back({"bench", &benchOptionTable()});
    return tables;
}

std::string bashCompletion(const std::vector<CommandTable>& commands) {
    std::vector<std::string> names;
    for (const auto& c : commands)
        if (!c.name.empty()) names.push_back(c.name);
    names.push_back("completion");
    const std::string pattern = joined(names, '|');

    std::string s =
        "# bash completion for cudascope, written by `cudascope completion bash` from the\n"
        "# commands' option tables.\n"
        "_cudascope_words() { mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }\n"
        "_cudascope_files() {\n"
        "    compopt -o filenames 2>/dev/null\n"
        "    mapfile -t COMPREPLY < <(compgen \"$1\" -- \"$cur\")\n"
        "}\n"
        "_cudascope() {\n"
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= opts=\n"
        "    COMPREPLY=()\n"
        "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "    # --name=VALUE: bash splits the word at '=' (COMP_WORDBREAKS), or keeps it whole.\n"
        "    if [[ $cur == = ]]; then\n"
        "        cur=\n"
        "    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
        "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
        "    elif [[ $cur == --*=* ]]; then\n"
        "        prev=${cur%%=*} cur=${cur#*=}\n"
        "    fi\n"
        "    if ((COMP_CWORD > 1)); then\n"
        "        case ${COMP_WORDS[1]} in\n"
        "            " + pattern + ") cmd=${COMP_WORDS[1]} ;;\n"
        "        esac\n"
        "    fi\n"
        "    case $cmd in\n"
        "        completion)\n"
        "            ((COMP_CWORD == 2)) && _cudascope_words \"bash --help\"\n"
        "            return 0 ;;\n";
    for (const auto& c : commands) {
        s += "        " + (c.name.empty() ? std::string("''") : c.name) + ")\n";
        s += "            case $prev in\n" + valueArms(*c.options, "                ") + "            esac\n";
        s += "            opts=\"" + optionWords(*c.options) + "\" ;;\n";
    }
    s += "    esac\n"
         "    if [[ $cur == -* ]]; then\n"
         "        _cudascope_words \"$opts\"\n"
         "    elif [[ -z $cmd && COMP_CWORD -eq 1 ]]; then\n"
         "        _cudascope_files -f\n"
         "        mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -W \"" + joined(names) + "\" -- \"$cur\")\n"
         "    else\n"
         "        _cudascope_files -f\n"
         "    fi\n"
         "    return 0\n"
         "}\n"
         "complete -F _cudascope cudascope\n";
    return s;
}

int runCompletion(int argc, char** argv, bool withBench) {
    auto parsed = parseOptions(argumentsOf(argc, argv), probeOptionTable());
    std::string error;
    if (!parsed) {
        error = parsed.message();
    } else if (parsed->isSet("h")) {
        std::fputs(kCompletionUsage, stdout);
        return kExitOk;
    } else if (parsed->positional().empty()) {
        error = "missing SHELL (bash)";
    } else if (parsed->positional().size() > 1) {
        error = "one SHELL only: unexpected argument " + quotedValue(parsed->positional()[1]);
    } else if (parsed->positional()[0] != "bash") {
        error = "unknown shell " + quotedValue(parsed->positional()[0]) + " (bash is the one written)";
    }
    if (!error.empty()) {
        std::fprintf(stderr, "cudascope completion: %s\n%s", error.c_str(), kCompletionUsage);
        return kExitUsage;
    }
    std::fputs(bashCompletion(commandTables(withBench)).c_str(), stdout);
    return kExitOk;
}

}  // namespace cs
