#!/usr/bin/env python3
"""The quick start-up self-test's bars (issue 14), on what users run: the shipped configuration
on the built-in simulated front end, through `sonolink-cli selftest --quick`, its PACS nodes
answered by a storescp each (started on loopback, stopped by its PID):
  - it finishes, link up to verdict, in <= 30 s (wall clock of the whole command);
  - the bits it compared match its plan (the bits that show ber_quick_limit at ber_confidence,
    -ln(1 - CL) / limit with no error) within 5 %.
Prints the figures; exits 1 when a bar is missed. Usage: selftest_quick_bar.py --cli PATH --config FILE"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Storescp, free_port  # noqa: E402
import shipped_config  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    config = shipped_config.load(args.config)
    selftest = shipped_config.selftest_limits(config)
    planned = -math.log(1 - selftest["ber_confidence"]) / selftest["ber_quick_limit"]
    with tempfile.TemporaryDirectory() as work:
        peers = []
        try:
            for node in config.get("dicom", {}).get("nodes", []):
                node["port"] = free_port()
                peers.append(Storescp(work, node["port"], aet=node["ae_title"]))
            station = os.path.join(work, "station.json")
            with open(station, "w") as f:
                json.dump(config, f)
            start = time.monotonic()
            proc = subprocess.run([os.path.abspath(args.cli), "selftest", "--in-process", "--quick", "--config", station, "--json"],
                                  capture_output=True, text=True, timeout=600, cwd=work)
            wall = time.monotonic() - start
        finally:
            for peer in peers:
                peer.stop()
    if proc.returncode != 0:
        print(proc.stdout, proc.stderr, sep="\n")
        print(f"FAIL: the quick self-test did not pass (exit {proc.returncode})")
        return 1
    steps = json.loads(proc.stdout)["steps"]
    print("steps: " + ", ".join(f"{s['step']} {s['verdict']} ({s['seconds']:.2f} s)" for s in steps))
    step = next(s for s in steps if s["step"] == "link BER")
    ratio = step["bits_checked"] / planned
    print(f"quick self-test (shipped configuration, built-in front end): {wall:.1f} s in all, link BER step {step['seconds']:.1f} s; "
          f"{step['bits_checked']:.4g} bits compared of {planned:.4g} planned ({ratio:.3f} x)")
    ok = wall <= args.seconds and 1.0 <= ratio <= 1.05
    print(f"bars: <= {args.seconds:.0f} s: {wall:.1f} s; bits within 5 % of the plan: {ratio:.3f} -> {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
