#!/usr/bin/env bash
# run-fuzzers.sh: every libFuzzer target of tests/fuzz (built by the fuzz preset), first over its
# committed seed corpus (tests/fuzz/corpus/<target>, replayed as regression tests), then fuzzing
# for SECONDS each (default 15; 0: the corpus only) from that corpus into a scratch one. A crash, a leak, a timeout
# (10 s for one input) or 2 GB of memory fails the run; the input that did it is kept as
# build/fuzz/artifacts/<target>-crash-... to become a unit test. The fuzzing is seeded
# (FUZZ_SEED, default 1) so CI runs the same inputs each time; FUZZ_SEED=0 explores anew.
#   run-fuzzers.sh [SECONDS] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-15}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_control_message fuzz_block_header fuzz_config fuzz_uff fuzz_dicom_object fuzz_queue_database fuzz_worklist_answer)
bin="$root/build/fuzz/tests/fuzz"
export LSAN_OPTIONS="suppressions=$root/tests/support/lsan.supp:print_suppressions=0"
# An absurd allocation (a size read from a corrupt file) returns null as it does outside ASan,
# where the libraries must handle it (fuzz_uff found HDF5 asking for 2^64 bytes; it copes).
export ASAN_OPTIONS="allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# One allocation above the RSS limit is a failure (an allocation sized by hostile input) except
# where the library only reserves it: DCMTK sizes an element's value field by its declared
# length (up to 4 GB) before reading it from a network buffer; untouched, it costs no memory,
# and the association's deadline ends a peer that never sends the bytes (docs/validation.md).
declare -A malloc_limit_mb=([fuzz_worklist_answer]=4300)
artifacts="$root/build/fuzz/artifacts"
mkdir -p "$artifacts"
for t in "${targets[@]}"; do
  [ -x "$bin/$t" ] || { echo "run-fuzzers.sh: $bin/$t is not built (cmake --preset fuzz && cmake --build --preset fuzz)" >&2; exit 2; }
  seeds="$root/tests/fuzz/corpus/$t"
  scratch=$(mktemp -d)
  echo "== $t: its $(ls "$seeds" | wc -l) seeds$([ "$seconds" -gt 0 ] && echo ", then ${seconds} s of fuzzing")"
  log="$artifacts/$t.log"
  status=0
  "$bin/$t" -runs=0 -artifact_prefix="$artifacts/$t-" "$seeds" > "$log" 2>&1 || status=$?
  [ "$status" -eq 0 ] && [ "$seconds" -gt 0 ] && { "$bin/$t" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb="${malloc_limit_mb[$t]:-2048}" -print_final_stats=1 \
      -artifact_prefix="$artifacts/$t-" "$scratch" "$seeds" >> "$log" 2>&1 || status=$?; }
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)|ERROR|SUMMARY" "$log" || true
  rm -rf "$scratch"
  [ "$status" -eq 0 ] || { echo "run-fuzzers.sh: $t failed (exit $status); its log and input are in $artifacts" >&2; exit 1; }
done
