#!/usr/bin/env python3
"""The CPU beamformer's bars (issue 13), from beamform_bench (Google Benchmark, its JSON output):
on 2 threads, 256 x 512 grid, 128 channels x 2048 samples, F# 1.5, one plane wave, for each
sample type (float, the front end's int16) and inner loop (the best this CPU has, AVX2
gathers): every window path >= 0.8 x the rectangular RF path, measured paired
(windowVsRectangularCpu: a frame of each in turn, the median of their time ratios over some
hundreds of pairs). A shared machine's speed drifts over seconds: the best repetitions of
separate runs (shown beside it, randomly interleaved) gave ratios from 0.62 to 0.99 for one
path in three runs on one afternoon, the pairs a steady figure. Exit 1 below that bar.
Reported beside it, not held to a bar here: the IQ path paired the same way (iqVsRectangularCpu,
demodulation included, each window, against rectangular RF and against RF with the same window;
and held: a photoacoustic shot (received only) against one plane wave, paired the same way
(photoacousticVsPlaneWaveCpu), >= 1 / 1.1 of its throughput on every sample type, loop and window
(issue 40);
issue 13 asks 0.8 x, docs/performance.md has where it stands) and the
rectangular path's absolute rate (the 1e10 of issue 5 was measured on this machine on a faster
day: an absolute rate on a shared machine is no bar CI can hold; docs/performance.md compares
builds in one session instead). Prints a table (or --json).
Usage: beamform_bar.py BEAMFORM_BENCH [--repetitions N] [--min-time S] [--paired-time S] [--json]"""
import argparse
import json
import subprocess
import sys

RATIO_BAR = 0.8
SHOT_BAR = 1 / 1.1  # a photoacoustic shot within 1.1 x one plane wave's time (issue 40)
WINDOWS = {0: "rectangular", 1: "hann", 2: "tukey", 10: "iq rectangular", 11: "iq hann", 12: "iq tukey"}


def run_paired(args):
    """The median paired ratio against the rectangular RF path per (int16, avx2, window):
    windowVsRectangularCpu for the windows, iqVsRectangularCpu (demodulation included, as the live
    image runs it) for the IQ path (window + 10)."""
    proc = subprocess.run([args.bench, "--benchmark_filter=windowVsRectangularCpu/|iqVsRectangularCpu/threads:2/.*/demodulate:1|"
                           "photoacousticVsPlaneWaveCpu/",
                           "--benchmark_format=json", f"--benchmark_min_time={args.paired_time}"],
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        sys.exit(f"beamform_bench (paired) failed ({proc.returncode}): {proc.stderr[-2000:]}")
    out, shots = {}, {}
    for b in json.loads(proc.stdout)["benchmarks"]:
        fields = dict(part.split(":") for part in b["run_name"].split("/")[1:] if ":" in part)
        key = (int(fields["int16"]), int(fields["avx2"]), int(fields["window"]))
        if b["run_name"].startswith("photoacousticVsPlaneWaveCpu"):
            shots[key] = b["vs_plane_wave"]
            continue
        iq = b["run_name"].startswith("iqVsRectangularCpu")
        out[(key[0], key[1], key[2] + (10 if iq else 0))] = b["vs_rectangular"]
    return out, shots


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench")
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--paired-time", type=float, default=2.0, help="seconds of pairs per window path")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    proc = subprocess.run([args.bench, "--benchmark_filter=delayAndSum(Iq)?Cpu/threads:2/", "--benchmark_format=json",
                           f"--benchmark_min_time={args.min_time}", f"--benchmark_repetitions={args.repetitions}",
                           "--benchmark_enable_random_interleaving=true"],
                          capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        sys.exit(f"beamform_bench failed ({proc.returncode}): {proc.stderr[-2000:]}")
    runs = {}
    for b in json.loads(proc.stdout)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        fields = dict(part.split(":") for part in b["run_name"].split("/")[1:] if ":" in part)
        iq = b["run_name"].startswith("delayAndSumIqCpu")
        key = (int(fields["int16"]), int(fields["avx2"]), int(fields["window"]) + (10 if iq else 0))
        runs.setdefault(key, []).append(b["nominal_ops_per_s"])
    best = {key: max(v) for key, v in runs.items()}
    paired, shots = run_paired(args)
    rows, ok = [], True
    for (int16, avx2, window), ops in sorted(best.items()):
        rect = best[(int16, avx2, 0)]
        ratio = ops / rect
        row = {"samples": "int16" if int16 else "float", "loop": "avx2" if avx2 else "best", "window": WINDOWS[window],
               "nominal_ops_per_s": ops, "best_vs_rectangular": round(ratio, 3)}
        held = 0 < window < 10
        if window != 0:
            row["paired_vs_rectangular"] = round(paired[(int16, avx2, window)], 3)
        if window > 10:  # IQ with a window against the RF path with the same window
            row["paired_vs_same_window"] = round(paired[(int16, avx2, window)] / paired[(int16, avx2, window - 10)], 3)
        row["pass"] = row["paired_vs_rectangular"] >= RATIO_BAR if held else None
        if window < 10:  # a photoacoustic shot on this path against one plane wave, paired
            row["photoacoustic_vs_plane_wave"] = round(shots[(int16, avx2, window)], 3)
            row["pass"] = (row["pass"] is not False) and row["photoacoustic_vs_plane_wave"] >= SHOT_BAR
        ok &= row["pass"] is not False
        rows.append(row)
    if args.json:
        print(json.dumps({"rows": rows, "pass": ok}, indent=2))
    else:
        print(f"CPU beamformer, 2 threads: each path's best of {args.repetitions} (interleaved) and, for the windows, the median "
              f"ratio of paired frames; bars: windows paired >= {RATIO_BAR} x rectangular, a photoacoustic shot paired >= "
              f"{SHOT_BAR:.3f} x one plane wave's throughput (IQ and the absolute rate reported)")
        for r in rows:
            paired_text = f"paired {r['paired_vs_rectangular']:.3f}" if "paired_vs_rectangular" in r else ""
            if "paired_vs_same_window" in r:
                paired_text += f" ({r['paired_vs_same_window']:.3f} x RF {r['window'][3:]})"
            shot_text = f"shot {r['photoacoustic_vs_plane_wave']:.3f} x plane" if "photoacoustic_vs_plane_wave" in r else ""
            print(f"  {r['samples']:5} {r['loop']:4} {r['window']:14} {r['nominal_ops_per_s']:.3e} ops/s  best {r['best_vs_rectangular']:.3f} "
                  f"x rectangular  {paired_text:13} {shot_text:20} {'' if r['pass'] is None else 'PASS' if r['pass'] else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
