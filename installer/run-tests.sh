#!/usr/bin/env bash
# run-tests.sh: installs what is missing, builds, and runs the whole test suite with CTest
# (unit, integration, gui, arch, installer; gpu tests skip themselves without a device), then
# the unit suites and the parsing and engine integration tests under ASan + UBSan (the asan
# preset), every parser under libFuzzer (the fuzz preset: its corpora, then 10 s each but HDF5's), and the
# engine's unit and integration tests under ThreadSanitizer (the tsan preset). The sanitizer
# builds run (niced) while the tests run: the suite passes with the cores loaded, and most tests
# wait on sockets, peers and timers; the benchmark bars (label bench) run after, alone.
# Extra arguments go to ctest, e.g. `installer/run-tests.sh -L unit`, and skip the sanitizer runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cd "$root"
if [ $# -gt 0 ]; then
  exec ctest --preset default -j "$(( $(nproc) * 2 ))" "$@"
fi
asan_tests=(engine_test beamform_test pacs_client_test dicom_test record_integration_test sim_test record_test util_test
            config_test protocol_test ingest_test archive_test engine_unit_test image_test cluster_test ucx_fabric_test)
sanitizer_builds() {
  [ -f build/asan/build.ninja ] || cmake --preset asan > /dev/null
  cmake --build build/asan --target "${asan_tests[@]}"
  [ -f build/fuzz/build.ninja ] || cmake --preset fuzz > /dev/null
  cmake --build --preset fuzz
  [ -f build/tsan/build.ninja ] || cmake --preset tsan > /dev/null
  cmake --build build/tsan --target engine_unit_test engine_test ucx_fabric_test
}
mkdir -p build
( renice -n 19 -p "$BASHPID" > /dev/null; sanitizer_builds ) > build/sanitizer-builds.log 2>&1 &
builds=$!
# Twice as many tests as cores: most wait on sockets, peers and timers.
status=0
# The suite preset leaves out the bars (a preset's label filter overrides -LE on the command line:
# they ran twice, once among the loaded cores, where the DICOM send bar fell short).
ctest --preset suite -j "$(( $(nproc) * 2 ))" || status=$?
echo "== the sanitizer builds"
if ! wait "$builds"; then tail -n 100 build/sanitizer-builds.log; exit 1; fi
[ "$status" -eq 0 ] || exit "$status"
echo "== the benchmark bars, alone (RUN_SERIAL: their figures are shared with nothing)"
ctest --preset default -L '^bench$'
# Runs the function $1 on each of the other arguments, as many at once as there are cores; fails,
# once all have run, if any failed.
on_each_core() {
  local fn=$1 failed=0 running=0
  shift
  for item in "$@"; do
    if [ "$running" -ge "$(nproc)" ]; then wait -n || failed=1; running=$((running - 1)); fi
    "$fn" "$item" & running=$((running + 1))
  done
  while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
  return "$failed"
}
# Each sanitized run's output goes to a log of its own, shown whole when it ends.
sanitized() {  # NAME COMMAND...: runs COMMAND, its output into build/sanitized/NAME.log
  local name=$1 log="$root/build/sanitized/$1.log" status=0
  shift
  mkdir -p "$root/build/sanitized"
  "$@" > "$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then echo "   $name: passed"; else echo "   $name: FAILED (exit $status):"; tail -n 80 "$log"; fi
  return "$status"
}
asan_run() {
  ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:allocator_may_return_null=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    LSAN_OPTIONS="suppressions=$root/tests/support/lsan.supp:print_suppressions=0" sanitized "asan-$1" "build/asan/tests/$1"
}
# fuzz_uff: its corpus (each libhdf5 fault found so far) only. Exploring it still finds faults
# inside libhdf5 itself (docs/validation.md), which would fail CI at random.
fuzz_run() { sanitized "$1" tests/fuzz/run-fuzzers.sh "$([ "$1" = fuzz_uff ] && echo 0 || echo 10)" "$1"; }
# UCX's memory hooks (libucm: malloc and mmap intercepted) and ThreadSanitizer's crash each other;
# the fabric over TCP and shared memory needs none of them.
tsan_run() {
  UCX_MEM_MALLOC_HOOKS=no UCX_MEM_MMAP_HOOK_MODE=none TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" sanitized "tsan-$1" "build/tsan/tests/$1"
}

# Any report fails the run: halt_on_error exits non-zero at the first one (leaks included; an
# absurd allocation returns null as outside ASan, and leaks inside libhdf5 on corrupt files are
# suppressed: tests/support/lsan.supp).
echo "== the unit suites and the parsing and engine integration tests under ASan + UBSan (asan preset)"
on_each_core asan_run "${asan_tests[@]}"
echo "== every parser under libFuzzer (fuzz preset): the seed corpora replayed, then 10 s each but the UFF reader's"
on_each_core fuzz_run fuzz_control_message fuzz_block_header fuzz_config fuzz_dicom_object fuzz_dicom_frames fuzz_queue_database \
  fuzz_worklist_answer fuzz_s3_answer fuzz_uff
echo "== the engine's unit and integration tests, and the UCX fabric's, under ThreadSanitizer (tsan preset)"
# Any race report fails the run: halt_on_error exits non-zero at the first one.
on_each_core tsan_run engine_test engine_unit_test ucx_fabric_test
