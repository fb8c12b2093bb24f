#!/usr/bin/env python3
"""Packs nvdec_bench (or any program linking FFmpeg) in a few MB for a machine with an NVIDIA
GPU and its driver but without FFmpeg.

   bench/nvdec/make_bundle.py OUT_DIR PROGRAM [DATA_FILE...]

Writes OUT_DIR/nvdec.tar.xz with bin/PROGRAM, lib/ and data/. On that machine, in any
empty folder DIR:
   tar -C DIR -xJf OUT_DIR/nvdec.tar.xz && LD_LIBRARY_PATH=DIR/lib DIR/bin/PROGRAM ...
(bench/gpu/gpu-session.sh does this with .gpu/nvdec/nvdec.tar.xz.)

Why: FFmpeg's libraries link every codec library Debian builds them with (x265, aom,
codec2, librsvg and its cairo/pango/glib, ICU through others...): 146 MB to carry. HEVC decoding through NVDEC needs none of them (FFmpeg's own HEVC
parser, NVDEC loaded at run time). So the program and FFmpeg's libraries travel real, the
libraries the GPU machine already has (CS_DEVICE_LIBS: a file of their sonames, one a line, as
`ldconfig -p` lists them there; same soname) stay behind, and every
other library they name is replaced by a stub: a shared object with the same soname, the
same symbol versions and every symbol the real ones import from it (functions returning a
pointer to zeroed memory, data objects of the same size); only demuxer probes call any. FFmpeg's libraries are linked with
BIND_NOW, so a symbol missing from a stub would stop the program at load time; this script
checks that by loading the program with the stubs (LD_BIND_NOW) before packing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
# The sonames the GPU machine has, one a line (required: the bundle depends on that machine).
DEVICE_LIBS = os.environ.get('CS_DEVICE_LIBS', '')
# Never carried (newer on the GPU machine, or the NVIDIA driver's own).
SKIP = re.compile(r'^(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libgcc_s|libstdc\+\+|libcuda|libnvcuvid|libnvidia-[a-z-]*)\.so')
# Carried as they are: FFmpeg and the CUDA runtime.
REAL = re.compile(r'^(libav(codec|format|util|filter|device)|libsw(scale|resample)|libpostproc|libcudart)\.so')


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def needed(path):
    return re.findall(r'\(NEEDED\)\s+Shared library: \[(.+?)\]', run(['readelf', '-d', path]))


def ldd_paths(path):
    paths = {}
    for line in run(['ldd', path]).splitlines():
        m = re.match(r'\s*(\S+) => (/\S+)', line)
        if m:
            paths[m.group(1)] = m.group(2)
    return paths


def dyn_symbols(path):
    """(name, version or None, kind, size, defined) of every dynamic symbol."""
    out = []
    for line in run(['objdump', '-T', path]).splitlines():
        # 0000000000012340 g    DF .text  0000000000000012  Base        name
        # 0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.2.5) name
        m = re.match(r'^[0-9a-f]+ (.{7}) (\S+)\s+([0-9a-f]+)\s+(?:(\(?[^\s()]+\)?)\s+)?(?:\.(?:hidden|protected|internal)\s+)?(\S+)$', line)
        if not m:
            continue
        flags, section, size, version, name = m.group(1), m.group(2), int(m.group(3), 16), m.group(4), m.group(5)
        kind = 'O' if 'O' in flags else 'F'
        if version in (None, 'Base', '(Base)') or version.startswith('*'):
            version = None
        elif version:
            version = version.strip('()')
        out.append((name, version, kind, size, section != '*UND*'))
    return out


def make_stub(soname, real_path, wanted, workdir, libdir):
    """A shared object named `soname` defining the wanted (name -> versions) that real_path defines."""
    kinds = {}
    for name, _, kind, size, is_def in dyn_symbols(real_path):
        if is_def and name in wanted and name not in kinds:
            kinds[name] = (kind, size)
    # Functions return the address of zeroed memory: a caller expecting a pointer (FFmpeg's
    # libgme probe dereferences gme_identify_header()'s string) reads an empty string, one
    # expecting a status sees an unknown value (the libopenmpt probe then scores 0).
    lines = ['/* stub for %s: only demuxer probes ever call one */' % soname, 'static char zeros[65536];']
    count = 0
    for name in sorted(kinds):
        kind, size = kinds[name]
        versions = sorted(wanted[name], key=lambda v: v or '')
        for i, version in enumerate(versions):
            sym = name if version is None else '__stub_%d' % count
            if kind == 'O':
                lines.append('char %s[%d] __attribute__((aligned(16)));' % (sym, max(size, 1)))
            else:
                lines.append('void *%s(void) { return zeros; }' % sym)
            if version is not None:
                # The first version is the default (@@), others hidden (@): either binds.
                lines.append('__asm__(".symver %s, %s%s%s");' % (sym, name, '@@' if i == 0 or versions[0] is None and i == 1 else '@', version))
            count += 1
    src = os.path.join(workdir, soname + '.c')
    with open(src, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    cmd = ['gcc', '-shared', '-fPIC', '-O0', '-w', '-o', os.path.join(libdir, soname), src, '-Wl,-soname,' + soname]
    nodes = sorted(wanted_versions.get(soname, set()) | {v for n in kinds for v in wanted[n] if v})
    if nodes:
        script = os.path.join(workdir, soname + '.map')
        with open(script, 'w') as f:
            f.write(''.join('%s { };\n' % v for v in nodes))
        cmd.append('-Wl,--version-script=' + script)
    run(cmd)
    return count


wanted_versions = {}


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    out_dir, program, data = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not os.path.isfile(DEVICE_LIBS):
        print(f'make_bundle: CS_DEVICE_LIBS must name the list of the GPU machine\'s libraries ({DEVICE_LIBS or "not set"})', file=sys.stderr)
        return 1
    on_device = set(open(DEVICE_LIBS).read().split())
    stage = tempfile.mkdtemp()
    try:
        for d in ('bin', 'lib', 'data'):
            os.makedirs(os.path.join(stage, d))
        shutil.copy2(program, os.path.join(stage, 'bin'))
        for f in data:
            shutil.copy2(f, os.path.join(stage, 'data'))
        paths = ldd_paths(program)
        # Real: what the program itself needs that the machine lacks, and FFmpeg.
        real, queue = {}, [program]
        while queue:
            obj = queue.pop()
            for n in needed(obj):
                if SKIP.match(n) or n in on_device or n in real:
                    continue
                if obj == program or REAL.match(n):
                    real[n] = paths[n]
                    queue.append(paths[n])
        stubs = {}
        for obj in [program] + list(real.values()):
            for n in needed(obj):
                if not (SKIP.match(n) or n in on_device or n in real):
                    stubs[n] = paths[n]
        # Symbols (and versions) the real objects import.
        imported = {}
        for obj in [program] + list(real.values()):
            for name, version, _, _, is_def in dyn_symbols(obj):
                if not is_def:
                    imported.setdefault(name, set()).add(version)
            ver = run(['objdump', '-p', obj])
            for block in re.finditer(r'required from (\S+):\n((?:\s+0x[0-9a-f]+ 0x[0-9a-f]+ \d+ \S+\n)+)', ver):
                wanted_versions.setdefault(block.group(1), set()).update(re.findall(r'\d+ (\S+)\n', block.group(2)))
        for n, p in real.items():
            shutil.copy2(p, os.path.join(stage, 'lib', n))
        work = tempfile.mkdtemp()
        total = 0
        for n, p in sorted(stubs.items()):
            total += make_stub(n, p, imported, work, os.path.join(stage, 'lib'))
        shutil.rmtree(work)
        # Load check: every symbol resolves with the stubs (as BIND_NOW will on the GPU machine).
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(stage, 'lib'), LD_BIND_NOW='1')
        missing = run(['ldd', '-r', os.path.join(stage, 'bin', os.path.basename(program))], env=env)
        bad = [l for l in missing.splitlines() if 'undefined symbol' in l or 'not found' in l or 'version' in l and 'not found' in l]
        if bad:
            print('make_bundle: the program would not load:\n' + '\n'.join(bad[:20]), file=sys.stderr)
            return 1
        os.makedirs(out_dir, exist_ok=True)
        archive = os.path.join(out_dir, 'nvdec.tar.xz')
        subprocess.run('tar -C %s -cf - . | xz -T2 -6 > %s' % (stage, archive), shell=True, check=True)
        print('make_bundle: %s: %.1f MB (%d real libraries: %s; %d stubs with %d symbols)' %
              (archive, os.path.getsize(archive) / 1e6, len(real), ' '.join(sorted(real)), len(stubs), total))
        return 0
    finally:
        shutil.rmtree(stage)


if __name__ == '__main__':
    sys.exit(main())
