#!/usr/bin/env bash
# take_screenshots.sh [OUT_DIR]: runs the real console (build/default/app/sonolink) under Xvfb
# with the xcb platform (not offscreen) on the built-in simulated front end and the shipped
# configuration, and saves what it shows after the start-up self-test, streaming:
# OUT_DIR/main_window_streaming.png (default OUT_DIR: docs/screenshots). Needs xvfb-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$root/docs/screenshots}
mkdir -p "$out"
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
  --screenshot "$out/main_window_streaming.png" --quit-after 8
echo "saved $out/main_window_streaming.png"
