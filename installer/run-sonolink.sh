#!/usr/bin/env bash
# run-sonolink.sh: installs what is missing, builds, and runs SonoLink's main job: the headless
# demo (`sonolink-cli demo`): the built-in simulated front end, the link brought up, a few seconds
# of streaming and beamforming through the engine, then out/demo/demo.png (the last image),
# out/demo/demo.uff (a raw recording) and out/demo/demo_cine.dcm (a DICOM cine), and a summary.
# It first shows what this build is and finds on this station (GPU, RDMA) and checks the shipped
# configuration. Where there is a display ($DISPLAY), the console (`sonolink`, Qt) runs instead
# of the demo, on the built-in simulated front end.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cli="$root/build/default/app/sonolink-cli"
config="$root/resources/config/sonolink.json"
echo
echo "== SonoLink: this build and this station =="
"$cli" --version
"$cli" probe
"$cli" config check "$config"
echo
if [[ -n "${DISPLAY:-}" ]]; then
    echo "== SonoLink console on the built-in simulated front end (start-up self-test, then live) =="
    exec "$root/build/default/app/sonolink" --config "$config"
fi
echo "== headless demo: simulated front end -> link -> beamforming -> image, recording, DICOM =="
"$cli" demo --config "$config" --output-dir "$root/out/demo" --seconds 5
