#!/usr/bin/env bash
# run-tests.sh: installs what is missing, builds, and runs the whole test suite with CTest
# (unit, integration, gui, arch, installer; gpu tests skip themselves without a device), then
# the unit suites and the parsing and engine integration tests under ASan + UBSan (the asan
# preset), every parser under libFuzzer (the fuzz preset: its corpora, then 10 s each but HDF5's), and the
# engine's unit and integration tests under ThreadSanitizer (the tsan preset).
# Extra arguments go to ctest, e.g. `installer/run-tests.sh -L unit`, and skip the sanitizer runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/installer/build.sh" default
cd "$root"
# Twice as many tests as cores: most wait on sockets, peers and timers; the benches run alone
# (RUN_SERIAL), so their figures are not shared with anything.
ctest --preset default -j "$(( $(nproc) * 2 ))" "$@"
if [ $# -eq 0 ]; then
  # Any report fails the run: halt_on_error exits non-zero at the first one (leaks included; an
  # absurd allocation returns null as outside ASan, and leaks inside libhdf5 on corrupt files are
  # suppressed: tests/support/lsan.supp).
  echo "== the unit suites and the parsing and engine integration tests under ASan + UBSan (asan preset)"
  asan_tests=(util_test config_test protocol_test ingest_test sim_test dicom_test archive_test engine_unit_test image_test
              beamform_test record_test pacs_client_test record_integration_test engine_test)
  [ -f build/asan/build.ninja ] || cmake --preset asan > /dev/null
  cmake --build build/asan --target "${asan_tests[@]}"
  for t in "${asan_tests[@]}"; do
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:allocator_may_return_null=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
      LSAN_OPTIONS="suppressions=$root/tests/support/lsan.supp:print_suppressions=0" build/asan/tests/$t
  done
  echo "== every parser under libFuzzer (fuzz preset): the seed corpora replayed, then 10 s each but the UFF reader's"
  [ -f build/fuzz/build.ninja ] || cmake --preset fuzz > /dev/null
  cmake --build --preset fuzz
  tests/fuzz/run-fuzzers.sh 10 fuzz_control_message fuzz_block_header fuzz_config fuzz_dicom_object fuzz_dicom_frames fuzz_queue_database fuzz_worklist_answer fuzz_s3_answer
  # fuzz_uff: its corpus (each libhdf5 fault found so far) only. Exploring it still finds faults
  # inside libhdf5 itself (docs/validation.md), which would fail CI at random.
  tests/fuzz/run-fuzzers.sh 0 fuzz_uff
  echo "== the engine's unit and integration tests under ThreadSanitizer (tsan preset)"
  [ -f build/tsan/build.ninja ] || cmake --preset tsan > /dev/null
  cmake --build build/tsan --target engine_unit_test engine_test
  # Any race report fails the run: halt_on_error exits non-zero at the first one.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/tests/engine_unit_test
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/tests/engine_test
fi
