#!/usr/bin/env python3
"""The cluster's added latency bar (issue 42): four acquisition hosts (`sonolink-cli node`) and the
coordinator (`sonolink-cli cluster run`) on loopback over UCX's TCP; from the last partial of a
frame in to its image ready (the sum in host order and the envelope) p99 <= 5 ms, at each grid;
and the bytes on the wire per frame and host equal to the partial's size (header and values), not
the raw channel data. Prints one JSON line per grid; exit 1 when a bar is missed.
Usage: cluster_latency_bar.py --cli SONOLINK_CLI [--seconds S] [--bar MS]"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cluster"))
import cluster_support  # noqa: E402

GRIDS = [(64, 96, 10.0), (256, 512, 5.0), (512, 512, 4.0)]  # nx, nz, frames/s this machine sustains with 4 hosts; 256 x 512: the console's default


def run(grid, seconds, tmp):
    nx, nz, rate = grid
    cluster = cluster_support.cluster_file(os.path.join(tmp, f"cluster_{nx}x{nz}.json"), cluster_support.free_port(), hosts=4, rate=rate,
                                           nx=nx, nz=nz)
    coordinator = cluster_support.Coordinator(cluster, seconds)
    nodes = []
    try:
        coordinator.wait_event("listening", 15)
        nodes = [cluster_support.start_node(cluster, h) for h in range(4)]
        coordinator.wait_event("started", 60)
        code = coordinator.finish(seconds + 120)
        sent = [cluster_support.node_summary(n)[0] for n in nodes]
    finally:
        cluster_support.stop_all(nodes + [coordinator.process])
    s = coordinator.summary
    wire = {h["name"]: h["bytes_received"] / max(h["partials"], 1) for h in s["hosts"]}
    return {"grid": f"{nx}x{nz}", "frames_per_s": rate, "exit": code, "frames": s["frames"], "added_latency_ms": s["added_latency_ms"],
            "partial_bytes": s["partial_bytes"], "bytes_per_partial_on_wire": wire, "raw_bytes_per_host_frame": s["raw_bytes_per_host_frame"],
            "skipped": [n["triggers_skipped"] for n in sent], "counts_agree": s["counts_agree"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--bar", type=float, default=5.0)
    args = parser.parse_args()
    cluster_support.CLI = args.cli
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for grid in GRIDS:
            row = run(grid, args.seconds, tmp)
            print(json.dumps(row), flush=True)
            if row["exit"] != 0 or not row["counts_agree"]:
                failed.append(f"{row['grid']}: counts disagree")
            if row["added_latency_ms"]["p99"] > args.bar:
                failed.append(f"{row['grid']}: added latency p99 {row['added_latency_ms']['p99']:.2f} ms > {args.bar} ms")
            if any(b != row["partial_bytes"] for b in row["bytes_per_partial_on_wire"].values()):
                failed.append(f"{row['grid']}: bytes per partial on the wire {row['bytes_per_partial_on_wire']} != {row['partial_bytes']}")
    print("pass" if not failed else "FAIL: " + "; ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
