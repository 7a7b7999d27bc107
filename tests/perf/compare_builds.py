#!/usr/bin/env python3
"""Before and after a change, in the same run (these machines are shared: only a ratio or a
comparison within one run means anything). Two checkouts, each with its build in build/default,
run in turn, --rounds times, the order swapped each round:
  - engine overhead: `sonolink-cli bench engine --seconds 3` (1 wave; and the shipped
    configuration), the engine's CPU over reading the bytes once (bar <= 3);
  - the live display: the same command's end-to-end run (30 frames/s, display on): frames shown
    a second, every frame shown, latency p99;
  - link ingest: `sonolink-cli bench ingest --quick`, ingest over read at 256 KiB, batch 8 (bar >= 0.8);
  - the console: each checkout's own tests/perf/ui_probe_bar.py --attempts 1 (frames shown,
    event-loop lag p99, paint p99), unless --skip-console.
Each checkout runs its own configuration and scripts. Prints each figure's median per checkout
and every round's values. Usage: compare_builds.py --before DIR --after DIR [--rounds N]
[--skip-console] [--json]"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run_json(command, cwd):
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    start = out.stdout.find("{")
    if start < 0:
        sys.exit(f"{' '.join(command)} printed no JSON ({out.returncode}):\n{out.stderr[-3000:]}")
    return json.JSONDecoder().raw_decode(out.stdout[start:])[0]  # the first object (a script may print lines after it)


def engine_figures(prefix, report):
    overhead, live = report["overhead"], report["end_to_end"]
    return {f"{prefix} overhead (x read)": overhead["ratio_to_read_cost"],
            f"{prefix} live frames/s shown": live["displayed_fps"],
            f"{prefix} live every frame shown": 1.0 if live["every_frame_shown"] else 0.0,
            f"{prefix} live latency p99 (ms)": live["latency_p99_us"] / 1000}


def measure(root, console):
    cli = os.path.join(root, "build", "default", "app", "sonolink-cli")
    shipped = os.path.join(root, "resources", "config", "sonolink.json")
    figures = engine_figures("1 wave:", run_json([cli, "bench", "engine", "--seconds", "3", "--json"], root))
    figures.update(engine_figures("shipped:", run_json([cli, "bench", "engine", "--seconds", "3", "--config", shipped, "--json"], root)))
    figures["ingest (x read, 256 KiB, batch 8)"] = run_json([cli, "bench", "ingest", "--quick", "--json"], root)["ratio_256k_batch8"]
    if console:
        probe = run_json([sys.executable, os.path.join(root, "tests", "perf", "ui_probe_bar.py"), "--attempts", "1", "--json",
                          "--console", os.path.join(root, "build", "default", "app", "sonolink")], root)
        for name, r in probe.items():
            if name.startswith("shipped, 30 frames/s") and "shots" not in name:
                figures["console 30 frames/s: shown/published"] = r["frames_shown"] / max(r["frames_published"], 1)
                figures["console 30 frames/s: lag p99 (ms)"] = r["lag_p99_ms"]
                figures["console 30 frames/s: paint p99 CPU (ms)"] = r["paint_cpu_p99_ms"]
            if name.startswith("one plane wave"):
                figures["console 60 frames/s: frames/s shown"] = r["shown_fps"]
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-console", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rounds = {"before": [], "after": []}
    for i in range(args.rounds):
        order = (("before", args.before), ("after", args.after))
        for name, root in (order if i % 2 == 0 else order[::-1]):
            rounds[name].append(measure(os.path.abspath(root), not args.skip_console))
            print(f"round {i + 1}, {name}: done", file=sys.stderr)
    if args.json:
        print(json.dumps(rounds, indent=2))
        return 0
    print(f"{'figure':<45} {'before (median; each round)':<38} after (median; each round)")
    for key in rounds["before"][0]:
        cells = []
        for name in ("before", "after"):
            values = [r[key] for r in rounds[name]]
            cells.append(f"{statistics.median(values):.3g} ({', '.join(f'{v:.3g}' for v in values)})")
        print(f"{key:<45} {cells[0]:<38} {cells[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
