#!/usr/bin/env python3
"""Photoacoustic (PA) recordings beamformed receive-only, end to end through sonolink-cli.

An analytic generator written here (NumPy, not the simulator) writes a PA recording exactly as
pyuff_ustb and USTB's MATLAB writer lay it out (one wave of wavefront 2, photoacoustic, its source
ignored) with absorbers at random places (the seed is printed): each emits at the laser shot,
t = 0, a bipolar pulse (a Gaussian's derivative, 5 MHz) that reaches element e after |r - e| / c,
sampled from initial_time on. `sonolink-cli beamform` (the CPU reference, rectangular and Hann
windows, RF and IQ) puts every envelope peak within 0.2 mm of its absorber, laterally and in
depth, and its envelope matches a one-way delay-and-sum written here (the same F-number
aperture, linear interpolation, Hilbert envelope along depth) at NCC >= 0.995. (Read as a
plane wave, the old reading, an absorber is drawn at half its depth: beamform_test's
PhotoacousticShotsPutTheAbsorberWhereItIs.) The simulator's shots, recorded by
`sonolink-cli stream --mode pa` and beamformed, image the standard phantom's six absorbers
within 0.2 mm of their places; so do the shots of a dual-mode recording (--mode dual), which
keeps them in /photoacoustic_data apart from the ultrasound frames.
Run by CTest with SONOLINK_CLI set (and the distribution's python3: numpy, h5py)."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from ustb_uff import write_ustb  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
C, FS, FC, PITCH, N, T0, SAMPLES = 1540.0, 40e6, 5e6, 0.3e-3, 128, 1e-6, 1300
X_RANGE, Z_RANGE = (-15e-3, 15e-3, 301), (6e-3, 38e-3, 641)  # 0.1 mm across, 0.05 mm down
F_NUMBER = 1.5


def absorbers(rng, count=5):
    """Random places, at least 3 mm apart and 2 mm inside the grid's edges."""
    points = []
    while len(points) < count:
        x, z = rng.uniform(-12e-3, 12e-3), rng.uniform(9e-3, 35e-3)
        if all(np.hypot(x - a, z - b) > 3e-3 for a, b in points):
            points.append((x, z))
    return points


def pa_channel_data(points):
    """RF [1 frame, 1 wave, N channels, SAMPLES]: each absorber's pulse after the one-way path."""
    x_el = (np.arange(N) - (N - 1) / 2) * PITCH
    t = T0 + np.arange(SAMPLES) / FS
    sigma = 1 / (2 * np.pi * FC)  # a Gaussian's derivative peaks at 1 / (2 pi sigma)
    data = np.zeros((1, 1, N, SAMPLES))
    for x, z in points:
        r = np.hypot(x - x_el, z)
        dt = t[None, :] - (r / C)[:, None]
        data[0, 0] += 4000 * np.sqrt(10e-3 / r)[:, None] * (-dt / sigma) * np.exp(0.5 - dt**2 / (2 * sigma**2))
    return np.round(data).astype(np.int16), x_el


def grid():
    return np.linspace(*X_RANGE), np.linspace(*Z_RANGE)


def one_way_das(rf, x_el, window):
    """The reference: sum over channels of the sample at |P - e| / c after the shot (linear
    interpolation, outside the record 0), weighted by the F-number aperture's window."""
    xs, zs = grid()
    X, Z = np.meshgrid(xs, zs)  # [nz, nx]
    out = np.zeros_like(X)
    trace = rf.astype(np.float64)
    for c, e in enumerate(x_el):
        dx = X - e
        r = np.abs(dx) / (Z / (2 * F_NUMBER))
        weight = np.where(r <= 1, 1.0 if window == "rectangular" else 0.5 * (1 + np.cos(np.pi * np.clip(r, 0, 1))), 0.0)
        s = (np.hypot(dx, Z) / C - T0) * FS
        inside = (s >= 0) & (s < SAMPLES - 1)
        i = np.clip(np.floor(s).astype(int), 0, SAMPLES - 2)
        frac = s - i
        value = trace[c, i] * (1 - frac) + trace[c, i + 1] * frac
        out += np.where(inside, weight * value, 0.0)
    return out


def envelope_along_depth(image):
    n = image.shape[0]
    spectrum = np.fft.fft(image, axis=0)
    h = np.zeros(n)
    h[0] = 1
    h[1:(n + 1) // 2] = 2
    if n % 2 == 0:
        h[n // 2] = 1
    return np.abs(np.fft.ifft(spectrum * h[:, None], axis=0))


def peak_near(envelope, x, z, half_mm=1.5):
    """The envelope's peak within half_mm of (x, z), refined by a parabola through its neighbours."""
    xs, zs = grid()
    ix = np.flatnonzero(np.abs(xs - x) <= half_mm * 1e-3)
    iz = np.flatnonzero(np.abs(zs - z) <= half_mm * 1e-3)
    box = envelope[np.ix_(iz, ix)]
    bz, bx = np.unravel_index(np.argmax(box), box.shape)
    kz, kx = iz[bz], ix[bx]

    def refine(values, k, axis):
        if 0 < k < len(axis) - 1:
            a, b, c = values[k - 1], values[k], values[k + 1]
            shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
            return axis[k] + shift * (axis[1] - axis[0])
        return axis[k]

    return refine(envelope[:, kx], kz, zs), refine(envelope[kz, :], kx, xs)


def ncc(a, b):
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


class PhotoacousticUffTest(unittest.TestCase):
    def setUp(self):
        seed = int.from_bytes(os.urandom(4), "little")
        print(f"absorber seed {seed}")
        self.points = absorbers(np.random.default_rng(seed))
        self.rf, self.x_el = pa_channel_data(self.points)
        self.work = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.work.cleanup()

    def beamform(self, uff, name, *options, z_range=Z_RANGE):
        out = os.path.join(self.work.name, name)
        proc = subprocess.run([CLI, "beamform", uff, "--x-range", f"{X_RANGE[0] * 1e3}:{X_RANGE[1] * 1e3}:{X_RANGE[2]}",
                               "--z-range", f"{z_range[0] * 1e3}:{z_range[1] * 1e3}:{z_range[2]}", "--output", "envelope",
                               "--f-number", str(F_NUMBER), "--output-dir", out, "--name", name, *options],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return np.load(os.path.join(out, f"{name}.npy")).astype(np.float64)

    def check_peaks(self, envelope, what):
        for x, z in self.points:
            pz, px = peak_near(envelope, x, z)
            self.assertLessEqual(abs(px - x), 0.2e-3, f"{what}: absorber at ({x * 1e3:.2f}, {z * 1e3:.2f}) mm peaks at x {px * 1e3:.2f} mm")
            self.assertLessEqual(abs(pz - z), 0.2e-3, f"{what}: absorber at ({x * 1e3:.2f}, {z * 1e3:.2f}) mm peaks at z {pz * 1e3:.2f} mm")

    def test_each_absorber_where_it_is_and_the_image_the_one_way_reference(self):
        for layout in ("pyuff_ustb", "ustb"):
            uff = os.path.join(self.work.name, f"pa_{layout}.uff")
            write_ustb(uff, self.rf, [0.0], self.x_el, layout=layout, wavefront=2, sampling_frequency=FS, initial_time=T0, sound_speed=C)
            for window in ("rectangular", "hann"):
                with self.subTest(layout=layout, window=window):
                    ours = self.beamform(uff, f"{layout}_{window}", "--window", window)
                    reference = envelope_along_depth(one_way_das(self.rf[0, 0], self.x_el, window))
                    self.check_peaks(ours, f"{layout}, {window}")
                    self.check_peaks(reference, f"the reference, {window}")  # the generator and the reference agree
                    score = ncc(ours, reference)
                    print(f"{layout}, {window}: NCC with the one-way reference {score:.5f}")
                    self.assertGreaterEqual(score, 0.995)

    def test_iq_beamforming_of_a_photoacoustic_recording(self):
        uff = os.path.join(self.work.name, "pa.uff")
        write_ustb(uff, self.rf, [0.0], self.x_el, wavefront=2, sampling_frequency=FS, initial_time=T0, sound_speed=C)
        self.check_peaks(self.beamform(uff, "iq", "--iq", "5"), "IQ at 5 MHz")


class SimulatedPhotoacousticTest(unittest.TestCase):
    """The simulator's laser shots, recorded and beamformed: the standard phantom's six absorbers
    (transport/sim/src/rf_scene.cpp, standardPhantom: fractions of the aperture and of the
    imaged depth) each within 0.2 mm of its place: photoacoustic-only recordings, and the shots of
    a dual-mode recording, kept in a group of their own beside the ultrasound frames."""

    def setUp(self):
        self.work = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.work.cleanup()

    def record(self, name, *options):
        uff = os.path.join(self.work.name, name)
        proc = subprocess.run([CLI, "stream", "--in-process", "--no-selftest", "--record", uff, "--json", *options],
                              capture_output=True, text=True, timeout=180, cwd=self.work.name)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        import json
        return uff, json.loads(proc.stdout)

    def check_absorbers(self, uff, group, frame):
        import h5py
        with h5py.File(uff, "r") as f:
            g = f[group]
            wavefront = np.array(g["sequence"]["wavefront"]).ravel()[0]
            fs, c = float(np.array(g["sampling_frequency"]).ravel()[0]), float(np.array(g["sound_speed"]).ravel()[0])
            samples = g["data"].shape[-1]
            x_el = np.array(g["probe"]["geometry"])[0]
        self.assertEqual(wavefront, 2, f"{group}: written as USTB's photoacoustic wavefront")
        max_depth, half_aperture = c * samples / fs / 2, len(x_el) * (x_el[1] - x_el[0]) / 2
        truth = [(fx * half_aperture, fz * max_depth) for fx, fz in
                 zip((0.0, 0.0, 0.0, -0.45, 0.35, 0.55), (0.25, 0.5, 0.75, 0.35, 0.62, 0.85))]
        for x, z in truth:
            out = os.path.join(self.work.name, f"{group.strip('/')}_{x * 1e3:.1f}_{z * 1e3:.1f}")
            proc = subprocess.run([CLI, "beamform", uff, "--group", group, "--x-range", f"{(x - 2e-3) * 1e3}:{(x + 2e-3) * 1e3}:81",
                                   "--z-range", f"{(z - 2e-3) * 1e3}:{(z + 2e-3) * 1e3}:161", "--output", "envelope",
                                   "--frame", str(frame), "--output-dir", out, "--name", "pa"], capture_output=True, text=True, timeout=120)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            image = np.load(os.path.join(out, "pa.npy")).astype(np.float64)
            iz, ix = np.unravel_index(np.argmax(image), image.shape)
            px, pz = x - 2e-3 + ix * 4e-3 / 80, z - 2e-3 + iz * 4e-3 / 160
            self.assertLessEqual(abs(px - x), 0.2e-3, f"{group}: absorber at ({x * 1e3:.2f}, {z * 1e3:.2f}) mm imaged at x {px * 1e3:.2f} mm")
            self.assertLessEqual(abs(pz - z), 0.2e-3, f"{group}: absorber at ({x * 1e3:.2f}, {z * 1e3:.2f}) mm imaged at z {pz * 1e3:.2f} mm")

    def test_recorded_shots_image_the_absorbers_at_their_true_depths(self):
        uff, _ = self.record("pa.uff", "--mode", "pa", "--frames", "3")
        self.check_absorbers(uff, "/channel_data", 1)
        # Replayed, the shots go out as shots again, bit for bit (not as plane waves).
        import h5py
        replayed, summary = self.record("pa_replayed.uff", "--replay", uff, "--frames", "3", "--rate", "30")
        self.assertEqual(summary["laser"]["fired"], 3)
        with h5py.File(uff, "r") as a, h5py.File(replayed, "r") as b:
            self.assertEqual(np.array(b["channel_data"]["sequence"]["wavefront"]).ravel()[0], 2)
            self.assertTrue(np.array_equal(np.array(a["channel_data/data"]), np.array(b["channel_data/data"])))

    def test_a_dual_mode_recording_keeps_the_two_kinds_apart(self):
        """Ultrasound at 30 frames/s, shots at 20 Hz of which every fourth misfires, for 3 s: the
        shots go to /photoacoustic_data with their ids, pulse times and energies, the ultrasound
        frames to /channel_data; each kind's frames counted, none lost, and each images as itself."""
        import h5py
        jitter_ns = 2000
        uff, summary = self.record("dual.uff", "--mode", "dual", "--laser-hz", "20", "--rate", "30", "--seconds", "3",
                                   "--laser-miss-every", "4", "--laser-jitter-ns", str(jitter_ns))
        laser = summary["laser"]
        with h5py.File(uff, "r") as f:
            us_ids = np.array(f["acquisition/frame_id"])
            pa_ids = np.array(f["photoacoustic_acquisition/frame_id"])
            pa_times = np.array(f["photoacoustic_acquisition/frame_time_ns"]).astype(np.int64)
            energies = np.array(f["photoacoustic_acquisition/laser_energy_uj"])
            self.assertEqual(f["channel_data/data"].shape[1], 3, "the ultrasound frames' three plane waves")
            self.assertEqual(f["photoacoustic_data/data"].shape[1], 1, "a shot: one receive-only wave")
            self.assertEqual(f["photoacoustic_data/data"].shape[0], len(pa_ids))
            self.assertEqual(f["channel_data/data"].shape[0], len(us_ids))
        self.assertEqual(len(pa_ids), laser["fired"], "every shot that fired is recorded, and nothing else")
        self.assertEqual(laser["missed"], laser["front_end_missed"])
        self.assertEqual(laser["missed"], (laser["fired"] + laser["missed"]) // 4, "every fourth shot misfired, each counted")
        self.assertEqual(len(set(us_ids) & set(pa_ids)), 0, "a frame is one kind or the other")
        everything = np.sort(np.concatenate([us_ids, pa_ids]))
        self.assertTrue(np.all(np.diff(everything) == 1), "together, every frame id the front end numbered: none lost")
        self.assertEqual(summary["recording"]["frames_recorded"], len(everything))
        self.assertTrue(np.all(energies > 0))
        # The shots' times: on the laser's 50 ms grid, each within the jitter of its slot.
        slots = (pa_times - pa_times[0]) / 50e6
        self.assertTrue(np.all(np.abs(slots - np.round(slots)) * 50e6 <= 2 * jitter_ns), slots)
        self.assertLessEqual(laser["worst_stamp_error_us"] * 1e3, jitter_ns)
        self.check_absorbers(uff, "/photoacoustic_data", 1)
        # Each ultrasound frame with the last shot before it laid over it, as the console shows them.
        out = os.path.join(self.work.name, "overlay")
        frame = 10
        proc = subprocess.run([CLI, "beamform", uff, "--x-range", "-19:19:256", "--z-range", "3:38:512", "--frame", str(frame), "--overlay-shots",
                               "--display", "512x512", "--output-dir", out, "--json"], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        import json
        entry = json.loads(proc.stdout)["frames"][0]
        self.assertEqual(entry["shot_frame_id"], max(i for i in pa_ids if i < us_ids[frame]), "the last shot before the frame")
        with open(entry["overlay_png"], "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        # Replayed, both kinds go out again as recorded: the ultrasound frames and the shots (the
        # laser at the rate recorded), each kind bit for bit in its own group.
        replayed, again = self.record("dual_replayed.uff", "--replay", uff, "--seconds", "2", "--rate", "30")
        self.assertEqual(again["laser"]["missed"], 0)
        self.assertGreater(again["laser"]["fired"], 10)
        with h5py.File(uff, "r") as a, h5py.File(replayed, "r") as b:
            shots = b["photoacoustic_data/data"].shape[0]
            self.assertEqual(shots, again["laser"]["fired"])
            n = min(shots, a["photoacoustic_data/data"].shape[0])
            self.assertTrue(np.array_equal(np.array(a["photoacoustic_data/data"][:n]), np.array(b["photoacoustic_data/data"][:n])),
                            "the shots replayed in the order recorded, bit for bit")
            m = min(b["channel_data/data"].shape[0], a["channel_data/data"].shape[0])
            self.assertTrue(np.array_equal(np.array(a["channel_data/data"][:m]), np.array(b["channel_data/data"][:m])))
        us_only, _ = self.record("us.uff", "--mode", "rf", "--frames", "2")
        refused = subprocess.run([CLI, "beamform", us_only, "--overlay-shots", "--x-range", "-2:2:5", "--z-range", "5:30:26"],
                                 capture_output=True, text=True, timeout=60)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("holds no laser shots", refused.stderr)


if __name__ == "__main__":
    unittest.main()
