"""Small recordings for the batch reprocessing tests, written as other tools write UFF
(tests/support/ustb_uff.py: pyuff_ustb's layout, and USTB's MATLAB layout for every third one):
two frames of one plane wave, 64 channels x 900 samples of int16, each recording its own two
point targets (seeded), so that every input has its own checksum and its own image; and what a
reprocessing root holds (committed outputs, provenance files), for the tests to compare."""
import glob
import os

import numpy as np

from ustb_uff import write_ustb

FC, FS, PITCH, N = 5e6, 25e6, 0.3e-3, 64
# What these recordings hold: a grid inside their record (1 us + 900 samples at 25 MHz, c = 1500).
RECIPE = {"x_range_mm": "-9:9:64", "z_range_mm": "6:24:96", "window": "hann", "output": "envelope", "dynamic_range_db": 50}


def recording(path, seed):
    rng = np.random.default_rng(seed)
    targets = [(rng.uniform(-6e-3, 6e-3), rng.uniform(8e-3, 22e-3)) for _ in range(2)]
    x_el = (np.arange(N) - (N - 1) / 2) * PITCH
    t = 1e-6 + np.arange(900) / FS
    data = np.zeros((2, 1, N, t.size))
    sigma = 1 / (2 * np.pi * 0.6 * FC / (2 * np.sqrt(2 * np.log(2))))
    for frame in range(2):
        for x, z in targets:
            tau = z / 1500.0 + np.hypot(x - x_el, z)[:, None] / 1500.0
            dt = t[None, :] - tau
            data[frame, 0] += (3000 - 500 * frame) * np.exp(-dt**2 / (2 * sigma**2)) * np.cos(2 * np.pi * FC * dt)
    data += rng.normal(0, 20, data.shape)
    write_ustb(path, np.round(data).astype(np.int16), [0.0], x_el, layout="ustb" if seed % 3 == 2 else "pyuff_ustb")
    return path


def recordings(folder, count, prefix="rec"):
    os.makedirs(folder, exist_ok=True)
    return [recording(os.path.join(folder, f"{prefix}_{i:02d}.uff"), i) for i in range(count)]


def committed_outputs(root):
    """Every committed output under a reprocessing root (not the provenance): path under root -> bytes."""
    found = {}
    for marker in glob.glob(os.path.join(root, "derived", "*", "*", "COMMITTED")):
        for path in glob.glob(os.path.join(os.path.dirname(marker), "image*")):
            with open(path, "rb") as f:
                found[os.path.relpath(path, root)] = f.read()
    return found


def provenance_texts(root):
    """Every task's provenance.json under a reprocessing root: path under root -> its text."""
    found = {}
    for path in glob.glob(os.path.join(root, "derived", "*", "*", "provenance.json")):
        with open(path) as f:
            found[os.path.relpath(path, root)] = f.read()
    return found
