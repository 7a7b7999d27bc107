#!/usr/bin/env python3
"""How much the live picture suffers from the depth step (issue 13): a frame of the shipped
configuration's speckle phantom (recorded through the simulated link) beamformed with the shipped
Hann window on grids of 256 columns, 3-38 mm, with several depth steps, each envelope resampled
(linearly along depth, as the display raster does) onto the rows of the shipped display raster
(470 rows at 38.1 mm / 511), against the RF envelope of a grid 4 x finer than the default (2045
rows) resampled the same way. Paths: the RF envelope (Hilbert along depth) on the default 512
rows, on the engine's grid (a step of at most c / (7 f0): 797 rows), on 2 x finer depth keeping
every second row (the earlier rule), on 1023 rows, and IQ at 5 MHz on 512 rows. Figures: the RMS
difference of the peak-normalised envelopes relative to the reference's RMS, and the mean
|difference| in dB over pixels above -40 dB. Prints a table (or --json). No bar: the figures
choose the default (docs/performance.md).
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
        mm = 38.1 / 511  # the shipped raster: 38.1 mm across fills 512 columns
        raster = Z0 + np.arange(int(35 / mm) + 1) * mm
        engine_rows = max(ROWS, int(np.ceil((Z1 - Z0) / (1540.0 / (7 * 5e6) * 1e3) - 1e-9)) + 1)

        def on_raster(name, rows, keep=1, extra=()):
            image = beamform(args.cli, recording, work, name, rows, args.frame, extra)[::keep]
            z = np.linspace(Z0, Z1, image.shape[0])
            return np.stack([np.interp(raster, z, image[:, c]) for c in range(image.shape[1])], axis=1)

        reference = on_raster("rf_fine", 4 * (ROWS - 1) + 1)
        paths = {
            "RF envelope, default 512 rows": on_raster("rf", ROWS),
            f"RF envelope, the engine's {engine_rows} rows": on_raster("rf_engine", engine_rows),
            "RF envelope, 1023 rows, every 2nd kept": on_raster("rf2", 2 * (ROWS - 1) + 1, 2),
            "RF envelope, 1023 rows": on_raster("rf2all", 2 * (ROWS - 1) + 1),
            "IQ 5 MHz, 512 rows": on_raster("iq", ROWS, 1, ("--iq", "5")),
        }
        result = {name: compare(image, reference) for name, image in paths.items()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"envelope on the display raster's rows against the RF envelope at 4 x finer depth, {Z0}-{Z1} mm, frame {args.frame}")
        for name, r in result.items():
            print(f"  {name:40} relative RMS {r['relative_rms']:.4f}   mean |dB| above -40 dB {r['mean_abs_db']:.3f}")


if __name__ == "__main__":
    main()
