#!/usr/bin/env bash
# run-sonolink.sh: installs what is missing, builds, and runs SonoLink's main job.
# Link stage (until the engine, GUI and demo land): shows what this build is and what it finds
# on this station (GPU, RDMA), validates the shipped configuration, and streams 300 frames of
# the simulated phantom from the built-in front end through the link and ingest path. The GUI
# on the simulated front end (with a display) and the headless demo (without) replace this as
# they land.
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
echo "== 300 frames from the built-in simulated front end (128 channels, 3 plane waves, 100 fps) =="
"$cli" stream --in-process --config "$root/resources/config/sonolink.json" --frames 300 --rate 100
