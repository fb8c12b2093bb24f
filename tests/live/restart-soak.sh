#!/usr/bin/env bash
# Kills and restarts a live sender CYCLES times (default 20) while `cudascope export` reads
# it, and again while the main window plays it, for a UDP (MPEG-TS) and an SRT sender (the
# ffmpeg CLI on 127.0.0.1 only), and checks that every restart came back: after each one,
# five new frames within 20 s; at the end, the export's report lists a marked restart per cycle
# with pts rising throughout, and the window is alive and responsive. Prints the figures.
#
#   tests/live/restart-soak.sh BUILD_DIR [CYCLES] [udp|srt|all] [export|window|all]
#
# BUILD_DIR holds app/cudascope and tests/live/cudascope_live_watch (the window part needs
# the GUI build and runs under xvfb-run). Outages cycle through 0.5, 1.5, 3 and 5 s: the
# short ones come back on the same connection with timestamps that restart, the long ones
# after the reader has given the stream up and reconnects. Bounded: about 10 s a cycle.
# Exit 0 when every check passed, 1 otherwise.
set -u
build=${1:?usage: restart-soak.sh BUILD_DIR [CYCLES] [udp|srt|all] [export|window|all]}
cycles=${2:-20}
transports=${3:-all}
parts=${4:-all}
[ "$transports" = all ] && transports="udp srt"
[ "$parts" = all ] && parts="export window"
cudascope=$build/app/cudascope
watch=$build/tests/live/cudascope_live_watch
[ -x "$cudascope" ] || { echo "restart-soak.sh: $cudascope is not built" >&2; exit 1; }
work=$(mktemp -d)
sender_pid=
failures=0
cleanup() {
    [ -n "$sender_pid" ] && kill -9 "$sender_pid" 2>/dev/null
    [ -n "${export_pid:-}" ] && kill -9 "$export_pid" 2>/dev/null
    [ -n "${watch_pid:-}" ] && kill -9 "$watch_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

free_udp_port() {
    python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port_busy() {   # a UDP port on 127.0.0.1 that someone has bound
    python3 -c 'import socket,sys; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try: s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError: sys.exit(0)
sys.exit(1)' "$1"
}

# start_sender TRANSPORT PORT: the test picture, 25 fps in real time, a keyframe a second.
start_sender() {
    local out
    if [ "$1" = udp ]; then out="udp://127.0.0.1:$2?pkt_size=1316"
    else out="srt://127.0.0.1:$2?mode=listener&latency=50000&pkt_size=1316"; fi
    ffmpeg -nostdin -hide_banner -loglevel error -re -f lavfi -i testsrc2=size=640x360:rate=25 \
        -c:v libx264 -preset ultrafast -tune zerolatency -g 25 -bf 0 -pix_fmt yuv420p -threads 1 \
        -f mpegts "$out" >>"$work/sender.log" 2>&1 &
    sender_pid=$!
    if [ "$1" = srt ]; then   # the listener is up before anyone calls it
        for _ in $(seq 100); do port_busy "$2" && return 0; sleep 0.1; done
        echo "restart-soak.sh: the SRT sender did not start listening" >&2
    fi
}
stop_sender() { kill -9 "$sender_pid" 2>/dev/null; wait "$sender_pid" 2>/dev/null; sender_pid=; }

# wait_for_more COUNT_COMMAND AT_LEAST: seconds until COUNT_COMMAND prints AT_LEAST or more
# (up to 20 s; prints "timeout" then).
wait_for_more() {
    local start now
    start=$(date +%s%N)
    while :; do
        now=$(date +%s%N)
        if [ "$($1)" -ge "$2" ]; then printf '%d.%02d\n' $(((now - start) / 1000000000)) $(((now - start) / 10000000 % 100)); return 0; fi
        if [ $((now - start)) -gt 20000000000 ]; then echo timeout; return 1; fi
        sleep 0.05
    done
}

outages=(0.5 1.5 3 5)
url_for() { if [ "$1" = udp ]; then echo "udp://127.0.0.1:$2"; else echo "srt://127.0.0.1:$2"; fi; }

# cycle_restarts TRANSPORT PORT COUNT_COMMAND: the kill/restart cycles; prints each comeback.
cycle_restarts() {
    local i outage before took times=()
    for i in $(seq "$cycles"); do
        sleep 2   # frames flow a while
        outage=${outages[$(((i - 1) % ${#outages[@]}))]}
        stop_sender
        sleep "$outage"
        # Five new frames, not one: frames the old connection still held may come out late.
        before=$($3)
        start_sender "$1" "$2"
        took=$(wait_for_more "$3" $((before + 5))) || fail "$1 cycle $i (outage $outage s): no frames within 20 s of the restart"
        times+=("$took")
        printf '  cycle %2d: outage %s s, 5 frames again %s s after the sender restarted\n' "$i" "$outage" "$took"
    done
    printf '%s\n' "${times[@]}" | grep -v timeout | sort -n |
        awk '{a[NR]=$1} END {if (NR) printf "  5 frames again after a restart: min %.2f s, median %.2f s, max %.2f s (%d of %d)\n", a[1], a[int((NR+1)/2)], a[NR], NR, '"$cycles"'}'
}

soak_export() {
    local transport=$1 port url out rc
    port=$(free_udp_port)
    url=$(url_for "$transport" "$port")
    out=$work/export-$transport
    echo "== export, $transport: $url, $cycles restarts"
    start_sender "$transport" "$port"
    "$cudascope" export "$url" --out "$out" --scopes histogram,stats --timeout 20 >"$work/export-$transport.log" 2>&1 &
    export_pid=$!
    count_pngs() { find "$out" -name '*-histogram.png' 2>/dev/null | wc -l; }
    wait_for_more count_pngs 1 >/dev/null || fail "export $transport: no first frame"
    cycle_restarts "$transport" "$port" count_pngs
    stop_sender   # the end: the export gives up after --timeout, with its report
    wait "$export_pid"; rc=$?; export_pid=
    [ "$rc" = 1 ] || fail "export $transport: exit $rc after the sender stopped for good (want 1: timeout)"
    python3 - "$out/report.json" "$cycles" "$transport" <<'EOF' || failures=$((failures + 1))
import json, sys
report = json.load(open(sys.argv[1]))
cycles, transport = int(sys.argv[2]), sys.argv[3]
frames = report["frames"]
marked = [f for f in frames if f.get("discontinuity")]
pts = [f["pts"] for f in frames]
rising = all(b > a for a, b in zip(pts, pts[1:]))
restarts = report["restarts"]
kinds = {}
for r in restarts:
    kind = "reconnect" if r["reason"].startswith("reconnected") else "timestamps"
    kinds[kind] = kinds.get(kind, 0) + 1
print(f"  report: {len(frames)} frames, {report['frames_arrived']} arrived, {report['dropped_frames']} dropped, "
      f"{len(restarts)} restarts ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), "
      f"{len(marked)} frames marked, pts rising: {rising}, last pts {pts[-1]:.2f} s")
gaps = sorted(r["gap_seconds"] for r in restarts)
if gaps:
    print(f"  gap_seconds (from when the last frame was due to the next): min {gaps[0]:.2f} s, median {gaps[len(gaps)//2]:.2f} s, max {gaps[-1]:.2f} s")
ok = rising and len(marked) == len(restarts) and len(restarts) >= cycles
if not ok:
    print(f"FAIL: export {transport}: want >= {cycles} restarts, each marked, pts rising")
sys.exit(0 if ok else 1)
EOF
    grep -c "stream lost" "$work/export-$transport.log" | xargs printf '  stderr: %s "stream lost" lines\n'
}

soak_window() {
    local transport=$1 port url seconds rc log
    [ -x "$watch" ] || { fail "$watch is not built (a GUI build)"; return; }
    port=$(free_udp_port)
    url=$(url_for "$transport" "$port")
    log=$work/window-$transport.log
    seconds=$((cycles * 10 + 15))
    echo "== window, $transport: $url, $cycles restarts"
    start_sender "$transport" "$port"
    xvfb-run -a -s "-screen 0 1920x1080x24" "$watch" "$url" "$seconds" >"$log" 2>"$work/window-$transport.err" &
    watch_pid=$!
    presented() { awk '$2 == "frames" {n = $3} END {print n + 0}' "$log"; }
    wait_for_more presented 1 >/dev/null || fail "window $transport: no first frame"
    cycle_restarts "$transport" "$port" presented
    kill -0 "$watch_pid" 2>/dev/null || fail "window $transport: the window process died"
    wait "$watch_pid"; rc=$?; watch_pid=
    stop_sender
    [ "$rc" = 0 ] || fail "window $transport: exit $rc"
    grep '^summary' "$log" | sed 's/^/  /' || fail "window $transport: no summary (hung or crashed)"
    echo "  states seen: $(awk '$2 == "state" {$1 = $2 = ""; print}' "$log" | sort | uniq -c | tr -s ' ' | paste -sd ';')"
}

for transport in $transports; do
    for part in $parts; do
        "soak_$part" "$transport"
    done
done
echo "== $failures failure(s)"
[ "$failures" = 0 ]
