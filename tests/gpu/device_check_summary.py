#!/usr/bin/env python3
"""The GPU check's summary table (run-device-check.sh): agreement with the CPU reference per
scene and the benchmark figures against the issue's bars. Exit 1 when a check or bar fails.
Usage: device_check_summary.py OUT_DIR   (reads agreement.json, ring.json and bench.json there)"""
import json
import os
import sys

KERNEL_BAR = 1.5e12   # nominal pixel*channel*transmit operations per second, kernel only
FRAMES_BAR = 20000.0  # frames per second end to end from page-locked host memory


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
    for name in ("agreement.json", "ring.json"):
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
    for b in kernel:
        rows.append((b["name"], f"{b['nominal_ops_per_s']:.3g} ops/s, {b['frames_per_s']:.0f} frames/s", ""))
    for b in e2e:
        rows.append((b["name"], f"{b['frames_per_s']:.0f} frames/s", ""))
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
