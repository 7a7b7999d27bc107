#!/usr/bin/env bash
# The GPU check in one run: builds the GPU-check-only configuration (the beamformers, their GPU
# tests and benchmark), checks the CUDA beamformer against the CPU reference (tests label gpu),
# including live frames straight from the simulated link's registered ring, times the kernel
# and the end-to-end path, and prints a short summary table last.
# Dependencies come from .devdeps/root (installer/gather-device-deps.sh) when present, else the
# system. Exit: 0 all checks pass, 1 a check or bar failed, 77 no GPU here (built, nothing run).
# Usage: tests/gpu/run-device-check.sh [--build-dir DIR] [--out DIR] [--arch 90] [--quick]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=/tmp/sonolink-gpu-check
out=${OUT:-/tmp/sonolink-gpu-check-out}
arch=90
min_time=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --build-dir) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --quick) min_time=0.2; shift ;;
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
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
start=$(date +%s)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DSONOLINK_GPU_CHECK_ONLY=ON \
  -DSONOLINK_ENABLE_CUDA=ON -DSONOLINK_CUDA_ARCHITECTURES="$arch" >"$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; echo "run-device-check: configure failed" >&2; exit 1; }
cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; echo "run-device-check: build failed" >&2; exit 1; }
built=$(date +%s)
echo "run-device-check: built in $((built - start)) s"

probe_ok=1
"$build/tests/gpu/gpu_probe_test" --gtest_brief=1 >"$out/probe.log" 2>&1 || probe_ok=0
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
"$build/tests/gpu/gpu_beamformer_test" --gtest_output="json:$out/agreement.json" >"$out/agreement.log" 2>&1 || status=1
"$build/tests/gpu/gpu_ring_beamform_test" --gtest_output="json:$out/ring.json" >>"$out/agreement.log" 2>&1 || status=1
"$build/tests/gpu/gpu_beamform_bench" --benchmark_min_time="$min_time" --benchmark_format=console \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json >"$out/bench.log" 2>&1 || status=1
tail -20 "$out/agreement.log"
cat "$out/bench.log"
python3 "$root/tests/gpu/device_check_summary.py" "$out" || status=1
echo "run-device-check: $(( $(date +%s) - start )) s in all; logs in $out"
exit $status
