#!/usr/bin/env bash
# run-sonolink.sh: installs what is missing, builds, and runs SonoLink's main job.
# Foundation stage (until the link and engine land): shows what this build is and what it
# finds on this station (GPU, RDMA), and validates the shipped configuration. The GUI on the
# simulated front end (with a display) and the headless demo (without) replace this as
# they land.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cli="$root/build/default/app/sonolink-cli"
echo
echo "== SonoLink (foundation stage: build info, hardware probe, configuration check) =="
"$cli" --version
"$cli" probe
"$cli" config check "$root/resources/config/sonolink.json"
