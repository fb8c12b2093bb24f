#!/bin/bash
# make_xorg_bundle.sh OUT_DIR: packs Debian's Xorg server (xserver-xorg-core, libxcvt0; fetched
# with apt-get download) into OUT_DIR/xorg.tar.xz with xorg-start, which starts it on a machine
# with an NVIDIA GPU with the NVIDIA X driver of that machine's own driver installation, headless
# (no display device, a virtual 1920x1080 screen). Why: the NVIDIA GLX client library gives
# no FBConfigs on an X server without NVIDIA's GLX (Xvfb), and its EGL has no X11 platform
# there, so only an X server running NVIDIA's driver gives Qt windows an NVIDIA GL context.
# On that machine, after the GUI bundle (make_gui_bundle.py) is unpacked in a folder G
# (bench/playback/gpu-playback.sh does both):
#   tar -C XO -xJf OUT_DIR/xorg.tar.xz && XO/xorg-start G
# xorg-start writes the display to G/display, where G/run reads it, and its logs to G.
set -euo pipefail
[[ $# -eq 1 ]] || { sed -n '2,10p' "$0"; exit 2; }
out=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q xserver-xorg-core libxcvt0 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
stage=$work/stage
mkdir -p "$stage/lib" "$stage/modules"
cp "$work/root/usr/lib/xorg/Xorg" "$stage/"
# The server's own modules: wfb (which the NVIDIA driver loads), glx (the vendor-neutral GLX
# extension that NVIDIA's libglxserver_nvidia plugs into), shadow; no other video drivers.
cp "$work/root/usr/lib/xorg/modules/"lib*.so "$stage/modules/"
mkdir -p "$stage/modules/extensions"
cp "$work/root/usr/lib/xorg/modules/extensions/libglx.so" "$stage/modules/extensions/"
cp -P "$work/root/usr/lib/x86_64-linux-gnu/"libxcvt.so* "$stage/lib/"

cat > "$stage/xorg-start" <<'EOF'
#!/bin/bash
# xorg-start GUI_BUNDLE_DIR: Xorg on :1 with the NVIDIA X driver found on this machine, no
# display device, a virtual screen (XORG_SCREEN, default 1920x1080), libraries and XKB data
# from the GUI bundle. Writes 1 to GUI_BUNDLE_DIR/display, its configuration and logs
# (Xorg.log) beside it. Prints why when it cannot.
b=$(cd "$(dirname "$0")" && pwd)
g=${1:?usage: xorg-start GUI_BUNDLE_DIR}
# The system's folders, and NVIDIA_DRIVER_DIR where the driver is installed under a prefix of its own.
dirs="/usr/lib/xorg /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/share/nvidia /lib ${NVIDIA_DRIVER_DIR:-}"
drv=$(find $dirs -maxdepth 5 -name nvidia_drv.so 2>/dev/null | head -1)
glx=$(find $dirs -maxdepth 5 -name 'libglxserver_nvidia.so*' 2>/dev/null | head -1)
if [[ -z $drv || -z $glx ]]; then
  echo "xorg-start: no NVIDIA X driver on this machine (nvidia_drv.so: ${drv:-missing}; libglxserver_nvidia.so: ${glx:-missing})"
  exit 1
fi
mods=$g/xorg-modules
rm -rf "$mods" && cp -r "$b/modules" "$mods" && mkdir -p "$mods/drivers"
cp "$drv" "$mods/drivers/nvidia_drv.so"
cp "$glx" "$mods/extensions/libglxserver_nvidia.so"
[[ -e /usr/bin/xkbcomp ]] || cp "$g/bin/xkbcomp" /usr/bin/xkbcomp
bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1)   # 00000000:00:05.0
IFS=':.' read -r _ pb pd pf <<< "$bus"
busid="PCI:$((16#$pb)):$((16#$pd)):$((16#$pf))"
size=${XORG_SCREEN:-1920x1080}
cat > "$g/xorg-nvidia.conf" <<CONF
Section "ServerFlags"
  Option "AutoAddDevices" "false"
  Option "AutoAddGPU" "false"
  Option "DontVTSwitch" "true"
EndSection
Section "Device"
  Identifier "gpu"
  Driver "nvidia"
  BusID "$busid"
  Option "AllowEmptyInitialConfiguration" "true"
  Option "UseDisplayDevice" "None"
  Option "ProbeAllGpus" "false"
EndSection
Section "Screen"
  Identifier "screen"
  Device "gpu"
  DefaultDepth 24
  Option "AllowEmptyInitialConfiguration" "true"
  SubSection "Display"
    Depth 24
    Virtual ${size%x*} ${size#*x}
  EndSubSection
EndSection
CONF
echo "xorg-start: driver $drv, GLX $glx, GPU $busid, screen $size"
LD_LIBRARY_PATH="$b/lib:$g/lib" setsid "$b/Xorg" :1 -config "$g/xorg-nvidia.conf" -modulepath "$mods" -logfile "$g/Xorg.log" \
  -noreset -nolisten tcp -novtswitch -sharevts -keeptty -xkbdir "$g/xkb" -fp built-ins > "$g/xorg.out" 2>&1 < /dev/null &
pid=$!
for i in $(seq 1 150); do
  kill -0 $pid 2>/dev/null || break
  # /tmp/.X11-unix is where every X server puts its socket.
  if [[ -S /tmp/.X11-unix/X1 ]] && grep -q "Initializing extension GLX\|GLX: Initialized" "$g/Xorg.log" 2>/dev/null; then
    sleep 0.5
    kill -0 $pid 2>/dev/null || break
    echo 1 > "$g/display"
    echo "xorg-start: Xorg on :1, pid $pid"
    exit 0
  fi
  sleep 0.1
done
echo "xorg-start: Xorg did not start:"
grep -E "\(EE\)|Fatal|NVIDIA" "$g/Xorg.log" 2>/dev/null | head -30
tail -5 "$g/xorg.out"
exit 1
EOF
chmod +x "$stage/xorg-start"
mkdir -p "$out"
tar -C "$stage" -cf - . | xz -T2 -6 > "$out/xorg.tar.xz"
echo "make_xorg_bundle: $out/xorg.tar.xz: $(du -h "$out/xorg.tar.xz" | cut -f1)"
