#!/bin/sh
# docs/QC.md's Slurm job array, run for real on a Slurm of one node started here:
#   bench/qc/slurm-array.sh CUDASCOPE WORK [--files N] [--tasks T] [--engine cpu|cuda]
# CUDASCOPE: the cudascope binary; WORK: an empty or missing folder for everything the run
# makes (the clips, the reports, Slurm's and MUNGE's state and logs), kept afterwards.
# Needs Debian's slurm-wlm and munge (apt-get install slurm-wlm munge) and root (slurmd runs
# jobs as their user; here everything is root, on ports 46817-46818).
#
# Steps: makes N (default 12) short clips with the ffmpeg CLI (a third of them with pixels
# beyond EBU R 103's limits, so verdicts differ); starts munged with a fresh key, slurmctld
# and slurmd from a slurm.conf written into WORK (one node: this host, its CPUs); submits the
# recipe of docs/QC.md as an array of T (default 3) tasks, `qc WORK/media --out WORK/qc
# --shard ${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT} --policy r103,detectors`, and the
# index job `qc --summary WORK/qc` after it (--dependency=afterany); waits for both; then
# checks that every clip was checked exactly once (one report each, each task's log naming
# its own inputs only), that summary.csv lists every clip with its verdict, and that no
# shard wrote an index. Stops the daemons on exit. Exit 0 when every check holds, 1 when one
# fails, 2 usage, 77 when Slurm or MUNGE is not installed.
set -eu

usage() { sed -n '2,20p' "$0"; exit 2; }
[ $# -ge 2 ] || usage
bin=$(readlink -f "$1") work=$2
shift 2
files=12 tasks=3 engine=cpu
while [ $# -gt 0 ]; do
    case "$1" in
        --files) [ $# -ge 2 ] || usage; files=$2; shift ;;
        --tasks) [ $# -ge 2 ] || usage; tasks=$2; shift ;;
        --engine) [ $# -ge 2 ] || usage; engine=$2; shift ;;
        *) usage ;;
    esac
    shift
done
[ -x "$bin" ] || { echo "slurm-array: $bin is not an executable" >&2; exit 2; }
for tool in slurmctld slurmd sbatch squeue munged ffmpeg; do
    command -v "$tool" > /dev/null || { echo "slurm-array: skipped: $tool is not installed (apt-get install slurm-wlm munge ffmpeg)"; exit 77; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -z "$(ls -A "$work")" ] || { echo "slurm-array: $work is not empty" >&2; exit 2; }
mkdir -p "$work/media" "$work/qc" "$work/logs" "$work/munge" "$work/slurm/ctld" "$work/slurm/d"

# ---- The clips ----------------------------------------------------------------------------
i=0
while [ "$i" -lt "$files" ]; do
    name=$(printf 'clip%02d.mkv' "$i")
    if [ $((i % 3)) -eq 2 ]; then   # 3% of the picture at Y 250 (106.8%): beyond R 103's 103%
        vf="geq=lum='if(lt(X,6)*lt(Y,6),250,60)':cb=128:cr=128"
    else
        vf="geq=lum='60+X/4':cb=128:cr=128"
    fi
    ffmpeg -nostdin -loglevel error -f lavfi -i "color=c=gray:size=64x36:rate=25:d=0.4,format=yuv420p,$vf" \
        -c:v ffv1 -color_range tv -colorspace bt709 "$work/media/$name"
    i=$((i + 1))
done

# ---- MUNGE and Slurm, one node ----------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2> /dev/null || true; done
    for p in $pids; do while kill -0 "$p" 2> /dev/null; do sleep 0.2; done; done
}
trap cleanup EXIT
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2> /dev/null
chmod 0400 "$work/munge/munge.key"
chmod 0700 "$work/munge"
munged --force --foreground --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed" \
    2>> "$work/munge/munged.log" &
pids="$pids $!"
cat > "$work/slurm/slurm.conf" << EOF
ClusterName=cudascope
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=46817
SlurmdPort=46818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/slurm/ctld
SlurmdSpoolDir=$work/slurm/d
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=1024 State=UNKNOWN
PartitionName=qc Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm/slurm.conf"
i=0
until [ -S "$work/munge/munge.socket" ]; do
    i=$((i + 1)); [ "$i" -lt 50 ] || { cat "$work/munge/munged.log" >&2; echo "slurm-array: munged did not start" >&2; exit 1; }
    sleep 0.2
done
slurmctld -D -i -f "$SLURM_CONF" > "$work/slurm/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N "$host" -f "$SLURM_CONF" > "$work/slurm/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o '%T' 2> /dev/null | grep -qx idle; do
    i=$((i + 1))
    [ "$i" -lt 150 ] || { tail -n 20 "$work/slurm/slurmctld.log" "$work/slurm/slurmd.log" >&2; echo "slurm-array: the node did not come up" >&2; exit 1; }
    sleep 0.2
done
echo "slurm-array: Slurm $(sinfo -V | cut -d' ' -f2) up: node $host, $cpus CPUs"

# ---- docs/QC.md's recipe ------------------------------------------------------------------
cat > "$work/qc.sbatch" << EOF
#!/bin/sh
#SBATCH --job-name=qc
#SBATCH --array=0-$((tasks - 1))
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/logs/qc-%a.log
#SBATCH --requeue
exec "$bin" qc "$work/media" --out "$work/qc" --engine $engine --no-qctools --policy r103,detectors \\
    --shard "\${SLURM_ARRAY_TASK_ID}/\${SLURM_ARRAY_TASK_COUNT}"
EOF
started=$(date +%s)
array=$(sbatch --parsable "$work/qc.sbatch")
index=$(sbatch --parsable --dependency=afterany:"$array" --output="$work/logs/summary.log" \
    --wrap "exec '$bin' qc --summary '$work/qc'")
echo "slurm-array: array job $array ($tasks tasks), index job $index after it"
i=0
while [ -n "$(squeue -h -j "$array,$index" -o %i 2> /dev/null)" ]; do
    i=$((i + 1)); [ "$i" -lt 3000 ] || { echo "slurm-array: the jobs did not finish in 10 minutes" >&2; exit 1; }
    sleep 0.2
done
echo "slurm-array: both jobs done in $(( $(date +%s) - started )) s"

# ---- Checks --------------------------------------------------------------------------------
failures=0
fail() { echo "slurm-array: FAILED: $*" >&2; failures=$((failures + 1)); }
reports=$(ls "$work/qc" | grep -c '\.qc\.json$' || true)
[ "$reports" -eq "$files" ] && echo "slurm-array: ok: $reports reports for $files clips" || fail "$reports reports for $files clips"
t=0
total=0
while [ "$t" -lt "$tasks" ]; do
    log="$work/logs/qc-$t.log"
    n=$(sed -n 's/^cudascope qc: \([0-9]*\) checked, .* of \([0-9]*\) inputs*;.*/\1 \2/p' "$log")
    expected=$(( (files - t + tasks - 1) / tasks ))
    [ "$n" = "$expected $expected" ] && echo "slurm-array: ok: task $t checked $expected of its $expected inputs" ||
        fail "task $t: '$n' in $log, expected $expected of $expected"
    grep -q "writes no index; once every shard is done" "$log" || fail "task $t did not say it writes no index"
    total=$((total + expected))
    t=$((t + 1))
done
[ "$total" -eq "$files" ] || fail "the shards hold $total inputs, not $files"
csv="$work/qc/summary.csv"
if [ -f "$csv" ]; then
    rows=$(($(wc -l < "$csv") - 1))
    checked=$(grep -c ',checked,' "$csv" || true)
    failing=$(grep -c ',checked,fail,' "$csv" || true)
    [ "$rows" -eq "$files" ] && [ "$checked" -eq "$files" ] && echo "slurm-array: ok: summary.csv lists $rows inputs, all checked" ||
        fail "summary.csv lists $rows rows, $checked checked, for $files clips"
    expected=$(( (files + 0) / 3 ))
    [ "$failing" -eq "$expected" ] && echo "slurm-array: ok: $failing inputs fail R 103, as made" ||
        fail "$failing inputs fail, $expected were made to"
    uniq_inputs=$(tail -n +2 "$csv" | cut -d, -f1 | sort -u | wc -l)
    [ "$uniq_inputs" -eq "$files" ] || fail "summary.csv lists $uniq_inputs distinct inputs"
    grep -q "index.html and summary.csv" "$work/logs/summary.log" || fail "the index job's log: $(cat "$work/logs/summary.log")"
else
    fail "no summary.csv (the index job's log: $(cat "$work/logs/summary.log" 2> /dev/null))"
fi
[ -f "$work/qc/index.html" ] || fail "no index.html"
[ "$failures" -eq 0 ] || exit 1
echo "slurm-array: passed; reports and logs in $work"
