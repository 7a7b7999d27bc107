#!/usr/bin/env bash
# run-tests.sh: installs what is missing, builds, and runs the whole test suite with CTest
# (unit, integration, gui, arch, installer; gpu tests skip themselves without a device), then
# the engine's unit and integration tests under ThreadSanitizer (the tsan preset, those targets).
# Extra arguments go to ctest, e.g. `installer/run-tests.sh -L unit`, and skip the TSan run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cd "$root"
ctest --preset default -j "$(nproc)" "$@"
if [ $# -eq 0 ]; then
  echo "== the engine's unit and integration tests under ThreadSanitizer (tsan preset)"
  [ -f build/tsan/build.ninja ] || cmake --preset tsan > /dev/null
  cmake --build build/tsan --target engine_unit_test engine_test
  # Any race report fails the run: halt_on_error exits non-zero at the first one.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/tests/engine_unit_test
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/tests/engine_test
fi
