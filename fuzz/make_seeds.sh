#!/usr/bin/env bash
# Seed corpora for the fuzz targets (fuzz/README.md):
#   fuzz/make_seeds.sh FFMPEG PROJECT_DIR OUT_DIR
# OUT_DIR/file_source: a few frames each of every container and codec family FileSource
# meets, at tiny sizes (64x48 and odd ones), made with the ffmpeg CLI; the damaged files
# found by hand (PROJECT_DIR/tests/data/damaged); the inputs of past findings
# (PROJECT_DIR/tests/data/fuzz/file_source). OUT_DIR/parsers: input strings, option values
# and command lines (arguments split at NUL bytes), and past findings (tests/data/fuzz/parsers).
# OUT_DIR/qc: 10-bit and 4:2:2 clips for qc's measurements (black, frozen and moving pictures,
# samples above the 10-bit range), and past findings (tests/data/fuzz/qc).
set -euo pipefail
if [[ $# -ne 3 ]]; then sed -n '2,3p' "$0"; exit 2; fi
ffmpeg=$1 project=$2 out=$3

files="$out/file_source"
rm -rf "$files" "$out/parsers" "$out/qc"
mkdir -p "$files" "$out/parsers" "$out/qc"

clip() {  # clip NAME INPUT_ARGS... -- OUTPUT_ARGS...
  local name=$1; shift
  local args=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  local path=$files/$name
  [[ $name == */* ]] && path=$out/$name
  "$ffmpeg" -nostdin -hide_banner -loglevel error -y "${args[@]}" "$@" -an -map_metadata -1 -fflags +bitexact "$path"
}
src() { echo "-f lavfi -i testsrc2=size=$1:rate=25:duration=$2"; }

# shellcheck disable=SC2046  # src's words are meant to split
{
  clip h264.mp4        $(src 64x48 0.12) -- -c:v libx264 -preset ultrafast -bf 2 -g 3 -pix_fmt yuv420p
  clip h264-10bit.mkv  $(src 64x48 0.08) -- -c:v libx264 -preset ultrafast -pix_fmt yuv422p10le
  clip hevc.mkv        $(src 64x48 0.12) -- -c:v libx265 -preset ultrafast -x265-params log-level=none -pix_fmt yuv420p
  clip hevc-10bit.mp4  $(src 64x64 0.08) -- -c:v libx265 -preset ultrafast -x265-params log-level=none -pix_fmt yuv420p10le
  clip mpeg2.ts        $(src 64x48 0.16) -- -c:v mpeg2video -g 3 -bf 1 -q:v 8
  clip mjpeg.avi       $(src 48x32 0.12) -- -c:v mjpeg -q:v 8 -pix_fmt yuvj422p
  clip mpeg4.mov       $(src 66x50 0.12) -- -c:v mpeg4 -q:v 8
  clip vp9.webm        $(src 64x48 0.08) -- -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 50k
  clip prores.mov      $(src 32x16 0.04) -- -c:v prores_ks -profile:v 3
  clip ffv1.mkv        $(src 30x18 0.08) -- -c:v ffv1 -pix_fmt yuv444p10le
  clip v210.mov        $(src 48x8 0.04) -- -c:v v210
  clip png.mov         $(src 24x16 0.04) -- -c:v png -pix_fmt rgba
  clip gif.gif         $(src 24x16 0.08) -- -pix_fmt pal8
  clip yuv420p.y4m     $(src 64x48 0.08) -- -pix_fmt yuv420p
  clip yuv420p10.y4m   $(src 64x48 0.08) -- -pix_fmt yuv420p10le -strict -1
  clip yuv444p.y4m     $(src 17x9 0.08) -- -pix_fmt yuv444p
  clip gray.y4m        $(src 16x8 0.08) -- -pix_fmt gray
  clip yuv422p10.nut   $(src 34x20 0.08) -- -c:v rawvideo -pix_fmt yuv422p10le
  clip nv12.nut        $(src 32x18 0.08) -- -c:v rawvideo -pix_fmt nv12
  clip p010.nut        $(src 32x18 0.04) -- -c:v rawvideo -pix_fmt p010le
  clip uyvy.nut        $(src 34x8 0.08) -- -c:v rawvideo -pix_fmt uyvy422
  clip yuyv.nut        $(src 34x8 0.04) -- -c:v rawvideo -pix_fmt yuyv422
  clip rgb24.nut       $(src 21x7 0.08) -- -c:v rawvideo -pix_fmt rgb24
  clip bgra.nut        $(src 16x8 0.04) -- -c:v rawvideo -pix_fmt bgra
  clip gbrp10.nut      $(src 16x8 0.04) -- -c:v rawvideo -pix_fmt gbrp10le
  clip yuv410p.nut     $(src 16x8 0.04) -- -c:v rawvideo -pix_fmt yuv410p
  clip bt709full.mkv   $(src 64x48 0.08) -- -c:v libx264 -preset ultrafast -pix_fmt yuvj420p -color_primaries bt709 -color_trc bt709 -colorspace bt709
}

# qc: 10-bit and 4:2:2, with what qc looks for (black, frozen and moving frames, out of
# legal range), and words above the 10-bit range (every byte 0xFF: each word 0xFFFF).
ones() { head -c "$1" /dev/zero | tr '\0' '\377'; }
# shellcheck disable=SC2046
{
  clip qc/h264-422p10.mkv   $(src 48x32 0.2) -- -c:v libx264 -preset ultrafast -g 4 -pix_fmt yuv422p10le
  clip qc/h264-420p10.mp4   $(src 64x48 0.16) -- -c:v libx264 -preset ultrafast -bf 2 -g 3 -pix_fmt yuv420p10le
  clip qc/hevc-422p10.mkv   $(src 32x32 0.12) -- -c:v libx265 -preset ultrafast -x265-params log-level=none -pix_fmt yuv422p10le
  clip qc/prores-422.mov    $(src 32x16 0.08) -- -c:v prores_ks -profile:v 2
  clip qc/ffv1-422p10.mkv   $(src 30x18 0.12) -- -c:v ffv1 -pix_fmt yuv422p10le
  clip qc/black-420p10.y4m  -f lavfi -i color=black:size=32x16:rate=25:duration=0.2 -- -pix_fmt yuv420p10le -strict -1
  clip qc/frozen-422p10.nut -f lavfi -i color=gray:size=34x20:rate=25:duration=0.2 -- -c:v rawvideo -pix_fmt yuv422p10le
  clip qc/hot-422p10.nut    -f lavfi -i testsrc2=size=34x20:rate=25:duration=0.12 -- -vf lutyuv=y=val*1.2:u=val*1.3 -c:v rawvideo -pix_fmt yuv422p10le
  clip qc/gray10.nut        $(src 16x8 0.12) -- -c:v rawvideo -pix_fmt gray10le
  clip qc/p010.nut          $(src 32x18 0.08) -- -c:v rawvideo -pix_fmt p010le
}
ones $((16 * 8 * 3 * 3)) | "$ffmpeg" -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt yuv420p10le -s 16x8 -r 25 -i - \
  -c:v rawvideo -fflags +bitexact "$out/qc/ffff-420p10.nut"
ones $((16 * 8 * 4 * 3)) | "$ffmpeg" -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt yuv422p10le -s 16x8 -r 25 -i - \
  -c:v rawvideo -fflags +bitexact "$out/qc/ffff-422p10.nut"
cp "$files/yuv420p10.y4m" "$files/yuv422p10.nut" "$files/h264-10bit.mkv" "$out/qc/"
if [[ -d $project/tests/data/fuzz/qc ]]; then cp "$project"/tests/data/fuzz/qc/* "$out/qc/"; fi

cp "$project"/tests/data/damaged/* "$files/"
if [[ -d $project/tests/data/fuzz/file_source ]]; then cp "$project"/tests/data/fuzz/file_source/* "$files/"; fi

# Parser seeds: input strings, option values and command lines (arguments split at NUL).
n=0
seed() { n=$((n + 1)); printf '%s' "$1" >"$out/parsers/seed-$n"; }
argv() { n=$((n + 1)); local first=1; for a in "$@"; do
  [[ $first -eq 1 ]] || printf '\0'; first=0; printf '%s' "$a"; done >"$out/parsers/argv-$n"; }
for s in 0 1 25 9223372036854775807 9223372036854775808 1920x1080 64X48 0x0 1x 30 29.97 30000/1001 1/0 \
    picture,histogram,waveform,parade,vectorscope,stats waveform,waveform 601 709 2020 bt2020nc limited full tv pc \
    blur gaussian edges peaking median zebra falsecolour \
    pattern:bars pattern:ramp:10bit pattern:zoneplate:10bit:17x9 pattern:bars:8bit:2x2:10bit pattern:ramp:1x1 \
    'v4l2:/dev/video0' 'v4l2:/dev/video0?size=640x480&fps=30000/1001&format=yuyv422' 'v4l2:/dev/video2?fps=25&format=mjpeg' \
    'size=1280x720&fps=29.97&format=nv12' 'udp://0.0.0.0:5000?timeout=1000000&fifo_size=50000&overrun_nonfatal=1' \
    'udp://@239.1.1.1:1234?pkt_size=1316&buffer_size=65536' 'rtp://127.0.0.1:5004?ttl=4' \
    'rtsp://user:pass@camera.local:554/stream1?transport=udp' 'rtsp://0.0.0.0:8554/live?listen' \
    'rtsp://host/path?transport=tcp&transport=udp' 'srt://0.0.0.0:9000?mode=listener' 'srt://host:9000?mode=caller&latency=200' \
    'rtmp://server/app/key' 'https://example.com/live/index.m3u8' 'http://example.com/clip.mp4' 'tcp://host:1234' \
    'stream.sdp' 'RTSP://HOST/x' 'gopher://x' 'v4l2:?size=big'; do
  seed "$s"
done
argv clip.mp4 --out out
argv clip.mp4 --out=out --every 5 --max-frames 10 --engine cpu --hwdec none
argv pattern:bars --out out --scopes waveform,stats --parade ycbcr --preview zebra --size 64x64
argv pattern:ramp:10bit --out out --matrix 2020 --range full --histogram-scale log --waveform-scale code --size 640x360
argv --out out --preview peaking --preview blur in.mkv
argv -- --strange-name.mp4 --out out
argv in.mp4 --out out --size 64x64x64 --max-frames ' 5'
argv --help
argv -h --version
argv a.mp4 b.mp4 --engine both --frames 30 --threads 4 --hwdec auto
argv in.mp4 --out
argv in.mp4 --help=yes
if [[ -d $project/tests/data/fuzz/parsers ]]; then cp "$project"/tests/data/fuzz/parsers/* "$out/parsers/"; fi
chmod u+w "$files"/* "$out"/parsers/* "$out"/qc/* 2>/dev/null || true
touch "$out/seeds.stamp"
