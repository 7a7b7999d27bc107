#!/usr/bin/env bash
# run-sonolink.sh: installs what is missing, builds, and runs SonoLink's main job.
# Until the engine, GUI and demo land: shows what this build is and what it finds on this
# station (GPU, RDMA), validates the shipped configuration, streams 300 frames of the simulated
# phantom from the built-in front end through the link and ingest path, records 10 more (UFF),
# and beamforms the first recorded frame into out/phantom.png and .npy. The GUI on the
# simulated front end (with a display) and the headless demo (without) replace this as they land.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cli="$root/build/default/app/sonolink-cli"
echo
echo "== SonoLink (link stage: build info, hardware probe, configuration check, streaming) =="
"$cli" --version
"$cli" probe
"$cli" config check "$root/resources/config/sonolink.json"
echo
out="$root/out"
mkdir -p "$out"
echo "== 300 frames from the built-in simulated front end (128 channels, 3 plane waves, 100 fps) =="
"$cli" stream --in-process --config "$root/resources/config/sonolink.json" --frames 300 --rate 100
echo
echo "== 10 more, recorded to out/phantom.uff (UFF, USTB layout) =="
"$cli" stream --in-process --config "$root/resources/config/sonolink.json" --frames 10 --rate 100 --record "$out/phantom.uff"
echo
echo "== the first recorded frame, beamformed on the CPU reference (3 waves compounded) =="
"$cli" beamform "$out/phantom.uff" --frame 0 --x-range -19:19:256 --z-range 3:38:512 --output-dir "$out" --name phantom
