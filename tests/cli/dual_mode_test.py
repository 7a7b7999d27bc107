#!/usr/bin/env python3
"""Dual mode for a minute on the simulator, through the engine as the console runs it
(`sonolink-cli demo`, display on): ultrasound at the shipped 30 frames/s, laser shots the host
schedules at 20 Hz, every seventh shot misfiring on purpose and the pulses jittered by 2 us.

Every missed shot is counted exactly (by the host, and the same by the front end), no shot is
late, every shot that fired arrives as a frame stamped within the modelled jitter of the fire
time the host scheduled, no frame is lost, and both image streams are shown: the B-mode and the
shots (the overlay PNG is written from the last of each). The overlay exported as DICOM (as the
console's Export image does in overlay view) is a colour US image that dciodvfy passes without
errors or warnings, with the B-mode's region calibration, a series description and derivation
that name the photoacoustic part, and pixels equal to the overlay PNG's: grey where no shot
reaches the threshold, coloured where the absorbers are. Run by CTest with SONOLINK_CLI set."""
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
SECONDS, LASER_HZ, MISS_EVERY, JITTER_NS = 60, 20, 7, 2000


def read_rgb_png(path):
    """8-bit RGB PNG (filter 0 rows, as image::writePngRgb writes them) as a rows x columns x 3 array."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, colour = 8, b"", 0, 0, None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
            colour = body[9]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert colour == 2, "truecolour"
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * 3 + 1)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(height, width, 3)


class DualModeTest(unittest.TestCase):
    def test_a_minute_of_dual_mode_counts_every_shot_and_shows_both_kinds(self):
        with tempfile.TemporaryDirectory() as work:
            proc = subprocess.run([CLI, "demo", "--seconds", str(SECONDS), "--laser-hz", str(LASER_HZ), "--laser-miss-every", str(MISS_EVERY),
                                   "--laser-jitter-ns", str(JITTER_NS), "--output-dir", work, "--json"],
                                  capture_output=True, text=True, timeout=240, cwd=work)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            summary = json.loads(proc.stdout)
            laser = summary["laser"]
            print(json.dumps({k: summary[k] for k in ("frames_delivered", "frames_displayed", "display_fps", "display_skipped")}), json.dumps(laser))
            answered = laser["fired"] + laser["missed"]
            self.assertGreaterEqual(answered, (SECONDS - 1) * LASER_HZ, "shots at the laser's rate for the whole minute")
            self.assertEqual(laser["late"], 0)
            self.assertEqual(laser["missed"], answered // MISS_EVERY, "every seventh shot misfired: each one counted")
            self.assertEqual((laser["missed"], laser["fired"]), (laser["front_end_missed"], laser["front_end_fired"]),
                             "the host counts what the front end counts")
            self.assertEqual(laser["frames"], laser["fired"], "a frame for every pulse, none for a misfire")
            self.assertLessEqual(laser["worst_stamp_error_us"] * 1e3, JITTER_NS, "each shot's frame stamped within the jitter of its fire time")
            self.assertLessEqual(laser["worst_fire_error_us"] * 1e3, JITTER_NS)
            self.assertEqual(summary["frames_missing"] + summary["frames_incomplete"] + summary["crc_errors"], 0)
            self.assertGreater(summary["frames_displayed"], 0, "the B-mode shown")
            self.assertGreater(laser["shown"], 0, "the shots shown")
            self.assertEqual(laser["dark"], 0)
            self.assertTrue(os.path.getsize(summary["overlay_png"]) > 0)
            self.assertGreater(summary["shot_cine_frames"], 0, "the shots held in a cine of their own")
            self.check_overlay_dicom(summary)

    def check_overlay_dicom(self, summary):
        path = summary["overlay_dicom"]
        check = subprocess.run(["dciodvfy", path], capture_output=True, text=True)
        self.assertNotIn("Error", check.stdout + check.stderr)
        self.assertNotIn("Warning", check.stdout + check.stderr)
        d = pydicom.dcmread(path)
        self.assertEqual((d.SamplesPerPixel, d.PhotometricInterpretation), (3, "RGB"))
        self.assertEqual(list(d.ImageType)[:2], ["DERIVED", "SECONDARY"])
        self.assertIn("photoacoustic", d.SeriesDescription)
        self.assertIn("photoacoustic laser shot", d.DerivationDescription)
        shown = summary["image"]
        self.assertEqual((d.Rows, d.Columns), (shown["rows"], shown["columns"]))
        region = d.SequenceOfUltrasoundRegions[0]
        self.assertAlmostEqual(region.PhysicalDeltaX, shown["cm_per_pixel_x"], places=12)
        self.assertAlmostEqual(region.ReferencePixelPhysicalValueX, shown["x_start_cm"], places=12)
        self.assertAlmostEqual(region.ReferencePixelPhysicalValueY, shown["z_start_cm"], places=12)
        pixels = d.pixel_array
        self.assertTrue(np.array_equal(pixels, read_rgb_png(summary["overlay_png"])), "the DICOM's pixels are the overlay shown")
        grey = (pixels[..., 0] == pixels[..., 1]) & (pixels[..., 1] == pixels[..., 2])
        coloured = ~grey
        self.assertGreater(grey.mean(), 0.8, "most of the picture is the B-mode's grey")
        self.assertGreater(coloured.sum(), 200, "the absorbers in colour")
        # The on-axis absorber at a quarter of the record's depth (transport/sim/src/rf_scene.cpp): coloured there.
        mm = shown["cm_per_pixel_x"] * 10
        col = int(round((0 - shown["x_start_cm"] * 10) / mm))
        row = int(round((1540 * 2048 / 40e6 / 2 * 0.25 * 1e3 - shown["z_start_cm"] * 10) / mm))
        self.assertTrue(coloured[max(row - 4, 0):row + 5, col - 4:col + 5].any(), "the absorber at 9.9 mm in colour")


if __name__ == "__main__":
    unittest.main()
