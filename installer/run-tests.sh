#!/usr/bin/env bash
# run-tests.sh: installs what is missing, builds, and runs the whole test suite with CTest
# (unit, integration, gui, arch, installer; gpu tests skip themselves without a device).
# Extra arguments go to ctest, e.g. `installer/run-tests.sh -L unit`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cd "$root"
ctest --preset default -j "$(nproc)" "$@"
