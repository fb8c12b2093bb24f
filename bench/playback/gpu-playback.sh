#!/bin/bash
# On any machine with an NVIDIA GPU, even one without X, Qt or FFmpeg, from the root of a
# checkout holding .gpu/xgui, .gpu/xclips and optionally .gpu/xorg (bench/README.md, "On a GPU
# machine without a display"): the 4K60
# playback target. Unpacks the bundle that bench/playback/make_gui_bundle.py
# wrote to .gpu/xgui, starts an X server (Xorg with the NVIDIA X driver from
# make_xorg_bundle.sh's .gpu/xorg, else Xvfb with GLX), and runs, with the CUDA engine and NVDEC and GLX through
# the NVIDIA vendor library: cudascope_screenshot on the first clip (PNG to $OUT), then
# playback_bench on every clip in .gpu/xclips. When GLX gives no NVIDIA context it tries
# Qt's EGL integration on the same X server, then Qt's minimalegl platform; when none does,
# playback_bench --no-window (EGL device, no window) and a snapshot of the frame textures.
# gl_probe says first which GL set-ups give whose context (probe.txt). Tables and logs go to
# $OUT (default .gpu/out); the unpacked bundles to a new folder under $TMPDIR.
#   bash bench/playback/gpu-playback.sh [SECONDS (8)] [WARMUP (1)]
# PLAYBACK_ARGS replaces "--engine cuda --hwdec nvdec" (e.g. to try the script without a GPU).
# NVIDIA_DRIVER_DIR: the driver's prefix where it is installed outside the system's folders.
set -u
seconds=${1:-8} warmup=${2:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
OUT=${OUT:-$root/.gpu/out}
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/cudascope-playback.XXXXXX")
G=$work/gui
mkdir -p "$G" && tar -C "$G" -xJf .gpu/xgui/gui.tar.xz || exit 1
clips=(.gpu/xclips/*)
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } 2>&1 | tee "$OUT/device.txt"
# The X server: Xorg with the machine's own NVIDIA X driver where make_xorg_bundle.sh's
# bundle is carried and the driver is there (GLX then is NVIDIA's), else Xvfb.
server=
if [[ -f .gpu/xorg/xorg.tar.xz ]]; then
  mkdir -p "$work/xorg" && tar -C "$work/xorg" -xJf .gpu/xorg/xorg.tar.xz && "$work/xorg/xorg-start" "$G" 2>&1 | tee "$OUT/server.txt"
  [[ ${PIPESTATUS[0]} -eq 0 && -s $G/display ]] && server=xorg
  [[ -f $G/Xorg.log ]] && cp "$G/Xorg.log" "$OUT/"
fi
if [[ -z $server ]]; then
  "$G/xstart" 2>&1 | tee -a "$OUT/server.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || exit 1
  server=xvfb
fi

# Where the driver's GL vendor libraries and EGL platform files are: glvnd loads
# libGLX_nvidia.so.0 / libEGL_nvidia.so.0 by name, so their folder must be on the path.
{ echo "== driver GL files"; ldconfig -p | grep -E "GLX_nvidia|EGL_nvidia|nvidia-egl" ; ls /dev/dri 2>&1
  find ${NVIDIA_DRIVER_DIR:-} /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/share/egl /usr/share/glvnd /etc -maxdepth 4 \( -name 'libGLX_nvidia.so*' -o -name 'libnvidia-egl-x*.so*' -o -path '*egl_external_platform.d/*' \) \
    2>/dev/null | head -20; } 2>&1 | tee "$OUT/probe.txt"
nvglx=$(find ${NVIDIA_DRIVER_DIR:-} /usr/lib/x86_64-linux-gnu /usr/lib64 -maxdepth 3 -name 'libGLX_nvidia.so.0' 2>/dev/null | head -1)
if [[ -n $nvglx ]] && ! ldconfig -p | grep -q libGLX_nvidia.so.0; then
  export LD_LIBRARY_PATH=$(dirname "$nvglx")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "== libGLX_nvidia.so.0 is not in the loader's cache: $(dirname "$nvglx") added to LD_LIBRARY_PATH" | tee -a "$OUT/probe.txt"
fi
for d in ${NVIDIA_DRIVER_DIR:+$NVIDIA_DRIVER_DIR/share/egl/egl_external_platform.d} /usr/share/egl/egl_external_platform.d; do
  [[ -d $d ]] && export __EGL_EXTERNAL_PLATFORM_CONFIG_DIRS=$d
done
{ echo "== gl_probe (GLX vendor ${__GLX_VENDOR_LIBRARY_NAME:-nvidia})"; timeout 30 "$G/run" gl_probe; } 2>&1 | tee -a "$OUT/probe.txt"

bench() {   # bench LABEL CLIP [ENV=VALUE...]: one playback_bench run, its output in $OUT/bench.md
  local label=$1 clip=$2
  shift 2
  echo "### $label: $(basename "$clip")" | tee -a "$OUT/bench.md"
  env "$@" timeout $((seconds + warmup + 40)) "$G/run" playback_bench "$clip" ${PLAYBACK_ARGS:---engine cuda --hwdec nvdec} --seconds "$seconds" --warmup "$warmup" \
    > "$work/bench.out" 2> "$work/bench.err"
  local rc=$?
  cat "$work/bench.out" >> "$OUT/bench.md"
  grep -v "XDG_RUNTIME_DIR\|Primary context already active" "$work/bench.err" | head -20 >> "$OUT/bench.md"
  echo "rc=$rc" >> "$OUT/bench.md"
  echo >> "$OUT/bench.md"
  grep -E "^\| \.gpu|OpenGL|rc=|playback_bench:" "$OUT/bench.md" | tail -3
  return $rc
}

# Which GL set-up gives an NVIDIA context: GLX first, then EGL on xcb, then Qt's minimalegl
# platform (EGL without X).
setup=() found=
for try in "" QT_XCB_GL_INTEGRATION=xcb_egl QT_QPA_PLATFORM=minimalegl; do
  setup=(${try})
  if bench "${try:-GLX (nvidia)}" "${clips[0]}" "${setup[@]}" && grep -q "OpenGL:.*NVIDIA" "$work/bench.out"; then
    found=1
    break
  fi
  echo "== ${try:-GLX through the NVIDIA vendor library} gave no NVIDIA context" | tee -a "$OUT/bench.md"
done
if [[ -z $found ]]; then
  # No X server here gives the NVIDIA GPU's OpenGL to a window: measure the same Player and
  # EngineHost without one (EGL device pbuffer; the views draw nothing), and save the frame
  # textures the CUDA engine wrote.
  echo "== no window set-up gave an NVIDIA context: --no-window (EGL device) instead" | tee -a "$OUT/bench.md"
  for clip in "${clips[@]}"; do
    snap=()
    [[ $clip == "${clips[-1]}" ]] && snap=(--snapshot "$OUT/textures_4k.png")
    PLAYBACK_ARGS="--engine cuda --hwdec nvdec --no-window ${snap[*]}" bench "no window" "$clip"
  done
  echo "== loop included: ${clips[0]} for 20 s" | tee -a "$OUT/bench.md"
  PLAYBACK_ARGS="--engine cuda --hwdec nvdec --no-window" seconds=20 bench "no window, loop" "${clips[0]}"
  cp "$G/xvfb.log" "$OUT/" 2>/dev/null
  cat "$OUT/bench.md"
  exit 0
fi
env "${setup[@]}" timeout 60 "$G/run" cudascope_screenshot "$OUT/window_4k.png" "${clips[-1]}" 1920x1080 2>&1 \
  | grep -v "XDG_RUNTIME_DIR\|Primary context" | tee "$OUT/screenshot.log"
for clip in "${clips[@]:1}"; do bench "${setup[*]:-GLX (nvidia)}" "$clip" "${setup[@]}"; done
echo "== loop included: ${clips[0]} for 20 s" | tee -a "$OUT/bench.md"
seconds=20 bench "${setup[*]:-GLX (nvidia)} loop" "${clips[0]}" "${setup[@]}"
[[ $server == xorg ]] && cp "$G/Xorg.log" "$OUT/" || cp "$G/xvfb.log" "$OUT/" 2>/dev/null
cat "$OUT/bench.md"
