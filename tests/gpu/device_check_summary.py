#!/usr/bin/env python3
"""The GPU check's summary table (run-device-check.sh): agreement with the CPU reference per
scene, the GPU memory tests, and the benchmark figures against the issues' bars: the
rectangular kernel's rate, each window and the IQ path against it in the same run, frames per
second end to end. Each path runs with every way its kernel offers (the benchmark's `kernel`
argument: bit 0 conversions by rounding, bit 1 full occupancy); a path's best way is held to the bar
against the best rectangular way, and the table names the ways. Exit 1 when a check or bar fails.
Usage: device_check_summary.py OUT_DIR   (reads the *.json the steps wrote there)"""
import json
import os
import re
import sys

KERNEL_BAR = 1.5e12   # nominal pixel*channel*transmit operations per second, kernel only
FRAMES_BAR = 20000.0  # frames per second end to end from page-locked host memory
VS_RECTANGULAR_BAR = 0.8  # windows and IQ against the rectangular kernel, same samples and frames
HELD_TO_RECTANGULAR = ("hann", "tukey", "iq_rectangular", "iq_hann")
MEMORY_VS_MEMCPY_BAR = 0.5  # a memory test's traffic against cudaMemcpy's (as the host test's bar)
TEST_RESULTS = ("agreement.json", "ring.json", "memory.json")


def arguments(name):
    """{'int16': 0, 'frames': 1, 'mode': 2} from 'delayAndSumKernel/int16:0/frames:1/mode:2/...'."""
    return {k: int(v) for k, v in re.findall(r"(\w+):(\d+)", name)}


def ways(kernel):
    """The kernel argument's bits in words."""
    return ("conversions by rounding" if kernel & 1 else "conversion instructions") + (", full occupancy" if kernel & 2 else "")


def best_ways(kernel_benchmarks):
    """{(label, int16, frames): (ops/s, kernel)}: each path's fastest way."""
    best = {}
    for b in kernel_benchmarks:
        a = arguments(b["name"])
        key = (b.get("label"), a.get("int16"), a.get("frames"))
        if key not in best or b["nominal_ops_per_s"] > best[key][0]:
            best[key] = (b["nominal_ops_per_s"], a.get("kernel", 0))
    return best


def load(out, name, rows):
    """The JSON a step wrote, or None with a FAIL row when it wrote none (it crashed)."""
    try:
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        rows.append((name, f"missing or unreadable ({e}); see the logs in {out}", "FAIL"))
        return None


def main(out):
    failed = False
    rows = []
    suites = []
    for name in TEST_RESULTS:
        suites += (load(out, name, rows) or {"testsuites": []})["testsuites"]
    bench = load(out, "bench.json", rows) or {"benchmarks": []}
    failed |= bool(rows)
    for suite in suites:
        for test in suite["testsuite"]:
            skipped = test.get("result") == "SKIPPED"
            ok = not test.get("failures") and not skipped
            failed |= not ok
            error = test.get("relative_error", "")
            verdict = "pass" if ok else "SKIPPED" if skipped else "FAIL"
            rows.append((f"{suite['name']}.{test['name']}", f"rel. error {error}" if error else "", verdict))
    kernel = [b for b in bench["benchmarks"] if b["name"].startswith("delayAndSumKernel") and "error_occurred" not in b]
    e2e = [b for b in bench["benchmarks"] if b["name"].startswith("endToEnd") and "error_occurred" not in b]
    for b in bench["benchmarks"]:
        if "error_occurred" in b:
            failed = True
            rows.append((b["name"], b.get("error_message", ""), "FAIL"))
    best = best_ways(kernel)
    for b in kernel:
        a = arguments(b["name"])
        label = b.get("label", "")
        detail = f"{label} ({ways(a.get('kernel', 0))}): {b['nominal_ops_per_s']:.3g} ops/s, {b['frames_per_s']:.0f} frames/s"
        if b.get("envelope_us_per_frame"):
            detail += f", envelope {b['envelope_us_per_frame']:.1f} us/frame"
        base = best.get(("rectangular", a.get("int16"), a.get("frames")))
        if base:
            detail += f", {b['nominal_ops_per_s'] / base[0]:.2f} x the best rectangular"
        rows.append((b["name"], detail, ""))
    for (label, int16, frames), (rate, way) in sorted(best.items(), key=lambda kv: str(kv[0])):
        base = best.get(("rectangular", int16, frames))
        if label not in HELD_TO_RECTANGULAR or not base:
            continue
        ratio = rate / base[0]
        detail = f"{ratio:.2f} x the best rectangular ({ways(base[1])}), with {ways(way)}"
        rf_same_window = best.get((label[3:], int16, frames)) if label.startswith("iq_") else None
        if rf_same_window and label != "iq_rectangular":
            detail += f"; {rate / rf_same_window[0]:.2f} x the best RF {label[3:]}"
        ok = ratio >= VS_RECTANGULAR_BAR
        failed |= not ok
        rows.append((f"best {label}, {'int16' if int16 else 'float'}, {frames} frame(s)", detail, "pass" if ok else "BELOW BAR"))
    for b in e2e:
        rows.append((b["name"], f"{b.get('label', '')}: {b['frames_per_s']:.0f} frames/s", ""))
    memory_json = load(out, "memory_bench.json", rows)
    failed |= memory_json is None
    memory = (memory_json or {}).get("benchmarks", [])
    for b in memory:
        if "error_occurred" in b:
            failed = True
            rows.append((b["name"], b.get("error_message", ""), "FAIL"))
            continue
        ratio = b["vs_memcpy"]
        ok = ratio >= MEMORY_VS_MEMCPY_BAR
        failed |= not ok
        rows.append((b["name"], f"{b.get('label', '')}: {b['traffic_bytes_per_s'] / 1e9:.0f} GB/s read and written, "
                     f"{ratio:.2f} x cudaMemcpy ({b['memcpy_bytes_per_s'] / 1e9:.0f} GB/s)", "pass" if ok else "BELOW BAR"))
    kernel = [b for b in kernel if b.get("label") == "rectangular"]
    e2e = [b for b in e2e if b.get("label") == "rectangular"]
    best_kernel = max((b["nominal_ops_per_s"] for b in kernel), default=0.0)
    best_e2e = max((b["frames_per_s"] for b in e2e), default=0.0)
    for name, value, bar in (("kernel (best)", best_kernel, KERNEL_BAR), ("end to end (best)", best_e2e, FRAMES_BAR)):
        ok = value >= bar
        failed |= not ok
        rows.append((name, f"{value:.3g} vs bar {bar:.3g} ({value / bar:.2f}x)", "pass" if ok else "BELOW BAR"))
    width = max(len(r[0]) for r in rows)
    print("\nGPU device check")
    for name, detail, verdict in rows:
        print(f"  {name:<{width}}  {verdict:<9}  {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
