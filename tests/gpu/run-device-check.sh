#!/usr/bin/env bash
# The GPU check in one run: builds the GPU-check-only configuration (the beamformers, the
# memory tests, their GPU tests and benchmarks), checks the CUDA beamformer against the CPU
# reference on every path (RF with each window, IQ, sector; tests label gpu), including live
# frames straight from the simulated link's registered ring, runs the GPU memory tests (sound
# memory and a planted fault), times the kernels, the end-to-end path and the memory tests,
# checks the new kernels with compute-sanitizer where it is installed, and prints a short
# summary table last.
# Dependencies come from .devdeps/root (installer/gather-device-deps.sh) when present, else the
# system. --prebuilt DIR: the test and benchmark binaries built elsewhere (a station with nvcc
# and the same dependencies), built here only if they do not start.
# Exit: 0 all checks pass, 1 a check or bar failed, 77 no GPU here (built, nothing run).
# Usage: tests/gpu/run-device-check.sh [--build-dir DIR] [--out DIR] [--arch 90] [--quick] [--prebuilt DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=/tmp/sonolink-gpu-check
out=${OUT:-/tmp/sonolink-gpu-check-out}
arch=90
min_time=1
prebuilt=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build-dir) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --quick) min_time=0.2; shift ;;
    --prebuilt) prebuilt=$2; shift 2 ;;
    *) echo "run-device-check: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
deps="$root/.devdeps/root"
if [[ -d $deps ]]; then
  export CMAKE_PREFIX_PATH="$deps/usr:$deps/usr/lib/x86_64-linux-gnu/cmake:$deps/usr/share/cmake${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export PATH="$PATH:/usr/local/cuda/bin"
# cuFFT is loaded at run time: a toolkit outside /usr/local/cuda is found and put on the path.
if ! ldconfig -p 2>/dev/null | grep -q libcufft.so.12 && [[ ! -e /usr/local/cuda/lib64/libcufft.so.12 ]]; then
  found=$(find / -xdev -name 'libcufft.so.12*' -type f 2>/dev/null | head -1 || true)
  [[ -n $found ]] && export LD_LIBRARY_PATH="$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
binaries=(gpu_probe_test gpu_beamformer_test gpu_ring_beamform_test gpu_beamform_bench gpu_memory_test gpu_memory_bench)
start=$(date +%s)
bin="$build/tests/gpu"
if [[ -n $prebuilt ]] && "$prebuilt/gpu_probe_test" --gtest_list_tests >/dev/null 2>"$out/prebuilt.log"; then
  bin=$prebuilt
  echo "run-device-check: the binaries in $prebuilt"
else
  [[ -n $prebuilt ]] && { echo "run-device-check: the binaries in $prebuilt do not start here (building):"; tail -3 "$out/prebuilt.log"; }
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DSONOLINK_GPU_CHECK_ONLY=ON \
    -DSONOLINK_ENABLE_CUDA=ON -DSONOLINK_CUDA_ARCHITECTURES="$arch" >"$out/configure.log" 2>&1 \
    || { tail -30 "$out/configure.log"; echo "run-device-check: configure failed" >&2; exit 1; }
  cmake --build "$build" -j"$(nproc)" --target "${binaries[@]}" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; echo "run-device-check: build failed" >&2; exit 1; }
  echo "run-device-check: built in $(( $(date +%s) - start )) s"
fi

probe_ok=1
"$bin/gpu_probe_test" --gtest_brief=1 >"$out/probe.log" 2>&1 || probe_ok=0
if grep -q "no CUDA device" "$out/probe.log"; then
  cat "$out/probe.log"
  echo "run-device-check: no usable GPU here: built, nothing run"
  exit 77
fi
if [[ $probe_ok == 0 ]]; then
  cat "$out/probe.log"
  echo "run-device-check: the GPU probe failed (above); going on to collect what can be" >&2
fi
status=$((1 - probe_ok))
"$bin/gpu_beamformer_test" --gtest_output="json:$out/agreement.json" >"$out/agreement.log" 2>&1 || status=1
"$bin/gpu_ring_beamform_test" --gtest_output="json:$out/ring.json" >>"$out/agreement.log" 2>&1 || status=1
"$bin/gpu_memory_test" --gtest_output="json:$out/memory.json" >>"$out/agreement.log" 2>&1 || status=1
"$bin/gpu_beamform_bench" --benchmark_min_time="$min_time" --benchmark_format=console \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json >"$out/bench.log" 2>&1 || status=1
"$bin/gpu_memory_bench" --benchmark_min_time="$min_time" --benchmark_format=console \
  --benchmark_out="$out/memory_bench.json" --benchmark_out_format=json >>"$out/bench.log" 2>&1 || status=1
# Out-of-bounds accesses and races in the kernels: the IQ, sector and memory tests under
# compute-sanitizer (its memcheck and racecheck), where it is installed.
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1 || true)
if [[ -n $sanitizer ]]; then
  for tool in memcheck racecheck; do
    timeout 150 "$sanitizer" --tool "$tool" --error-exitcode 3 "$bin/gpu_beamformer_test" --gtest_filter='*IqPathBatches*:*Sector*:*PointTargets*' \
      >"$out/sanitizer_$tool.log" 2>&1 || { echo "compute-sanitizer $tool: exit $? (see sanitizer_$tool.log)"; status=1; }
    tail -2 "$out/sanitizer_$tool.log"
  done
  timeout 60 "$sanitizer" --tool memcheck --error-exitcode 3 "$bin/gpu_memory_test" --gtest_filter='*Planted*' >"$out/sanitizer_memory.log" 2>&1 \
    || { echo "compute-sanitizer memcheck (memory test): exit $?"; status=1; }
  tail -2 "$out/sanitizer_memory.log"
else
  echo "run-device-check: no compute-sanitizer here: the kernels' memory checks did not run"
fi
grep -E "FAILED|Failure|error" "$out/agreement.log" | head -40 || true
tail -25 "$out/agreement.log"
cat "$out/bench.log"
python3 "$root/tests/gpu/device_check_summary.py" "$out" || status=1
echo "run-device-check: $(( $(date +%s) - start )) s in all; logs in $out"
exit $status
