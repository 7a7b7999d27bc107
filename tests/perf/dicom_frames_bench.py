#!/usr/bin/env python3
"""A multi-frame DICOM cine read in place from a real radosgw on loopback (started here), by
`sonolink-cli dicom frames s3://…`: the time from opening to the first frame decoded, a seek to a
late frame, and every frame in order, each with the bytes fetched, beside the time `sonolink-cli
archive get` takes to download the whole object (what a reader without ranged reads must do
before showing anything). Two cines of --frames frames of 480 x 640: native (explicit VR) and
RLE with a Basic Offset Table, both as pydicom writes them. Best of --rounds. No bar in the issue
beyond "the first frame before the object is fetched": exit 1 when a first frame takes longer
than the whole download.
Usage: dicom_frames_bench.py --cli PATH [--frames N] [--rounds R] [--json]"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "s3"))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from s3_peers import CephRgw  # noqa: E402
from dicom_cines import cine, frames_of, rle_frames  # noqa: E402
from pydicom.encaps import encapsulate  # noqa: E402
from pydicom.uid import RLELossless  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rgw = CephRgw()
    work = tempfile.mkdtemp(prefix="sonolink-dicom-bench-")
    try:
        frames = frames_of(args.frames, 480, 640)
        frames[:, :, ::2] //= 4  # some structure, so that RLE has runs to find
        objects = {"native": cine(os.path.join(work, "native.dcm"), frames),
                   "rle": cine(os.path.join(work, "rle.dcm"), frames, syntax=RLELossless,
                               pixel_data=encapsulate(rle_frames(frames), has_bot=True))}
        config = rgw.archive_config(work)
        env = rgw.aws_env()

        def cli(*a):
            proc = subprocess.run([args.cli, *a, "--config", config], capture_output=True, text=True, env=env, timeout=900)
            if proc.returncode != 0:
                sys.exit(f"sonolink-cli {' '.join(a)} failed: {proc.stderr[-2000:]}")
            return proc.stdout

        cli("archive", "mb", "s3://bench")
        results = {}
        for name, path in objects.items():
            cli("archive", "put", path, f"s3://bench/{name}.dcm", "--quiet")
            url = f"s3://bench/{name}.dcm"
            best = {}
            for _ in range(args.rounds):
                first = json.loads(cli("dicom", "frames", url, "--frame", "0", "--json"))
                seek = json.loads(cli("dicom", "frames", url, "--frame", str(args.frames - 20), "--json"))
                every = json.loads(cli("dicom", "frames", url, "--all", "--json"))
                back = os.path.join(work, f"{name}.back")
                started = time.monotonic()
                cli("archive", "get", url, back, "--quiet")
                download = time.monotonic() - started
                os.remove(back)
                row = {"object_bytes": first["object_bytes"], "frame_index": first["frame_index"],
                       "first_frame_s": first["first_frame_s"], "first_frame_bytes": first["bytes_fetched"],
                       "seek_s": seek["first_frame_s"], "seek_bytes": seek["bytes_fetched"],
                       "all_frames_per_s": every["frames_per_s"], "download_s": download}
                for key, value in row.items():
                    if key.endswith("_s"):
                        best[key] = min(best.get(key, float("inf")), value)
                    elif key == "all_frames_per_s":
                        best[key] = max(best.get(key, 0.0), value)
                    else:
                        best[key] = value
            results[name] = best
        if args.json:
            print(json.dumps(results, indent=2))
        else:
            print(f"{args.frames} frames of 480 x 640, 8 bits; best of {args.rounds} rounds")
            for name, r in results.items():
                print(f"  {name:<7} {r['object_bytes'] / 1e6:7.1f} MB ({r['frame_index']}): first frame {r['first_frame_s']:.3f} s "
                      f"({r['first_frame_bytes'] / 1e3:.0f} kB fetched), frame {args.frames - 20} {r['seek_s']:.3f} s "
                      f"({r['seek_bytes'] / 1e3:.0f} kB), every frame {r['all_frames_per_s']:.0f} frames/s; whole download {r['download_s']:.3f} s")
        return 0 if all(r["first_frame_s"] < r["download_s"] for r in results.values()) else 1
    finally:
        rgw.stop()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
