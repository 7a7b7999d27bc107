#!/usr/bin/env python3
"""sonolink-cli demo end to end (the README's main job on a machine without a display): the
output folder holds a PNG whose bright spots are the simulator's six point targets and whose
dark disc is its cyst, where the simulator put them (positions from the standard phantom's
definition, transport/sim/src/rf_scene.cpp, on the demo's grid); a recording that replays
through the link; and a DICOM cine that dciodvfy accepts and pydicom reads. Run by CTest with
SONOLINK_CLI set."""
import json
import os
import struct
import subprocess
import tempfile
import unittest
import zlib

import numpy as np
import pydicom

CLI = os.environ["SONOLINK_CLI"]
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "config", "sonolink.json")


def read_png(path):
    """8-bit grayscale PNG (filter 0 rows, as image::writePng writes them) as a numpy array."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width + 1)
    assert (raw[:, 0] == 0).all(), "rows use filter 0"
    return raw[:, 1:]


class DemoTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.dir.name, "demo")
        proc = subprocess.run([CLI, "demo", "--config", CONFIG, "--output-dir", cls.out, "--seconds", "2", "--json"],
                              capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr
        cls.summary = json.loads(proc.stdout)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_summary_accounts_for_every_frame(self):
        s = self.summary
        self.assertGreater(s["frames_delivered"], 10)
        self.assertGreater(s["frames_displayed"], 3)
        self.assertEqual(s["crc_errors"] + s["frames_missing"] + s["frames_incomplete"], 0)
        self.assertGreater(s["latency_p50_us"], 0)
        for key in ("png", "recording", "dicom"):
            self.assertTrue(os.path.isfile(s[key]), key)

    def test_png_shows_the_point_targets_and_the_cyst_where_the_simulator_put_them(self):
        image = read_png(self.summary["png"]).astype(float)
        rows, columns = image.shape
        # The demo's grid: the array's width, 3 .. 38 mm deep (app/composition/engine_setup.cpp).
        elements, pitch, fs, samples, c = 128, 0.3e-3, 40e6, 2048, 1540
        half_x = (elements - 1) * pitch / 2
        x_axis = np.linspace(-half_x, half_x, columns)
        z_axis = np.linspace(3e-3, 38e-3, rows)
        max_depth, half_aperture = c * samples / fs / 2, elements * pitch / 2
        points = [(x * half_aperture, z * max_depth) for x, z in
                  zip((0.0, 0.0, 0.0, -0.45, 0.35, 0.55), (0.25, 0.5, 0.75, 0.35, 0.62, 0.85))]
        background = np.median(image)
        for x, z in points:
            col, row = int(np.argmin(abs(x_axis - x))), int(np.argmin(abs(z_axis - z)))
            window = image[max(row - 8, 0):row + 9, max(col - 4, 0):col + 5]  # +-0.55 mm deep, +-0.6 mm across
            self.assertGreater(window.max(), background + 80, f"no bright target at x={x * 1e3:.1f} mm, z={z * 1e3:.1f} mm")
            # And the brightest spot of the neighbourhood is there, not beside it.
            around = image[max(row - 30, 0):row + 31, max(col - 15, 0):col + 16]
            self.assertGreaterEqual(window.max(), around.max() - 1)
        cx, cz, radius = -0.4 * half_aperture, 0.7 * max_depth, min(0.12 * max_depth, 0.3 * half_aperture)
        xx, zz = np.meshgrid(x_axis, z_axis)
        distance = np.hypot(xx - cx, zz - cz)
        inside = image[distance < 0.6 * radius].mean()
        ring = image[(distance > 1.3 * radius) & (distance < 2.0 * radius)].mean()
        self.assertLess(inside, 0.6 * ring, f"the cyst is dark: inside {inside:.0f}, around {ring:.0f}")

    def test_recording_replays_through_the_link(self):
        recording = self.summary["recording"]
        proc = subprocess.run([CLI, "stream", "--in-process", "--replay", recording, "--frames", "5", "--rate", "0", "--json"],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        result = json.loads(proc.stdout)
        self.assertEqual(result["frames_delivered"], 5)
        self.assertEqual(result["payload_crc_errors"], 0)

    def test_dicom_cine_is_valid(self):
        path = self.summary["dicom"]
        check = subprocess.run(["dciodvfy", path], capture_output=True, text=True)
        self.assertNotIn("Error", check.stdout + check.stderr)
        self.assertNotIn("Warning", check.stdout + check.stderr)
        d = pydicom.dcmread(path)
        self.assertEqual(int(d.NumberOfFrames), self.summary["cine_frames"])
        self.assertEqual((d.Rows, d.Columns), (512, 256))
        self.assertEqual(str(d.PatientName), "Demo^Phantom")
        self.assertEqual(d.DeviceSerialNumber, "SIM-0001", "the system's serial number is its front end's")
        self.assertEqual(d.StationName, "SONOLINK", "the station's AE title, as every object of ours names it")
        self.assertEqual(d.StudyDescription, "SonoLink demo: simulated phantom", "the exam set on the engine")
        self.assertAlmostEqual(d.SequenceOfUltrasoundRegions[0].PhysicalDeltaY, 3.5 / 511, places=9)


if __name__ == "__main__":
    unittest.main()
