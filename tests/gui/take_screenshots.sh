#!/usr/bin/env bash
# take_screenshots.sh [OUT_DIR]: runs the real console (build/default/app/sonolink) under Xvfb
# with the xcb platform (not offscreen) on the built-in simulated front end and the shipped
# configuration, and saves what it shows once the start-up self-test is over, streaming:
# OUT_DIR/main_window_streaming.png, the self-test wizard's two pages,
# OUT_DIR/selftest_wizard_steps.png and OUT_DIR/selftest_wizard_report.png, then frozen with
# calipers on the phantom, OUT_DIR/calipers.png, and Help > Station check…, OUT_DIR/station_check.png
# (default OUT_DIR: docs/screenshots). Then the
# same in Simplified Chinese (--language zh_CN): main_window_streaming_zh_CN.png,
# selftest_wizard_steps_zh_CN.png, selftest_wizard_report_zh_CN.png, calipers_zh_CN.png and
# station_check_zh_CN.png; and the exam dialog
# answering a real worklist and the PACS queue after an export to a real storescp
# (take_dicom_screenshots.py: exam_worklist{,_zh_CN}.png, pacs_queue{,_zh_CN}.png). The QA
# reports it keeps go to a temporary folder. Last, the two reviews: a 30-frame recording of the
# phantom (sonolink-cli record) through `sonolink --replay`, OUT_DIR/review_recording{,_zh_CN}.png, and the
# same beamformed into an RLE cine (sonolink-cli beamform --dicom) through `sonolink --cine`,
# OUT_DIR/cine_review{,_zh_CN}.png. Then the main window on screens of 1280 x 720, 1366 x 768 and
# 1920 x 1080 (main_window_<size>.png), and a scan blocked by a failed self-test
# (scan_blocked{,_zh_CN}.png), dual mode (a laser at 20 Hz): the shots over the B-mode
# (dual_mode_overlay{,_zh_CN}.png) and beside it (dual_mode_side_by_side.png), and the console refusing to start: a second instance and a
# file that is no recording (second_instance{,_zh_CN}.png, replay_refused{,_zh_CN}.png). Needs
# xvfb-run and dcmtk.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$(mkdir -p "${1:-$root/docs/screenshots}" && cd "${1:-$root/docs/screenshots}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"  # selftest.report_directory is relative: the reports land here
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
  --screenshot "$out/main_window_streaming.png" --screenshot-wizard "$out/selftest_wizard_steps.png" \
  --screenshot-report "$out/selftest_wizard_report.png" --screenshot-calipers "$out/calipers.png" \
  --screenshot-station-check "$out/station_check.png" --quit-after 12 --language en
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
  --screenshot "$out/main_window_streaming_zh_CN.png" --screenshot-wizard "$out/selftest_wizard_steps_zh_CN.png" \
  --screenshot-report "$out/selftest_wizard_report_zh_CN.png" --screenshot-calipers "$out/calipers_zh_CN.png" \
  --screenshot-station-check "$out/station_check_zh_CN.png" --quit-after 12 --language zh_CN
echo "saved $out/main_window_streaming{,_zh_CN}.png, $out/selftest_wizard_steps{,_zh_CN}.png, $out/selftest_wizard_report.png, $out/calipers{,_zh_CN}.png, $out/station_check{,_zh_CN}.png"
/usr/bin/python3 "$root/tests/gui/take_dicom_screenshots.py" "$root" "$out"
"$root/build/default/app/sonolink-cli" record "$work/phantom.uff" --in-process --frames 30 --rate 30 > /dev/null
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" --replay "$work/phantom.uff" \
  --screenshot "$out/review_recording.png" --quit-after 5 --language en
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" --replay "$work/phantom.uff" \
  --screenshot "$out/review_recording_zh_CN.png" --quit-after 5 --language zh_CN
"$root/build/default/app/sonolink-cli" beamform "$work/phantom.uff" --x-range -19:19:256 --z-range 3:38:512 --window hann \
  --display 512x512 --dicom "$work/phantom_cine.dcm" --dicom-compression rle --patient-name "Review^Demo" --output-dir "$work/beamformed" > /dev/null
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" --cine "$work/phantom_cine.dcm" \
  --screenshot "$out/cine_review.png" --quit-after 3 --language en
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" --cine "$work/phantom_cine.dcm" \
  --screenshot "$out/cine_review_zh_CN.png" --quit-after 3 --language zh_CN
echo "saved $out/review_recording{,_zh_CN}.png, $out/cine_review{,_zh_CN}.png"
# The layout on common screens (the window fitted to each), and a scan blocked by a failed
# start-up self-test (a BER limit the link cannot show in a second), in both languages.
for size in 1280x720 1366x768 1920x1080; do
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 ${size}x24" \
    "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
    --screenshot "$out/main_window_$size.png" --quit-after 10 --language en
done
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1366x768x24" \
  "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
  --screenshot "$out/main_window_1366x768_zh_CN.png" --quit-after 10 --language zh_CN
# The shipped configuration with its steps file copied beside it, the link BER test's limit one
# the link cannot show in a second.
mkdir -p "$work/blocked/config" "$work/blocked/selftest"
cp "$root/resources/config/sonolink.json" "$work/blocked/config/blocked.json"
sed -e 's/"ber_quick_limit": 1e-10/"ber_quick_limit": 1e-14/' -e '/"name": "link BER"/s/"timeout_s": 120/"timeout_s": 1/' \
  "$root/resources/selftest/steps.json" > "$work/blocked/selftest/steps.json"
for language in en zh_CN; do
  suffix=$([ "$language" = en ] && echo "" || echo "_$language")
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1366x768x24" \
    "$root/build/default/app/sonolink" --config "$work/blocked/config/blocked.json" \
    --screenshot "$out/scan_blocked$suffix.png" --quit-after 10 --language "$language"
done
echo "saved $out/main_window_{1280x720,1366x768,1920x1080,1366x768_zh_CN}.png, $out/scan_blocked{,_zh_CN}.png"
# Dual mode: the shipped configuration with a laser at 20 Hz beside the ultrasound frames, the
# shots over the B-mode (both languages) and side by side (English).
mkdir -p "$work/dual/config" "$work/dual/selftest"
cp "$root/resources/selftest/steps.json" "$work/dual/selftest/steps.json"
/usr/bin/python3 - "$root/resources/config/sonolink.json" "$work/dual/config" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["acquisition"]["laser_rate_hz"] = 20
json.dump(config, open(sys.argv[2] + "/dual.json", "w"), indent=2)
config["display"]["photoacoustic_view"] = "side_by_side"
json.dump(config, open(sys.argv[2] + "/side_by_side.json", "w"), indent=2)
PY
for language in en zh_CN; do
  suffix=$([ "$language" = en ] && echo "" || echo "_$language")
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x900x24" \
    "$root/build/default/app/sonolink" --config "$work/dual/config/dual.json" \
    --screenshot "$out/dual_mode_overlay$suffix.png" --quit-after 12 --language "$language"
done
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x900x24" \
  "$root/build/default/app/sonolink" --config "$work/dual/config/side_by_side.json" \
  --screenshot "$out/dual_mode_side_by_side.png" --quit-after 12 --language en
echo "saved $out/dual_mode_overlay{,_zh_CN}.png, $out/dual_mode_side_by_side.png"
# The console refusing to start, in a dialog, both languages: a second console while one runs
# (the first offscreen, holding the station's lock), and a file to review that is no recording.
QT_QPA_PLATFORM=offscreen "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" --quit-after 60 \
  --language en > "$work/first.log" 2>&1 &
first=$!
for _ in $(seq 100); do grep -q "connecting" "$work/first.log" 2> /dev/null && break; sleep 0.1; done
echo "not a recording" > "$work/notes.uff"
for language in en zh_CN; do
  suffix=$([ "$language" = en ] && echo "" || echo "_$language")
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
    --screenshot "$out/second_instance$suffix.png" --language "$language" || true
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" "$root/build/default/app/sonolink" --config "$root/resources/config/sonolink.json" \
    --replay "$work/notes.uff" --screenshot "$out/replay_refused$suffix.png" --language "$language" || true
done
kill "$first"; wait "$first" 2> /dev/null || true
echo "saved $out/second_instance{,_zh_CN}.png, $out/replay_refused{,_zh_CN}.png"
