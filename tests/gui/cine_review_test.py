#!/usr/bin/env python3
"""The console reviews a DICOM image or cine (`sonolink --cine FILE`): the real console,
offscreen, on cines laid out as pydicom writes them, plays each for a while and reports the frame
on screen with a SHA-256 of its pixels, which must equal that frame's own pixels as written
(RLE grey, native RGB, 16-bit grey scaled from its 12 stored bits). True proportions: the pixel
spacing from the ultrasound region (0.1 mm), rows twice as far apart as columns resampled to
square pixels; the region's reference pixel places the picture. A frame that cannot be decoded
(the first) is named in the status bar while the others play; a missing or foreign file is refused before a
window opens (exit 1, named). Usage: cine_review_test.py SONOLINK_BINARY"""
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import pydicom
from pydicom.encaps import encapsulate
from pydicom.uid import RLELossless

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from dicom_cines import cine, frames_of, rle_frames  # noqa: E402

BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("SONOLINK", "")
CONFIG = pathlib.Path(__file__).resolve().parents[2] / "resources" / "config" / "sonolink.json"


class CineReviewTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def review(self, obj, *args, seconds="1.5"):
        env = dict(os.environ, XDG_CONFIG_HOME=self.dir.name, QT_QPA_PLATFORM="offscreen")
        run = subprocess.run([BINARY, "--config", str(CONFIG), "--language", "en", "--cine", obj, "--probe-ui", seconds, *args], cwd=self.dir.name,
                             env=env, capture_output=True, text=True, timeout=120)
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        return run, (json.loads(lines[-1]) if lines else None)

    def assertShows(self, report, expected):
        """The frame on screen is the object's own frame, pixel for pixel."""
        self.assertGreaterEqual(report["shown_frame"], 0)
        self.assertEqual(report["shown_sha256"], hashlib.sha256(np.ascontiguousarray(expected[report["shown_frame"]]).tobytes()).hexdigest(),
                         f"frame {report['shown_frame']}")

    def test_an_rle_cine_plays_frame_for_frame_in_true_proportions(self):
        frames = frames_of(60, 240, 200)
        obj = cine(self.path("cine.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(rle_frames(frames), has_bot=True))
        run, report = self.review(obj)
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertIn("60 frames of 200 x 240, MONOCHROME2, pixel spacing 0.1 x 0.1 mm", run.stderr)
        self.assertGreater(report["frames_shown"], 3, "it plays")
        self.assertEqual(report["frames_failed"], 0)
        self.assertShows(report, frames)
        self.assertEqual((report["image_columns"], report["image_rows"]), (200, 240))
        self.assertAlmostEqual(report["mm_per_pixel"], 0.1)
        self.assertAlmostEqual(report["x_start_mm"], -0.5 * 199 * 0.1, msg="no reference pixel: centred")
        self.assertEqual(report["window_title"], "SonoLink — Review: cine.dcm")
        self.assertTrue(report["patient_banner"].startswith("Frames Test   ID FR-1"), report["patient_banner"])  # whose images, over every frame
        self.assertIn("does not say where the picture lies", report["problem"], "no reference pixel: said")

    def test_rgb_and_16_bit_frames_are_shown_as_written(self):
        rgb = frames_of(8, 48, 64, samples=3)
        run, report = self.review(cine(self.path("rgb.dcm"), rgb))
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertShows(report, rgb)
        deep = frames_of(8, 48, 64, dtype=np.uint16)  # 12 bits stored
        run, report = self.review(cine(self.path("deep.dcm"), deep))
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertShows(report, np.clip(np.rint(deep.astype(np.float64) * 255 / 4095), 0, 255).astype(np.uint8))

    def test_unequal_spacing_is_resampled_and_the_reference_pixel_places_the_picture(self):
        frames = frames_of(4, 50, 80)
        obj = cine(self.path("tall.dcm"), frames)
        ds = pydicom.dcmread(obj)
        region = ds.SequenceOfUltrasoundRegions[0]
        region.PhysicalDeltaY = 0.02  # cm: rows 0.2 mm apart, columns 0.1 mm
        region.ReferencePixelX0, region.ReferencePixelY0 = 40, 0
        region.ReferencePixelPhysicalValueX, region.ReferencePixelPhysicalValueY = 0.0, 0.3  # the 41st column under the probe's centre, the top 3 mm deep
        ds.save_as(obj)
        run, report = self.review(obj, seconds="0.5")
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertEqual((report["image_columns"], report["image_rows"]), (80, 100), "square pixels of 0.1 mm")
        self.assertAlmostEqual(report["mm_per_pixel"], 0.1)
        self.assertAlmostEqual(report["x_start_mm"], -4.0)
        self.assertAlmostEqual(report["z_start_mm"], 3.0)
        self.assertEqual(report["problem"], "", "calibrated and placed: nothing to say")

    def test_a_frame_that_cannot_be_decoded_is_named_and_the_rest_play(self):
        frames = frames_of(12, 32, 32)
        fragments = rle_frames(frames)
        fragments[0] = fragments[0][:64] + b"\x80" * (len(fragments[0]) - 64)  # the first frame: asked for at once, whatever the pace
        obj = cine(self.path("bad.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(fragments, has_bot=True))
        run, report = self.review(obj)
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertGreaterEqual(report["frames_failed"], 1)
        self.assertGreater(report["frames_shown"], 3, "the others play")
        self.assertIn("Frame 1 cannot be shown", report["problem"])
        self.assertIn("frame 0", report["problem"])
        if report["shown_frame"] != 0:
            self.assertShows(report, frames)

    def test_what_cannot_be_reviewed_is_named_and_nothing_opens(self):
        foreign = self.path("notes.dcm")
        with open(foreign, "w") as f:
            f.write("not DICOM\n")
        for obj in (self.path("absent.dcm"), foreign):
            with self.subTest(obj=obj):
                run, report = self.review(obj)
                self.assertEqual(run.returncode, 1, run.stderr[-2000:])
                self.assertIn(obj, run.stderr)
                self.assertIsNone(report)
        env = dict(os.environ, XDG_CONFIG_HOME=self.dir.name, QT_QPA_PLATFORM="offscreen")
        both = subprocess.run([BINARY, "--config", str(CONFIG), "--cine", foreign, "--replay", foreign], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(both.returncode, 1)
        self.assertIn("--cine reviews a DICOM object on its own", both.stderr)


if __name__ == "__main__":
    unittest.main()
