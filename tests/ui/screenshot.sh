#!/bin/sh
# Saves a screenshot of the main window with every scope panel open (not committed: pass a
# path outside the tree or an ignored one).
#   tests/ui/screenshot.sh OUT.png [INPUT] [WIDTHxHEIGHT] [EXPORT_DIR]
# BUILD_DIR (default: build) is the CMake build folder holding tests/ui/cudascope_screenshot.
# CS_SCREENSHOT_TRIGGER=name[,name...] triggers those window actions (object names) before
# the shot, e.g. CS_SCREENSHOT_TRIGGER=toneMap shows a PQ or HLG picture without tone mapping.
# CS_SCREENSHOT_COMBO=name=text[,name=text...] picks that item of those combo boxes, e.g.
# CS_SCREENSHOT_COMBO='waveformScale=Code values' labels the waveform and parade in code values.
set -eu
[ $# -ge 1 ] || { sed -n '2,5p' "$0"; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
tool=${BUILD_DIR:-$root/build}/tests/ui/cudascope_screenshot
[ -x "$tool" ] || { echo "screenshot.sh: $tool is not built (cmake --build BUILD --target cudascope_screenshot)" >&2; exit 1; }
exec xvfb-run -a -s "-screen 0 1920x1080x24" "$tool" "$@"
