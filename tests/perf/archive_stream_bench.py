#!/usr/bin/env python3
"""The archive's streaming bars (issue 17), on a real radosgw on loopback (started here): a
recording (2 GiB by default: 1365 frames of 128 channels x 2048 samples x 3 waves, made by
sonolink-cli record) uploaded, then read in place. Measured in one run, interleaved, best of
--rounds (archive_stream_bench, JSON):
  - the first frame: opening the remote recording to its first frame beamformed (bar: 0.5 s);
  - streaming --frames frames in order through the CPU beamformer (shipped grid, Hann) from the
    local file, the mapped file (the archive's ByteSource path) and the archive, with every
    hardware thread and with one (the other core left to the co-located server);
  - reading alone from the archive, beside HDF5's own read-only S3 driver (ros3, h5py) reading
    the same frames.
On this 2-core machine the server runs beside the beamformer and takes CPU time from it for every
frame it serves (docs/performance.md); so the bar is taken with the server's daemons on CPU 0 and
the whole client on CPU 1, the nearest this machine comes to a store on another host. Exit 1
when the first frame is over 0.5 s or streaming from the archive so pinned is under --bar (0.9) x
the local file's rate, pinned the same way.
Usage: archive_stream_bench.py --bench PATH --cli PATH [--frames-in-file N] [--frames N] [--rounds R] [--json]"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "s3"))
from s3_peers import CephRgw  # noqa: E402


def bench(args, source, *extra, env=None, cpu=None):
    pin = ["taskset", "-c", str(cpu)] if cpu is not None else []
    proc = subprocess.run([*pin, args.bench, source, *extra], capture_output=True, text=True, env=env, timeout=1800)
    if proc.returncode != 0:
        sys.exit(f"archive_stream_bench {source} {' '.join(extra)} failed: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def pinned(rgw, run):
    """run() with the server's daemons (every thread) on CPU 0, then on every CPU again."""
    with open(os.path.join(rgw.dir, "pids")) as f:
        pids = [line.split()[1] for line in f if line.strip()]
    for pid in pids:
        subprocess.run(["taskset", "-a", "-p", "0x1", pid], capture_output=True)
    try:
        return run()
    finally:
        every = hex((1 << os.cpu_count()) - 1)
        for pid in pids:
            subprocess.run(["taskset", "-a", "-p", every, pid], capture_output=True)


def ros3_rate(rgw, key, frames):
    """HDF5's own S3 driver (ros3) reading the same frames in order, frames/s; None without h5py."""
    code = f"""
import h5py, time, sys
f = h5py.File({rgw.env['S3_ENDPOINT'] + '/' + key!r}, 'r', driver='ros3', aws_region={rgw.env['S3_REGION'].encode()!r},
              secret_id={rgw.env['S3_ACCESS_KEY'].encode()!r}, secret_key={rgw.env['S3_SECRET_KEY'].encode()!r})
d = f['/channel_data/data']
d[0]
t = time.monotonic()
for i in range(1, {frames}):
    d[i]
print(({frames} - 1) / (time.monotonic() - t))
"""
    proc = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, timeout=1800)
    return float(proc.stdout) if proc.returncode == 0 else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", required=True)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--frames-in-file", type=int, default=1365)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bar", type=float, default=0.9)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rgw = CephRgw()
    work = tempfile.mkdtemp(prefix="sonolink-stream-bench-")
    try:
        rec = os.path.join(work, "rec.uff")
        made = subprocess.run([args.cli, "record", rec, "--in-process", "--frames", str(args.frames_in_file), "--rate", "200"],
                              capture_output=True, text=True, timeout=1800)
        if made.returncode != 0:
            sys.exit(f"record failed: {made.stderr[-2000:]}")
        config = rgw.archive_config(work)
        env = rgw.aws_env()
        for cmd in (["mb", "s3://bench"], ["put", rec, "s3://bench/rec.uff", "--quiet"]):
            proc = subprocess.run([args.cli, "archive", *cmd, "--config", config], capture_output=True, text=True, env=env, timeout=1800)
            if proc.returncode != 0:
                sys.exit(f"archive {cmd[0]} failed: {proc.stderr[-2000:]}")
        url = "s3://bench/rec.uff"
        n = str(args.frames)
        runs = {
            "first frame, archive": lambda: bench(args, url, "--config", config, "--frames", "1", env=env)["first_frame_s"],
            "first frame, local file": lambda: bench(args, rec, "--frames", "1")["first_frame_s"],
        }
        rates = {}
        for threads in ("0", "1"):
            label = "every thread" if threads == "0" else "1 thread"
            rates[f"local file, {label}"] = lambda t=threads: bench(args, rec, "--frames", n, "--threads", t)["frames_per_s"]
            rates[f"mapped file, {label}"] = lambda t=threads: bench(args, rec, "--mapped", "--frames", n, "--threads", t)["frames_per_s"]
            rates[f"archive, {label}"] = lambda t=threads: bench(args, url, "--config", config, "--frames", n, "--threads", t, env=env)["frames_per_s"]
        # The server's daemons on CPU 0 and the whole client (beamformer and fetches) on CPU 1: the
        # nearest this machine comes to a store on another host.
        rates["local file, 1 thread, pinned"] = lambda: pinned(rgw, lambda: bench(args, rec, "--frames", n, "--threads", "1", cpu=1)["frames_per_s"])
        rates["archive, 1 thread, pinned"] = lambda: pinned(rgw, lambda: bench(args, url, "--config", config, "--frames", n, "--threads", "1", env=env, cpu=1)["frames_per_s"])
        rates["archive, reading alone"] = lambda: bench(args, url, "--config", config, "--frames", n, "--read-only", env=env)["frames_per_s"]
        rates["ros3 (HDF5's S3 driver), reading alone"] = lambda: ros3_rate(rgw, "bench/rec.uff", args.frames)
        best = {}
        for _ in range(args.rounds):
            for name, run in runs.items():
                best[name] = min(best.get(name, float("inf")), run())
            for name, run in rates.items():
                value = run()
                if value is not None:
                    best[name] = max(best.get(name, 0.0), value)
        size_mib = os.path.getsize(rec) / (1 << 20)
        ratio_one = best["archive, 1 thread"] / best["local file, 1 thread"]
        ratio_all = best["archive, every thread"] / best["local file, every thread"]
        ratio_pinned = best["archive, 1 thread, pinned"] / best["local file, 1 thread, pinned"]
        result = {"recording_mib": round(size_mib, 1), "frames_streamed": args.frames, "rounds": args.rounds, "best": best,
                  "archive_vs_local_1_thread": ratio_one, "archive_vs_local_every_thread": ratio_all, "archive_vs_local_pinned": ratio_pinned}
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print(f"recording {size_mib:.0f} MiB; best of {args.rounds} rounds")
            for name, value in best.items():
                print(f"  {name:<42} {value:8.3f} {'s' if name.startswith('first') else 'frames/s'}")
            print(f"archive / local file: {ratio_pinned:.2f} (1 beamformer thread, server on CPU 0, client on CPU 1), {ratio_one:.2f} (1 beamformer thread), "
                  f"{ratio_all:.2f} (every thread); bar {args.bar}")
        return 0 if best["first frame, archive"] <= 0.5 and ratio_pinned >= args.bar else 1
    finally:
        rgw.stop()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
