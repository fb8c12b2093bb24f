#!/bin/bash
# One batch on any machine with an NVIDIA GPU and the CUDA toolkit (docs/CUDA.md, "Running on
# a GPU machine"), from the root of a checkout: unpacks the bundle of the test programs
# (built elsewhere and packed with the libraries they need by a bundler: *.tar.xz holding
# bin/, lib/, data/ and a `run` launcher, as bench/gpu/gpu-check.sh describes),
# runs cuda_tests (and test_gpu_view when the bundle has it), compute-sanitizer memcheck and
# racecheck (small frames: CS_CUDA_TEST_SMALL=1), builds bench/gpu from this source tree with
# the machine's CUDA toolkit (NPP included where present) and runs gpu_bench on the carried
# clip frames, writing gpu_bench.md and gpu-results.md (bench/gpu/results-table.sh: the table
# docs/gpu-results.md holds); with the nvdec bundle (bench/nvdec/make_bundle.py) also
# nvdec_bench on the carried HEVC clip; `sass` saves the 4:2:0 scope kernel's SASS.
#   bench/gpu/gpu-session.sh [all|final|tests|bench|nvdec|sass|profile|app] [BUNDLE_DIR [NVDEC_BUNDLE]]
# final = tests + sanitizers + bench + nvdec (no SASS, profile or app runs).
# BUNDLE_DIR: the bundler's output folder (default .gpu/cuda); NVDEC_BUNDLE: make_bundle.py's
# archive (default .gpu/nvdec/nvdec.tar.xz). Logs and tables go to $OUT (default .gpu/out);
# the unpacked bundles and the benchmark's build to a new folder under $TMPDIR. CS_COMMIT
# names the commit measured where this copy of the tree has no git history. CUDA_HOME: the
# toolkit (default /usr/local/cuda). The NVIDIA EGL vendor file is found by glvnd in the
# system's folders; where the driver keeps it elsewhere, set __EGL_VENDOR_LIBRARY_FILENAMES.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
what=${1:-all}
bundle=${2:-${CS_GPU_BUNDLE:-.gpu/cuda}}
nvbundle=${3:-${CS_NVDEC_BUNDLE:-.gpu/nvdec/nvdec.tar.xz}}
OUT=${OUT:-$root/.gpu/out}
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudascope-gpu.XXXXXX")
B=$work/bundle gbb=$work/gpu_bench
mkdir -p "$B"
for a in "$bundle"/*.tar.xz; do tar -C "$B" -xJf "$a"; done
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cuda=${CUDA_HOME:-/usr/local/cuda}
export PATH=$cuda/bin:$PATH
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2; cmake --version | head -1; ls "$cuda/lib64" | grep -c npp; } > "$OUT/device.txt" 2>&1
cat "$OUT/device.txt"

step() {   # step NAME SECONDS COMMAND...: runs with a time limit, log in $OUT/NAME.log
    local name=$1 limit=$2
    shift 2
    local start=$(date +%s)
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    echo "== $name: rc=$rc in $(( $(date +%s) - start )) s"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? (ran|passed)|ERROR SUMMARY|RACECHECK SUMMARY|Failure|error:" "$OUT/$name.log" | head -20
}

is() { for w in "$@"; do [[ $what == "$w" ]] && return 0; done; return 1; }
if is all final bench; then
    # Build the benchmark while the tests run (it needs CPU cores, the tests mostly the GPU).
    ( cmake -S bench/gpu -B "$gbb" -G Ninja -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$gbb" -j "$(nproc)" ) > "$work/bench_build.log" 2>&1 &
    build=$!
fi
if is all final tests; then
    step tests 170 $B/bin/cuda_tests
    $B/bin/cuda_host_tests >> "$OUT/tests.log" 2>&1 && echo "== cuda_host_tests passed"
    [[ -x $B/bin/test_gpu_view ]] && step gpu_view 60 $B/run test_gpu_view
    CS_CUDA_TEST_SMALL=1 step memcheck 150 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 $B/bin/cuda_tests
    CS_CUDA_TEST_SMALL=1 step racecheck 120 compute-sanitizer --tool racecheck --error-exitcode 9 $B/bin/cuda_tests
fi
if is all final bench; then
    wait $build
    echo "== bench build: $(grep -E 'NPP|error' "$work/bench_build.log" | head -5)"
    [[ -x $gbb/gpu_bench ]] || cp "$work/bench_build.log" "$OUT/"
    step gpu_bench 200 "$gbb/gpu_bench" --clip-nv12 "$B/data/clip_nv12_3840x2160.raw" --clip-p010 "$B/data/clip_p010_3840x2160.raw" \
        --out "$OUT/gpu_bench.md"
    sed -n '/### Targets/,$p' "$OUT/gpu_bench.md"
    # The table for docs/gpu-results.md, stamped with the commit and the GPU.
    [[ -s $OUT/gpu_bench.md ]] && bench/gpu/results-table.sh "$OUT/gpu_bench.md" "$OUT/device.txt" > "$OUT/gpu-results.md"
    # Few files should come back: the log only when the table is missing.
    [[ -s $OUT/gpu_bench.md ]] && mv "$OUT/gpu_bench.log" "$work/"
fi
if is all final nvdec && [[ -f $nvbundle ]]; then
    # NVDEC decoding alone vs decoding + every scope (bench/nvdec), FFmpeg libraries carried with stubs.
    N=$work/nvdec
    mkdir -p "$N" && tar -C "$N" -xJf "$nvbundle"
    LD_LIBRARY_PATH=$N/lib step nvdec 150 "$N/bin/nvdec_bench" --passes 3 "$N"/data/*.mkv
    grep -E "^\||nvdec_bench|rror" "$OUT/nvdec.log" | head -20
fi
if is all sass && [[ -x $gbb/gpu_bench ]]; then
    # The 4:2:0 kernel's machine code (P010, every scope, statistics, picture) for offline reading.
    cuobjdump -sass "$gbb/gpu_bench" 2>/dev/null | awk '/Function : /{keep = ($0 ~ /Quad420ReaderILi2ELb1ELb1E/ || $0 ~ /lumaHistogramKernel/)} keep' > "$OUT/sass_scopes.txt"
    echo "== sass: $(grep -c 'Function :' "$OUT/sass_scopes.txt") functions, $(wc -l < "$OUT/sass_scopes.txt") lines"
fi
if is all app; then
    # `cudascope bench`: the engines per frame on the zone plate, then NVDEC on the carried clips.
    if [[ -x $B/bin/cudascope ]]; then app=("$B/bin/cudascope" bench); else app=("$B/bin/cudascope_bench"); fi
    if [[ -x ${app[0]} ]]; then
        step appbench 200 "${app[@]}" --frames 30
        cat "$OUT/appbench.log"
        step appbench_nvdec 120 "${app[@]}" --frames 30 "$B/data/clip_4k_h264_8bit.mkv" "$B/data/clip_4k_hevc_10bit.mkv"
        cat "$OUT/appbench_nvdec.log"
    fi
fi
if is all profile; then
    [[ -x $gbb/gpu_bench ]] || { cmake -S bench/gpu -B "$gbb" -G Ninja && cmake --build "$gbb" -j "$(nproc)"; } > "$OUT/bench_build.log" 2>&1
    ncu=$(command -v ncu || ls "$cuda/bin/ncu" 2>/dev/null | head -1)
    step profile 150 "$ncu" --clock-control none -k "regex:quadKernel|lumaHistogramKernel" -c 4 --section SpeedOfLight \
        --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats \
        --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis "$gbb/gpu_bench" --profile
    grep -E "quadKernel|lumaHistogramKernel|Duration|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Issue Slots Busy|One or More Eligible|Executed Instructions  |Stall" "$OUT/profile.log" | cut -c1-150 | head -80
fi
