#!/usr/bin/env python3
"""The archive's transfer bar (issue 17): upload and download of one object (2 GiB by default)
to and from a real radosgw on loopback (tests/s3/ceph_rgw.sh, started here), sonolink-cli archive
put/get beside awscli's `aws s3 cp` of the same file to the same server, in one run, interleaved
(ours, then awscli's, each round), best of --rounds. awscli runs with its defaults (8 MiB parts,
10 requests in flight) and with 32 MiB parts; its faster setting is the baseline. Every download
is compared with the file byte for byte. Exit 1 when ours is under --bar (0.9) x awscli either way.
Usage: archive_bench.py [--cli PATH] [--mib N] [--rounds R] [--bar B] [--json]"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "s3"))
from s3_peers import AWS, CephRgw  # noqa: E402

MIB = 1 << 20


def make_file(path, mib):
    seed = hashlib.sha256(b"sonolink archive bench").digest()
    block = bytearray(os.urandom(MIB))
    with open(path, "wb") as f:
        for i in range(mib):
            block[:32] = hashlib.sha256(seed + i.to_bytes(8, "little")).digest()
            f.write(block)


def digest(path):
    h = hashlib.blake2b()
    with open(path, "rb") as f:
        while chunk := f.read(8 * MIB):
            h.update(chunk)
    return h.hexdigest()


def timed(cmd, env):
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd[:4])} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.environ.get("SONOLINK_CLI", "build/default/app/sonolink-cli"))
    parser.add_argument("--mib", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bar", type=float, default=0.9)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rgw = CephRgw()
    work = tempfile.mkdtemp(prefix="sonolink-archive-bench-")
    try:
        src = os.path.join(work, "object.bin")
        make_file(src, args.mib)
        want = digest(src)
        env = rgw.aws_env()
        endpoint = rgw.env["S3_ENDPOINT"]
        config = rgw.archive_config(work, endpoint=endpoint)
        aws_config = {"default": os.path.join(work, "aws-default.cfg"), "32MiB": os.path.join(work, "aws-32.cfg")}
        with open(aws_config["default"], "w") as f:
            f.write("[default]\n")
        with open(aws_config["32MiB"], "w") as f:
            f.write("[default]\ns3 =\n  multipart_chunksize = 32MB\n  max_concurrent_requests = 10\n")
        if rgw.aws("s3", "mb", "s3://bench").returncode != 0:
            sys.exit("could not make the bucket")
        best = {}

        def note(name, seconds):
            best[name] = min(best.get(name, float("inf")), seconds)

        def check(path, what):
            if digest(path) != want:
                sys.exit(f"{what}: the downloaded bytes differ from the file")
            os.unlink(path)

        back = os.path.join(work, "back.bin")
        for _ in range(args.rounds):
            note("sonolink put", timed([args.cli, "archive", "put", src, "s3://bench/ours.bin", "--config", config, "--quiet"], env))
            for name, cfg in aws_config.items():
                e = dict(env, AWS_CONFIG_FILE=cfg)
                note(f"aws put ({name})", timed([AWS, "--endpoint-url", endpoint, "s3", "cp", "--only-show-errors", src, f"s3://bench/aws-{name}.bin"], e))
            note("sonolink get", timed([args.cli, "archive", "get", "s3://bench/ours.bin", back, "--config", config, "--quiet"], env))
            check(back, "sonolink get")
            for name, cfg in aws_config.items():
                e = dict(env, AWS_CONFIG_FILE=cfg)
                note(f"aws get ({name})", timed([AWS, "--endpoint-url", endpoint, "s3", "cp", "--only-show-errors", "s3://bench/ours.bin", back], e))
                check(back, f"aws get ({name})")
        size = args.mib * MIB
        rates = {name: size / seconds / 1e6 for name, seconds in best.items()}
        aws_put = max(v for k, v in rates.items() if k.startswith("aws put"))
        aws_get = max(v for k, v in rates.items() if k.startswith("aws get"))
        result = {"object_mib": args.mib, "rounds": args.rounds, "mb_per_s": rates,
                  "put_ratio": rates["sonolink put"] / aws_put, "get_ratio": rates["sonolink get"] / aws_get, "bar": args.bar}
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            for name, rate in sorted(rates.items()):
                print(f"{name:<18} {rate:8.1f} MB/s (best of {args.rounds})")
            print(f"put: {result['put_ratio']:.2f} x awscli's best, get: {result['get_ratio']:.2f} x (bar {args.bar})")
        return 0 if result["put_ratio"] >= args.bar and result["get_ratio"] >= args.bar else 1
    finally:
        rgw.stop()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
