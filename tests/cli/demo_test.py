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
        # The demo's field: the array's width, 3 .. 38 mm deep (app/composition/engine_setup.cpp),
        # drawn in true proportions: one spacing across and down, from the first pixel's place.
        elements, pitch, fs, samples, c = 128, 0.3e-3, 40e6, 2048, 1540
        half_x = (elements - 1) * pitch / 2
        shown = self.summary["image"]
        self.assertEqual(shown["cm_per_pixel_x"], shown["cm_per_pixel_y"])
        mm = shown["cm_per_pixel_x"] * 10
        self.assertAlmostEqual(mm, 2 * half_x * 1e3 / 511, places=9)  # the wider side fills the 512 x 512 box
        self.assertEqual((rows, columns), (int(35 / mm) + 1, 512))
        x_axis = shown["x_start_cm"] * 1e-2 + np.arange(columns) * mm * 1e-3
        z_axis = shown["z_start_cm"] * 1e-2 + np.arange(rows) * mm * 1e-3
        self.assertAlmostEqual(x_axis[0], -half_x, places=9)
        self.assertAlmostEqual(z_axis[0], 3e-3, places=9)
        near, far = int(round(0.6 / mm)), int(round(2.2 / mm))  # pixels in 0.6 mm and 2.2 mm
        max_depth, half_aperture = c * samples / fs / 2, elements * pitch / 2
        points = [(x * half_aperture, z * max_depth) for x, z in
                  zip((0.0, 0.0, 0.0, -0.45, 0.35, 0.55), (0.25, 0.5, 0.75, 0.35, 0.62, 0.85))]
        background = np.median(image)
        for x, z in points:
            col, row = int(np.argmin(abs(x_axis - x))), int(np.argmin(abs(z_axis - z)))
            window = image[max(row - near, 0):row + near + 1, max(col - near, 0):col + near + 1]  # +-0.6 mm
            self.assertGreater(window.max(), background + 80, f"no bright target at x={x * 1e3:.1f} mm, z={z * 1e3:.1f} mm")
            # And the brightest spot of the neighbourhood is there, not beside it.
            around = image[max(row - far, 0):row + far + 1, max(col - far, 0):col + far + 1]
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
        shown = self.summary["image"]
        self.assertEqual((d.Rows, d.Columns), (shown["rows"], shown["columns"]))
        self.assertEqual(str(d.PatientName), "Demo^Phantom")
        self.assertEqual(d.DeviceSerialNumber, "SIM-0001", "the system's serial number is its front end's")
        self.assertEqual(d.StationName, "SONOLINK", "the station's AE title, as every object of ours names it")
        self.assertEqual(d.StudyDescription, "SonoLink demo: simulated phantom", "the exam set on the engine")
        region = d.SequenceOfUltrasoundRegions[0]
        self.assertAlmostEqual(region.PhysicalDeltaY, 3.81 / 511, places=9)  # true proportions: 38.1 mm over 511 steps
        self.assertEqual(region.PhysicalDeltaX, region.PhysicalDeltaY)
        self.assertAlmostEqual(region.ReferencePixelPhysicalValueX, -1.905, places=9)
        self.assertAlmostEqual(region.ReferencePixelPhysicalValueY, 0.3, places=9)


if __name__ == "__main__":
    unittest.main()
