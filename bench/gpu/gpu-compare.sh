#!/bin/bash
# Before/after on any machine with an NVIDIA GPU and the CUDA toolkit, side by side in one
# batch: builds gpu_bench from an older source tree (OLD: a folder holding core/, cuda/,
# bench/gpu/ and CMakeLists.txt, e.g. `git archive COMMIT core cuda bench/gpu CMakeLists.txt |
# tar -x -C .gpu/old`)
# and from this tree, then runs the two alternately (old, new, old, new) on the same subset,
# so that drift of the machine falls on both. Tables go to $OUT/old1.md, new1.md, ...
# (default OUT: .gpu/out); the two builds to a new folder under $TMPDIR. CUDA_HOME: the
# toolkit (default /usr/local/cuda).
#   bash bench/gpu/gpu-compare.sh OLD [FORMATS (nv12,p010le)] [CLIP_DIR]
# CLIP_DIR: where clip_nv12_3840x2160.raw / clip_p010_3840x2160.raw are (else no clip rows).
set -u
[[ $# -ge 1 ]] || { sed -n '2,11p' "$0"; exit 2; }
old=$(cd "$1" && pwd) formats=${2:-nv12,p010le} clips=${3:-}
[[ -z $clips ]] || clips=$(cd "$clips" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
OUT=${OUT:-$root/.gpu/out}
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudascope-compare.XXXXXX")
export PATH=${CUDA_HOME:-/usr/local/cuda}/bin:$PATH
for v in old new; do
  src=$([[ $v == old ]] && echo "$old" || echo "$root")
  cmake -S "$src/bench/gpu" -B "$work/gb-$v" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$work/cfg-$v.log" 2>&1 &&
    cmake --build "$work/gb-$v" -j "$(nproc)" > "$work/build-$v.log" 2>&1 &
done
wait
for v in old new; do [[ -x $work/gb-$v/gpu_bench ]] || { echo "gpu-compare: $v gpu_bench did not build"; tail -20 "$work/build-$v.log"; exit 1; }; done
args=(--formats "$formats" --4k)
[[ -n $clips ]] && args+=(--clip-nv12 "$clips/clip_nv12_3840x2160.raw" --clip-p010 "$clips/clip_p010_3840x2160.raw")
for r in 1 2; do
  for v in old new; do
    s=$(date +%s)
    timeout 150 "$work/gb-$v/gpu_bench" "${args[@]}" --out "$OUT/$v$r.md" > "$work/$v$r.log" 2>&1
    echo "== $v$r rc=$? $(( $(date +%s) - s )) s"
  done
done
