#!/bin/sh
# Builds the Debian package from a build folder and checks it as a user would meet it:
#   tests/package/test_deb.sh BUILD_DIR [--apt-simulate] [--chroot ROOT] [--keep DIR]
#
# Always (CTest entry `package_deb`, a few seconds):
#  - cpack makes cudascope_VERSION_ARCH.deb; its control names the package and version, its
#    Depends names the package of every shared library the binary needs (each NEEDED entry
#    resolved on this machine with ldconfig and dpkg -S), Qt's platform plugins, and not the
#    CUDA runtime; it holds the binary, the desktop entry and the icon where a desktop
#    looks (bin/, share/applications/, share/icons/hicolor/256x256/apps/), the user guide
#    and every picture it names (share/doc/cudascope/), and, for a
#    binary built with CUDA, libcudart in its private folder, found through the binary's
#    RUNPATH; the desktop entry passes desktop-file-validate (when installed);
#  - the package unpacked into an empty folder (dpkg-deb -x): the binary there resolves
#    every library (ldd), names no folder of the build tree, prints its version, and
#    exports the bars (`export pattern:bars --max-frames 1`: the PNGs, the .npy counts and
#    report.json); under xvfb-run (when installed) its window starts and is still running
#    after 5 seconds.
# --apt-simulate: apt-get resolves the package's dependencies from the configured archive as
#    on a system with nothing installed (an empty dpkg status; needs `apt-get update`).
# --chroot ROOT: a Debian 12 system in ROOT (e.g. `debootstrap --variant=minbase bookworm
#    ROOT`, as root): the package is installed there with apt-get (its dependencies from the
#    archive), then cudascope --version and the export of the bars run inside it.
# --keep DIR: leave the .deb in DIR.
# Exit codes: 0 passed, 1 failed, 2 usage, 77 skipped (no dpkg-deb, dpkg-shlibdeps or file).
set -eu

usage() { sed -n '2,24p' "$0"; exit 2; }
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd) || usage
shift
simulate=0 chroot_root="" keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --apt-simulate) simulate=1 ;;
        --chroot) [ $# -ge 2 ] || usage; chroot_root=$2; shift ;;
        --keep) [ $# -ge 2 ] || usage; keep=$2; shift ;;
        *) usage ;;
    esac
    shift
done
[ -f "$build/CPackConfig.cmake" ] || { echo "test_deb: $build has no CPackConfig.cmake (not a configured build folder)" >&2; exit 2; }
for tool in dpkg-deb dpkg-shlibdeps file; do
    command -v "$tool" > /dev/null || { echo "test_deb: skipped: $tool is not installed (apt-get install dpkg-dev file)"; exit 77; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/cudascope-deb.XXXXXX")
mounted=""
cleanup() {
    [ -z "$mounted" ] || umount "$mounted" || true
    rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "test_deb: FAILED: $*" >&2; failures=$((failures + 1)); }
pass() { echo "test_deb: ok: $*"; }

# ---- The package ----------------------------------------------------------------------------
cpack --config "$build/CPackConfig.cmake" -B "$work/out" > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log" >&2; fail "cpack"; exit 1; }
deb=$(ls "$work"/out/cudascope_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { cat "$work/cpack.log" >&2; fail "cpack wrote no cudascope_*.deb"; exit 1; }
pass "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = cudascope ] && pass "Package: cudascope" || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] && pass "Version: $version" || fail "Version is '$(field Version)', the project's is $version"
depends=$(field Depends)
echo "test_deb: Depends: $depends"
suggests=$(field Suggests || true)
[ -z "$suggests" ] || echo "test_deb: Suggests: $suggests"
# A package name as a whole word of Depends (names hold letters, digits, + - .).
declared() { printf '%s\n' "$depends" | tr ',|' '\n\n' | sed 's/(.*//; s/^ *//; s/ *$//; s/:.*//' | grep -qx "$1"; }
declared qt6-qpa-plugins && pass "Qt's platform plugins are a dependency" || fail "qt6-qpa-plugins missing from Depends"
case "$depends" in *cudart*|*cuda-*) fail "Depends names the CUDA runtime (it is carried, or absent)";; esac

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||' > "$work/contents"
for f in usr/bin/cudascope usr/share/applications/cudascope.desktop usr/share/icons/hicolor/256x256/apps/cudascope.png \
         usr/share/cudascope/policies/r103.json usr/share/cudascope/policies/r128.json \
         usr/share/cudascope/policies/a85.json usr/share/cudascope/policies/bt1702.json usr/share/cudascope/policies/detectors.json \
         usr/share/cudascope/policies/metadata.json \
         usr/share/doc/cudascope/USER_GUIDE.md usr/share/bash-completion/completions/cudascope; do
    grep -qx "$f" "$work/contents" && pass "holds /$f" || fail "no /$f in the package"
done
# The guide's pictures beside it, every one it names.
for img in $(grep -o 'guide/[A-Za-z0-9_-]*\.png' "$(dirname "$0")/../../docs/USER_GUIDE.md" | sort -u); do
    grep -qx "usr/share/doc/cudascope/$img" "$work/contents" && pass "holds the guide's $img" || fail "no $img beside the guide"
done

root=$work/root
dpkg-deb -x "$deb" "$root"
bin=$root/usr/bin/cudascope
if command -v desktop-file-validate > /dev/null; then
    desktop-file-validate "$root/usr/share/applications/cudascope.desktop" && pass "desktop entry valid" || fail "desktop-file-validate"
fi

# Every library the binary needs: in the package (a RUNPATH folder of it) or from a package in Depends.
runpath=$(readelf -d "$bin" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
case "$runpath" in *"$build"*) fail "the binary's RUNPATH names the build tree: $runpath";; esac
for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    carried=""
    for dir in $(printf '%s' "$runpath" | tr ':' ' '); do
        d=$(printf '%s' "$dir" | sed "s|\$ORIGIN|$root/usr/bin|")
        [ -e "$d/$lib" ] && carried="$d/$lib"
    done
    if [ -n "$carried" ]; then
        pass "$lib carried in the package (${carried#"$root"})"
        continue
    fi
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|x86_64|64bit/ {print $NF; exit}')
    [ -n "$path" ] || path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
    [ -n "$path" ] || { fail "$lib: not found on this machine"; continue; }
    pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n 1 | sed 's/:.*//') || pkg=""
    [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -n 1 | sed 's/:.*//') || pkg=""
    if [ -z "$pkg" ]; then fail "$lib ($path) belongs to no Debian package"
    elif declared "$pkg"; then pass "$lib from $pkg, declared"
    else fail "$lib comes from $pkg, which Depends does not name"; fi
done

# ---- The unpacked binary --------------------------------------------------------------------
if ldd "$bin" | grep -q "not found"; then fail "unresolved libraries: $(ldd "$bin" | grep 'not found' | tr -s ' \n' ' ')"; else pass "ldd resolves every library"; fi
case "$(ldd "$bin")" in *"$build"*) fail "ldd resolves a library from the build tree";; esac
out=$(cd "$work" && "$bin" --version 2>&1) || fail "cudascope --version exited $?"
[ "$out" = "cudascope $version" ] && pass "--version: $out" || fail "--version printed '$out'"
# qc's policy presets, found from the binary in ../share/cudascope/policies (an unknown name lists them).
out=$(cd "$work" && "$bin" qc none.mkv --out "$work/qc" --policy r104 2>&1 | head -n 1)
case "$out" in *"presets: a85, bt1702, detectors, metadata, r103, r128"*) pass "qc finds its policy presets";; *) fail "qc's presets: $out";; esac
if (cd "$work" && "$bin" export pattern:bars --out "$work/bars" --max-frames 1 > "$work/export.log" 2>&1); then
    missing=""
    for f in 000000-picture.png 000000-histogram.png 000000-waveform.png 000000-parade.png 000000-vectorscope.png \
             000000-waveform.npy 000000-parade.npy 000000-vectorscope.npy report.json; do
        [ -s "$work/bars/$f" ] || missing="$missing $f"
    done
    [ -z "$missing" ] && pass "export of the bars: $(ls "$work/bars" | wc -l) files" || fail "the export lacks$missing"
    grep -q '"frames"' "$work/bars/report.json" || fail "report.json has no frames"
else
    cat "$work/export.log" >&2
    fail "export of the bars"
fi
if command -v xvfb-run > /dev/null; then
    # The window (Qt's xcb plugin, OpenGL 3.3 through Mesa): still running after 5 s.
    rc=0
    (cd "$work" && XDG_CONFIG_HOME=$work/config timeout 5 xvfb-run -a -s "-screen 0 1280x800x24" "$bin" pattern:bars > "$work/gui.log" 2>&1) || rc=$?
    if [ "$rc" -eq 124 ]; then pass "the window starts and runs"
    else cat "$work/gui.log" >&2; fail "the window exited with $rc within 5 s"; fi
fi

# ---- Dependencies from the archive, as on an empty system -----------------------------------
if [ "$simulate" = 1 ]; then
    : > "$work/empty-status"
    if apt-get -o Dir::State::status="$work/empty-status" -o Debug::NoLocking=1 install --simulate -q "$deb" > "$work/apt.log" 2>&1; then
        pass "apt-get resolves every dependency on an empty system: $(grep -c '^Inst ' "$work/apt.log") packages to install"
    else
        tail -n 20 "$work/apt.log" >&2
        fail "apt-get cannot resolve the dependencies"
    fi
fi

# ---- A real install on a Debian 12 root -----------------------------------------------------
if [ -n "$chroot_root" ]; then
    [ -x "$chroot_root/usr/bin/apt-get" ] || { echo "test_deb: $chroot_root is not a Debian root" >&2; exit 2; }
    grep -q '^VERSION_ID="12"' "$chroot_root/etc/os-release" || fail "$chroot_root is not Debian 12"
    cp "$deb" "$chroot_root/tmp/"
    name=$(basename "$deb")
    mount -t proc proc "$chroot_root/proc" && mounted=$chroot_root/proc
    if chroot "$chroot_root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/$name" > "$work/chroot-install.log" 2>&1; then
        pass "installed in $chroot_root with apt-get: $(grep -c '^Setting up ' "$work/chroot-install.log") packages set up"
        out=$(chroot "$chroot_root" cudascope --version 2>&1) || true
        [ "$out" = "cudascope $version" ] && pass "in the root: --version: $out" || fail "in the root: --version printed '$out'"
        if chroot "$chroot_root" sh -c 'rm -rf /tmp/bars && cd /tmp && cudascope export pattern:bars --out /tmp/bars --max-frames 1' > "$work/chroot-export.log" 2>&1 &&
            [ -s "$chroot_root/tmp/bars/000000-vectorscope.png" ] && [ -s "$chroot_root/tmp/bars/report.json" ]; then
            pass "in the root: export of the bars: $(ls "$chroot_root/tmp/bars" | wc -l) files"
        else
            cat "$work/chroot-export.log" >&2
            fail "in the root: export of the bars"
        fi
    else
        tail -n 30 "$work/chroot-install.log" >&2
        fail "apt-get install in $chroot_root"
    fi
    rm -f "$chroot_root/tmp/$name"
fi

if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$deb" "$keep/" && echo "test_deb: kept $keep/$(basename "$deb")"; fi
[ "$failures" -eq 0 ] || { echo "test_deb: $failures check(s) failed" >&2; exit 1; }
echo "test_deb: passed"
