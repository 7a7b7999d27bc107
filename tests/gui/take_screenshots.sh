#!/usr/bin/env bash
# take_screenshots.sh [OUT_DIR]: runs the real console (build/default/app/sonolink) under Xvfb
# with the xcb platform (not offscreen) on the built-in simulated front end and the shipped
# configuration, and saves what it shows once the start-up self-test is over, streaming:
# OUT_DIR/main_window_streaming.png, and the self-test wizard's two pages,
# OUT_DIR/selftest_wizard_steps.png and OUT_DIR/selftest_wizard_report.png (default OUT_DIR:
# docs/screenshots). The QA reports it keeps go to a temporary folder. Needs xvfb-run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$(mkdir -p "${1:-$root/docs/screenshots}" && cd "${1:-$root/docs/screenshots}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"  # selftest.report_directory is relative: the reports land here
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
  --screenshot "$out/main_window_streaming.png" --screenshot-wizard "$out/selftest_wizard_steps.png" \
  --screenshot-report "$out/selftest_wizard_report.png" --quit-after 12
echo "saved $out/main_window_streaming.png, $out/selftest_wizard_steps.png, $out/selftest_wizard_report.png"
