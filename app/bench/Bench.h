// `cudascope bench`: per-frame pipeline time of the CPU and CUDA engines side by side, and
// with NVDEC, decoding alone against decoding plus every scope.
#pragma once

namespace cs {

// argv holds the arguments after "bench" (argv[0] is the first of them). Returns the exit code.
int runBench(int argc, char** argv);

}  // namespace cs
