#!/usr/bin/env python3
"""Packs the GUI programs (playback_bench, cudascope_screenshot) with Qt, FFmpeg and an X
server (Xvfb) for a machine with an NVIDIA GPU and its driver but no display, Qt, FFmpeg or X.

   bench/playback/make_gui_bundle.py OUT_DIR PROGRAM... [-- DATA_FILE...]

Writes OUT_DIR/gui.tar.xz. On that machine, in any empty folder DIR
(bench/playback/gpu-playback.sh does this):
   tar -C DIR -xJf OUT_DIR/gui.tar.xz
   DIR/xstart                 # Xvfb (1920x1080x24, GLX) on a free display; its log on failure
   DIR/run PROGRAM ...        # on that display: Qt on xcb, GLX through the NVIDIA vendor library
`run` sets the library and plugin paths and __GLX_VENDOR_LIBRARY_NAME=nvidia (unless already
set: `__GLX_VENDOR_LIBRARY_NAME=mesa` for Mesa's llvmpipe, QT_XCB_GL_INTEGRATION=xcb_egl for
EGL). Data lands in DIR/data/.

What travels (see bench/nvdec/make_bundle.py for the stub technique):
- real: the programs (and gl_probe, built from gl_probe.c), every library they and Qt's xcb platform plugin need (Qt, ICU, X and
  xcb libraries, fontconfig...) and FFmpeg's own libraries; Xvfb, xkbcomp and the XKB data;
  Mesa's swrast_dri.so, which Xvfb's GLX extension loads to describe its visuals.
- stubs (same soname, symbols and versions; never called): every library that only
  FFmpeg's libraries name (the codec libraries, 146 MB) and LLVM (117 MB), which swrast_dri
  needs only for llvmpipe: Xvfb runs it as softpipe (GALLIUM_DRIVER=softpipe, DRAW_USE_LLVM=0)
  and renders nothing itself, since the client's GLX is NVIDIA's.
- left behind: what the GPU machine has (CS_DEVICE_LIBS: a file of its sonames, one a line;
  same soname), the C runtime and the NVIDIA driver's own libraries. The GL vendor-neutral
  loaders it lacks (libGL, libGLX, libEGL... from glvnd) travel from CS_GL_LOADERS: a folder
  of their Debian packages (`apt-get download libglvnd0 libgl1 libglx0 libegl1 libgles2 libopengl0`).
The programs and Xvfb are load-checked with the stubs (ldd -r under LD_BIND_NOW) before packing.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('make_bundle', os.path.join(HERE, '..', 'nvdec', 'make_bundle.py'))
mb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mb)
# The Debian packages of the GL loaders the GPU machine lacks (a folder of .deb files).
GL_LOADERS = os.environ.get('CS_GL_LOADERS', '')

LIBDIR = '/usr/lib/x86_64-linux-gnu'
QT_PLUGINS = LIBDIR + '/qt6/plugins'
# xcb with GLX (the default) or EGL; minimalegl (no X at all) as a last resort to try;
# offscreen for playback_bench --no-window (widgets built, never shown).
PLUGINS = ['platforms/libqxcb.so', 'xcbglintegrations/libqxcb-glx-integration.so',
           'xcbglintegrations/libqxcb-egl-integration.so', 'platforms/libqminimalegl.so',
           'platforms/libqoffscreen.so']
XVFB, XKBCOMP, XKB_DATA = '/usr/bin/Xvfb', '/usr/bin/xkbcomp', '/usr/share/X11/xkb'
SWRAST = LIBDIR + '/dri/swrast_dri.so'
FFMPEG = re.compile(r'^(libav(codec|format|util|filter|device)|libsw(scale|resample)|libpostproc)\.so')
# Stubbed even where a real object needs it: used only on paths this bundle never takes.
FORCED_STUBS = re.compile(r'^libLLVM-\d+\.so')

XSTART = r'''#!/bin/bash
# xstart: Xvfb (XSTART_SCREEN, default 1920x1080x24) with GLX on the first free display; the
# display goes to $b/display, where `run` reads it. Xvfb looks for swrast_dri.so and xkbcomp
# at the paths it was built with: they are copied there when missing (a bare GPU machine).
b=$(cd "$(dirname "$0")" && pwd)
mkdir -p /usr/lib/x86_64-linux-gnu/dri
[[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ]] || cp "$b/dri/swrast_dri.so" /usr/lib/x86_64-linux-gnu/dri/
[[ -e /usr/bin/xkbcomp ]] || cp "$b/bin/xkbcomp" /usr/bin/xkbcomp
screen=${XSTART_SCREEN:-1920x1080x24}
rm -f "$b/display"
LD_LIBRARY_PATH="$b/lib" GALLIUM_DRIVER=softpipe DRAW_USE_LLVM=0 \
  setsid "$b/bin/Xvfb" -displayfd 3 -screen 0 "$screen" +extension GLX -nolisten tcp -fp built-ins \
  -xkbdir "$b/xkb" 3> "$b/display" > "$b/xvfb.log" 2>&1 < /dev/null &
pid=$!
for i in $(seq 1 100); do
  kill -0 $pid 2>/dev/null || break
  if [[ -s $b/display ]]; then echo "xstart: Xvfb on :$(cat "$b/display") ($screen), pid $pid"; exit 0; fi
  sleep 0.1
done
echo "xstart: Xvfb did not start:" >&2
cat "$b/xvfb.log" >&2
exit 1
'''

RUN = r'''#!/bin/bash
# run PROGRAM [ARGS...]: a bundled program with its libraries, Qt's xcb platform and GLX
# through the NVIDIA vendor library (override __GLX_VENDOR_LIBRARY_NAME or
# QT_XCB_GL_INTEGRATION to try others).
b=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$b/plugins" QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-xcb}
[[ -s $b/display ]] && export DISPLAY=:$(cat "$b/display")
export __GLX_VENDOR_LIBRARY_NAME=${__GLX_VENDOR_LIBRARY_NAME:-nvidia}
# glvnd finds the NVIDIA EGL vendor file in the system's folders; a driver installed under a
# prefix of its own (NVIDIA_DRIVER_DIR) keeps it in share/glvnd/egl_vendor.d there.
nv=${NVIDIA_DRIVER_DIR:+$NVIDIA_DRIVER_DIR/share/glvnd/egl_vendor.d/10_nvidia.json}
[[ -n $nv && -f $nv && -z ${__EGL_VENDOR_LIBRARY_FILENAMES:-} ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv
export FONTCONFIG_FILE=${FONTCONFIG_FILE:-$b/fonts/fonts.conf}
prog=$1; shift
if ldd "$b/bin/$prog" | grep -q 'not found'; then
  echo "run: libraries missing on this machine:" >&2
  ldd "$b/bin/$prog" | grep 'not found' >&2
fi
exec "$b/bin/$prog" "$@"
'''

FONTS_CONF = '''<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">.</dir><cachedir prefix="relative">cache</cachedir></fontconfig>
'''


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    data = []
    if '--' in args:
        i = args.index('--')
        args, data = args[:i], args[i + 1:]
    out_dir, programs = args[0], args[1:]
    for name, path in (('CS_DEVICE_LIBS', mb.DEVICE_LIBS), ('CS_GL_LOADERS', GL_LOADERS)):
        if not path or not os.path.exists(path):
            print(f'make_gui_bundle: {name} must name {"a file" if name == "CS_DEVICE_LIBS" else "a folder"} '
                  f'({path or "not set"}): see this script\'s help', file=sys.stderr)
            return 1
    on_device = set(open(mb.DEVICE_LIBS).read().split())
    stage = tempfile.mkdtemp()
    try:
        for d in ('bin', 'lib', 'data', 'dri', 'plugins', 'fonts'):
            os.makedirs(os.path.join(stage, d))
        for p in programs + [XVFB, XKBCOMP]:
            shutil.copy2(p, os.path.join(stage, 'bin'))
        # gl_probe: which GL set-up gives whose context there (gpu-playback.sh runs it first).
        mb.run(['gcc', '-O1', '-Wall', '-Wextra', '-Werror', '-o', os.path.join(stage, 'bin', 'gl_probe'),
                os.path.join(HERE, 'gl_probe.c'), '-lX11', '-lGL', '-lEGL'])
        shutil.copy2(SWRAST, os.path.join(stage, 'dri'))
        shutil.copytree(XKB_DATA, os.path.join(stage, 'xkb'), symlinks=False)
        plugin_files = []
        for rel in PLUGINS:
            os.makedirs(os.path.join(stage, 'plugins', os.path.dirname(rel)), exist_ok=True)
            shutil.copy2(os.path.join(QT_PLUGINS, rel), os.path.join(stage, 'plugins', rel))
            plugin_files.append(os.path.join(QT_PLUGINS, rel))
        # One font for the window's labels (Qt draws nothing without one).
        for font in ('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'):
            if os.path.exists(font):
                shutil.copy2(font, os.path.join(stage, 'fonts'))
        with open(os.path.join(stage, 'fonts', 'fonts.conf'), 'w') as f:
            f.write(FONTS_CONF)
        for f in data:
            shutil.copy2(f, os.path.join(stage, 'data'))

        roots = programs + [XVFB, XKBCOMP, SWRAST] + plugin_files
        paths = {}
        for r in roots:
            paths.update(mb.ldd_paths(r))

        def skip(n):
            return bool(mb.SKIP.match(n)) or n in on_device

        # Real: everything reachable from the roots, except that FFmpeg's libraries pass on
        # only each other (and what a non-FFmpeg object also needs), and forced stubs.
        real, candidates, queue = {}, {}, [(r, False) for r in roots]
        while queue:
            obj, from_ffmpeg = queue.pop()
            for n in mb.needed(obj):
                if skip(n) or n in real:
                    continue
                if n not in paths:
                    paths.update(mb.ldd_paths(obj))
                if FORCED_STUBS.match(n) or (from_ffmpeg and not FFMPEG.match(n)):
                    candidates[n] = paths[n]
                    continue
                real[n] = paths[n]
                queue.append((paths[n], bool(FFMPEG.match(n))))
        stubs = {n: p for n, p in candidates.items() if n not in real}
        objects = roots + list(real.values())
        imported = {}
        for obj in objects:
            for name, version, _, _, is_def in mb.dyn_symbols(obj):
                if not is_def:
                    imported.setdefault(name, set()).add(version)
            ver = mb.run(['objdump', '-p', obj])
            for block in re.finditer(r'required from (\S+):\n((?:\s+0x[0-9a-f]+ 0x[0-9a-f]+ \d+ \S+\n)+)', ver):
                mb.wanted_versions.setdefault(block.group(1), set()).update(re.findall(r'\d+ (\S+)\n', block.group(2)))
        for n, p in real.items():
            shutil.copy2(p, os.path.join(stage, 'lib', n))
        # The GL vendor-neutral loaders the GPU machine lacks (libGL, libGLX, libEGL...).
        gl = tempfile.mkdtemp()
        for deb in sorted(os.listdir(GL_LOADERS)):
            mb.run(['dpkg-deb', '-x', os.path.join(GL_LOADERS, deb), gl])
        for root, _, files in os.walk(gl):
            for f in files:
                src = os.path.join(root, f)
                if '.so' in f and not os.path.exists(os.path.join(stage, 'lib', f)):
                    shutil.copy2(src, os.path.join(stage, 'lib', f), follow_symlinks=False)
        shutil.rmtree(gl)
        work = tempfile.mkdtemp()
        total = 0
        for n, p in sorted(stubs.items()):
            total += mb.make_stub(n, p, imported, work, os.path.join(stage, 'lib'))
        shutil.rmtree(work)

        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(stage, 'lib'), LD_BIND_NOW='1')
        bad = []
        for obj in [os.path.join(stage, 'bin', os.path.basename(p)) for p in programs + [XVFB]] + \
                   [os.path.join(stage, 'dri', 'swrast_dri.so')]:
            for line in mb.run(['ldd', '-r', obj], env=env).splitlines():
                if 'undefined symbol' in line or 'not found' in line:
                    bad.append(os.path.basename(obj) + ': ' + line.strip())
        # swrast_dri's own undefined symbols come from Xvfb (the GLX provider's interface).
        bad = [b for b in bad if not (b.startswith('swrast_dri.so') and '_glapi' not in b and 'undefined symbol' in b)]
        if bad:
            print('make_gui_bundle: would not load:\n' + '\n'.join(bad[:30]), file=sys.stderr)
            return 1
        for name, text in (('xstart', XSTART), ('run', RUN)):
            with open(os.path.join(stage, name), 'w') as f:
                f.write(text)
            os.chmod(os.path.join(stage, name), 0o755)
        os.makedirs(out_dir, exist_ok=True)
        archive = os.path.join(out_dir, 'gui.tar.xz')
        subprocess.run('tar -C %s -cf - . | xz -T2 -6 > %s' % (stage, archive), shell=True, check=True)
        print('make_gui_bundle: %s: %.1f MB (%d real libraries, %d stubs with %d symbols: %s)' %
              (archive, os.path.getsize(archive) / 1e6, len(real), len(stubs), total, ' '.join(sorted(stubs))))
        return 0
    finally:
        shutil.rmtree(stage)


if __name__ == '__main__':
    sys.exit(main())
