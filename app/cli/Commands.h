// The command-line subcommands. Each returns the process exit code:
// 0 success, 1 runtime failure, 2 usage error.
#pragma once

namespace cs {

constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;
// qc --fail-on: a rule of a checked input failed (or was not applicable, with --fail-on any).
constexpr int kExitVerdict = 3;

int runExport(int argc, char** argv);   // cudascope export INPUT --out DIR ...
int runProbe(int argc, char** argv);    // cudascope probe INPUT
int runRecord(int argc, char** argv);   // cudascope record INPUT --out FILE ...
int runQc(int argc, char** argv);       // cudascope qc INPUT... --out DIR ...

}  // namespace cs
