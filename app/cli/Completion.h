// `cudascope completion bash`: a bash completion script made from the commands' option
// tables (CommandOptions.h), so that it offers exactly what the parsers accept: the
// commands, each command's options, an enumeration's choices after its option, files
// after a file option and for INPUT, folders after a folder option. The .deb installs it
// as share/bash-completion/completions/cudascope, written at build time by the binary.
#pragma once
#include <string>
#include <vector>

#include "app/cli/CommandOptions.h"

namespace cs {

struct CommandTable {
    std::string name;   // "" : the window (`cudascope [INPUT]`)
    const std::vector<OptionDef>* options;
};

// Every command's table: the window, export, probe, record, qc, bench (where `withBench`).
std::vector<CommandTable> commandTables(bool withBench);

// The bash script: defines _cudascope and registers it for cudascope.
std::string bashCompletion(const std::vector<CommandTable>& commands);

// `cudascope completion SHELL` (argv after "completion"): prints the script; usage errors exit 2.
int runCompletion(int argc, char** argv, bool withBench);

}  // namespace cs
