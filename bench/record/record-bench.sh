#!/bin/bash
# Recording throughput: `cudascope record` of a 1080p60 and a 4K60 clip with every scope
# running (--layout composite --preview peaking: histogram, waveform, parade, vectorscope,
# the picture and a preview in each recorded frame), the same encoder (libx264 ultrafast, or
# NVENC where the GPU has it) fed by each conversion in turn: the CPU's (core/Yuv420), the
# GPU's (cuda/convert/Yuv420Converter: NVENC frames, or planes downloaded once for libx264) and
# swscale's. Each run is paced at the clip's frame rate (--realtime: frames the encoder cannot
# take in time are dropped and counted) and then run flat out (the file waits for the
# encoder): frames per second, every frame accounted for (delivered = recorded + dropped, the
# dropped ones late or refused by a full encoder queue), and the encoder thread's milliseconds
# per frame converting and encoding, from the command's closing lines. Prints a markdown table;
# exits 1 when a run's frames do not balance.
#
# Here (this machine, CPU engine):
#   bench/record/record-bench.sh local BUILD [SECONDS]          (BUILD/app/cudascope; clips made in a temp folder)
# For a machine with an NVIDIA GPU but no ffmpeg CLI (BUILD a CUDA build with cudascope built;
# BUNDLER the bundling program bench/gpu/gpu-check.sh describes):
#   CS_GPU_BUNDLER=BUNDLER bench/record/record-bench.sh pack BUNDLE BUILD [SECONDS]
#       (clips made here; BUNDLE a folder git ignores)
#   then there, from the root of a checkout holding BUNDLE:
#   bash bench/record/record-bench.sh run BUNDLE [ENGINE]       (ENGINE cuda by default; table to $OUT)
# The bundle carries libx264 for real, over the stub a bundler may put in place of the codec
# libraries FFmpeg names, which decoding never calls but recording does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-}
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

makeClips() {   # DIR SECONDS: 1080p60 and 4K60 H.264 clips of moving test picture
    local dir=$1 seconds=$2 ff=(ffmpeg -hide_banner -loglevel error -y)
    mkdir -p "$dir"
    "${ff[@]}" -f lavfi -i testsrc2=s=1920x1080:r=60 -t "$seconds" -pix_fmt yuv420p -c:v libx264 -preset veryfast \
        -crf 26 -g 60 "$dir/1080p60.mp4" &&
    "${ff[@]}" -f lavfi -i testsrc2=s=3840x2160:r=60 -t "$seconds" -pix_fmt yuv420p -c:v libx264 -preset veryfast \
        -crf 30 -g 60 "$dir/2160p60.mp4"
}

# bench CUDASCOPE CLIPDIR OUTDIR ENGINE CONVERSIONS...: the table on stdout, logs in OUTDIR.
bench() {
    local cudascope=$1 clips=$2 out=$3 engine=$4
    shift 4
    mkdir -p "$out"
    local unbalanced=0
    echo "| clip | size recorded | engine | conversion | paced | fps | delivered = recorded + dropped (late / queue full) | convert ms/frame | encode ms/frame | encoder |"
    echo "|---|---|---|---|---|---:|---:|---:|---:|---|"
    for clip in 1080p60 2160p60; do
        [[ -f $clips/$clip.mp4 ]] || continue
        local size=1920x1080
        [[ $clip == 2160p60 ]] && size=3840x2160
        for convert in "$@"; do
            for paced in realtime flat; do
                local log=$out/$clip-$convert-$paced.log extra=()
                [[ $paced == realtime ]] && extra=(--realtime)
                $cudascope record "$clips/$clip.mp4" --out "$out/$clip-$convert-$paced.mp4" --layout composite \
                    --preview peaking --size "$size" --engine "$engine" --convert "$convert" "${extra[@]}" 2> "$log"
                local line
                line=$(grep -E '^cudascope record: [0-9]+ frames? from' "$log" | tail -1)
                if [[ -z $line ]]; then
                    echo "| $clip | $size | $engine | $convert | $paced | failed: $(tail -1 "$log") | | | | |"
                    continue
                fi
                local fps conv enc encoder conversion counts delivered recorded dropped late full
                fps=$(sed -E 's/.*; ([0-9.]+) fps;.*/\1/' <<<"$line")
                counts=$(grep -E '^cudascope record: frames: ' "$log" | tail -1)
                read -r delivered recorded dropped late full < <(sed -E \
                    's/.*frames: ([0-9]+) delivered = ([0-9]+) recorded \+ ([0-9]+) dropped \(late ([0-9]+),.*encoder queue full ([0-9]+),.*/\1 \2 \3 \4 \5/' <<<"$counts")
                if [[ -z $counts || $counts == *"do not balance"* || $((recorded + dropped)) -ne $delivered ]]; then
                    unbalanced=1
                    dropped="$dropped: NOT BALANCED"
                fi
                conv=$(sed -E 's/.*conversion ([0-9.]+) ms.*/\1/' <<<"$line")
                enc=$(sed -E 's/.*encoding ([0-9.]+) ms.*/\1/' <<<"$line")
                encoder=$(sed -E 's/.* to [^ ]+ \(([^,]+),.*/\1/' <<<"$line")
                conversion=$(sed -E 's/.*, conversion ([^;)]+)[;)].*/\1/' <<<"$line")
                echo "| $clip | $size | $engine | $conversion | $paced | $fps | $delivered = $recorded + $dropped ($late / $full) | $conv | $enc | $encoder |"
            done
        done
    done
    rm -f "$out"/*.mp4
    return $unbalanced
}

case $mode in
local)
    build=${2:-}
    seconds=${3:-5}
    [[ -x $build/app/cudascope ]] || usage
    work=$(mktemp -d)
    trap "rm -rf '$work'" EXIT
    makeClips "$work/clips" "$seconds" || exit 1
    echo "## cudascope record on $(nproc) cores, CPU engine, $(date -u +%F)"
    echo
    bench "$build/app/cudascope" "$work/clips" "$work/out" cpu cpu swscale || exit 1
    ;;
pack)
    bundle=${2:-}
    build=${3:-}
    seconds=${4:-5}
    [[ -n $bundle && -x $build/app/cudascope ]] || usage
    bundler=${CS_GPU_BUNDLER:-}
    [[ -n $bundler && -x $bundler ]] || { echo "record-bench: CS_GPU_BUNDLER must name the bundling program (${bundler:-not set})" >&2; exit 1; }
    stage=$(mktemp -d)
    trap "rm -rf '$stage'" EXIT
    makeClips "$stage/clips" "$seconds" || exit 1
    "$bundler" "$bundle" "$build/app/cudascope" -- "$stage/clips" || exit 1
    # libx264 itself, unpacked after deps.tar.xz (the name sorts after it) over its stub.
    x264=$(ldd "$build/app/cudascope" | sed -nE 's/^\s*(libx264\.so\.[0-9]+) => (\S+).*/\2/p')
    [[ -n $x264 ]] || { echo "record-bench: cudascope does not load libx264" >&2; exit 1; }
    mkdir -p "$stage/x264/lib"
    cp -L "$x264" "$stage/x264/lib/$(basename "$x264")"
    tar -C "$stage/x264" -cf - . | xz -T2 -6 > "$bundle/x264.tar.xz"
    du -ch "$bundle"/*.tar.xz | tail -1
    ;;
run)
    bundle=${2:-}
    engine=${3:-cuda}
    [[ -d $bundle ]] || usage
    out=${OUT:-./record-bench-out}
    b=$(mktemp -d)
    trap "rm -rf '$b'" EXIT
    for a in "$bundle"/app.tar.xz "$bundle"/deps.tar.xz "$bundle"/x264.tar.xz; do tar -C "$b" -xJf "$a" || exit 1; done
    {
        echo "## cudascope record on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(nproc) cores, $(date -u +%F)"
        echo
        bench "$b/run cudascope" "$b/data/clips" "$out/logs" "$engine" cpu cuda swscale
    } | tee "$out/record-bench.md"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || exit 1
    ;;
*) usage ;;
esac
