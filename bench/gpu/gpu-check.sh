#!/bin/bash
# The GPU batch for a change to the CUDA engine: its tests and sanitizers, and the pipeline
# and playback benchmarks of the change beside the commit before it, on any machine with an
# NVIDIA GPU and its driver. The programs are built on a build machine and travel to the GPU
# machine in bundles (the programs with the libraries that machine lacks, a `run` launcher).
#
# On the build machine, with the change built in BUILD (a CUDA build with the GPU benchmarks:
# `cmake --preset default`, then the targets below) and, optionally, the commit before it built
# in BEFORE (targets gpu_bench and playback_bench):
#   CS_GPU_BUNDLER=BUNDLER bench/gpu/gpu-check.sh pack BUNDLE BUILD [BEFORE]
# makes the test and benchmark clips with the ffmpeg CLI and writes two bundles, BUNDLE/tests
# and BUNDLE/bench (BUNDLE: a folder git ignores, such as .gpu/check), each with BUNDLER:
# a program called `BUNDLER OUT_DIR PROGRAM... -- DATA...` that writes OUT_DIR/*.tar.xz
# holding bin/PROGRAM, lib/, data/ and `run` (which sets the library path and executes
# bin/PROGRAM). Targets in BUILD:
#   cuda_tests cuda_host_tests decode_nvdec_tests test_gpu_view gpu_bench playback_bench
# On the GPU machine, in a copy of the checkout holding BUNDLE, from its root, one step at
# a time (each well under ten minutes):
#   bash bench/gpu/gpu-check.sh run BUNDLE tests      # cuda_tests, cuda_host_tests, decode_nvdec_tests, test_gpu_view
#   bash bench/gpu/gpu-check.sh run BUNDLE sanitize   # compute-sanitizer memcheck and racecheck on cuda_tests (small frames)
#   bash bench/gpu/gpu-check.sh run BUNDLE bench [SECONDS]   # gpu_bench PIPELINE/VIEWER rows and
#       playback_bench --no-window on 4K60 H.264 and HEVC 10-bit, before and after in turn, twice
# Logs and tables go to $OUT, else ./gpu-check-out. CUDA_HOME: the toolkit (compute-sanitizer),
# default /usr/local/cuda.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-}
tests=(tests/cuda/cuda_tests tests/cuda/cuda_host_tests tests/decode/decode_nvdec_tests tests/ui/test_gpu_view)
benches=(bench/gpu/gpu_bench bench/playback/playback_bench)
usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

pack() {
    local bundle=$1 build=$2 before=${3:-}
    [[ -n $bundle && -d $build ]] || usage
    local bundler=${CS_GPU_BUNDLER:-}
    [[ -n $bundler && -x $bundler ]] || { echo "gpu-check: CS_GPU_BUNDLER must name the bundling program (${bundler:-not set})" >&2; exit 1; }
    local stage
    stage=$(mktemp -d)
    trap "rm -rf '$stage'" EXIT
    local testProgs=() benchProgs=()
    for p in "${tests[@]}" "${benches[@]}"; do
        [[ -x $build/$p ]] || { echo "gpu-check: $build/$p is missing: build it first" >&2; exit 1; }
    done
    for p in "${tests[@]}"; do testProgs+=("$build/$p"); done
    for p in "${benches[@]}"; do benchProgs+=("$build/$p"); done
    if [[ -n $before ]]; then
        for p in "${benches[@]}"; do
            [[ -x $before/$p ]] || { echo "gpu-check: $before/$p is missing: build it first" >&2; exit 1; }
            cp "$before/$p" "$stage/$(basename "$p")_before"
            benchProgs+=("$stage/$(basename "$p")_before")
        done
    fi
    # decode_nvdec_tests' clips (the test makes the same ones where an ffmpeg CLI exists), and
    # playback clips: 4K60 H.264 8-bit and HEVC Main10, 4 s each, NVDEC-decodable.
    mkdir -p "$stage/nvdec-clips" "$stage/clips"
    local ff=(ffmpeg -hide_banner -loglevel error -y)
    "${ff[@]}" -f lavfi -i testsrc2=s=320x240:r=25 -frames:v 24 -pix_fmt yuv420p -c:v libx264 -g 6 -bf 2 "$stage/nvdec-clips/h264.mp4" &&
    "${ff[@]}" -f lavfi -i testsrc2=s=320x240:r=25 -frames:v 24 -pix_fmt yuv420p10le -c:v libx265 \
        -x265-params log-level=error:keyint=6 -profile:v main10 "$stage/nvdec-clips/hevc10.mkv" &&
    "${ff[@]}" -f lavfi -i testsrc2=s=3840x2160:r=60 -t 4 -pix_fmt yuv420p -c:v libx264 -preset veryfast -crf 30 -g 60 \
        "$stage/clips/h264_4k60.mp4" &&
    "${ff[@]}" -f lavfi -i testsrc2=s=3840x2160:r=60 -t 4 -pix_fmt yuv420p10le -c:v libx265 -preset ultrafast -crf 30 \
        -x265-params log-level=error:keyint=60 -profile:v main10 "$stage/clips/hevc10_4k60.mkv" ||
        { echo "gpu-check: making the clips with the ffmpeg CLI failed" >&2; exit 1; }
    "$bundler" "$bundle/tests" "${testProgs[@]}" -- "$stage/nvdec-clips" &&
    "$bundler" "$bundle/bench" "${benchProgs[@]}" -- "$stage/clips"
}

run() {
    local bundle=$1 what=$2 seconds=${3:-10}
    [[ -d $bundle ]] || usage
    local out=${OUT:-$PWD/gpu-check-out}
    mkdir -p "$out"
    local part=tests
    [[ $what == bench ]] && part=bench
    [[ -f $bundle/$part/app.tar.xz ]] || { echo "gpu-check: no $bundle/$part (copy the bundle to this machine)" >&2; exit 1; }
    local b
    b=$(mktemp -d)
    for a in "$bundle/$part"/*.tar.xz; do tar -C "$b" -xJf "$a" || exit 1; done
    command -v compute-sanitizer > /dev/null || export PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin
    { nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; git -C "$root" log -1 --format='%h %s'; } \
        > "$out/device.txt" 2>&1
    cat "$out/device.txt"
    step() {   # step NAME SECONDS COMMAND...: with a time limit, its log in $OUT/NAME.log
        local name=$1 limit=$2
        shift 2
        local start=$SECONDS
        timeout "$limit" "$@" > "$out/$name.log" 2>&1
        local rc=$?
        echo "== $name: rc=$rc in $((SECONDS - start)) s"
        grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|ERROR SUMMARY|RACECHECK SUMMARY|skipped|Failure|error:" "$out/$name.log" | head -20
        return $rc
    }
    case $what in
    tests)
        step cuda_tests 300 "$b/run" cuda_tests
        step cuda_host_tests 60 "$b/run" cuda_host_tests
        CS_TEST_NVDEC_CLIPS=$b/data/nvdec-clips step decode_nvdec_tests 120 "$b/run" decode_nvdec_tests
        step test_gpu_view 120 "$b/run" test_gpu_view
        ;;
    sanitize)
        # Through `run`, which sets the bundle's environment and execs the test (the sanitizer
        # follows the exec: the same process).
        CS_CUDA_TEST_SMALL=1 step memcheck 280 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$b/run" cuda_tests
        CS_CUDA_TEST_SMALL=1 step racecheck 280 compute-sanitizer --tool racecheck --error-exitcode 9 "$b/run" cuda_tests
        ;;
    bench)
        local sides=(after)
        [[ -x $b/bin/gpu_bench_before ]] && sides=(before after)
        local clips=("$b"/data/clips/*)
        : > "$out/playback.md"
        for pass in 1 2; do
            for side in "${sides[@]}"; do
                local suffix=
                [[ $side == before ]] && suffix=_before
                step "gpu_bench_${side}_$pass" 150 "$b/run" "gpu_bench$suffix" --4k --rows PIPELINE,VIEWER --out "$out/gpu_bench_${side}_$pass.md"
                for clip in "${clips[@]}"; do
                    echo "### $side, pass $pass: $(basename "$clip")" >> "$out/playback.md"
                    timeout $((seconds + 60)) "$b/run" "playback_bench$suffix" "$clip" --engine cuda --hwdec nvdec --no-window \
                        --seconds "$seconds" --warmup 1 >> "$out/playback.md" 2>&1
                    echo "rc=$?" >> "$out/playback.md"
                done
            done
        done
        # The rows side by side: median µs of each PIPELINE/VIEWER row, per side and pass.
        {
            echo "| size | format | content | work |$(for s in "${sides[@]}"; do printf ' %s 1 µs | %s 2 µs |' "$s" "$s"; done)"
            echo "|---|---|---|---|$(for s in "${sides[@]}"; do printf -- '---:|---:|'; done)"
            grep -h -E '^\| .*(PIPELINE|VIEWER)' "$out/gpu_bench_${sides[0]}_1.md" | cut -d'|' -f2-5 | while IFS= read -r key; do
                printf '|%s|' "$key"
                for s in "${sides[@]}"; do
                    for pass in 1 2; do
                        printf ' %s |' "$(grep -F -- "|$key|" "$out/gpu_bench_${s}_$pass.md" | head -1 | cut -d'|' -f6 | tr -d ' ')"
                    done
                done
                echo
            done
        } > "$out/pipeline.md"
        cat "$out/pipeline.md"
        grep -E "^### |^\| .*(cuda|nvdec)|rc=" "$out/playback.md"
        ;;
    *) usage ;;
    esac
    rm -rf "$b"
}

case $mode in
pack) shift; pack "$@" ;;
run) shift; [[ $# -ge 2 ]] || usage; run "$@" ;;
*) usage ;;
esac
