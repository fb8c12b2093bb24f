#!/usr/bin/env bash
# Runs a command for a while and samples its resident memory, open file descriptors and
# threads once a second, to show that they stay flat (issue: memory that does not grow
# with the input). At the end the command gets SIGTERM (export then writes its report
# and exits 143); the first and the last minute's figures are printed.
#
#   bench/soak/soak.sh --seconds 600 --log soak.tsv [--prune DIR] -- cudascope export LONG.mp4 --out DIR
#   xvfb-run -a -s "-screen 0 1920x1080x24" bench/soak/soak.sh --seconds 600 --log gui.tsv -- cudascope CLIP
#
# --prune DIR deletes the frame files (NNNNNN-*.png / .npy) export has finished in DIR as
# they appear, so that a long soak does not fill the disk; it does not touch the process.
# The log has one line a second: seconds, VmRSS kB, VmHWM kB, open fds, threads.
set -euo pipefail

seconds=600 log="" prune=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --log) log="$2"; shift 2 ;;
        --prune) prune="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $# -gt 0 && -n "$log" ]] || { echo "usage: soak.sh --seconds S --log FILE [--prune DIR] -- COMMAND..." >&2; exit 2; }

"$@" &
pid=$!
printf 't_s\trss_kb\thwm_kb\tfds\tthreads\n' > "$log"
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
    now=$(( $(date +%s) - start ))
    (( now >= seconds )) && break
    if [[ -r /proc/$pid/status ]]; then
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        thr=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
        [[ -n "$rss" ]] && printf '%s\t%s\t%s\t%s\t%s\n' "$now" "$rss" "$hwm" "$fds" "$thr" >> "$log"
    fi
    if [[ -n "$prune" && -d "$prune" ]]; then
        find "$prune" -maxdepth 1 -type f \( -name '[0-9]*-*.png' -o -name '[0-9]*-*.npy' \) -delete 2>/dev/null || true
    fi
    sleep 1
done
if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    echo "soak.sh: SIGTERM after ${seconds} s" >&2
fi
status=0
wait "$pid" || status=$?
echo "soak.sh: the command exited $status" >&2

# min / max / mean of each column over the first and the last 60 samples.
awk -F'\t' 'NR > 1 { n++; t[n] = $1; r[n] = $2; f[n] = $4; h[n] = $5 }
function span(a, b, label,   i, rmin, rmax, rsum, fmin, fmax, hmin, hmax) {
    rmin = fmin = hmin = 1e18; rmax = fmax = hmax = -1
    for (i = a; i <= b; i++) {
        if (r[i] < rmin) rmin = r[i]; if (r[i] > rmax) rmax = r[i]; rsum += r[i]
        if (f[i] < fmin) fmin = f[i]; if (f[i] > fmax) fmax = f[i]
        if (h[i] < hmin) hmin = h[i]; if (h[i] > hmax) hmax = h[i]
    }
    printf "%s (t=%s..%s s): RSS %.1f-%.1f MiB (mean %.1f), fds %d-%d, threads %d-%d\n", label, t[a], t[b],
           rmin / 1024, rmax / 1024, rsum / (b - a + 1) / 1024, fmin, fmax, hmin, hmax
}
END {
    if (n == 0) { print "no samples"; exit }
    first = n < 60 ? n : 60
    span(1, first, "first minute")
    span(n - first + 1, n, "last minute ")
}' "$log"
exit "$status"
