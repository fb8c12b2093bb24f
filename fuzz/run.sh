#!/usr/bin/env bash
# Runs the fuzz targets on their corpora (fuzz/README.md):
#   fuzz/run.sh [--smoke] BUILD_DIR SECONDS [TARGET]
# TARGET: fuzz_file_source, fuzz_parsers or fuzz_qc (default: all, one after the other). BUILD_DIR
# is a build of the `fuzz` preset (targets and fuzz_seeds built). New inputs go to
# BUILD_DIR/fuzz/corpus/NAME (kept between runs, read with the seeds); crashes, leaks,
# timeouts and out-of-memory inputs to BUILD_DIR/fuzz/artifacts/NAME; the fuzzer's log to
# BUILD_DIR/fuzz/logs/NAME/run.log (with -jobs, each job's to fuzz-N.log beside it).
# --smoke (CI): from the seeds alone, with a fixed random seed, and nothing kept but findings.
# Extra libFuzzer flags: FUZZ_FLAGS="-jobs=1 ...".
# Prints per target: executions, coverage (cov, ft), corpus size, new findings, wall time.
# Exit 1 when a target found something (a crash, leak, timeout or out-of-memory), else 0.
set -uo pipefail
smoke=0
if [[ ${1:-} == --smoke ]]; then smoke=1; shift; fi
if [[ $# -lt 2 || $# -gt 3 ]]; then sed -n '2,4p' "$0"; exit 2; fi
build=$(cd "$1" && pwd) seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
targets=("${3:-fuzz_file_source}")
[[ $# -eq 2 ]] && targets=(fuzz_file_source fuzz_parsers fuzz_qc)

# Per target: the seed folder's name, and its own flags. A file may take a few seconds
# under ASan on a loaded machine; a minute is a hang.
declare -A seeds=([fuzz_file_source]=file_source [fuzz_parsers]=parsers [fuzz_qc]=qc)
declare -A flags=([fuzz_file_source]="-max_len=65536 -timeout=60 -rss_limit_mb=4096"
                  [fuzz_parsers]="-max_len=512 -timeout=10"
                  [fuzz_qc]="-max_len=65536 -timeout=60 -rss_limit_mb=4096")
extra=()
[[ $smoke -eq 1 ]] && extra=(-seed=1)

status=0
for target in "${targets[@]}"; do
  name=${seeds[$target]:-}
  bin=$build/fuzz/$target
  if [[ -z $name || ! -x $bin ]]; then echo "run.sh: $target: no such fuzz target in $build/fuzz" >&2; exit 2; fi
  corpus=$build/fuzz/corpus/$name artifacts=$build/fuzz/artifacts/$name logs=$build/fuzz/logs/$name
  if [[ $smoke -eq 1 ]]; then corpus=$build/fuzz/corpus/smoke-$name; rm -rf "$corpus"; fi
  mkdir -p "$corpus" "$artifacts" "$logs"
  rm -f "$logs"/fuzz-*.log
  dict=()
  [[ -f $here/$target.dict ]] && dict=(-dict="$here/$target.dict")
  log=$logs/run.log
  before=$(find "$artifacts" -type f | wc -l)
  start=$(date +%s)
  # shellcheck disable=SC2086  # the flags are words
  (cd "$logs" && UBSAN_OPTIONS=print_stacktrace=1 "$bin" ${flags[$target]} ${FUZZ_FLAGS:-} "${extra[@]}" "${dict[@]}" \
      -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$corpus" "$build/fuzz/seeds/$name") >"$log" 2>&1
  rc=$?
  wall=$(( $(date +%s) - start ))
  # With -jobs the fuzzing (and its statistics) is in the jobs' logs; the main log has the command.
  if compgen -G "$logs/fuzz-*.log" >/dev/null; then stats=$(cat "$logs"/fuzz-*.log); else stats=$(cat "$log"); fi
  last=$(grep -aE '^#[0-9]+' <<<"$stats" | tail -n 1)
  execs=$(grep -aoE 'stat::number_of_executed_units: [0-9]+' <<<"$stats" | awk '{s += $2} END {print s + 0}')
  cov=$(grep -aoE 'cov: [0-9]+' <<<"$last" | cut -d' ' -f2)
  ft=$(grep -aoE 'ft: [0-9]+' <<<"$last" | cut -d' ' -f2)
  found=$(( $(find "$artifacts" -type f | wc -l) - before ))
  printf '%s: %s executions in %s s, cov %s, ft %s, corpus %s files, %s new artifacts (exit %s), log %s\n' \
    "$target" "$execs" "$wall" "${cov:-?}" "${ft:-?}" "$(find "$corpus" -type f | wc -l)" "$found" "$rc" "$log"
  [[ $smoke -eq 1 ]] && rm -rf "$corpus"
  if [[ $found -gt 0 || $rc -ne 0 ]]; then
    status=1
    grep -aE '^fuzz_[a-z_]+: |^==[0-9]+==ERROR|SUMMARY|runtime error|deadly signal|Test unit written' <<<"$stats" | head -n 20
  fi
done
exit $status
