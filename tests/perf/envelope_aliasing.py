#!/usr/bin/env python3
"""How much the live image's envelope suffers from the depth step (issue 13): a frame of the
shipped configuration's speckle phantom (recorded through the simulated link) beamformed on the
default grid (256 x 512, 3-38 mm) and on a grid four times finer in depth (2045 rows, so that
every fourth row is a default row), each path against the fine RF envelope resampled onto the
default rows (every fourth). Paths: the RF envelope (Hilbert along depth) and IQ at 5 MHz, both
with the shipped Hann window. Figures: the RMS difference of the peak-normalised envelopes
relative to the reference's RMS, and the mean |difference| in dB over pixels above -40 dB.
Prints a table (or --json). No bar: the figures choose the default (docs/performance.md).
Usage: envelope_aliasing.py [--cli PATH] [--frame N] [--json]"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

X_RANGE, Z0, Z1, ROWS = "-19.05:19.05:256", 3.0, 38.0, 512


def beamform(cli, recording, out, name, rows, frame, extra=()):
    proc = subprocess.run([cli, "beamform", recording, "--frame", str(frame), "--x-range", X_RANGE, "--z-range", f"{Z0}:{Z1}:{rows}",
                           "--window", "hann", "--output", "envelope", "--output-dir", out, "--name", name, *extra],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"beamform failed: {proc.stderr[-2000:]}")
    files = sorted(f for f in os.listdir(out) if f.startswith(name) and f.endswith(".npy"))
    return np.load(os.path.join(out, files[0])).astype(np.float64)


def compare(image, reference):
    a, b = image / image.max(), reference / reference.max()
    rms = float(np.sqrt(np.mean((a - b) ** 2)) / np.sqrt(np.mean(b ** 2)))
    da, db = 20 * np.log10(np.maximum(a, 1e-6)), 20 * np.log10(np.maximum(b, 1e-6))
    bright = db > -40
    return {"relative_rms": round(rms, 4), "mean_abs_db": round(float(np.mean(np.abs(da - db)[bright])), 3)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.environ.get("SONOLINK_CLI", "build/default/app/sonolink-cli"))
    parser.add_argument("--config", default="resources/config/sonolink.json")
    parser.add_argument("--frame", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        recording = os.path.join(work, "speckle.uff")
        proc = subprocess.run([args.cli, "record", recording, "--config", args.config, "--in-process", "--frames", "2", "--rate", "0"],
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            sys.exit(f"record failed: {proc.stderr[-2000:]}")
        fine_rows = 4 * (ROWS - 1) + 1
        reference = beamform(args.cli, recording, work, "rf_fine", fine_rows, args.frame)[::4]
        rows = {
            "RF envelope, default grid": beamform(args.cli, recording, work, "rf", ROWS, args.frame),
            "RF envelope, 2 x finer depth (resampled)": beamform(args.cli, recording, work, "rf2", 2 * (ROWS - 1) + 1, args.frame)[::2],
            "IQ 5 MHz, default grid": beamform(args.cli, recording, work, "iq", ROWS, args.frame, ("--iq", "5")),
        }
        result = {name: compare(image, reference) for name, image in rows.items()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"envelope against the RF envelope at 4 x finer depth (resampled), {ROWS} rows {Z0}-{Z1} mm, frame {args.frame}")
        for name, r in result.items():
            print(f"  {name:42} relative RMS {r['relative_rms']:.4f}   mean |dB| above -40 dB {r['mean_abs_db']:.3f}")


if __name__ == "__main__":
    main()
