#!/usr/bin/env python3
"""The console reviews a recording (`sonolink --replay FILE`): the real console, offscreen, on a
recording made by sonolink-cli with an acquisition unlike the shipped one (64 channels x 1024
samples, where the configuration says 128 x 2048), shows it live through the link, ingest and
display (its probe's report: frames shown, the recording's channel count, the title naming the
file) without a start-up self-test. A missing, a cut-short or a foreign file is refused before
the window opens, named, exit 1, as is one whose probe has no element positions or whose steering
angle is no number; so is --replay with --link-name.
Usage: review_test.py SONOLINK_BINARY SONOLINK_CLI"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(2) if len(sys.argv) > 2 else os.environ.get("SONOLINK_CLI", "")
BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("SONOLINK", "")
CONFIG = pathlib.Path(__file__).resolve().parents[2] / "resources" / "config" / "sonolink.json"


class ReviewTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home = tempfile.TemporaryDirectory()
        cls.recording = os.path.join(cls.home.name, "liver_0001.uff")
        made = subprocess.run([CLI, "record", cls.recording, "--in-process", "--frames", "12", "--channels", "64", "--samples", "1024"],
                              capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr

    @classmethod
    def tearDownClass(cls):
        cls.home.cleanup()

    def console(self, *args):
        env = dict(os.environ, XDG_CONFIG_HOME=self.home.name, QT_QPA_PLATFORM="offscreen")
        return subprocess.run([BINARY, "--config", str(CONFIG), "--language", "en", *args], cwd=self.home.name, env=env,
                              capture_output=True, text=True, timeout=120)

    def test_a_recording_is_reviewed_live_with_its_own_acquisition(self):
        run = self.console("--replay", self.recording, "--probe-ui", "1")
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertIn(f"reviewing {self.recording}: 12 frames of 3 waves x 64 channels x 1024 samples", run.stderr)
        # The shipped configuration runs the start-up self-test at connect; a review does not.
        self.assertIn("start-up self-tests: none configured", run.stderr)
        self.assertNotIn("start-up self-test, station", run.stderr)
        report = json.loads([line for line in run.stdout.splitlines() if line.startswith("{")][-1])
        self.assertGreater(report["frames_shown"], 0)  # the loop past the end: RecordReplayTest, frame for frame
        self.assertEqual(report["channels"], 64, "the recording's acquisition, not the configuration's 128 channels")
        self.assertEqual(report["window_title"], "SonoLink — Review: liver_0001.uff")

    def test_a_file_that_cannot_be_reviewed_is_named_and_nothing_opens(self):
        cut = os.path.join(self.home.name, "cut.uff")
        with open(self.recording, "rb") as whole, open(cut, "wb") as part:
            part.write(whole.read(os.path.getsize(self.recording) // 2))
        foreign = os.path.join(self.home.name, "notes.uff")
        with open(foreign, "w") as f:
            f.write("not a recording\n")
        for path in (os.path.join(self.home.name, "absent.uff"), cut, foreign):
            with self.subTest(path=path):
                run = self.console("--replay", path, "--probe-ui", "1")
                self.assertEqual(run.returncode, 1, run.stderr[-2000:])
                self.assertIn(path, run.stderr)
                self.assertNotIn("{", run.stdout, "no window, no probe report")

    def test_a_recording_that_cannot_be_imaged_is_refused_before_the_window_opens(self):
        """The reported bugs: a recording whose probe has no element positions (all zero) opened a
        window with no image; a steering angle that is no number was taken."""
        import shutil
        import h5py
        import numpy as np
        flat, nan_angle = (os.path.join(self.home.name, name) for name in ("flat.uff", "nan_angle.uff"))
        shutil.copy(self.recording, flat)
        with h5py.File(flat, "r+") as f:
            f["channel_data"]["probe"]["geometry"][0] = np.zeros(f["channel_data"]["probe"]["geometry"].shape[1])
        shutil.copy(self.recording, nan_angle)
        with h5py.File(nan_angle, "r+") as f:
            f["channel_data"]["sequence"]["sequence_0002"]["source"]["azimuth"][...] = np.nan
        for path, why in ((flat, "elements all lie at x = 0 m"), (nan_angle, "wave 1: steering angle nan rad")):
            with self.subTest(path=path):
                run = self.console("--replay", path, "--probe-ui", "1")
                self.assertEqual(run.returncode, 1, run.stderr[-2000:])
                self.assertIn(why, run.stderr)
                self.assertNotIn("{", run.stdout, "no window, no probe report")

    def test_a_review_is_refused_on_an_external_link(self):
        run = self.console("--replay", self.recording, "--link-name", "sonolink_review_test", "--probe-ui", "1")
        self.assertEqual(run.returncode, 1)
        self.assertIn("--replay runs on the built-in front end", run.stderr)


if __name__ == "__main__":
    unittest.main()
