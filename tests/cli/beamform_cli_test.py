#!/usr/bin/env python3
"""sonolink-cli beamform end to end: a point-target phantom written with h5py in USTB's UFF
layout is beamformed into .npy [nz, nx] and PNG, the targets land where they are, and bad
input (missing dataset, inconsistent shapes, a grid outside the data) is named.
Run by CTest with SONOLINK_CLI set (and the distribution's python3: numpy, h5py)."""
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
from ustb_uff import write_ustb  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
C, FC, FS, PITCH, N = 1540.0, 5e6, 25e6, 0.3e-3, 64
TARGETS = [(-3e-3, 12e-3), (2e-3, 18e-3)]


def phantom(angles_deg, targets=TARGETS):
    x_el = (np.arange(N) - (N - 1) / 2) * PITCH
    t = 1e-6 + np.arange(900) / FS  # write_ustb stores initial_time = 1 us, fs = 25 MHz, c = 1500
    data = np.zeros((1, len(angles_deg), N, t.size))
    sigma = 1 / (2 * np.pi * 0.6 * FC / (2 * np.sqrt(2 * np.log(2))))
    for w, a in enumerate(np.deg2rad(angles_deg)):
        for x, z in targets:
            tau = (x * np.sin(a) + z * np.cos(a)) / 1500.0 + np.hypot(x - x_el, z)[:, None] / 1500.0
            dt = t[None, :] - tau
            data[0, w] += 3000 * np.exp(-dt**2 / (2 * sigma**2)) * np.cos(2 * np.pi * FC * dt)
    return np.round(data).astype(np.int16), x_el


def run(*args):
    return subprocess.run([CLI, "beamform", *args], capture_output=True, text=True, timeout=120)


def png_pixels(path):
    """The 8-bit grey levels of a PNG as SonoLink writes it (one IDAT, filter 0), [rows, columns]."""
    with open(path, "rb") as f:
        blob = f.read()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", blob[16:24])
    idat = blob.index(b"IDAT")
    length = struct.unpack(">I", blob[idat - 4:idat])[0]
    raw = np.frombuffer(zlib.decompress(blob[idat + 4:idat + 4 + length]), dtype=np.uint8)
    assert raw.size == height * (width + 1)
    rows = raw.reshape(height, width + 1)
    assert not rows[:, 0].any(), "filter 0 on every row"
    return rows[:, 1:]


def png_size(path):
    height, width = png_pixels(path).shape
    return width, height


def brightest_near(image, row, column, radius):
    """(row, column) of the brightest pixel within radius pixels of (row, column)."""
    r0, c0 = max(int(row) - radius, 0), max(int(column) - radius, 0)
    window = image[r0:int(row) + radius + 1, c0:int(column) + radius + 1]
    r, c = np.unravel_index(np.argmax(window), window.shape)
    return r0 + r, c0 + c


class BeamformCliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.file = os.path.join(self.dir.name, "phantom.uff")
        data, x_el = phantom([-6, 0, 6])
        # Three waves, laid out exactly as pyuff_ustb writes them (sequence/sequence_0001, ...).
        write_ustb(self.file, data, list(np.deg2rad([-6, 0, 6])), x_el, layout="pyuff_ustb")

    def tearDown(self):
        self.dir.cleanup()

    def assert_targets_found(self, image):
        """The brightest pixel in a 2 mm box around each target, on the -6:6:121 x 8:22:281 grid."""
        x = np.linspace(-6e-3, 6e-3, 121)
        z = np.linspace(8e-3, 22e-3, 281)
        for tx, tz in TARGETS:
            box = (np.abs(z - tz) < 1e-3)[:, None] & (np.abs(x - tx) < 1e-3)[None, :]
            iz, ix = np.unravel_index(np.argmax(np.where(box, image, 0)), image.shape)
            self.assertLess(abs(x[ix] - tx), 0.15e-3)
            self.assertLess(abs(z[iz] - tz), 0.1e-3)

    def test_targets_land_where_they_are(self):
        out = os.path.join(self.dir.name, "out")
        proc = run(self.file, "--x-range", "-6:6:121", "--z-range", "8:22:281", "--f-number", "1.5",
                   "--output", "envelope", "--output-dir", out, "--name", "pt")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout, r"frame 0: [0-9.]+ ms \(121 x 281 pixels, 64 channels, 3 waves\)")
        image = np.load(os.path.join(out, "pt.npy"))
        self.assertEqual(image.shape, (281, 121))  # [nz, nx], depth along rows
        self.assertEqual(image.dtype, np.float32)
        self.assert_targets_found(image)
        # The picture: 12 x 14 mm in a 281 x 281 box at 0.05 mm a pixel, whatever the grid.
        self.assertEqual(png_size(os.path.join(out, "pt.png")), (241, 281))

    def test_a_10_mm_square_is_square_in_the_png_and_in_the_calibrated_dicom(self):
        """Four point targets at the corners of a 10 mm square, beamformed on a grid 4 times finer
        in depth than across; the PNG and the DICOM show it square, 10 mm a side to within a pixel,
        and the DICOM's US Region Calibration puts each corner where it is."""
        import pydicom
        square = [(-5e-3, 10e-3), (5e-3, 10e-3), (-5e-3, 20e-3), (5e-3, 20e-3)]
        uff = os.path.join(self.dir.name, "square.uff")
        data, x_el = phantom([0], square)
        write_ustb(uff, data, [0.0], x_el, layout="pyuff_ustb")
        out = os.path.join(self.dir.name, "square")
        dcm = os.path.join(out, "square.dcm")
        proc = run(uff, "--x-range", "-8:8:81", "--z-range", "7:23:321", "--window", "hann", "--output-dir", out, "--name", "square",
                   "--dicom", dcm, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        import json
        display = json.loads(proc.stdout)["display"]
        mm = display["mm_per_pixel"]
        self.assertAlmostEqual(mm, 0.05, places=9)  # 16 mm over the 321 x 321 box, both ways
        png = png_pixels(os.path.join(out, "square.png"))
        ds = pydicom.dcmread(dcm)
        region = ds.SequenceOfUltrasoundRegions[0]
        self.assertEqual(region.PhysicalDeltaX, region.PhysicalDeltaY)
        self.assertAlmostEqual(region.PhysicalDeltaX * 10, mm, places=9)
        self.assertEqual(ds.pixel_array.shape, png.shape)
        for name, image in (("PNG", png), ("DICOM", ds.pixel_array)):
            corners = []
            for x, z in square:  # the brightest pixel within 2 mm of where the corner should be drawn
                corners.append(brightest_near(image, (z * 1e3 - display["z_start_mm"]) / mm, (x * 1e3 - display["x_start_mm"]) / mm, 40))
            (top_left, top_right, bottom_left, bottom_right) = corners
            for across in ((top_left, top_right), (bottom_left, bottom_right)):
                self.assertLessEqual(abs((across[1][1] - across[0][1]) - 10 / mm), 1, f"{name}: {corners}")
                self.assertLessEqual(abs(across[1][0] - across[0][0]), 1, f"{name}: {corners}")
            for down in ((top_left, bottom_left), (top_right, bottom_right)):
                self.assertLessEqual(abs((down[1][0] - down[0][0]) - 10 / mm), 1, f"{name}: {corners}")
                self.assertLessEqual(abs(down[1][1] - down[0][1]), 1, f"{name}: {corners}")
        for (x, z), (row, column) in zip(square, corners):  # the DICOM's: where the calibration says they are
            x_cm = region.ReferencePixelPhysicalValueX + (column - region.ReferencePixelX0) * region.PhysicalDeltaX
            z_cm = region.ReferencePixelPhysicalValueY + (row - region.ReferencePixelY0) * region.PhysicalDeltaY
            self.assertLessEqual(abs(x_cm * 10 - x * 1e3), mm * 1.0001, (x, z, row, column))
            self.assertLessEqual(abs(z_cm * 10 - z * 1e3), mm * 1.0001, (x, z, row, column))

    def test_iq_option_finds_the_same_targets(self):
        out = os.path.join(self.dir.name, "iq")
        proc = run(self.file, "--x-range", "-6:6:121", "--z-range", "8:22:281", "--output", "envelope", "--output-dir", out,
                   "--name", "iq", "--iq", "5")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        image = np.load(os.path.join(out, "iq.npy"))
        self.assertEqual(image.shape, (281, 121))
        self.assert_targets_found(image)
        bad = run(self.file, "--x-range", "-6:6:61", "--z-range", "8:22:141", "--output-dir", out, "--iq", "30")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("modulation frequency 30000000 Hz", bad.stderr)

    def test_sector_imaging_is_scan_converted_onto_the_grid(self):
        out = os.path.join(self.dir.name, "sector")
        proc = run(self.file, "--x-range", "-6:6:121", "--z-range", "8:22:281", "--output", "envelope", "--output-dir", out,
                   "--name", "sector", "--sector-r", "5:25:401", "--sector-angles", "-35:35:281")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        image = np.load(os.path.join(out, "sector.npy"))
        self.assertEqual(image.shape, (281, 121))
        self.assert_targets_found(image)
        half = run(self.file, "--x-range", "-6:6:61", "--z-range", "8:22:141", "--output-dir", out, "--sector-r", "5:25:401")
        self.assertEqual(half.returncode, 1)
        self.assertIn("needs both --sector-r and --sector-angles", half.stderr)

    def test_iq_files_are_beamformed_as_iq(self):
        # The phantom demodulated here (mixed down at 5 MHz, negative band removed by FFT), as
        # USTB stores IQ: modulation_frequency and data as a group of real and imag.
        data, x_el = phantom([-6, 0, 6])
        t = 1e-6 + np.arange(data.shape[-1]) / FS
        spectrum = np.fft.fft(data.astype(np.float64) * np.exp(-2j * np.pi * FC * t), axis=-1)
        f = np.fft.fftfreq(data.shape[-1], 1 / FS)
        iq = np.fft.ifft(spectrum * 2 * (np.abs(f) < FC), axis=-1)
        file = os.path.join(self.dir.name, "iq.uff")
        write_ustb(file, iq, list(np.deg2rad([-6, 0, 6])), x_el, modulation_frequency=FC)
        out = os.path.join(self.dir.name, "iqfile")
        proc = run(file, "--x-range", "-6:6:121", "--z-range", "8:22:281", "--output", "envelope", "--output-dir", out, "--name", "iq")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_targets_found(np.load(os.path.join(out, "iq.npy")))
        write_ustb(file, data, [0.0, 0.1, 0.2], x_el, modulation_frequency=FC)  # says IQ, holds RF
        proc = run(file, "--x-range", "-6:6:61", "--z-range", "8:20:41", "--output-dir", out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("is not a group of 'real' and 'imag'", proc.stderr)

    def test_grid_given_as_vectors(self):
        out = os.path.join(self.dir.name, "vectors")
        x = np.round(np.linspace(-6, 6, 121), 3)
        z = np.round(np.linspace(8, 22, 281), 3)
        proc = run(self.file, "--x", ",".join(f"{v:g}" for v in x), "--z", ",".join(f"{v:g}" for v in z), "--output", "envelope",
                   "--output-dir", out, "--name", "vec")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        image = np.load(os.path.join(out, "vec.npy"))
        self.assertEqual(image.shape, (281, 121))
        self.assert_targets_found(image)
        for args, message in ((["--x-range", "-6:6:61", "--x", "0,1", "--z-range", "8:20:41"], "one of the two"),
                              (["--z-range", "8:20:41"], "give the x axis"),
                              (["--x", "0,1,x", "--z-range", "8:20:41"], "'x' is not a number"),
                              (["--x", "0,1", "--z", "10,9,11"], "depths must increase")):
            proc = run(self.file, "--output-dir", out, *args)
            self.assertEqual(proc.returncode, 1, args)
            self.assertIn(message, proc.stderr)

    def test_db_image_is_clipped_to_the_dynamic_range(self):
        out = os.path.join(self.dir.name, "db")
        proc = run(self.file, "--x-range", "-6:6:61", "--z-range", "8:22:141", "--dynamic-range", "50", "--output-dir", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        image = np.load(os.path.join(out, "image.npy"))
        self.assertAlmostEqual(float(image.max()), 0.0, places=4)
        self.assertGreaterEqual(float(image.min()), -50.0)

    def test_the_picture_takes_tgc_a_grey_map_and_a_display_box(self):
        out = os.path.join(self.dir.name, "picture")
        grid = ["--x-range", "-6:6:61", "--z-range", "8:22:141", "--output-dir", out]
        self.assertEqual(run(self.file, *grid, "--name", "flat").returncode, 0)
        proc = run(self.file, *grid, "--name", "deep", "--tgc", "0,0,0,0,0,10,20,30", "--grey-map", "soft", "--display", "200x100")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        flat, deep = png_pixels(os.path.join(out, "flat.png")), png_pixels(os.path.join(out, "deep.png"))
        self.assertEqual(flat.shape, (141, 121))  # 12 x 14 mm at 0.1 mm
        self.assertEqual(deep.shape, (100, 85))   # in 200 x 100: 14 mm over 99 rows
        self.assertGreater(deep[-20:].mean(), flat[-28:].mean() + 40, "30 dB more at the bottom")
        for bad, said in ((["--display", "1x5"], "--display 1x5: expected COLUMNSxROWS"), (["--tgc", "0,50"], "--tgc"),
                          (["--grey-map", "rainbow"], "--grey-map")):
            proc = run(self.file, *grid, *bad)
            self.assertNotEqual(proc.returncode, 0, bad)
            self.assertIn(said, proc.stderr, bad)

    def test_bad_input_is_named(self):
        proc = run(self.file, "--x-range", "-6:6:61", "--z-range", "8:80:141")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("the grid reaches z = 80.00 mm but the record ends at", proc.stderr)
        proc = run(self.file, "--x-range", "40:50:11", "--z-range", "8:20:41")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("lies outside the array", proc.stderr)
        proc = run(self.file, "--x-range", "6:-6:61", "--z-range", "8:20:41")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("START <= STOP", proc.stderr)
        data, x_el = phantom([0])
        broken = os.path.join(self.dir.name, "broken.uff")
        write_ustb(broken, data, [0.0], x_el, drop="sound_speed")
        proc = run(broken, "--x-range", "-6:6:61", "--z-range", "8:20:41")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("dataset 'sound_speed' is missing", proc.stderr)
        mismatch = os.path.join(self.dir.name, "mismatch.uff")
        write_ustb(mismatch, data, [0.0], x_el, geometry_elements=N + 2)
        proc = run(mismatch, "--x-range", "-6:6:61", "--z-range", "8:20:41")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("geometry holds", proc.stderr)
        proc = run(os.path.join(self.dir.name, "none.uff"), "--x-range", "-6:6:61", "--z-range", "8:20:41")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("no such file", proc.stderr)


if __name__ == "__main__":
    unittest.main()
